/**
 * The namespace REST Delete (pkg/registry/core/namespace/storage/storage.go, v1.32): the first
 * DELETE only marks the namespace Terminating; it goes once spec.finalizers and metadata.finalizers
 * are empty (the namespace controller removes `kubernetes` when the content is gone).
 */
import {
  type DeleteOptions,
  FINALIZER_DELETE_DEPENDENTS,
  FINALIZER_ORPHAN_DEPENDENTS,
  type KubeObject,
  type ObjectMeta,
  type Preconditions,
} from '../../../../api/meta.js';
import { newNotFound } from '../../../../api/status.js';
import { rfc3339 } from '../../../../api/time.js';
import type { StoredObject } from '../../../../storage/storage.js';
import { decodeStored, encodeForStorage } from '../../../decode/codec.js';
import { isDryRun, type ResourceRequest, type RestContext } from '../../generic/context.js';
import { checkStoragePreconditions, groupResource, storageCall } from '../../generic/storage-call.js';
import { isObj, type Obj } from '../../objects.js';
import { objectKey } from '../../resources.js';
import type { GenericDelete } from '../../strategy.js';
import { specFinalizers } from './finalizers.js';

/**
 * The first DELETE of a namespace (storage.go REST.Delete): deletionTimestamp now, phase
 * Terminating, the GC finalizers as the options say (orphanDependents / propagationPolicy). Returns
 * the changed object; finalizers keep their order, additions go last.
 */
export function markNamespaceTerminating(ns: KubeObject, options: DeleteOptions, now: string): KubeObject {
  const next = structuredClone(ns) as Obj & KubeObject;
  const meta = (next.metadata ?? {}) as ObjectMeta;
  next.metadata = meta;
  if (!meta.deletionTimestamp) meta.deletionTimestamp = now;
  const status: Obj = isObj(next.status) ? next.status : {};
  next.status = status;
  status.phase = 'Terminating';
  const current = meta.finalizers ?? [];
  const orphan =
    options.orphanDependents !== undefined
      ? options.orphanDependents
      : options.propagationPolicy !== undefined
        ? options.propagationPolicy === 'Orphan'
        : current.includes(FINALIZER_ORPHAN_DEPENDENTS);
  const foreground =
    options.orphanDependents !== undefined
      ? options.orphanDependents === false
      : options.propagationPolicy !== undefined
        ? options.propagationPolicy === 'Foreground'
        : current.includes(FINALIZER_DELETE_DEPENDENTS);
  let finalizers = current.filter(
    (f) => (f !== FINALIZER_ORPHAN_DEPENDENTS || orphan) && (f !== FINALIZER_DELETE_DEPENDENTS || foreground),
  );
  if (orphan && !finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS))
    finalizers = [...finalizers, FINALIZER_ORPHAN_DEPENDENTS];
  if (foreground && !finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) {
    finalizers = [...finalizers, FINALIZER_DELETE_DEPENDENTS];
  }
  if (finalizers.length > 0) meta.finalizers = finalizers;
  else delete meta.finalizers;
  return next;
}

/**
 * The namespace REST Delete (pkg/registry/core/namespace/storage/storage.go): preconditions with
 * its own messages; the first DELETE marks the namespace Terminating (with the GC finalizers the
 * options ask for) and answers it; later ones delete it only once spec.finalizers is empty.
 */
export async function deleteNamespace(
  ctx: RestContext,
  req: ResourceRequest,
  opts: DeleteOptions,
  ns: KubeObject,
  genericDelete: GenericDelete,
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
      if (stored === undefined) throw newNotFound(groupResource(info), name);
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
  return genericDelete({ ...structuredClone(opts), preconditions }, ns);
}
