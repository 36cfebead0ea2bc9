/**
 * Generic REST over Storage for every resource in the registry (k8s.io/apiserver
 * pkg/registry/generic/registry/store.go + pkg/endpoints/handlers, v1.32): create, get, list,
 * update, patch, delete. Watch is in watch.ts. Every storage error becomes a Status through
 * interpretStorageError.
 */
import {
  type DeleteOptions,
  FINALIZER_DELETE_DEPENDENTS,
  FINALIZER_ORPHAN_DEPENDENTS,
  type FieldValidation,
  type KubeObject,
  type ObjectMeta,
  type Preconditions,
} from '../../../api/meta.js';
import {
  type GroupResource,
  newBadRequest,
  newConflict,
  newInvalid,
  newMethodNotSupported,
  newNotFound,
  newUnsupportedMediaType,
  StatusError,
} from '../../../api/status.js';
import { interpretStorageError, type StorageOperation } from '../../../api/storage-errors.js';
import {
  carryOverSystemMeta,
  validateCommonCreate,
  validateCommonUpdate,
} from '../../../api/validation/common-fields.js';
import {
  kindRule,
  validateBuiltinObjectMeta,
  validateBuiltinObjectMetaUpdate,
} from '../../../api/validation/kind-rules.js';
import {
  validateCreateOrUpdateOptions,
  validateDeleteOptions,
  validatePatchOptions,
  type WriteOptions,
} from '../../../api/validation/options.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForScope,
} from '../../../api/validation/request-namespace.js';
import type { Clock } from '../../../sim/clock.js';
import type { Storage, StoredObject } from '../../../storage/storage.js';
import { type AdmissionChain, requestAttributes } from '../../admission/chain.js';
import {
  type AllocationTxn,
  prepareServiceCreate,
  prepareServiceUpdate,
  type ServiceAllocators,
} from '../../allocators/service-allocation.js';
import { APPLY_PATCH_TYPE, applyWrite, managerOrUserAgent, parseApplyPatch, recordWrite } from '../../apply/request.js';
import type { UserInfo } from '../../authn/tokens.js';
import {
  decodeStored,
  type Encoded,
  encodeForStorage,
  encodeStored,
  parseJsonObject,
  storedAnswer,
} from '../../decode/codec.js';
import { checkUnknownFields, withPatchSource, withRawJson } from '../../decode/field-validation.js';
import { checkTypeMeta, metaOf } from '../../decode/type-meta.js';
import { jsonResponse } from '../../endpoints/response.js';
import { toTable, wantsTable } from '../../endpoints/table.js';
import { type Json, jsonPatch, mergePatch } from '../../patch/json-patch.js';
import { strategicMergePatch } from '../../patch/strategic-merge.js';
import { isCrdResource, markCrdDeleting } from '../apiextensions/customresourcedefinitions/delete.js';
import {
  isNamespaceResource,
  markNamespaceTerminating,
  prepareNamespaceCreate,
  prepareNamespaceUpdate,
  shouldDeleteDuringUpdate,
  specFinalizers,
  validateNamespaceFinalizers,
} from '../core/namespaces/strategy.js';
import { validateKind, validateKindUpdate } from '../kind-validation.js';
import { collectionPrefix, groupVersion, objectKey, type ResourceInfo } from '../resources.js';
import {
  applyVersionDefaults,
  prepareForCreate,
  prepareForStatusUpdate,
  prepareForUpdate,
  refuseSystemPriorityClassDelete,
  specChanged,
} from '../strategies.js';
import { generateName, newUid, rfc3339 } from './names.js';
import { getReadAt, listReadAt, parseSelectors, selects } from './read-options.js';

export interface RestContext {
  storage: Storage;
  clock: Clock;
  /** ClusterIP and NodePort allocation for Services (allocators/); absent: Services get none. */
  services?: ServiceAllocators;
  /** Admission (admission/chain.ts): mutating before the strategy, validating right before storage. */
  admission?: AdmissionChain;
}

/** One resource request, after routing. */
export interface ResourceRequest {
  info: ResourceInfo;
  /** '' for cluster-scoped resources and all-namespace lists. */
  namespace: string;
  name: string;
  query: URLSearchParams;
  accept: string | null;
  /**
   * A check of the proposed object before it is prepared and validated (old: the stored one on
   * updates); RBAC escalation prevention (auth/escalation.ts) throws its 403 from here.
   */
  admit?: (obj: Record<string, unknown>, old: Record<string, unknown> | undefined) => Promise<void>;
  /** Who asks (after authentication); admission plugins see it. */
  user?: UserInfo;
  /** The subresource written (`status`, `scale`, `binding`, …) as admission names it; '' or absent for the object. */
  subresource?: string;
  /** The User-Agent header: the field manager of a write without `fieldManager` (managerOrUserAgent). */
  userAgent?: string;
}

const gr = (info: ResourceInfo): GroupResource => ({ group: info.group, resource: info.resource });

