/**
 * Generic REST over Storage for every resource in the registry (k8s.io/apiserver
 * pkg/registry/generic/registry/store.go + pkg/endpoints/handlers, v1.32): create, get, list,
 * update, patch, delete. Watch is in watch.ts. Every storage error becomes a Status through
 * interpretStorageError.
 */
import type { DeleteOptions, KubeObject, ObjectMeta } from '../api/meta.js';
import {
  type GroupResource,
  newBadRequest,
  newConflict,
  newInvalid,
  newNotFound,
  newUnsupportedMediaType,
  StatusError,
} from '../api/status.js';
import { interpretStorageError, type StorageOperation } from '../api/storage-errors.js';
import { carryOverSystemMeta, validateCommonCreate, validateCommonUpdate } from '../api/validation/common-fields.js';
import { kindRule, validateBuiltinObjectMeta, validateBuiltinObjectMetaUpdate } from '../api/validation/kind-rules.js';
import {
  validateCreateOrUpdateOptions,
  validateDeleteOptions,
  validatePatchOptions,
  type WriteOptions,
} from '../api/validation/options.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForScope,
} from '../api/validation/request-namespace.js';
import type { Clock } from '../sim/clock.js';
import type { Storage, StoredObject } from '../storage/storage.js';
import { decodeStored, encodeForStorage, parseJsonObject } from './codec.js';
import { checkUnknownFields, type FieldValidation } from './field-validation.js';
import { validateKind, validateKindUpdate } from './kind-validation.js';
import { generateName, newUid, rfc3339 } from './names.js';
import { type Json, jsonPatch, mergePatch } from './patch.js';
import { getReadAt, listReadAt, parseSelectors, selects } from './read-options.js';
import { collectionPrefix, findResource, groupVersion, objectKey, type ResourceInfo } from './resources.js';
import { jsonResponse } from './response.js';
import { strategicMergePatch } from './strategic-merge.js';
import { prepareForCreate, prepareForStatusUpdate, prepareForUpdate, specChanged } from './strategy.js';
import { toTable, wantsTable } from './table.js';

export interface RestContext {
  storage: Storage;
  clock: Clock;
}

