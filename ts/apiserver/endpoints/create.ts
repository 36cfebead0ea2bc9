/**
 * POST to a collection (k8s.io/apiserver pkg/endpoints/handlers/create.go, v1.32): CreateOptions,
 * the body decoded as the URL's kind (TypeMeta, unknown fields as fieldValidation says, the
 * version's defaults), the namespace of the body against the URL's, RBAC's escalation check, the
 * creator's managed fields, mutating admission — then the generic store's Create
 * (registry/generic/store.ts). 201 with the object as stored.
 */
import type { KubeObject } from '../../api/meta.js';
import { rfc3339 } from '../../api/time.js';
import type { WriteOptions } from '../../api/validation/options.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForScope,
} from '../../api/validation/request-namespace.js';
import { requestAttributes } from '../admission/chain.js';
import { managerOrUserAgent, recordWrite } from '../apply/request.js';
import { parseJsonObject } from '../decode/codec.js';
import { checkUnknownFields } from '../decode/field-validation.js';
import { checkTypeMeta, metaOf } from '../decode/type-meta.js';
import { isDryRun, type ResourceRequest, type RestContext } from '../registry/generic/context.js';
import { storeCreate } from '../registry/generic/store.js';
import type { ResourceInfo } from '../registry/resources.js';
import { applyVersionDefaults } from '../registry/strategies.js';
import { objectResponse } from './object-response.js';
import { checkOptions, fieldValidation, writeOptions } from './rest-options.js';
import { wantsTable } from './table.js';

/**
 * A create's body as the create handlers check it first: CreateOptions from the query, a JSON
 * object of `info`'s apiVersion and kind, unknown fields as fieldValidation says (their warnings).
 */
export function decodeCreateBody(
  info: ResourceInfo,
  query: URLSearchParams,
  bodyText: string,
): { opts: WriteOptions; body: Record<string, unknown>; warnings: string[] } {
  const opts = writeOptions(query);
  checkOptions('CreateOptions', opts);
  const body = parseJsonObject(bodyText);
  checkTypeMeta(info, body);
  const warnings = checkUnknownFields(info, body, fieldValidation(opts));
  return { opts, body, warnings };
}

/** POST to a collection. */
export async function createObject(
  ctx: RestContext,
  req: ResourceRequest,
  bodyText: string,
  /** An apply patch creating the object: the body is the applied configuration, and this makes the object of it. */
  applied?: (config: Record<string, unknown>) => Record<string, unknown>,
): Promise<Response> {
  const { info } = req;
  const opts = writeOptions(req.query);
  checkOptions('CreateOptions', opts);
  const parsed = parseJsonObject(bodyText);
  const body = applied === undefined ? parsed : applied(parsed);
  checkTypeMeta(info, body);
  const warnings = checkUnknownFields(info, body, fieldValidation(opts));
  // Decoding defaults the object (the scheme's defaulters) before anything else sees it.
  applyVersionDefaults(info, body);
  const meta = metaOf(body);
  ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope(req.namespace, info.namespaced), meta);
  await req.admit?.(body, undefined);
  // The creator owns every field it set, before admission adds its own (an apply create already
  // has its Apply entry).
  if (applied === undefined) {
    const manager = managerOrUserAgent(opts.fieldManager, req.userAgent);
    recordWrite(info, req.subresource, undefined, body as KubeObject, manager, rfc3339(ctx.clock.now()));
  }
  // Mutating admission, before BeforeCreate names the object.
  const dryRun = isDryRun(opts);
  await ctx.admission?.admit(requestAttributes(req, 'CREATE', body, undefined, dryRun, warnings));
  // A Table is made from the object as decoded; JSON answers need not parse what was just written.
  const created = await storeCreate(ctx, req, body as KubeObject, {
    dryRun,
    decode: wantsTable(req.accept),
    warnings,
  });
  return objectResponse(ctx, req, 201, created, warnings);
}