/** Runs a storage call, turning its errors into Status errors for `op`. */
export async function storageCall<T>(
  op: StorageOperation,
  info: ResourceInfo,
  name: string,
  fn: () => Promise<T>,
  opts: { requestedResourceVersion?: string; paging?: boolean } = {},
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw interpretStorageError(op, err, gr(info), name, opts);
  }
}

/** The write options in the query (validated as Create/Update/PatchOptions, 422 otherwise). */
export function writeOptions(query: URLSearchParams): WriteOptions {
  const out: WriteOptions = {};
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) out.dryRun = dryRun;
  const fm = query.get('fieldManager');
  if (fm !== null) out.fieldManager = fm;
  const fv = query.get('fieldValidation');
  if (fv !== null) out.fieldValidation = fv;
  const force = query.get('force');
  if (force !== null) out.force = force === 'true';
  return out;
}

export function checkOptions(
  kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  opts: WriteOptions,
  patchType = '',
): void {
  const errs = kind === 'PatchOptions' ? validatePatchOptions(opts, patchType) : validateCreateOrUpdateOptions(opts);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind }, '', errs);
}

/** fieldValidation as sent; the server's default is Warn. */
export function fieldValidation(opts: WriteOptions): FieldValidation {
  const v = opts.fieldValidation;
  return v === 'Strict' || v === 'Ignore' ? v : 'Warn';
}

export const isDryRun = (opts: WriteOptions): boolean => (opts.dryRun ?? []).includes('All');

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

function ruleOf(info: ResourceInfo) {
  return kindRule(info.group, info.kind) ?? { namespaced: info.namespaced, nameFn: () => [] };
}

/** Answers with one object, or a one-row Table when the client asked for a Table. */
export function objectResponse(
  ctx: RestContext,
  req: ResourceRequest,
  status: number,
  obj: KubeObject,
  warnings: string[] = [],
): Response {
  if (wantsTable(req.accept)) {
    const table = toTable(req.info, [obj], {
      now: ctx.clock.now(),
      resourceVersion: obj.metadata?.resourceVersion ?? '',
    });
    return jsonResponse(status, table, { warnings });
  }
  return jsonResponse(status, obj, { warnings });
}

const isServices = (info: ResourceInfo): boolean => info.group === '' && info.resource === 'services';

/** The Service allocations of a create (none for other kinds); awaits the allocators' repair. */
async function allocateOnCreate(ctx: RestContext, info: ResourceInfo, obj: KubeObject, dryRun: boolean) {
  if (!isServices(info) || ctx.services === undefined) return undefined;
  await ctx.services.ready();
  return ctx.services.allocateCreate(obj, dryRun);
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
  // handlers/create.go: the creator owns every field it set, before admission adds its own (an
  // apply create already has its Apply entry).
  if (applied === undefined) {
    const manager = managerOrUserAgent(opts.fieldManager, req.userAgent);
    recordWrite(info, req.subresource, undefined, body as KubeObject, manager, rfc3339(ctx.clock.now()));
  }
  // Mutating admission (handlers/create.go), before BeforeCreate names the object.
  await ctx.admission?.admit(requestAttributes(req, 'CREATE', body, undefined, isDryRun(opts), warnings));

  // BeforeCreate: the system fields are the server's.
  const obj = body as KubeObject;
  if ((meta.name ?? '') === '' && (meta.generateName ?? '') !== '') meta.name = generateName(meta.generateName ?? '');
  meta.uid = newUid();
  meta.creationTimestamp = rfc3339(ctx.clock.now());
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.resourceVersion;
  delete meta.selfLink;
  if (info.generation) meta.generation = 1;
  else delete meta.generation;
  prepareForCreate(info, obj);
  prepareNamespaceCreate(info, obj);
  if (isServices(info)) prepareServiceCreate(obj);

  const name = meta.name ?? '';
  const gk = { group: info.group, kind: info.kind };
  const errs = [
    ...validateBuiltinObjectMeta(meta, ruleOf(info)),
    ...validateKind(info, obj),
    ...(isNamespaceResource(info) ? validateNamespaceFinalizers(obj) : []),
  ];
  if (errs.length > 0) throw newInvalid(gk, name, errs);
  const common = validateCommonCreate(meta, info.namespaced);
  if (common.length > 0) throw newInvalid(gk, name, common);
  // Validating admission (store.go createValidation), after the strategy's validation.
  await ctx.admission?.validate(requestAttributes(req, 'CREATE', body, undefined, isDryRun(opts), warnings));

  // The Service REST allocates after validation; a failed write gives everything back.
  const txn = await allocateOnCreate(ctx, info, obj, isDryRun(opts));
  if (isDryRun(opts)) return objectResponse(ctx, req, 201, obj, warnings);
  const key = objectKey(info, req.namespace, name);
  const written = encodeStored(obj);
  let stored: StoredObject;
  try {
    stored = await storageCall('create', info, name, () =>
      ctx.storage.create(key, written.bytes, info.ttlSeconds === undefined ? {} : { ttlSeconds: info.ttlSeconds }),
    );
  } catch (err) {
    txn?.revert();
    throw err;
  }
  txn?.commit();
  // A Table is made from the object as decoded; JSON answers need not parse what was just written.
  const created = wantsTable(req.accept) ? decodeStored(stored) : storedAnswer(written, stored);
  return objectResponse(ctx, req, 201, created, warnings);
}