/** One resource request, after routing. */
export interface ResourceRequest {
  info: ResourceInfo;
  /** '' for cluster-scoped resources and all-namespace lists. */
  namespace: string;
  name: string;
  query: URLSearchParams;
  accept: string | null;
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

/** The body's apiVersion and kind must be the URL's (or absent, then defaulted). */
export function checkTypeMeta(
  info: Pick<ResourceInfo, 'group' | 'version' | 'kind'>,
  body: Record<string, unknown>,
): void {
  const want = groupVersion(info);
  const apiVersion = body.apiVersion;
  const kind = body.kind;
  if (apiVersion !== undefined && apiVersion !== '' && apiVersion !== want) {
    throw newBadRequest(
      `the API version in the data (${String(apiVersion)}) does not match the expected API version (${want})`,
    );
  }
  if (kind !== undefined && kind !== '' && kind !== info.kind) {
    throw newBadRequest(`the kind in the data (${String(kind)}) does not match the expected kind (${info.kind})`);
  }
  body.apiVersion = want;
  body.kind = info.kind;
}

export function metaOf(body: Record<string, unknown>): ObjectMeta {
  const m = body.metadata;
  if (m === undefined || m === null) {
    const meta: ObjectMeta = {};
    body.metadata = meta;
    return meta;
  }
  if (typeof m !== 'object' || Array.isArray(m)) throw newBadRequest('metadata must be an object');
  return m as ObjectMeta;
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

/** NamespaceLifecycle admission: namespaced objects need an existing namespace. */
async function requireNamespace(ctx: RestContext, info: ResourceInfo, namespace: string): Promise<void> {
  if (!info.namespaced) return;
  const nsInfo = findResource('', 'v1', 'namespaces') as ResourceInfo;
  const ns = await storageCall('get', nsInfo, namespace, () =>
    ctx.storage.get(objectKey(nsInfo, '', namespace), { ignoreNotFound: true }),
  );
  if (ns === undefined) throw newNotFound({ group: '', resource: 'namespaces' }, namespace);
}

/** POST to a collection. */
export async function createObject(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const { info } = req;
  const opts = writeOptions(req.query);
  checkOptions('CreateOptions', opts);
  const body = parseJsonObject(bodyText);
  checkTypeMeta(info, body);
  const warnings = checkUnknownFields(info, body, fieldValidation(opts));
  const meta = metaOf(body);
  ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope(req.namespace, info.namespaced), meta);
  await requireNamespace(ctx, info, req.namespace);

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

  const name = meta.name ?? '';
  const gk = { group: info.group, kind: info.kind };
  const errs = [...validateBuiltinObjectMeta(meta, ruleOf(info)), ...validateKind(info, obj)];
  if (errs.length > 0) throw newInvalid(gk, name, errs);
  const common = validateCommonCreate(meta, info.namespaced);
  if (common.length > 0) throw newInvalid(gk, name, common);

  if (isDryRun(opts)) return objectResponse(ctx, req, 201, obj, warnings);
  const key = objectKey(info, req.namespace, name);
  const stored = await storageCall('create', info, name, () =>
    ctx.storage.create(
      key,
      encodeForStorage(obj),
      info.ttlSeconds === undefined ? {} : { ttlSeconds: info.ttlSeconds },
    ),
  );
  return objectResponse(ctx, req, 201, decodeStored(stored), warnings);
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
  return jsonResponse(200, { kind: `${info.kind}List`, apiVersion: groupVersion(info), metadata, items });
}

/** Which strategy an update goes through: the main resource's, or the status subresource's. */
export type UpdateMode = 'main' | 'status';

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
): Promise<{ obj: KubeObject; warnings: string[] }> {
  const { info, name } = req;
  const key = objectKey(info, req.namespace, name);
  const gk = { group: info.group, kind: info.kind };
  let warnings: string[] = [];
  let result: KubeObject | undefined;
  try {
    const stored = await storageCall('update', info, name, () =>
      ctx.storage.guaranteedUpdate(key, (current: StoredObject | undefined) => {
        if (current === undefined) throw newNotFound(gr(info), name);
        const old = decodeStored(current);
        const oldMeta = old.metadata ?? {};
        const body = next(old);
        checkTypeMeta(info, body);
        warnings = checkUnknownFields(info, body, fieldValidation(opts));
        const meta = metaOf(body);
        ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope(req.namespace, info.namespaced), meta);
        if ((meta.name ?? '') !== name) {
          throw newBadRequest(
            `the name of the object (${meta.name ?? ''}) does not match the name on the URL (${name})`,
          );
        }
        const rv = meta.resourceVersion ?? '';
        if (rv === '') meta.resourceVersion = oldMeta.resourceVersion ?? '';
        else if (rv !== oldMeta.resourceVersion) throw newConflict(gr(info), name);
        const obj = body as KubeObject;
        carryOverSystemMeta(meta, oldMeta);
        if (mode === 'status') prepareForStatusUpdate(info, obj, old);
        else prepareForUpdate(info, obj, old);
        if (info.generation && specChanged(obj, old)) meta.generation = (oldMeta.generation ?? 0) + 1;
        const errs = [
          ...validateCommonUpdate(meta, oldMeta, info.namespaced),
          ...validateBuiltinObjectMetaUpdate(meta, oldMeta, ruleOf(info)),
          ...validateBuiltinObjectMeta(meta, ruleOf(info)),
          ...validateKindUpdate(info, obj, old),
        ];
        if (errs.length > 0) throw newInvalid(gk, name, errs);
        const bytes = encodeForStorage(obj);
        if (isDryRun(opts) || sameBytes(bytes, current.value)) throw new SkipWrite(isDryRun(opts) ? obj : old);
        return bytes;
      }),
    );
    result = decodeStored(stored);
  } catch (err) {
    if (err instanceof SkipWrite) return { obj: err.obj, warnings };
    throw err;
  }
  // The last finalizer removed from an object being deleted: it goes now.
  const meta = result.metadata ?? {};
  if (meta.deletionTimestamp && (meta.finalizers ?? []).length === 0) {
    await storageCall('delete', info, name, () => ctx.storage.delete(key));
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
  const { obj, warnings } = await updateWith(ctx, req, opts, () => structuredClone(body), mode);
  return objectResponse(ctx, req, 200, obj, warnings);
}

