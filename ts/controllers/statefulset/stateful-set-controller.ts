/**
 * The StatefulSet controller (pkg/controller/statefulset/stateful_set.go at v1.32): each set's
 * pods, claims and revisions kept as stateful-set-control.ts decides, from the shared pod,
 * StatefulSet, PersistentVolumeClaim and ControllerRevision informers.
 *
 *   const ssc = new StatefulSetController({ factory, client, clock, onError });
 *   factory.start();
 *   await ssc.run();   // 5 workers (--concurrent-statefulset-syncs)
 *   …
 *   await ssc.stop();
 *
 * Level-based, as Kubernetes': the pod and set handlers only enqueue the set's key (a pod turning
 * Ready with minReadySeconds also after minReadySeconds + 1 s); a sync reads the listers, adopts
 * orphan revisions, claims pods through ControllerRef (the pod's name must say it is the set's),
 * and runs the control loop; a failed sync is re-added rate-limited (5 ms doubling to 1,000 s, so
 * a template the apiserver refuses is FailedCreate Events on a backed-off retry, not a hot loop).
 * No expectations: pod names are stable, so a lagging cache makes a create meet AlreadyExists.
 * As in 1.32, claims are read from their informer but not watched.
 */
import { labelSelectorAsSelector } from '../../api/labels/label-selector.js';
import type { Selector } from '../../api/labels/selector.js';
import type { LabelSelector, OwnerReference } from '../../api/meta.js';
import type { ControllerRevision, StatefulSet } from '../../api/types/apps/v1.js';
import type { Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { defaultControllerRateLimiter, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { discardLogger, type Logger } from '../../sim/logger.js';
import { isPodReady } from '../framework/active-pods.js';
import type { Controller } from '../framework/controller.js';
import {
  freshController,
  getControllerOf,
  PodControllerRefManager,
  recheckDeletionTimestamp,
} from '../framework/controller-ref-manager.js';
import { STATEFUL_SET_CONTROLLER } from '../framework/names.js';
import { type PodControlInterface, RealPodControl } from '../framework/pod-control.js';
import { Registrations, Workers } from '../framework/workers.js';
import { ControllerHistory } from '../history/controller-history.js';
import { type ClaimStore, clientClaimStore, StatefulObjectManager } from './stateful-object-manager.js';
import { StatefulPodControl } from './stateful-pod-control.js';
import { DefaultStatefulSetControl } from './stateful-set-control.js';
import { updateStatefulSetStatus } from './stateful-set-status-updater.js';
import { isMemberOf, replicasOf, STATEFUL_SET_KIND, sortOverlappingStatefulSets } from './stateful-set-utils.js';

// apps/v1alpha1 defaults.go (StatefulSetControllerConfiguration): --concurrent-statefulset-syncs 5.
export const DEFAULT_WORKERS = 5;

type RSet = DeepReadonly<StatefulSet>;
type RPod = DeepReadonly<Pod>;

export interface StatefulSetControllerOptions {
  /** The shared informers: pods, StatefulSets, ControllerRevisions (and the claims' through `claims`). */
  factory: SharedInformerFactory;
  /** The controller's own client (statefulset-controller): pods, claims, revisions, status, Events. */
  client: Client;
  /** The PersistentVolumeClaims: their lister and writes (default: through `client`, no lister). */
  claims?: ClaimStore;
  clock?: Clock;
  /** A failed sync (utilruntime.HandleError): its error and key. */
  onError?: (err: unknown, key: string) => void;
  /** --concurrent-statefulset-syncs (default 5). */
  workers?: number;
  logger?: Logger;
  /** The adopt/release patches of claimPods (default RealPodControl on `client`). */
  podControl?: PodControlInterface;
}

export class StatefulSetController implements Controller {
  readonly name = STATEFUL_SET_CONTROLLER;
  readonly control: DefaultStatefulSetControl;
  readonly sets: SharedIndexInformer<StatefulSet>;
  readonly pods: SharedIndexInformer<Pod>;
  readonly revisions: SharedIndexInformer<ControllerRevision>;
  private readonly client: Client;
  private readonly clock: Clock;
  readonly recorder: EventRecorder;
  private readonly podControl: PodControlInterface;
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;
  private readonly logger: Logger;
  private readonly defaultWorkers: number;
  private readonly onError: (err: unknown, key: string) => void;

  constructor(options: StatefulSetControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.logger = options.logger ?? discardLogger;
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    this.onError = options.onError ?? (() => {});
    this.recorder = new EventRecorder({ client: this.client, clock: this.clock, component: STATEFUL_SET_CONTROLLER });
    this.podControl = options.podControl ?? new RealPodControl(this.client, this.recorder);
    this.queue = new WorkQueue<string>({ clock: this.clock, rateLimiter: defaultControllerRateLimiter(this.clock) });

    this.sets = options.factory.informerFor(RESOURCES.statefulsets);
    this.pods = options.factory.informerFor(RESOURCES.pods);
    this.revisions = options.factory.informerFor(RESOURCES.controllerrevisions);

    const claims =
      options.claims ?? clientClaimStore(this.client, options.factory.informerFor(RESOURCES.persistentvolumeclaims));
    this.control = new DefaultStatefulSetControl(
      new StatefulPodControl(new StatefulObjectManager(this.client, this.pods, claims), this.recorder, this.clock),
      (set, status) => updateStatefulSetStatus(this.client, this.sets, this.clock, set, status),
      new ControllerHistory(this.client, this.revisions, this.clock),
      this.clock,
    );

    const handlers = new Registrations();
    handlers.add(this.pods, {
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, cur) => this.updatePod(old, cur),
      onDelete: (pod) => this.deletePod(pod),
    });
    handlers.add(this.sets, {
      onAdd: (set) => this.enqueue(set),
      onUpdate: (_old, cur) => this.enqueue(cur),
      onDelete: (set) => this.enqueue(set),
    });
    // The claim and revision informers are only waited for (HasSynced), never handled.
    handlers.add(this.revisions, {});
    claims.register?.(handlers);
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: (key) => this.sync(key),
      onError: (err, key) =>
        this.onError(new Error(`error syncing StatefulSet ${key}, requeuing: ${errText(err)}`, { cause: err }), key),
    });
  }

  async run(workers = this.defaultWorkers): Promise<void> {
    this.logger.info('Starting stateful set controller');
    await this.workers.run(workers);
  }

  async stop(): Promise<void> {
    await this.workers.stop();
    await this.recorder.flush();
    this.logger.info('Shutting down statefulset controller');
  }

  // --- event handlers: they only enqueue keys ---

  private enqueue(set: RSet): void {
    this.queue.add(objectKey(set));
  }

  private enqueueAfter(set: RSet, ms: number): void {
    this.queue.addAfter(objectKey(set), ms);
  }

  /** resolveControllerRef: the cached set `ref` names, if a StatefulSet of the same UID. */
  private resolveControllerRef(namespace: string, ref: DeepReadonly<OwnerReference>): RSet | undefined {
    if (ref.kind !== STATEFUL_SET_KIND.kind) return undefined;
    const set = this.sets.get(namespace, ref.name);
    return set?.metadata?.uid === ref.uid ? set : undefined;
  }

  /** getStatefulSetsForPod: the sets whose selector matches the pod's labels (GetPodStatefulSets). */
  private setsForPod(pod: RPod): RSet[] {
    const labels = pod.metadata?.labels ?? {};
    if (Object.keys(labels).length === 0) return [];
    const sets = this.sets
      .lister()
      .byNamespace(pod.metadata?.namespace ?? '')
      .list()
      .filter((set) => {
        const selector = selectorOf(set);
        return selector !== undefined && !selector.empty() && selector.matches(labels);
      });
    if (sets.length > 1) {
      const names = sortOverlappingStatefulSets([...sets]).map((s) => s.metadata?.name ?? '');
      this.onError(
        new Error(
          `user error: more than one StatefulSet is selecting pods with labels: ${goMap(labels)}. Sets: [${names.join(' ')}]`,
        ),
        objectKey(pod),
      );
    }
    return sets;
  }

  private addPod(pod: RPod): void {
    if ((pod.metadata?.deletionTimestamp ?? null) !== null) {
      // A restarted controller manager can meet a pod already being deleted.
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref !== undefined) {
      const set = this.resolveControllerRef(pod.metadata?.namespace ?? '', ref);
      if (set !== undefined) this.enqueue(set);
      return;
    }
    for (const set of this.setsForPod(pod)) this.enqueue(set);
  }

  private updatePod(old: RPod, cur: RPod): void {
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    const labelChanged = JSON.stringify(old.metadata?.labels ?? {}) !== JSON.stringify(cur.metadata?.labels ?? {});
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef !== undefined) {
      const set = this.resolveControllerRef(old.metadata?.namespace ?? '', oldRef);
      if (set !== undefined) this.enqueue(set);
    }
    if (curRef !== undefined) {
      const set = this.resolveControllerRef(cur.metadata?.namespace ?? '', curRef);
      if (set === undefined) return;
      this.enqueue(set);
      const minReadySeconds = set.spec?.minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(cur) && minReadySeconds > 0) {
        // A second more, for the clock skew of AddAfter (kubernetes#39785).
        this.enqueueAfter(set, minReadySeconds * 1000 + 1000);
      }
      return;
    }
    if (labelChanged || refChanged) for (const set of this.setsForPod(cur)) this.enqueue(set);
  }

  private deletePod(pod: RPod): void {
    const ref = getControllerOf(pod);
    if (ref === undefined) return;
    const set = this.resolveControllerRef(pod.metadata?.namespace ?? '', ref);
    if (set !== undefined) this.enqueue(set);
  }

  // --- the sync ---

  /** canAdoptFunc: an uncached read of the set, refused if it is gone or being deleted. */
  private canAdopt(set: RSet): () => Promise<void> {
    return recheckDeletionTimestamp(freshController(this.client, RESOURCES.statefulsets, set, 'StatefulSet'));
  }

  /** adoptOrphanRevisions: the orphan revisions the selector matches adopted (after one recheck). */
  private async adoptOrphanRevisions(set: RSet): Promise<void> {
    const orphans = this.control.listRevisions(set).filter((r) => getControllerOf(r) === undefined);
    if (orphans.length === 0) return;
    try {
      await this.canAdopt(set)();
    } catch (err) {
      throw new Error(`can't adopt ControllerRevisions: ${errText(err)}`, { cause: err });
    }
    await this.control.adoptOrphanRevisions(set, orphans);
  }

  /** getPodsForStatefulSet: the namespace's pods claimed through ControllerRef, members by name only. */
  private async getPodsForStatefulSet(set: RSet, selector: Selector): Promise<RPod[]> {
    const pods = this.pods
      .lister()
      .byNamespace(set.metadata?.namespace ?? '')
      .list();
    const manager = new PodControllerRefManager(this.podControl, set, selector, STATEFUL_SET_KIND, this.canAdopt(set));
    return manager.claimPods(pods, (pod) => isMemberOf(set, pod));
  }

  /** sync: one set's key, from the listers; the workers call it, and tests directly. */
  async sync(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const set = this.sets.get(namespace, name);
    if (set === undefined) {
      this.logger.info('StatefulSet has been deleted', { key });
      return;
    }
    const selector = selectorOf(set);
    // A selector that does not convert is not transient: no retry.
    if (selector === undefined) {
      this.onError(new Error(`error converting StatefulSet ${key} selector`), key);
      return;
    }
    await this.adoptOrphanRevisions(set);
    const pods = await this.getPodsForStatefulSet(set, selector);
    const status = await this.control.updateStatefulSet(set, pods);
    // One more sync for the clock skew, which also re-queues right after the status write.
    const minReadySeconds = set.spec?.minReadySeconds ?? 0;
    if (minReadySeconds > 0 && status !== undefined && (status.availableReplicas ?? 0) !== replicasOf(set)) {
      this.enqueueAfter(set, minReadySeconds * 1000);
    }
  }
}

/** LabelSelectorAsSelector of the spec, or undefined when it is invalid. */
function selectorOf(set: RSet): Selector | undefined {
  try {
    return labelSelectorAsSelector(set.spec?.selector as LabelSelector | undefined);
  } catch {
    return undefined;
  }
}

/** A map as Go's %+v prints it: map[a:b c:d], keys sorted. */
function goMap(labels: Readonly<Record<string, string>>): string {
  return `map[${Object.keys(labels)
    .sort()
    .map((k) => `${k}:${labels[k]}`)
    .join(' ')}]`;
}

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