/** GET of one object. */
export async function getObject(ctx: RestContext, req: ResourceRequest): Promise<Response> {
  const { info, name } = req;
  const stored = await storageCall('get', info, name, () =>
    ctx.storage.get(objectKey(info, req.namespace, name), getReadAt(req.query.get('resourceVersion'))),
  );
  if (stored === undefined) throw newNotFound(gr(info), name);
  return objectResponse(ctx, req, 200, decodeStored(stored));
}

/** GET of a collection (not a watch). */
export async function listObjects(ctx: RestContext, req: ResourceRequest): Promise<Response> {
  const { info } = req;
  const read = listReadAt(req.query);
  const selectors = parseSelectors(info, req.query);
  const rvText = req.query.get('resourceVersion') ?? undefined;
  const page = await storageCall(
    'list',
    info,
    '',
    () => ctx.storage.list(collectionPrefix(info, req.namespace), read),
    { ...(rvText && rvText !== '0' ? { requestedResourceVersion: rvText } : {}), paging: read.continue !== undefined },
  );
  const items = page.items.map(decodeStored).filter((o) => selects(info, selectors, o));
  const resourceVersion = String(page.revision);
  const metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion };
  if (page.continue !== undefined) metadata.continue = page.continue;
  // With selectors the count of remaining matches is unknown, so Kubernetes omits it.
  if (page.remainingItemCount !== undefined && selectors.everything)
    metadata.remainingItemCount = page.remainingItemCount;
  if (wantsTable(req.accept)) {
    return jsonResponse(
      200,
      toTable(info, items, {
        now: ctx.clock.now(),
        resourceVersion,
        ...(metadata.continue !== undefined ? { continue: metadata.continue } : {}),
      }),
    );
  }
  // A custom resource's list kind is its CRD's listKind.
  const kind = info.custom?.listKind ?? `${info.kind}List`;
  return jsonResponse(200, { kind, apiVersion: groupVersion(info), metadata, items });
}

/**
 * Which strategy an update goes through: the main resource's, the status subresource's, or
 * `namespaces/<name>/finalize`'s (namespace-lifecycle.ts).
 */
export type UpdateMode = 'main' | 'status' | 'finalize';

/** Thrown out of guaranteedUpdate to skip the write (no change, or dry run) and answer with `obj`. */
class SkipWrite {
  constructor(readonly obj: KubeObject) {}
}

