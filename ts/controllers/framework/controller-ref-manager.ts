/**
 * The ControllerRef manager (pkg/controller/controller_ref_manager.go at v1.32): a controller
 * claims the objects its selector matches — adopting orphans (a strategic-merge patch adding its
 * controller ownerReference) and releasing owned objects that stopped matching (a patch deleting
 * that reference) — and leaves alone what another controller owns.
 *
 *   const manager = new PodControllerRefManager(podControl, rs, selector, RS_KIND,
 *     recheckDeletionTimestamp(freshController(client, RESOURCES.replicasets, rs, 'ReplicaSet')));
 *   const mine = await manager.claimPods(pods);
 *
 * Nothing is adopted while the controller is being deleted, nor an object that is; before the
 * first adoption of a pass the controller is read again uncached (canAdopt), so that one deleted
 * and recreated under the same name (another UID) adopts nothing.
 */
import type { Selector } from '../../api/labels/selector.js';
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { isInvalid, isNotFound } from '../../api/status.js';
import { goTimeString } from '../../api/time.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { GroupVersionResource } from '../../client/resources.js';
import { aggregateErrors } from './aggregate-errors.js';

/** What the manager needs of an object: its metadata. */
export type ObjectWithMeta = DeepReadonly<Pick<KubeObject, 'metadata'>>;

/** schema.GroupVersionKind of the controller: its ownerReferences' apiVersion and kind. */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** GroupVersion().String(): `apps/v1`, or `v1` for the core group. */
function groupVersion(gvk: GroupVersionKind): string {
  return gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
}

