/**
 * `pods/<name>/eviction` (pkg/registry/core/pod/storage/eviction.go, v1.32): POST a policy/v1 (or
 * v1beta1) Eviction, admitted as a CREATE of pods/eviction, deletes the pod with the Eviction's
 * deleteOptions (and the request's dryRun). PodDisruptionBudgets are stored but not consulted yet:
 * no eviction is refused for one.
 */
import { newBadRequest, successStatus } from '../../../../api/status.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForScope,
} from '../../../../api/validation/request-namespace.js';
import { requestAttributes } from '../../../admission/chain.js';
import { parseJsonObject } from '../../../decode/codec.js';
import { checkUnknownFields } from '../../../decode/field-validation.js';
import { checkTypeMeta, metaOf } from '../../../decode/type-meta.js';
import { jsonResponse } from '../../../endpoints/response.js';
import { checkOptions, deleteOptions, fieldValidation, writeOptions } from '../../../endpoints/rest-options.js';
import { isDryRun, type ResourceRequest, type RestContext } from '../../generic/context.js';
import { storeDelete } from '../../generic/delete.js';
import { isObj } from '../../objects.js';
import { bodyKind } from '../../resources.js';

const EVICTION = bodyKind('policy', 'v1', 'Eviction', ['deleteOptions']);

/**
 * EvictionREST.Create without PodDisruptionBudgets: the pod is deleted as a DELETE with the
 * Eviction's deleteOptions would delete it, and the answer is a 201 Success Status.
 */
export async function createEviction(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const { name } = req;
  const opts = writeOptions(req.query);
  checkOptions('CreateOptions', opts);
  const eviction = parseJsonObject(bodyText);
  // The endpoint also takes the policy/v1beta1 form of the body.
  if (eviction.apiVersion === 'policy/v1beta1') eviction.apiVersion = 'policy/v1';
  checkTypeMeta(EVICTION, eviction);
  const warnings = checkUnknownFields(EVICTION, eviction, fieldValidation(opts));
  const meta = metaOf(eviction);
  ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope(req.namespace, true), meta);
  await ctx.admission?.admit(requestAttributes(req, 'CREATE', eviction, undefined, isDryRun(opts), warnings));
  if ((meta.name ?? '') !== name) throw newBadRequest('name in URL does not match name in Eviction object');
  // EvictionREST.Create: createValidation first.
  await ctx.admission?.validate(requestAttributes(req, 'CREATE', eviction, undefined, isDryRun(opts), warnings));
  const del = eviction.deleteOptions;
  if (del !== undefined && del !== null && !isObj(del)) throw newBadRequest('deleteOptions must be an object');
  // propagateDryRun: the create's dryRun applies to the deletion.
  const delText = JSON.stringify({ ...(isObj(del) ? del : {}), ...(opts.dryRun ? { dryRun: opts.dryRun } : {}) });
  await storeDelete(ctx, req, deleteOptions(new URLSearchParams(), delText));
  return jsonResponse(201, { ...successStatus(), code: 201 }, { warnings });
}