/**
 * The update path shared by PUT and PATCH: `next(old)` gives the proposed object; then optimistic
 * concurrency on its resourceVersion, BeforeUpdate and validation, and the write (skipped when
 * nothing changed, as the apiserver does: no new resourceVersion).
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
  const key = objectKey(info, req.namespace, name);
  const gk = { group: info.group, kind: info.kind };
  let warnings: string[] = [];
  let result: KubeObject | undefined;
  // Service allocations of the attempt in flight; a retried attempt gives the previous ones back.
  let txn: AllocationTxn | undefined;
  const services = mode === 'main' && isServices(info) ? ctx.services : undefined;
  await services?.ready();
  let previous: KubeObject | undefined;
  // What the attempt in flight wrote: the answer is made from it (storedAnswer).
  let written: Encoded | undefined;
  try {
    const stored = await storageCall('update', info, name, () =>
      ctx.storage.guaranteedUpdate(key, async (current: StoredObject | undefined) => {
        txn?.revert();
        txn = undefined;
        if (current === undefined) throw newNotFound(gr(info), name);
        const old = decodeStored(current);
        const oldMeta = old.metadata ?? {};
        const body = next(old);
        checkTypeMeta(info, body);
        warnings = checkUnknownFields(info, body, fieldValidation(opts));
        applyVersionDefaults(info, body);
        if (req.admit !== undefined) await req.admit(body, old as Record<string, unknown>);
        const meta = metaOf(body);
        ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope(req.namespace, info.namespaced), meta);
        if ((meta.name ?? '') !== name) {
          throw newBadRequest(
            `the name of the object (${meta.name ?? ''}) does not match the name on the URL (${name})`,
          );
        }
        const subresource = req.subresource ?? (mode === 'main' ? '' : mode);
        // handlers/update.go: the writer's managed fields first, then mutating admission, which
        // sees the stored object as the old one (rest.DefaultUpdatedObjectInfo's transformers).
        if (recordFields) {
          const manager = managerOrUserAgent(opts.fieldManager, req.userAgent);
          recordWrite(info, subresource, old, body as KubeObject, manager, rfc3339(ctx.clock.now()));
        }
        const admitted = { ...req, subresource };
        const oldObject = old as Record<string, unknown>;
        await ctx.admission?.admit(requestAttributes(admitted, 'UPDATE', body, oldObject, isDryRun(opts), warnings));
        const rv = meta.resourceVersion ?? '';
        if (rv === '') meta.resourceVersion = oldMeta.resourceVersion ?? '';
        else if (rv !== oldMeta.resourceVersion) throw newConflict(gr(info), name);
        const obj = body as KubeObject;
        carryOverSystemMeta(meta, oldMeta);
        if (mode === 'status') prepareForStatusUpdate(info, obj, old);
        else prepareForUpdate(info, obj, old);
        prepareNamespaceUpdate(info, obj, old, mode);
        if (mode === 'main' && isServices(info)) prepareServiceUpdate(obj, old);
        if (info.generation && specChanged(obj, old)) meta.generation = (oldMeta.generation ?? 0) + 1;
        const errs = [
          ...validateCommonUpdate(meta, oldMeta, info.namespaced),
          ...validateBuiltinObjectMetaUpdate(meta, oldMeta, ruleOf(info)),
          ...validateBuiltinObjectMeta(meta, ruleOf(info)),
          ...validateKindUpdate(info, obj, old, mode),
          ...(isNamespaceResource(info) ? validateNamespaceFinalizers(obj) : []),
        ];
        if (errs.length > 0) throw newInvalid(gk, name, errs);
        // Validating admission (store.go updateValidation).
        await ctx.admission?.validate(requestAttributes(admitted, 'UPDATE', body, oldObject, isDryRun(opts), warnings));
        if (services !== undefined) txn = services.allocateUpdate(obj, old, isDryRun(opts));
        previous = old;
        written = encodeStored(obj);
        const bytes = written.bytes;
        if (isDryRun(opts) || sameBytes(bytes, current.value)) throw new SkipWrite(isDryRun(opts) ? obj : old);
        return bytes;
      }),
    );
    result = written === undefined || wantsTable(req.accept) ? decodeStored(stored) : storedAnswer(written, stored);
  } catch (err) {
    (txn as AllocationTxn | undefined)?.revert();
    if (err instanceof SkipWrite) return { obj: err.obj, warnings };
    throw err;
  }
  (txn as AllocationTxn | undefined)?.commit();
  // store.go ShouldDeleteDuringUpdate: the last finalizer gone from an object being deleted with
  // no grace period left deletes it, if nothing changed it meanwhile.
  if (previous !== undefined && shouldDeleteDuringUpdate(info, result, previous)) {
    const revision = BigInt(result.metadata?.resourceVersion ?? '0');
    try {
      const deleted = await storageCall('delete', info, name, () =>
        ctx.storage.delete(key, { preconditions: { revision } }),
      );
      await releaseAllocations(ctx, info, decodeStored(deleted));
    } catch (err) {
      // Changed or deleted meanwhile: whoever did that sees to the rest.
      if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
    }
  }
  return { obj: result, warnings };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** PUT of one object. */
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

/** The patch types this server applies. */
export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  APPLY_PATCH_TYPE,
];

/** PATCH of one object: JSON patch, JSON merge patch or strategic merge patch on the stored object. */
export async function patchObject(
  ctx: RestContext,
  req: ResourceRequest,
  contentType: string,
  bodyText: string,
  mode: UpdateMode = 'main',
): Promise<Response> {
  const { patchType, patch, opts } = parsePatchRequest(req, contentType, bodyText);
  if (patchType === APPLY_PATCH_TYPE) return applyObject(ctx, req, bodyText, opts, mode);
  const { obj, warnings } = await updateWith(
    ctx,
    req,
    opts,
    (old) => withPatchSource(applyPatch(patchType, old, patch), patchType, bodyText),
    mode,
  );
  return objectResponse(ctx, req, 200, obj, warnings);
}

/** A PATCH request's type (415 for one not applied here), patch document (400 when not JSON) and options. */
export function parsePatchRequest(
  req: ResourceRequest,
  contentType: string,
  bodyText: string,
): { patchType: string; patch: Json; opts: WriteOptions } {
  const patchType = contentType.split(';')[0]?.trim() ?? '';
  if (!PATCH_TYPES.includes(patchType)) throw newUnsupportedMediaType(PATCH_TYPES);
  const opts = writeOptions(req.query);
  checkOptions('PatchOptions', opts, patchType);
  try {
    // An apply patch is YAML, read where it is applied (applyObject).
    return { patchType, patch: patchType === APPLY_PATCH_TYPE ? null : (JSON.parse(bodyText) as Json), opts };
  } catch (err) {
    throw newBadRequest(`error decoding patch: ${(err as Error).message}`);
  }
}

