/**
 * The ReplicaSet controller (pkg/controller/replicaset/replica_set.go at v1.32): keeps
 * spec.replicas active pods of each ReplicaSet — creating from its template in slow-start batches,
 * deleting the ones getPodsToDelete ranks first, at most `burstReplicas` (500) a sync — and writes
 * its status. The same controller runs ReplicationControllers (kind.ts, replication/).
 *
 *   const rsc = new ReplicaSetController({ factory, client, clock, onError });
 *   factory.start();
 *   await rsc.run(5);  …  await rsc.stop();
 *
 * Level-based, as Kubernetes': the pod and ReplicaSet handlers only enqueue the ReplicaSet's key
 * (and count the creates and deletes its expectations wait for); a sync reads the listers, claims
 * pods through ControllerRef (adopting matching orphans, releasing owned pods that stopped
 * matching), creates or deletes only when the expectations of its last sync were observed — so a
 * watch that lags cannot make it create twice — and always recomputes the status.
 *
 * A ReplicaSet's pods are read through the pod informer's controller index (its own and its
 * namespace's orphans, filterPodsByOwner), as kube-controller-manager does since 1.33, rather
 * than 1.32's list of the whole namespace: the same pods reach claimPods.
 */
import { labelSelectorAsSelector } from '../../api/labels/label-selector.js';
import type { Selector } from '../../api/labels/selector.js';
import type { KubeObject, LabelSelector, OwnerReference } from '../../api/meta.js';
import { hasStatusCause, isNotFound, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type { ReplicaSet } from '../../api/types/apps/v1.js';
import type { Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { addPodControllerIndexer, filterPodsByOwner } from '../../client/informers/index-funcs.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { defaultControllerRateLimiter, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { filterActivePods, isPodActive, isPodReady, sortActivePodsWithRanks } from '../framework/active-pods.js';
import type { Controller } from '../framework/controller.js';
import {
  freshController,
  getControllerOf,
  PodControllerRefManager,
  recheckDeletionTimestamp,
} from '../framework/controller-ref-manager.js';
import { ControllerExpectations, UIDTrackingControllerExpectations } from '../framework/expectations.js';
import { type PodControlInterface, RealPodControl } from '../framework/pod-control.js';
import { SLOW_START_INITIAL_BATCH_SIZE, slowStartBatch } from '../framework/slow-start.js';
import { Registrations, Workers } from '../framework/workers.js';
import { REPLICA_SET_KIND, type ReplicaSetKind } from './kind.js';
import { calculateStatus, replicasOf, updateReplicaSetStatus } from './replica-set-utils.js';

// replica_set.go BurstReplicas: at most this many creates or deletes a sync.
export const BURST_REPLICAS = 500;
// apps/v1alpha1 defaults.go (ReplicaSetControllerConfiguration): --concurrent-replicaset-syncs 5.
export const DEFAULT_WORKERS = 5;
// replica_set.go controllerUIDIndex: ReplicaSets by their controller's UID.
export const CONTROLLER_UID_INDEX = 'controllerUID';

type ReadonlyReplicaSet = DeepReadonly<ReplicaSet>;
type ReadonlyPod = DeepReadonly<Pod>;

export interface ReplicaSetControllerOptions {
  /** The shared informers: the kind's objects and pods. */
  factory: SharedInformerFactory;
  /** The controller's own client (its ServiceAccount): pods, status writes, Events. */
  client: Client;
  /** ReplicaSets (the default) or ReplicationControllers. */
  kind?: ReplicaSetKind<KubeObject>;
  clock?: Clock;
  /** --concurrent-replicaset-syncs / --concurrent-rc-syncs (default 5). */
  workers?: number;
  /** Creates or deletes a sync at most (default 500). */
  burstReplicas?: number;
  /** The pod writes (default RealPodControl on `client`, recording Events). */
  podControl?: PodControlInterface;
  /** A failed sync (utilruntime.HandleError): its error and key. */
  onError?: (err: unknown, key: string) => void;
}

export class ReplicaSetController implements Controller {
  readonly name: string;
  /** The creates and deletes each ReplicaSet waits to observe, by key. */
  readonly expectations: UIDTrackingControllerExpectations;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly kind: ReplicaSetKind<KubeObject>;
  private readonly burstReplicas: number;
  private readonly defaultWorkers: number;
  private readonly recorder: EventRecorder;
  private readonly podControl: PodControlInterface;
  private readonly sets: SharedIndexInformer<KubeObject>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;
  private readonly onError: (err: unknown, key: string) => void;

  constructor(options: ReplicaSetControllerOptions) {
    this.kind = options.kind ?? (REPLICA_SET_KIND as unknown as ReplicaSetKind<KubeObject>);
    this.name = this.kind.controllerName;
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.burstReplicas = options.burstReplicas ?? BURST_REPLICAS;
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    this.expectations = new UIDTrackingControllerExpectations(new ControllerExpectations({ clock: this.clock }));
    this.recorder = new EventRecorder({ client: this.client, clock: this.clock, component: this.kind.component });
    this.podControl = options.podControl ?? new RealPodControl(this.client, this.recorder);
    this.queue = new WorkQueue<string>({ clock: this.clock, rateLimiter: defaultControllerRateLimiter(this.clock) });

    this.sets = options.factory.informerFor<KubeObject>(this.kind.resource);
    if (!(CONTROLLER_UID_INDEX in this.sets.getIndexer().getIndexers())) {
      this.sets.addIndexers({
        [CONTROLLER_UID_INDEX]: (obj) => {
          const ref = getControllerOf(obj);
          return ref === undefined ? [] : [ref.uid];
        },
      });
    }
    this.pods = options.factory.informerFor(RESOURCES.pods);
    addPodControllerIndexer(this.pods);

    const handlers = new Registrations();
    handlers.add(this.sets, {
      onAdd: (rs) => this.queue.add(objectKey(rs)),
      onUpdate: (old, cur) => {
        // Recreated under the same name: what the old one expected goes with it.
        if (old.metadata?.uid !== cur.metadata?.uid) this.deleteRS(old);
        this.queue.add(objectKey(cur));
      },
      onDelete: (rs) => this.deleteRS(rs),
    });
    handlers.add(this.pods, {
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, cur) => this.updatePod(old, cur),
      onDelete: (pod) => this.deletePod(pod),
    });
    this.onError = options.onError ?? (() => {});
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: (key) => this.syncReplicaSet(key),
      onError: this.onError,
    });
  }

  async run(workers = this.defaultWorkers): Promise<void> {
    await this.workers.run(workers);
  }

  async stop(): Promise<void> {
    await this.workers.stop();
    await this.recorder.flush();
  }

  // --- event handlers: they only enqueue keys and count what the expectations wait for ---

  private deleteRS(rs: DeepReadonly<KubeObject>): void {
    const key = objectKey(rs);
    // A ReplicaSet made again under this name starts clean.
    this.expectations.deleteExpectations(key);
    this.queue.add(key);
  }

  /** resolveControllerRef: the cached object `ref` names, if it is of this kind and the same UID. */
  private resolveControllerRef(
    namespace: string,
    ref: DeepReadonly<OwnerReference>,
  ): DeepReadonly<KubeObject> | undefined {
    if (ref.kind !== this.kind.gvk.kind) return undefined;
    const rs = this.sets.get(namespace, ref.name);
    return rs?.metadata?.uid === ref.uid ? rs : undefined;
  }

  /** getPodReplicaSets: the cached objects whose selector matches the pod's labels (orphans' candidates). */
  private podReplicaSets(pod: ReadonlyPod): DeepReadonly<KubeObject>[] {
    const labels = pod.metadata?.labels ?? {};
    if (Object.keys(labels).length === 0) return [];
    const namespace = pod.metadata?.namespace ?? '';
    return this.sets
      .lister()
      .byNamespace(namespace)
      .list()
      .filter((obj) => {
        const selector = selectorOf(this.kind.asReplicaSet(obj));
        // A selector that matches nothing (or is invalid) matches no pod.
        return selector !== undefined && !selector.empty() && selector.matches(labels);
      });
  }

  private addPod(pod: ReadonlyPod): void {
    // A controller manager restarted can meet a pod already being deleted: not a creation.
    if (isDeleting(pod)) {
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref !== undefined) {
      const rs = this.resolveControllerRef(pod.metadata?.namespace ?? '', ref);
      if (rs === undefined) return;
      const key = objectKey(rs);
      this.expectations.creationObserved(key);
      this.queue.add(key);
      return;
    }
    // An orphan: every matching ReplicaSet may adopt it; no creation is observed.
    for (const rs of this.podReplicaSets(pod)) this.queue.add(objectKey(rs));
  }

  private updatePod(old: ReadonlyPod, cur: ReadonlyPod): void {
    // A resync's update, not a change.
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    const labelChanged = !sameLabels(old.metadata?.labels, cur.metadata?.labels);
    if (isDeleting(cur)) {
      // A graceful deletion: replacements are wanted now, not when the kubelet is done.
      this.deletePod(cur);
      if (labelChanged) this.deletePod(old);
      return;
    }
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef !== undefined) {
      const rs = this.resolveControllerRef(old.metadata?.namespace ?? '', oldRef);
      if (rs !== undefined) this.queue.add(objectKey(rs));
    }
    if (curRef !== undefined) {
      const obj = this.resolveControllerRef(cur.metadata?.namespace ?? '', curRef);
      if (obj === undefined) return;
      const key = objectKey(obj);
      this.queue.add(key);
      // A pod that just became ready is available minReadySeconds later: look again then (plus
      // a second against millisecond skew, as Kubernetes does).
      const minReadySeconds = this.kind.asReplicaSet(obj).spec?.minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(cur) && minReadySeconds > 0) {
        this.queue.addAfter(key, (minReadySeconds + 1) * 1000);
      }
      return;
    }
    // An orphan whose labels or owner changed: a matching ReplicaSet may adopt it now.
    if (labelChanged || refChanged) {
      for (const rs of this.podReplicaSets(cur)) this.queue.add(objectKey(rs));
    }
  }

  private deletePod(pod: ReadonlyPod): void {
    const ref = getControllerOf(pod);
    if (ref === undefined) return;
    const rs = this.resolveControllerRef(pod.metadata?.namespace ?? '', ref);
    if (rs === undefined) return;
    const key = objectKey(rs);
    this.expectations.deletionObserved(key, objectKey(pod));
    this.queue.add(key);
  }

  // --- the sync ---

  /**
   * syncReplicaSet: claims the pods, creates or deletes (only with its expectations satisfied and
   * the ReplicaSet not being deleted), writes the status — always, as pods come and go. The
   * workers call it a key at a time; tests call it directly, as Kubernetes' do.
   */
  async syncReplicaSet(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const stored = this.sets.get(namespace, name);
    if (stored === undefined) {
      this.expectations.deleteExpectations(key);
      return;
    }
    const rs = this.kind.asReplicaSet(stored);
    const needsSync = this.expectations.satisfiedExpectations(key);
    let selector: Selector;
    try {
      selector = labelSelectorAsSelector(rs.spec?.selector as LabelSelector | undefined);
    } catch (err) {
      // The user's to fix (validation refuses one): reported, not retried.
      this.onError(new Error(`error converting pod selector to selector for rs ${key}: ${String(err)}`), key);
      return;
    }

    const owned = filterPodsByOwner(this.pods.getIndexer(), rs.metadata, this.kind.gvk.kind, true);
    const pods = await this.claimPods(stored, rs, selector, filterActivePods(owned));

    let manageError: unknown;
    if (needsSync && !isDeleting(rs)) {
      try {
        await this.manageReplicas(pods, stored, rs);
      } catch (err) {
        manageError = err;
      }
    }
    const status = calculateStatus(rs, pods, manageError, this.clock.now());
    const updated = this.kind.asReplicaSet(
      await updateReplicaSetStatus(this.client, this.kind.resource, stored, rs, status),
    );
    // Resync after minReadySeconds, in case no pod event comes (clock skew's last line of defence).
    const minReadySeconds = updated.spec?.minReadySeconds ?? 0;
    const want = replicasOf(updated);
    if (
      manageError === undefined &&
      minReadySeconds > 0 &&
      (updated.status?.readyReplicas ?? 0) === want &&
      (updated.status?.availableReplicas ?? 0) !== want
    ) {
      this.queue.addAfter(key, minReadySeconds * 1000);
    }
    if (manageError !== undefined) throw manageError;
  }

  /** claimPods: adoption rechecks the ReplicaSet uncached first, so a deleted or replaced one adopts nothing. */
  private claimPods(
    stored: DeepReadonly<KubeObject>,
    rs: ReadonlyReplicaSet,
    selector: Selector,
    pods: ReadonlyPod[],
  ): Promise<ReadonlyPod[]> {
    const canAdopt = recheckDeletionTimestamp(
      freshController(this.client, this.kind.resource, stored, this.kind.gvk.kind),
    );
    const manager = new PodControllerRefManager(this.podControl, rs, selector, this.kind.gvk, canAdopt);
    return manager.claimPods(pods);
  }

  /**
   * manageReplicas: too few pods — create the difference (at most burstReplicas) in slow-start
   * batches, expecting each; too many — delete the first of getPodsToDelete's order, expecting
   * each by key. A pod never tried (a batch failed first) or a delete refused is no longer expected.
   */
  private async manageReplicas(
    pods: readonly ReadonlyPod[],
    stored: DeepReadonly<KubeObject>,
    rs: ReadonlyReplicaSet,
  ): Promise<void> {
    const key = objectKey(rs);
    let diff = pods.length - replicasOf(rs);
    if (diff < 0) {
      diff = Math.min(-diff, this.burstReplicas);
      this.expectations.expectCreations(key, diff);
      const template = rs.spec?.template ?? {};
      const ref = newControllerRef(rs, this.kind);
      const { successes, error } = await slowStartBatch(diff, SLOW_START_INITIAL_BATCH_SIZE, async () => {
        try {
          await this.podControl.createPods(rs.metadata?.namespace ?? '', template, stored, ref);
        } catch (err) {
          // A terminating namespace refuses every create: nothing to retry.
          if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
          throw err;
        }
      });
      // The pods never attempted will not be observed: the next sync tries again.
      for (let skipped = diff - successes; skipped > 0; skipped--) this.expectations.creationObserved(key);
      if (error !== undefined) throw error;
      return;
    }
    if (diff > 0) {
      diff = Math.min(diff, this.burstReplicas);
      const podsToDelete = getPodsToDelete([...pods], this.indirectlyRelatedPods(rs), diff, this.clock.now());
      this.expectations.expectDeletions(key, podsToDelete.map(objectKey));
      const failures: unknown[] = [];
      await Promise.all(
        podsToDelete.map(async (pod) => {
          try {
            await this.podControl.deletePod(rs.metadata?.namespace ?? '', pod.metadata?.name ?? '', stored);
          } catch (err) {
            // Not to be observed; a pod already gone is no failure.
            this.expectations.deletionObserved(key, objectKey(pod));
            if (!isNotFound(err)) failures.push(err);
          }
        }),
      );
      if (failures.length > 0) throw failures[0];
    }
  }

  /**
   * getIndirectlyRelatedPods: the pods of every ReplicaSet with the same controller as `rs` (the
   * ReplicaSets of one Deployment), each once — the ranks of getPodsToDelete count them per node.
   */
  private indirectlyRelatedPods(rs: ReadonlyReplicaSet): ReadonlyPod[] {
    const ref = getControllerOf(rs);
    if (ref === undefined) return [];
    const seen = new Set<string>();
    const related: ReadonlyPod[] = [];
    for (const obj of this.sets.getIndexer().byIndex(CONTROLLER_UID_INDEX, ref.uid)) {
      const other = this.kind.asReplicaSet(obj);
      const selector = selectorOf(other);
      if (selector === undefined) continue;
      const pods = this.pods
        .lister()
        .byNamespace(other.metadata?.namespace ?? '')
        .list(selector);
      for (const pod of pods) {
        const uid = pod.metadata?.uid ?? '';
        if (seen.has(uid)) continue;
        seen.add(uid);
        related.push(pod);
      }
    }
    return related;
  }
}

