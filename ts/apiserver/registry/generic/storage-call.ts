/**
 * The storage calls of the generic store and of the resources' own REST: storage errors as
 * Kubernetes Status errors (api/storage-errors.ts interpretStorageError), and storage.Preconditions'
 * check of the object being changed.
 */
import type { KubeObject, Preconditions } from '../../../api/meta.js';
import { type GroupResource, newConflict } from '../../../api/status.js';
import { interpretStorageError, type StorageOperation } from '../../../api/storage-errors.js';
import type { ResourceInfo } from '../resources.js';

export const groupResource = (info: ResourceInfo): GroupResource => ({ group: info.group, resource: info.resource });

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
    throw interpretStorageError(op, err, groupResource(info), name, opts);
  }
}

/**
 * The storage preconditions (storage.Preconditions.Check), run against the object being changed:
 * `Precondition failed: UID in precondition: …` as a Conflict on the resource.
 */
export function checkStoragePreconditions(info: ResourceInfo, name: string, obj: KubeObject, p: Preconditions): void {
  const meta = obj.metadata ?? {};
  if (p.uid !== undefined && p.uid !== meta.uid) {
    throw newConflict(
      groupResource(info),
      name,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${meta.uid ?? ''}`,
    );
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== meta.resourceVersion) {
    throw newConflict(
      groupResource(info),
      name,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
}