/**
 * Server-side apply (handlers/patch.go applyPatcher): the configuration merged onto the stored
 * object by the field manager (apply/), through the update path; an object that does not exist is
 * created through the create path (201), as `forceAllowCreate` does.
 */
async function applyObject(
  ctx: RestContext,
  req: ResourceRequest,
  bodyText: string,
  opts: WriteOptions,
  mode: UpdateMode,
): Promise<Response> {
  const config = parseApplyPatch(bodyText);
  const manager = opts.fieldManager ?? '';
  const force = opts.force === true;
  const subresource = req.subresource ?? (mode === 'main' ? '' : mode);
  const now = () => rfc3339(ctx.clock.now());
  const key = objectKey(req.info, req.namespace, req.name);
  const exists = await storageCall('get', req.info, req.name, () => ctx.storage.get(key)).then(
    (o) => o !== undefined,
    (err: unknown) => {
      if (err instanceof StatusError && err.code === 404) return false;
      throw err;
    },
  );
  if (!exists && mode === 'main') {
    const created = () => {
      const obj = applyWrite(req.info, subresource, undefined, config, manager, force, now());
      // handlers/patch.go checkName, as an update of an existing object checks it.
      const name = metaOf(obj).name ?? '';
      if (name !== req.name) {
        throw newBadRequest(`the name of the object (${name}) does not match the name on the URL (${req.name})`);
      }
      return obj;
    };
    const createReq = { ...req, query: new URLSearchParams(req.query) };
    createReq.query.delete('force');
    try {
      return await createObject(ctx, createReq, JSON.stringify(config), created);
    } catch (err) {
      // Created by someone else meanwhile: apply onto theirs.
      if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
    }
  }
  const { obj, warnings } = await updateWith(
    ctx,
    req,
    opts,
    (old) => {
      const next = applyWrite(req.info, subresource, old, config, manager, force, now());
      // The stored resourceVersion: an apply is never refused as stale unless it names one.
      const meta = metaOf(next);
      const wanted = metaOf(config as Record<string, unknown>).resourceVersion;
      if (wanted === undefined) meta.resourceVersion = old.metadata?.resourceVersion ?? '';
      return next;
    },
    mode,
    false,
  );
  return objectResponse(ctx, req, 200, obj, warnings);
}

/** Applies a patch of `patchType` to `target`; the result must be an object. */
export function applyPatch(patchType: string, target: object, patch: Json): Record<string, unknown> {
  // Only the main resource and status apply configurations (applyObject); a Scale is not applied here.
  if (patchType === APPLY_PATCH_TYPE) throw newUnsupportedMediaType(PATCH_TYPES.filter((t) => t !== APPLY_PATCH_TYPE));
  const patched =
    patchType === 'application/merge-patch+json'
      ? mergePatch(target as Json, patch)
      : patchType === 'application/strategic-merge-patch+json'
        ? strategicMergePatch(target as Json, patch)
        : jsonPatch(target as Json, patch);
  if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
    throw newBadRequest('the patched object is not a JSON object');
  }
  return patched as Record<string, unknown>;
}

/** DeleteOptions from the body (kubectl sends `{"propagationPolicy":"Background"}`) and the query. */
export function deleteOptions(query: URLSearchParams, bodyText: string): DeleteOptions {
  const opts: DeleteOptions = bodyText.trim() === '' ? {} : (parseJsonObject(bodyText) as DeleteOptions);
  const policy = query.get('propagationPolicy');
  if (policy !== null) opts.propagationPolicy = policy as NonNullable<DeleteOptions['propagationPolicy']>;
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null) opts.gracePeriodSeconds = Number(grace);
  const orphan = query.get('orphanDependents');
  if (orphan !== null) opts.orphanDependents = orphan === 'true';
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) opts.dryRun = dryRun;
  const errs = validateDeleteOptions(opts);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return opts;
}

/** DELETE of one object: the object as deleted, or as marked for deletion when it stays for now. */
export async function deleteObject(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  return objectResponse(ctx, req, 200, await deleteOne(ctx, req, deleteOptions(req.query, bodyText)));
}

/**
 * DELETE of a collection (store.go DeleteCollection): every object the label and field selectors
 * pick, each as a single DELETE with its own copy of the options; answers with the list of what was
 * deleted or marked for deletion.
 */
