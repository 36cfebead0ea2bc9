/**
 * Delete and DeleteCollection of the generic store (k8s.io/apiserver
 * pkg/registry/generic/registry/store.go, v1.32): preconditions and graceful deletion
 * (rest.BeforeDelete with the strategy's CheckGracefulDelete), the garbage collector's finalizers
 * (the strategy's default policy), then either an update — the object keeps a deletionTimestamp
 * while finalizers or a grace period remain — or the removal, and AfterDelete. A resource whose
 * REST has its own Delete (namespaces, CRDs) is given the stored object and this store's delete to
 * end with. A dry run changes nothing.
 */
import {
  type DeleteOptions,
  FINALIZER_DELETE_DEPENDENTS,
  FINALIZER_ORPHAN_DEPENDENTS,
  type KubeObject,
  type ObjectMeta,
  type Preconditions,
} from '../../../api/meta.js';
import { isNotFound, newConflict, newNotFound } from '../../../api/status.js';
import { rfc3339 } from '../../../api/time.js';
import type { StoredObject } from '../../../storage/storage.js';
import { requestAttributes } from '../../admission/chain.js';
import { decodeStored, encodeForStorage } from '../../decode/codec.js';
import { collectionPrefix, objectKey, type ResourceInfo } from '../resources.js';
import { strategyFor } from '../strategies.js';
import { isDryRun, type ResourceRequest, type RestContext } from './context.js';
import { type Selectors, selects } from './read-options.js';
import { checkStoragePreconditions, groupResource, storageCall } from './storage-call.js';

// Thrown out of the graceful-deletion update (store.go errAlreadyDeleting / errDeleteNow).
class AlreadyDeleting {}
class DeleteNow {}

/** metav1.Time plus seconds, at the second precision the wire has. */
const timePlus = (ms: number, seconds: number): string => rfc3339(ms + seconds * 1000);

/**
 * rest.BeforeDelete (staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go, v1.32): checks the
 * preconditions (Conflict on the Kind), and for a strategy with graceful deletion (pods) sets
 * deletionTimestamp = now + grace and deletionGracePeriodSeconds on `obj`, or shortens a pending
 * grace period. Mutates `obj` and `options.gracePeriodSeconds` as Kubernetes does.
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
  const strategy = strategyFor(info);
  if (strategy.checkGracefulDelete === undefined) return { graceful: false, pending: false };
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
  if (!strategy.checkGracefulDelete(obj, options)) return { graceful: false, pending: false };
  const period = options.gracePeriodSeconds ?? 0;
  meta.deletionTimestamp = timePlus(nowMs, period);
  meta.deletionGracePeriodSeconds = period;
  if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  return { graceful: true, pending: false };
}

/**
 * deletionFinalizersForGarbageCollection: the `orphan` / `foregroundDeletion` finalizers the options
 * (orphanDependents, then propagationPolicy), else the object's own finalizers, else the
 * strategy's default policy call for; none for a strategy whose policy is Unsupported (events).
 */
export function gcFinalizers(
  info: ResourceInfo,
  meta: ObjectMeta,
  options: DeleteOptions,
): { changed: boolean; finalizers: string[] } {
  const current = meta.finalizers ?? [];
  const gcPolicy = strategyFor(info).defaultGarbageCollectionPolicy?.(info) ?? 'DeleteDependents';
  if (gcPolicy === 'Unsupported') return { changed: false, finalizers: current };
  const policy = options.propagationPolicy;
  // The object's own GC finalizer (the first of the two) decides when the options do not.
  const own = current.find((f) => f === FINALIZER_ORPHAN_DEPENDENTS || f === FINALIZER_DELETE_DEPENDENTS);
  const defaultOrphan = gcPolicy === 'OrphanDependents';
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
 * A DELETE as store.go Delete does it: mutating admission, the strategy's own refusals, the Get,
 * validating admission, then the resource's own Delete or the generic one. The answer is the
 * object as deleted or as marked for deletion.
 */
export async function storeDelete(ctx: RestContext, req: ResourceRequest, opts: DeleteOptions): Promise<KubeObject> {
  const { info, name } = req;
  const strategy = strategyFor(info);
  // A delete a subresource makes (eviction) is admitted as that subresource's create, not again here.
  const admission = (req.subresource ?? '') === '' ? ctx.admission : undefined;
  // Mutating admission of a DELETE sees no object (handlers/delete.go)…
  await admission?.admit(requestAttributes(req, 'DELETE', undefined, undefined, isDryRun(opts), []));
  strategy.checkDelete?.(name, info);
  const key = objectKey(info, req.namespace, name);
  const current = await storageCall('get', info, name, () => ctx.storage.get(key));
  if (current === undefined) throw newNotFound(groupResource(info), name);
  const obj = decodeStored(current);
  // …validating admission the stored one (store.go deleteValidation).
  await admission?.validate(
    requestAttributes(req, 'DELETE', undefined, obj as Record<string, unknown>, isDryRun(opts), []),
  );
  if (strategy.delete !== undefined) {
    return strategy.delete(ctx, req, opts, obj, (options, read) => genericDelete(ctx, req, options, read));
  }
  return genericDelete(ctx, req, structuredClone(opts), obj);
}

/** store.go Delete after the Get. `options` is the request's own copy (BeforeDelete changes it). */
async function genericDelete(
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
      if (stored === undefined) throw newNotFound(groupResource(info), name);
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
    await strategyFor(info).afterDelete?.(ctx, deleted);
    return deleted;
  } catch (err) {
    // The graceless race of kubernetes#19403: someone else deleted it first.
    if (isNotFound(err) && graceful) return obj;
    throw err;
  }
}

/**
 * store.go DeleteCollection: every object of the request's namespace that `selectors` pick, each
 * as a single DELETE with its own copy of the options; what was deleted or marked for deletion,
 * and the store's revision after.
 */
export async function storeDeleteCollection(
  ctx: RestContext,
  req: ResourceRequest,
  opts: DeleteOptions,
  selectors: Selectors,
): Promise<{ items: KubeObject[]; revision: bigint }> {
  const { info } = req;
  const page = await storageCall('list', info, '', () => ctx.storage.list(collectionPrefix(info, req.namespace)));
  const items: KubeObject[] = [];
  for (const stored of page.items) {
    const obj = decodeStored(stored);
    if (!selects(info, selectors, obj)) continue;
    const namespace = info.namespaced ? (obj.metadata?.namespace ?? req.namespace) : '';
    try {
      items.push(await storeDelete(ctx, { ...req, namespace, name: obj.metadata?.name ?? '' }, structuredClone(opts)));
    } catch (err) {
      // Deleted meanwhile: nothing left to do for this one.
      if (!isNotFound(err)) throw err;
    }
  }
  return { items, revision: await ctx.storage.currentRevision() };
}