/**
 * getPodsToDelete: the first `diff` of `pods` in ActivePodsWithRanks order, each ranked by how
 * many active related pods share its node; no sort when every pod goes.
 */
export function getPodsToDelete<T extends ReadonlyPod>(
  pods: T[],
  related: readonly ReadonlyPod[],
  diff: number,
  now: number,
): T[] {
  if (diff < pods.length) {
    const onNode = new Map<string, number>();
    for (const pod of related) {
      if (!isPodActive(pod)) continue;
      const node = pod.spec?.nodeName ?? '';
      onNode.set(node, (onNode.get(node) ?? 0) + 1);
    }
    const ranks = pods.map((pod) => onNode.get(pod.spec?.nodeName ?? '') ?? 0);
    sortActivePodsWithRanks(pods, ranks, now);
  }
  return pods.slice(0, diff);
}

/** metav1.NewControllerRef: the controlling, deletion-blocking reference to `rs` as `kind`. */
function newControllerRef(rs: ReadonlyReplicaSet, kind: ReplicaSetKind<KubeObject>): OwnerReference {
  const { group, version } = kind.gvk;
  return {
    apiVersion: group === '' ? version : `${group}/${version}`,
    kind: kind.gvk.kind,
    name: rs.metadata?.name ?? '',
    uid: rs.metadata?.uid ?? '',
    blockOwnerDeletion: true,
    controller: true,
  };
}

/** LabelSelectorAsSelector of the spec, or undefined when it is invalid. */
function selectorOf(rs: ReadonlyReplicaSet): Selector | undefined {
  try {
    return labelSelectorAsSelector(rs.spec?.selector as LabelSelector | undefined);
  } catch {
    return undefined;
  }
}

const isDeleting = (obj: DeepReadonly<KubeObject>): boolean => (obj.metadata?.deletionTimestamp ?? null) !== null;

function sameLabels(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => a?.[k] === b?.[k]);
}