/** metav1.GetControllerOf: the ownerReference with controller: true, if any. */
export function getControllerOf(obj: ObjectWithMeta): DeepReadonly<OwnerReference> | undefined {
  return (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
}

/**
 * ownerRefControllerPatch: the strategic-merge patch adopting `uid` — the controller reference
 * (controller and blockOwnerDeletion true), the object's uid (the apiserver refuses the patch if
 * the object was replaced meanwhile), and the finalizers to add, in Go's field order.
 */
export function ownerRefControllerPatch(
  controller: ObjectWithMeta,
  controllerKind: GroupVersionKind,
  uid: string,
  finalizers: readonly string[] = [],
): string {
  const ref: OwnerReference = {
    apiVersion: groupVersion(controllerKind),
    kind: controllerKind.kind,
    name: controller.metadata?.name ?? '',
    uid: controller.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  return JSON.stringify({
    metadata: { ownerReferences: [ref], uid, ...(finalizers.length > 0 ? { finalizers: [...finalizers] } : {}) },
  });
}

/**
 * GenerateDeleteOwnerRefStrategicMergeBytes: the strategic-merge patch releasing `dependentUID`
 * from `ownerUIDs` (`$patch: delete` by the uid merge key), removing `finalizers` too.
 */
export function deleteOwnerRefStrategicMergePatch(
  dependentUID: string,
  ownerUIDs: readonly string[],
  finalizers: readonly string[] = [],
): string {
  return JSON.stringify({
    metadata: {
      uid: dependentUID,
      ownerReferences: ownerUIDs.map((uid) => ({ $patch: 'delete', uid })),
      ...(finalizers.length > 0 ? { '$deleteFromPrimitiveList/finalizers': [...finalizers] } : {}),
    },
  });
}

/**
 * RecheckDeletionTimestamp: a canAdopt that reads the controller again (`getObject`, uncached)
 * and refuses adoption if it has just been marked for deletion.
 */
export function recheckDeletionTimestamp(getObject: () => Promise<ObjectWithMeta>): () => Promise<void> {
  return async () => {
    let obj: ObjectWithMeta;
    try {
      obj = await getObject();
    } catch (err) {
      throw new Error(`can't recheck DeletionTimestamp: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
    const deleted = obj.metadata?.deletionTimestamp;
    if (deleted !== undefined && deleted !== null) {
      const at = goTimeString(deleted);
      throw new Error(`${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''} has just been deleted at ${at}`);
    }
  };
}

/**
 * The uncached read the ReplicaSet controller gives RecheckDeletionTimestamp (replica_set.go
 * claimPods): a live GET, refused when the object found is not the original (another UID).
 */
export function freshController(
  client: Client,
  resource: GroupVersionResource,
  controller: ObjectWithMeta,
  kind: string,
): () => Promise<ObjectWithMeta> {
  return async () => {
    const { namespace, name, uid } = controller.metadata ?? {};
    const fresh = await client.get(resource, namespace, name ?? '');
    if (fresh.metadata?.uid !== uid) {
      throw new Error(
        `original ${kind} ${namespace ?? ''}/${name ?? ''} is gone: got uid ${fresh.metadata?.uid ?? ''}, wanted ${uid ?? ''}`,
      );
    }
    return fresh;
  };
}

/** BaseControllerRefManager: the claim rules, for any kind of object. */
export class BaseControllerRefManager {
  private canAdoptOnce: Promise<void> | undefined;

  constructor(
    readonly controller: ObjectWithMeta,
    readonly selector: Selector,
    /** CanAdoptFunc: called at most once per manager, before the first adoption. */
    private readonly canAdoptFunc?: () => Promise<void>,
  ) {}

  /** CanAdopt: canAdoptFunc's verdict, asked once. */
  canAdopt(): Promise<void> {
    this.canAdoptOnce ??= this.canAdoptFunc?.() ?? Promise.resolve();
    return this.canAdoptOnce;
  }

  /**
   * ClaimObject: adopts a matching orphan, releases an owned object that no longer matches; true
   * when the controller owns `obj` afterwards. No change while the controller is being deleted;
   * an orphan being deleted, or in another namespace, is not adopted. A 404 of adopt or release
   * (the object is gone) is no error.
   */
  async claimObject<T extends ObjectWithMeta>(
    obj: T,
    match: (obj: T) => boolean,
    adopt: (obj: T) => Promise<void>,
    release: (obj: T) => Promise<void>,
  ): Promise<boolean> {
    const controllerDeleting = isBeingDeleted(this.controller);
    const controllerRef = getControllerOf(obj);
    if (controllerRef !== undefined) {
      // Owned by someone else: ignore.
      if (controllerRef.uid !== this.controller.metadata?.uid) return false;
      // Ours and matching: claimed, even while being deleted (that takes no action).
      if (match(obj)) return true;
      // Ours but not matching: release, unless we are being deleted.
      if (controllerDeleting) return false;
      try {
        await release(obj);
      } catch (err) {
        // Gone already; otherwise someone else released it, or a transient error: try again later.
        if (!isNotFound(err)) throw err;
      }
      return false;
    }
    // An orphan.
    if (controllerDeleting || !match(obj)) return false;
    if (isBeingDeleted(obj)) return false;
    const controllerNamespace = this.controller.metadata?.namespace ?? '';
    if (controllerNamespace !== '' && controllerNamespace !== (obj.metadata?.namespace ?? '')) return false;
    try {
      await adopt(obj);
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
    return true;
  }
}

function isBeingDeleted(obj: ObjectWithMeta): boolean {
  const ts = obj.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null;
}

/** What PodControllerRefManager needs of a PodControl (pod-control.ts): the patch. */
export interface PodPatcher {
  /** PatchPod: a strategic-merge patch of the pod. */
  patchPod(namespace: string, name: string, data: string): Promise<void>;
}

/** A pod as the manager reads it: metadata (labels, owners, uid). */
export type PodLike = ObjectWithMeta;

/** PodControllerRefManager: claims pods for a controller (ReplicaSet, Job, StatefulSet, …). */
export class PodControllerRefManager extends BaseControllerRefManager {
  private readonly finalizers: readonly string[];

  constructor(
    private readonly podControl: PodPatcher,
    controller: ObjectWithMeta,
    selector: Selector,
    readonly controllerKind: GroupVersionKind,
    canAdopt?: () => Promise<void>,
    ...finalizers: string[]
  ) {
    super(controller, selector, canAdopt);
    this.finalizers = finalizers;
  }

  /**
   * ClaimPods: the pods this controller owns once orphans matching the selector (and every
   * `filter`) are adopted and owned pods that stopped matching released. Adopt or release
   * failures are thrown together after every pod was tried.
   */
  async claimPods<T extends PodLike>(pods: readonly T[], ...filters: Array<(pod: T) => boolean>): Promise<T[]> {
    const claimed: T[] = [];
    const errors: unknown[] = [];
    // The selector first, so filters only run on pods that may match.
    const match = (pod: T) => this.selector.matches(pod.metadata?.labels ?? {}) && filters.every((f) => f(pod));
    for (const pod of pods) {
      try {
        const ok = await this.claimObject(
          pod,
          match,
          (p) => this.adoptPod(p),
          (p) => this.releasePod(p),
        );
        if (ok) claimed.push(pod);
      } catch (err) {
        errors.push(err);
      }
    }
    const error = aggregateErrors(errors);
    if (error !== undefined) throw error;
    return claimed;
  }

  /** AdoptPod: the controller reference patched in (refused by validation if another controller has one). */
  async adoptPod(pod: PodLike): Promise<void> {
    const { namespace = '', name = '', uid = '' } = pod.metadata ?? {};
    try {
      await this.canAdopt();
    } catch (err) {
      throw new Error(
        `can't adopt Pod ${namespace}/${name} (${uid}): ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    const patch = ownerRefControllerPatch(this.controller, this.controllerKind, uid, this.finalizers);
    await this.podControl.patchPod(namespace, name, patch);
  }

  /**
   * ReleasePod: the controller reference patched out. 404 (the pod is gone) and 422 (it has no
   * such reference, or it is another pod under the same name) are not errors.
   */
  async releasePod(pod: PodLike): Promise<void> {
    const { namespace = '', name = '', uid = '' } = pod.metadata ?? {};
    const patch = deleteOwnerRefStrategicMergePatch(uid, [this.controller.metadata?.uid ?? ''], this.finalizers);
    try {
      await this.podControl.patchPod(namespace, name, patch);
    } catch (err) {
      if (isNotFound(err) || isInvalid(err)) return;
      throw err;
    }
  }
}