/** The patch types this server applies. */
export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
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
  const { obj, warnings } = await updateWith(ctx, req, opts, (old) => applyPatch(patchType, old, patch), mode);
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
    return { patchType, patch: JSON.parse(bodyText) as Json, opts };
  } catch (err) {
    throw newBadRequest(`error decoding patch: ${(err as Error).message}`);
  }
}

/** Applies a patch of `patchType` to `target`; the result must be an object. */
export function applyPatch(patchType: string, target: object, patch: Json): Record<string, unknown> {
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
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) opts.dryRun = dryRun;
  const errs = validateDeleteOptions(opts);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return opts;
}

/**
 * DELETE of one object: the object is removed and returned; with finalizers it only gets a
 * deletionTimestamp and stays until the last finalizer is removed. propagationPolicy is accepted
 * but there is no garbage collector yet, so dependents are left alone.
 */
export async function deleteObject(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  return objectResponse(ctx, req, 200, await deleteOne(ctx, req, deleteOptions(req.query, bodyText)));
}

/**
 * DELETE of a collection: every object the label and field selectors pick, each as a single
 * DELETE would; answers with the list of what was deleted (or marked for deletion).
 */
export async function deleteCollection(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const { info } = req;
  const opts = deleteOptions(req.query, bodyText);
  const selectors = parseSelectors(info, req.query);
  const page = await storageCall('list', info, '', () => ctx.storage.list(collectionPrefix(info, req.namespace)));
  const items: KubeObject[] = [];
  for (const stored of page.items) {
    const obj = decodeStored(stored);
    if (!selects(info, selectors, obj)) continue;
    try {
      items.push(await deleteOne(ctx, { ...req, name: obj.metadata?.name ?? '' }, opts));
    } catch (err) {
      // Deleted meanwhile: nothing left to do for this one.
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  const resourceVersion = String(await ctx.storage.currentRevision());
  return jsonResponse(200, {
    kind: `${info.kind}List`,
    apiVersion: groupVersion(info),
    metadata: { resourceVersion },
    items,
  });
}

export async function deleteOne(ctx: RestContext, req: ResourceRequest, opts: DeleteOptions): Promise<KubeObject> {
  const { info, name } = req;
  const key = objectKey(info, req.namespace, name);
  const checkPreconditions = (obj: KubeObject): void => {
    const p = opts.preconditions;
    const meta = obj.metadata ?? {};
    if (p?.uid !== undefined && p.uid !== meta.uid) {
      throw newConflict(
        gr(info),
        name,
        `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${meta.uid ?? ''}`,
      );
    }
    if (p?.resourceVersion !== undefined && p.resourceVersion !== meta.resourceVersion) {
      throw newConflict(
        gr(info),
        name,
        `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
      );
    }
  };
  const current = await storageCall('get', info, name, () => ctx.storage.get(key));
  if (current === undefined) throw newNotFound(gr(info), name);
  const obj = decodeStored(current);
  checkPreconditions(obj);
  if (isDryRun(opts)) return obj;
  if ((obj.metadata?.finalizers ?? []).length > 0) {
    const { obj: marked } = await updateWith(ctx, req, {}, (old) => {
      const next = structuredClone(old) as KubeObject;
      const meta = next.metadata ?? {};
      if (!meta.deletionTimestamp) {
        // carryOverSystemMeta keeps the stored timestamp, so set it on the stored side too.
        (old.metadata ?? {}).deletionTimestamp = rfc3339(ctx.clock.now());
        (old.metadata ?? {}).deletionGracePeriodSeconds = 0;
        meta.deletionTimestamp = old.metadata?.deletionTimestamp ?? null;
        meta.deletionGracePeriodSeconds = 0;
      }
      return next as Record<string, unknown>;
    });
    return marked;
  }
  const deleted = await storageCall('delete', info, name, () =>
    ctx.storage.delete(key, { validate: (c) => checkPreconditions(decodeStored(c)) }),
  );
  return decodeStored(deleted);
}
