/**
 * The CustomResourceDefinition REST Delete (k8s.io/apiextensions-apiserver
 * pkg/registry/customresourcedefinition/etcd.go, v1.32): the first DELETE only marks the CRD —
 * deletionTimestamp, the customresourcecleanup finalizer and Terminating=True
 * (InstanceDeletionPending) — and answers it; the finalizer controller deletes the instances and
 * removes the finalizer. A CRD already marked goes through the generic delete.
 */
import type { DeleteOptions, KubeObject } from '../../../../api/meta.js';
import { newConflict, newNotFound } from '../../../../api/status.js';
import { rfc3339 } from '../../../../api/time.js';
import type { StoredObject } from '../../../../storage/storage.js';
import { setCondition } from '../../../crd/conditions.js';
import { CRD_CLEANUP_FINALIZER, type Crd } from '../../../crd/types.js';
import { decodeStored, encodeForStorage } from '../../../decode/codec.js';
import { isDryRun, type ResourceRequest, type RestContext } from '../../generic/context.js';
import { storageCall } from '../../generic/storage-call.js';
import { objectKey, type ResourceInfo } from '../../resources.js';
import type { GenericDelete } from '../../strategy.js';

const CRD_RESOURCE = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };

/** The CRD REST's Delete: the first marks the CRD; one already marked is the generic store's delete. */
export async function deleteCrd(
  ctx: RestContext,
  req: ResourceRequest,
  options: DeleteOptions,
  crd: KubeObject,
  genericDelete: GenericDelete,
): Promise<KubeObject> {
  const { info, name } = req;
  const marked = await storageCall('update', info, name, () =>
    markCrdDeleting(ctx, info, name, crd, options, isDryRun(options)),
  );
  return marked ?? genericDelete(structuredClone(options), crd);
}

/**
 * The CRD's first DELETE (undefined when it is already being deleted: the generic delete follows).
 * `dryRun` computes the marked CRD without writing it.
 */
export async function markCrdDeleting(
  ctx: RestContext,
  info: ResourceInfo,
  name: string,
  crd: KubeObject,
  options: DeleteOptions,
  dryRun: boolean,
): Promise<KubeObject | undefined> {
  const meta = crd.metadata ?? {};
  const uid = options.preconditions?.uid ?? meta.uid ?? '';
  if (uid !== (meta.uid ?? '')) {
    throw newConflict(
      CRD_RESOURCE,
      name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${meta.uid ?? ''}`,
    );
  }
  const rv = options.preconditions?.resourceVersion;
  if (rv !== undefined && rv !== meta.resourceVersion) {
    throw newConflict(
      CRD_RESOURCE,
      name,
      `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
  if (meta.deletionTimestamp) return undefined;
  const now = rfc3339(ctx.clock.now());
  const mark = (stored: StoredObject | undefined): Uint8Array => {
    if (stored === undefined) throw newNotFound(CRD_RESOURCE, name);
    const existing = decodeStored(stored) as Crd;
    const m = existing.metadata ?? {};
    existing.metadata = m;
    if (m.uid !== uid) {
      throw newConflict(
        CRD_RESOURCE,
        name,
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${m.uid ?? ''}`,
      );
    }
    if (rv !== undefined && rv !== m.resourceVersion) {
      throw newConflict(
        CRD_RESOURCE,
        name,
        `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${m.resourceVersion ?? ''}`,
      );
    }
    if (!m.deletionTimestamp) m.deletionTimestamp = now;
    if (!(m.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER))
      m.finalizers = [...(m.finalizers ?? []), CRD_CLEANUP_FINALIZER];
    setCondition(
      existing,
      {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      },
      now,
    );
    return encodeForStorage(existing);
  };
  const key = objectKey(info, '', name);
  if (dryRun) {
    const stored = await ctx.storage.get(key);
    return decodeStored({ value: mark(stored), revision: (stored as StoredObject).revision });
  }
  return decodeStored(await ctx.storage.guaranteedUpdate(key, mark));
}
