/**
 * PUT of one object, and the update path PUT, PATCH and the scale subresource share
 * (k8s.io/apiserver pkg/endpoints/handlers/update.go, v1.32): in each attempt of the generic
 * store's Update (registry/generic/store.ts), the proposed object is checked as the URL's kind
 * (TypeMeta, unknown fields, the version's defaults), its namespace and name against the URL's,
 * RBAC's escalation check, the writer's managed fields recorded and mutating admission run, with
 * the stored object as the old one (rest.DefaultUpdatedObjectInfo's transformers).
 */
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest } from '../../api/status.js';
import { rfc3339 } from '../../api/time.js';
import type { WriteOptions } from '../../api/validation/options.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForScope,
} from '../../api/validation/request-namespace.js';
import { requestAttributes } from '../admission/chain.js';
import { managerOrUserAgent, recordWrite } from '../apply/request.js';
import { parseJsonObject } from '../decode/codec.js';
import { checkUnknownFields, withRawJson } from '../decode/field-validation.js';
import { checkTypeMeta, metaOf } from '../decode/type-meta.js';
import { isDryRun, type ResourceRequest, type RestContext } from '../registry/generic/context.js';
import { storeUpdate } from '../registry/generic/store.js';
import { applyVersionDefaults } from '../registry/strategies.js';
import type { UpdateMode } from '../registry/strategy.js';
import { objectResponse } from './object-response.js';
import { checkOptions, fieldValidation, writeOptions } from './rest-options.js';
import { wantsTable } from './table.js';

/**
 * An update whose proposed object is `next(old)` of the stored one, through the strategy of
 * `mode`; the object as written (or as it stays when nothing changed) and the request's warnings.
 */
export async function updateWith(
  ctx: RestContext,
  req: ResourceRequest,
  opts: WriteOptions,
  next: (old: KubeObject) => Record<string, unknown>,
  mode: UpdateMode = 'main',
  /** false when `next` computed the managed fields itself (an apply patch). */
  recordFields = true,
): Promise<{ obj: KubeObject; warnings: string[] }> {
  const { info, name } = req;
  const dryRun = isDryRun(opts);
  const subresource = req.subresource ?? (mode === 'main' ? '' : mode);
  return storeUpdate(ctx, req, mode, { dryRun, decode: wantsTable(req.accept) }, async (old) => {
    const body = next(old);
    checkTypeMeta(info, body);
    const warnings = checkUnknownFields(info, body, fieldValidation(opts));
    applyVersionDefaults(info, body);
    if (req.admit !== undefined) await req.admit(body, old as Record<string, unknown>);
    const meta = metaOf(body);
    ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope(req.namespace, info.namespaced), meta);
    if ((meta.name ?? '') !== name) {
      throw newBadRequest(`the name of the object (${meta.name ?? ''}) does not match the name on the URL (${name})`);
    }
    // The writer's managed fields first, then mutating admission.
    if (recordFields) {
      const manager = managerOrUserAgent(opts.fieldManager, req.userAgent);
      recordWrite(info, subresource, old, body as KubeObject, manager, rfc3339(ctx.clock.now()));
    }
    const admitted = { ...req, subresource };
    await ctx.admission?.admit(
      requestAttributes(admitted, 'UPDATE', body, old as Record<string, unknown>, dryRun, warnings),
    );
    return { obj: body, warnings };
  });
}

/** PUT of one object (`mode`: the object itself, `…/status` or `…/finalize`). */
export async function updateObject(
  ctx: RestContext,
  req: ResourceRequest,
  bodyText: string,
  mode: UpdateMode = 'main',
): Promise<Response> {
  const opts = writeOptions(req.query);
  checkOptions('UpdateOptions', opts);
  const body = parseJsonObject(bodyText);
  // Each attempt edits its own copy; the first takes the body parsed above, a retry parses it again.
  let unused: Record<string, unknown> | undefined = body;
  const next = () => {
    const copy = unused ?? parseJsonObject(bodyText);
    unused = undefined;
    return withRawJson(copy, bodyText);
  };
  const { obj, warnings } = await updateWith(ctx, req, opts, next, mode);
  return objectResponse(ctx, req, 200, obj, warnings);
}