export async function deleteCollection(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const { info } = req;
  // The namespace REST has no DeleteCollection (pkg/registry/core/namespace/storage).
  if (isNamespaceResource(info)) throw newMethodNotSupported(gr(info), 'deletecollection');
  const opts = deleteOptions(req.query, bodyText);
  const selectors = parseSelectors(info, req.query);
  const page = await storageCall('list', info, '', () => ctx.storage.list(collectionPrefix(info, req.namespace)));
  const items: KubeObject[] = [];
  for (const stored of page.items) {
    const obj = decodeStored(stored);
    if (!selects(info, selectors, obj)) continue;
    const namespace = info.namespaced ? (obj.metadata?.namespace ?? req.namespace) : '';
    try {
      items.push(await deleteOne(ctx, { ...req, namespace, name: obj.metadata?.name ?? '' }, structuredClone(opts)));
    } catch (err) {
      // Deleted meanwhile: nothing left to do for this one.
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  const resourceVersion = String(await ctx.storage.currentRevision());
  return jsonResponse(200, {
    kind: info.custom?.listKind ?? `${info.kind}List`,
    apiVersion: groupVersion(info),
    metadata: { resourceVersion },
    items,
  });
}

/** The Service allocations of an object that is gone (after the repair, which may still hold them). */
async function releaseAllocations(ctx: RestContext, info: ResourceInfo, obj: KubeObject): Promise<void> {
  if (!isServices(info) || ctx.services === undefined) return;
  await ctx.services.ready();
  ctx.services.release(obj);
}

// Thrown out of the graceful-deletion update (store.go errAlreadyDeleting / errDeleteNow).
class AlreadyDeleting {}
class DeleteNow {}

/**
 * The storage preconditions (storage.Preconditions.Check), run against the object being changed:
 * `Precondition failed: UID in precondition: …` as a Conflict on the resource.
 */
function checkStoragePreconditions(info: ResourceInfo, name: string, obj: KubeObject, p: Preconditions): void {
  const meta = obj.metadata ?? {};
  if (p.uid !== undefined && p.uid !== meta.uid) {
    throw newConflict(
      gr(info),
      name,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${meta.uid ?? ''}`,
    );
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== meta.resourceVersion) {
    throw newConflict(
      gr(info),
      name,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
}

/** metav1.Time plus seconds, at the second precision the wire has. */
const timePlus = (ms: number, seconds: number): string => rfc3339(ms + seconds * 1000);

/**
 * rest.BeforeDelete (staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go, v1.32) with the
 * pod strategy's CheckGracefulDelete: checks the preconditions (Conflict on the Kind), and for pods
 * (the one kind here with graceful deletion) sets deletionTimestamp = now + grace and
 * deletionGracePeriodSeconds on `obj`, or shortens a pending grace period. Mutates `obj` and
 * `options.gracePeriodSeconds` as Kubernetes does.
 */
export function beforeDelete(
  info: ResourceInfo,
  obj: KubeObject,
  options: DeleteOptions,
  nowMs: number,
): { graceful: boolean; pending: boolean } {
  obj.metadata ??= {};
  const meta = obj.metadata;
  const kindResource = { group: info.group, resource: info.kind };
  const p = options.preconditions;
  if (p?.uid !== undefined && p.uid !== meta.uid) {
    throw newConflict(
      kindResource,
      meta.name ?? '',
      `the UID in the precondition (${p.uid}) does not match the UID in record (${meta.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (p?.resourceVersion !== undefined && p.resourceVersion !== meta.resourceVersion) {
    throw newConflict(
      kindResource,
      meta.name ?? '',
      `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
  // Negative values are treated as 1s on the delete path.
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0) options.gracePeriodSeconds = 1;
  if (typeof meta.deletionGracePeriodSeconds === 'number' && meta.deletionGracePeriodSeconds < 0) {
    meta.deletionGracePeriodSeconds = 1;
  }
  const isPod = info.group === '' && info.resource === 'pods';
  if (!isPod) return { graceful: false, pending: false };
  if (meta.deletionTimestamp) {
    const existing = meta.deletionGracePeriodSeconds;
    // A deletion whose grace period is 0 (or unset) may proceed at once.
    if (existing === undefined || existing === null || existing === 0) return { graceful: false, pending: false };
    if (options.gracePeriodSeconds !== undefined) {
      let period = options.gracePeriodSeconds;
      if (period >= existing) return { graceful: false, pending: true };
      // Only a shorter grace period may be given: move the timestamp back, never into the past.
      let at = Date.parse(meta.deletionTimestamp) - existing * 1000 + period * 1000;
      if (at < nowMs) {
        at = nowMs;
        if (period !== 0) period = 1;
      }
      meta.deletionTimestamp = rfc3339(at);
      meta.deletionGracePeriodSeconds = period;
      return { graceful: true, pending: false };
    }
    options.gracePeriodSeconds = existing;
    return { graceful: false, pending: true };
  }
  // podStrategy.CheckGracefulDelete: the requested period, else spec.terminationGracePeriodSeconds;
  // 0 for a pod never scheduled or already terminated.
  const pod = obj as KubeObject & {
    spec?: { terminationGracePeriodSeconds?: number; nodeName?: string };
    status?: { phase?: string };
  };
  let period = options.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
  if ((pod.spec?.nodeName ?? '') === '') period = 0;
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') period = 0;
  options.gracePeriodSeconds = period;
  meta.deletionTimestamp = timePlus(nowMs, period);
  meta.deletionGracePeriodSeconds = period;
  if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  return { graceful: true, pending: false };
}

/**
 * deletionFinalizersForGarbageCollection: the `orphan` / `foregroundDeletion` finalizers the options
 * (orphanDependents, then propagationPolicy), else the object's own finalizers, call for. Events
 * opt out of garbage collection (GarbageCollectionPolicy Unsupported).
 */
export function gcFinalizers(
  info: ResourceInfo,
  meta: ObjectMeta,
  options: DeleteOptions,
): { changed: boolean; finalizers: string[] } {
  const current = meta.finalizers ?? [];
  if (info.group === '' && info.resource === 'events') return { changed: false, finalizers: current };
  const policy = options.propagationPolicy;
  // The object's own GC finalizer (the first of the two) decides when the options do not.
  const own = current.find((f) => f === FINALIZER_ORPHAN_DEPENDENTS || f === FINALIZER_DELETE_DEPENDENTS);
  // jobStrategy.DefaultGarbageCollectionPolicy: batch/v1 Jobs orphan by default "for back compatibility".
  const defaultOrphan = info.group === 'batch' && info.version === 'v1' && info.resource === 'jobs';
  const orphan =
    options.orphanDependents !== undefined
      ? options.orphanDependents
      : policy !== undefined
        ? policy === 'Orphan'
        : own !== undefined
          ? own === FINALIZER_ORPHAN_DEPENDENTS
          : defaultOrphan;
  const foreground =
    options.orphanDependents !== undefined
      ? false
      : policy !== undefined
        ? policy === 'Foreground'
        : own === FINALIZER_DELETE_DEPENDENTS;
  const finalizers = current.filter((f) => f !== FINALIZER_ORPHAN_DEPENDENTS && f !== FINALIZER_DELETE_DEPENDENTS);
  if (orphan) finalizers.push(FINALIZER_ORPHAN_DEPENDENTS);
  if (foreground) finalizers.push(FINALIZER_DELETE_DEPENDENTS);
  const same = new Set(current).size === new Set(finalizers).size && finalizers.every((f) => current.includes(f));
  return same ? { changed: false, finalizers: current } : { changed: true, finalizers };
}

/**
 * markAsDeleting: deletionTimestamp now (unless an earlier one is set), deletionGracePeriodSeconds 0,
 * and a generation bump the first time.
 */
function markAsDeleting(meta: ObjectMeta, nowMs: number): void {
  if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > nowMs) meta.deletionTimestamp = rfc3339(nowMs);
  meta.deletionGracePeriodSeconds = 0;
}

/**
 * A DELETE as store.go Delete does it: preconditions and graceful deletion (BeforeDelete), the GC
 * finalizers, then either an update (the object keeps a deletionTimestamp while finalizers or a
 * grace period remain) or the removal. The answer is the object as deleted or as marked; a dry run
 * changes nothing. Namespaces go through their own first step (namespace-lifecycle.ts).
 */
export async function deleteOne(ctx: RestContext, req: ResourceRequest, opts: DeleteOptions): Promise<KubeObject> {
  const { info, name } = req;
  // A delete a subresource makes (eviction) is admitted as that subresource's create, not again here.
  const admission = (req.subresource ?? '') === '' ? ctx.admission : undefined;
  // Mutating admission of a DELETE sees no object (handlers/delete.go)…
  await admission?.admit(requestAttributes(req, 'DELETE', undefined, undefined, isDryRun(opts), []));
  refuseSystemPriorityClassDelete(info, name);
  const key = objectKey(info, req.namespace, name);
  const current = await storageCall('get', info, name, () => ctx.storage.get(key));
  if (current === undefined) throw newNotFound(gr(info), name);
  const obj = decodeStored(current);
  // …validating admission the stored one (store.go deleteValidation).
  await admission?.validate(
    requestAttributes(req, 'DELETE', undefined, obj as Record<string, unknown>, isDryRun(opts), []),
  );
  if (isNamespaceResource(info)) return deleteNamespace(ctx, req, opts, obj);
  // A CRD's first DELETE marks it for the finalizer controller (crd/delete.ts).
  if (isCrdResource(info)) {
    const marked = await storageCall('update', info, name, () =>
      markCrdDeleting(ctx, info, name, obj, opts, isDryRun(opts)),
    );
    if (marked !== undefined) return marked;
  }
  return storeDelete(ctx, req, structuredClone(opts), obj);
}

/** store.go Delete after the Get. `options` is the request's own copy (BeforeDelete changes it). */
async function storeDelete(
  ctx: RestContext,
  req: ResourceRequest,
  options: DeleteOptions,
  read: KubeObject,
): Promise<KubeObject> {
  const { info, name } = req;
  const key = objectKey(info, req.namespace, name);
  const dryRun = isDryRun(options);
  const obj = structuredClone(read);
  const { graceful, pending } = beforeDelete(info, obj, options, ctx.clock.now());
  // Finalizers cannot be changed through DeleteOptions once a graceful deletion is pending.
  if (pending) return read;
  const pendingFinalizers = (obj.metadata?.finalizers ?? []).length > 0;
  const { changed } = gcFinalizers(info, obj.metadata ?? {}, options);
  const preconditions: Preconditions = { ...(options.preconditions ?? {}) };

  if (graceful || pendingFinalizers || changed) {
    // updateForGracefulDeletionAndFinalizers.
    let lastGraceful = 0;
    let finalizersLeft = false;
    const tryUpdate = (stored: StoredObject | undefined): Uint8Array => {
      if (stored === undefined) throw newNotFound(gr(info), name);
      const existing = decodeStored(stored);
      checkStoragePreconditions(info, name, existing, preconditions);
      const attempt = structuredClone(options);
      const step = beforeDelete(info, existing, attempt, ctx.clock.now());
      if (step.pending) throw new AlreadyDeleting();
      existing.metadata ??= {};
      const meta = existing.metadata;
      const gc = gcFinalizers(info, meta, attempt);
      if (gc.changed) {
        if (gc.finalizers.length > 0) meta.finalizers = gc.finalizers;
        else delete meta.finalizers;
      }
      finalizersLeft = (meta.finalizers ?? []).length > 0;
      if (!step.graceful) {
        if (!finalizersLeft) throw new DeleteNow();
        markAsDeleting(meta, ctx.clock.now());
        return encodeForStorage(existing);
      }
      lastGraceful = attempt.gracePeriodSeconds ?? 0;
      return encodeForStorage(existing);
    };
    let out: KubeObject | undefined;
    try {
      if (dryRun) {
        const stored = await storageCall('get', info, name, () => ctx.storage.get(key));
        const bytes = tryUpdate(stored);
        out = decodeStored({ value: bytes, revision: (stored as StoredObject).revision });
      } else {
        out = decodeStored(await storageCall('update', info, name, () => ctx.storage.guaranteedUpdate(key, tryUpdate)));
      }
    } catch (err) {
      if (err instanceof AlreadyDeleting) return read;
      if (!(err instanceof DeleteNow)) throw err;
    }
    if (out !== undefined) {
      // Finalizers or a grace period left: the object stays, marked.
      if (finalizersLeft || lastGraceful > 0) return out;
      if (dryRun) return out;
      // A graceless delete: from here on the object at its new version goes.
      if (preconditions.resourceVersion !== undefined)
        preconditions.resourceVersion = out.metadata?.resourceVersion ?? '';
    }
  }
  if (dryRun) return read;
  try {
    const deleted = decodeStored(
      await storageCall('delete', info, name, () =>
        ctx.storage.delete(key, {
          validate: (c) => checkStoragePreconditions(info, name, decodeStored(c), preconditions),
        }),
      ),
    );
    await releaseAllocations(ctx, info, deleted);
    return deleted;
  } catch (err) {
    // The graceless race of kubernetes#19403: someone else deleted it first.
    if (err instanceof StatusError && err.code === 404 && graceful) return obj;
    throw err;
  }
}

/**
 * The namespace REST Delete (pkg/registry/core/namespace/storage/storage.go): preconditions with
 * its own messages; the first DELETE marks the namespace Terminating (with the GC finalizers the
 * options ask for) and answers it; later ones delete it only once spec.finalizers is empty.
 */
async function deleteNamespace(
  ctx: RestContext,
  req: ResourceRequest,
  opts: DeleteOptions,
  ns: KubeObject,
): Promise<KubeObject> {
  const { info, name } = req;
  const meta = ns.metadata ?? {};
  const uid = opts.preconditions?.uid ?? meta.uid ?? '';
  checkStoragePreconditions(info, name, ns, { ...opts.preconditions, uid });
  const preconditions: Preconditions = { uid };
  if (opts.preconditions?.resourceVersion !== undefined)
    preconditions.resourceVersion = opts.preconditions.resourceVersion;
  if (!meta.deletionTimestamp) {
    const key = objectKey(info, '', name);
    const mark = (stored: StoredObject | undefined): Uint8Array => {
      if (stored === undefined) throw newNotFound(gr(info), name);
      const existing = decodeStored(stored);
      checkStoragePreconditions(info, name, existing, preconditions);
      return encodeForStorage(markNamespaceTerminating(existing, opts, rfc3339(ctx.clock.now())));
    };
    if (isDryRun(opts)) {
      const stored = await storageCall('get', info, name, () => ctx.storage.get(key));
      return decodeStored({ value: mark(stored), revision: (stored as StoredObject).revision });
    }
    return decodeStored(await storageCall('update', info, name, () => ctx.storage.guaranteedUpdate(key, mark)));
  }
  // Content is still being removed: the namespace controller finalizes it when done.
  if (specFinalizers(ns).length > 0) return ns;
  return storeDelete(ctx, req, { ...structuredClone(opts), preconditions }, ns);
}
