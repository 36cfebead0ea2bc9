/**
 * The DaemonSet controller (pkg/controller/daemon/daemon_controller.go at v1.32): one pod of each
 * DaemonSet on every node that should run it — the node's name, the template's nodeSelector and
 * node affinity, the node's taints against the template's tolerations plus those every daemon pod
 * gets (util.ts) — none on the others; pods created with a required node affinity on
 * `metadata.name` (the scheduler binds them), at most `burstReplicas` (250) creates and deletes a
 * sync in slow-start batches; failed pods killed with a per-node back-off (1 s doubling to
 * 15 min); RollingUpdate and OnDelete through ControllerRevisions (update.ts); the status written
 * on every sync.
 *
 *   const dsc = new DaemonSetsController({ factory, client, clock, onError });
 *   factory.start();
 *   await dsc.run();   // 2 workers (--concurrent-daemonset-syncs)
 *   …
 *   await dsc.stop();
 *
 * Level-based, as Kubernetes': the DaemonSet, ControllerRevision, pod and node handlers only
 * enqueue keys (and count what the expectations wait for); syncDaemonSet reads the listers,
 * claims pods and revisions through ControllerRef, and creates or deletes only when the
 * expectations of its last sync were observed.
 */
import { labelSelectorAsSelector } from '../../api/labels/label-selector.js';
import type { Selector } from '../../api/labels/selector.js';
import type { LabelSelector, OwnerReference } from '../../api/meta.js';
import { hasStatusCause, isNotFound, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type { ControllerRevision, DaemonSet } from '../../api/types/apps/v1.js';
import type { Node, Pod } from '../../api/types/core/v1.js';
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
import { isPodAvailable, isPodReady } from '../framework/active-pods.js';
import { aggregateErrors } from '../framework/aggregate-errors.js';
import type { Controller } from '../framework/controller.js';
import {
  freshController,
  type GroupVersionKind,
  getControllerOf,
  PodControllerRefManager,
  recheckDeletionTimestamp,
} from '../framework/controller-ref-manager.js';
import { ControllerExpectations } from '../framework/expectations.js';
import { DAEMON_SET_CONTROLLER } from '../framework/names.js';
import { type PodControlInterface, RealPodControl } from '../framework/pod-control.js';
import { SLOW_START_INITIAL_BATCH_SIZE } from '../framework/slow-start.js';
import { Registrations, Workers } from '../framework/workers.js';
import { cleanupHistory, constructHistory, type DaemonSetHost, rollingUpdate } from './update.js';
import {
  allowsSurge,
  createPodTemplate,
  DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY,
  getTargetNodeName,
  isPodUpdated,
  nodeShouldRunDaemonPod,
  replaceDaemonSetPodNodeNameNodeAffinity,
  sortPodsByCreationTimestampAndPhase,
  templateGeneration,
} from './util.js';

// daemon_controller.go BurstReplicas: at most this many creates (and deletes) a sync.
export const BURST_REPLICAS = 250;
// daemon_controller.go StatusUpdateRetries: a refused status write is retried once, on a fresh read.
export const STATUS_UPDATE_RETRIES = 1;
// daemon_controller.go BackoffGCInterval: how often old back-off entries go.
export const BACKOFF_GC_INTERVAL_MS = 60_000;
// cmd/kube-controller-manager/app/apps.go startDaemonSetController: flowcontrol.NewBackOff(1s, 15m).
export const FAILED_PODS_BACKOFF_INITIAL_MS = 1000;
export const FAILED_PODS_BACKOFF_MAX_MS = 15 * 60_000;
// apps/v1alpha1 defaults.go (DaemonSetControllerConfiguration): --concurrent-daemonset-syncs 2.
export const DEFAULT_WORKERS = 2;

// daemon_controller.go: the reasons of its Events.
export const SELECTING_ALL_REASON = 'SelectingAll';
export const FAILED_PLACEMENT_REASON = 'FailedPlacement';
export const FAILED_DAEMON_POD_REASON = 'FailedDaemonPod';
export const SUCCEEDED_DAEMON_POD_REASON = 'SucceededDaemonPod';

// daemon_controller.go controllerKind.
export const DAEMON_SET_KIND: GroupVersionKind = { group: 'apps', version: 'v1', kind: 'DaemonSet' };

type RDaemonSet = DeepReadonly<DaemonSet>;
type RPod = DeepReadonly<Pod>;
type RNode = DeepReadonly<Node>;

/**
 * flowcontrol.Backoff (client-go/util/flowcontrol/backoff.go): per key, a delay doubling from
 * `initial` to `max`, started again once unused for twice `max`.
 */
export class Backoff {
  private readonly entries = new Map<string, { backoff: number; lastUpdate: number }>();

  constructor(
    readonly clock: Clock,
    private readonly initialMs = FAILED_PODS_BACKOFF_INITIAL_MS,
    private readonly maxMs = FAILED_PODS_BACKOFF_MAX_MS,
  ) {}

  /** Get: the key's current delay (0 for none). */
  get(key: string): number {
    return this.entries.get(key)?.backoff ?? 0;
  }

  /** Next: the delay started (or doubled, capped) at `now`. */
  next(key: string, now: number): void {
    const entry = this.entries.get(key);
    if (entry === undefined || now - entry.lastUpdate > 2 * this.maxMs) {
      this.entries.set(key, { backoff: this.initialMs, lastUpdate: now });
      return;
    }
    entry.lastUpdate = now;
    entry.backoff = Math.min(entry.backoff * 2, this.maxMs);
  }

  /** IsInBackOffSinceUpdate: within the delay since the key's last Next. */
  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    if (now - entry.lastUpdate > 2 * this.maxMs) return false;
    return now - entry.lastUpdate < entry.backoff;
  }

  /** GC: the entries unused for twice the maximum go. */
  gc(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.entries) {
      if (now - entry.lastUpdate > 2 * this.maxMs) this.entries.delete(key);
    }
  }
}

export interface DaemonSetsControllerOptions {
  /** The shared informers: DaemonSets, ControllerRevisions, pods, nodes. */
  factory: SharedInformerFactory;
  /** The controller's own client (daemon-set-controller): pods, revisions, status writes, Events. */
  client: Client;
  clock?: Clock;
  /** A failed sync (utilruntime.HandleError): its error and key. */
  onError?: (err: unknown, key: string) => void;
  /** --concurrent-daemonset-syncs (default 2). */
  workers?: number;
  logger?: Logger;
  /** Creates or deletes a sync at most (default 250). */
  burstReplicas?: number;
  /** The pod writes (default RealPodControl on `client`, recording Events). */
  podControl?: PodControlInterface;
}

export class DaemonSetsController implements Controller, DaemonSetHost {
  readonly name = DAEMON_SET_CONTROLLER;
  /** The creates and deletes each DaemonSet waits to observe, by key. */
  readonly expectations: ControllerExpectations;
  /** The failed-pod back-off, by `<uid>/<observedGeneration>/<node>`. */
  readonly failedPodsBackoff: Backoff;
  readonly client: Client;
  readonly clock: Clock;
  readonly sets: SharedIndexInformer<DaemonSet>;
  readonly histories: SharedIndexInformer<ControllerRevision>;
  readonly pods: SharedIndexInformer<Pod>;
  readonly nodes: SharedIndexInformer<Node>;
  private readonly burstReplicas: number;
  private readonly defaultWorkers: number;
  private readonly recorder: EventRecorder;
  private readonly podControl: PodControlInterface;
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;
  private readonly logger: Logger;
  private readonly onError: (err: unknown, key: string) => void;
  private cancelGC: (() => void) | undefined;

  constructor(options: DaemonSetsControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.logger = options.logger ?? discardLogger;
    this.burstReplicas = options.burstReplicas ?? BURST_REPLICAS;
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    this.expectations = new ControllerExpectations({ clock: this.clock });
    this.failedPodsBackoff = new Backoff(this.clock);
    this.recorder = new EventRecorder({ client: this.client, clock: this.clock, component: DAEMON_SET_CONTROLLER });
    this.podControl = options.podControl ?? new RealPodControl(this.client, this.recorder);
    this.queue = new WorkQueue<string>({ clock: this.clock, rateLimiter: defaultControllerRateLimiter(this.clock) });
    this.onError = options.onError ?? (() => {});

    this.sets = options.factory.informerFor(RESOURCES.daemonsets);
    this.histories = options.factory.informerFor(RESOURCES.controllerrevisions);
    this.pods = options.factory.informerFor(RESOURCES.pods);
    this.nodes = options.factory.informerFor(RESOURCES.nodes);

    const handlers = new Registrations();
    handlers.add(this.sets, {
      onAdd: (ds) => this.enqueue(ds),
      onUpdate: (old, cur) => {
        if (old.metadata?.uid !== cur.metadata?.uid) this.deleteDaemonSet(old);
        this.enqueue(cur);
      },
      onDelete: (ds) => this.deleteDaemonSet(ds),
    });
    handlers.add(this.histories, {
      onAdd: (h) => this.addHistory(h),
      onUpdate: (old, cur) => this.updateHistory(old, cur),
      onDelete: (h) => this.deleteHistory(h),
    });
    handlers.add(this.pods, {
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, cur) => this.updatePod(old, cur),
      onDelete: (pod) => this.deletePod(pod),
    });
    handlers.add(this.nodes, {
      onAdd: (node) => this.addNode(node),
      onUpdate: (old, cur) => this.updateNode(old, cur),
    });
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: (key) => this.syncDaemonSet(key),
      onError: (err, key) => this.onError(new Error(`${key} failed with : ${errText(err)}`, { cause: err }), key),
    });
  }

  async run(workers = this.defaultWorkers): Promise<void> {
    this.logger.info('Starting daemon sets controller');
    // wait.Until(failedPodsBackoff.GC, BackoffGCInterval).
    const gc = (): void => {
      this.failedPodsBackoff.gc();
      this.cancelGC = this.clock.setTimer(gc, BACKOFF_GC_INTERVAL_MS);
    };
    this.cancelGC = this.clock.setTimer(gc, BACKOFF_GC_INTERVAL_MS);
    await this.workers.run(workers);
  }

  async stop(): Promise<void> {
    this.cancelGC?.();
    this.cancelGC = undefined;
    await this.workers.stop();
    await this.recorder.flush();
    this.logger.info('Shutting down daemon sets controller');
  }

  // --- event handlers: they only enqueue keys and count what the expectations wait for ---

  private enqueue(ds: RDaemonSet): void {
    this.queue.add(objectKey(ds));
  }

  enqueueAfter(ds: RDaemonSet, ms: number): void {
    this.queue.addAfter(objectKey(ds), ms);
  }

  private deleteDaemonSet(ds: RDaemonSet): void {
    const key = objectKey(ds);
    this.expectations.deleteExpectations(key);
    this.queue.add(key);
  }

  /** resolveControllerRef: the cached DaemonSet `ref` names, if a DaemonSet of the same UID. */
  private resolveControllerRef(namespace: string, ref: DeepReadonly<OwnerReference>): RDaemonSet | undefined {
    if (ref.kind !== DAEMON_SET_KIND.kind) return undefined;
    const ds = this.sets.get(namespace, ref.name);
    return ds?.metadata?.uid === ref.uid ? ds : undefined;
  }

  /** getDaemonSetsForPod (and ForHistory): the DaemonSets whose selector matches the labels. */
  private setsSelecting(namespace: string, labels: Readonly<Record<string, string>> | undefined): RDaemonSet[] {
    if (labels === undefined || Object.keys(labels).length === 0) return [];
    return this.sets
      .lister()
      .byNamespace(namespace)
      .list()
      .filter((ds) => {
        const selector = selectorOf(ds);
        return selector !== undefined && !selector.empty() && selector.matches(labels);
      });
  }

  private addHistory(history: DeepReadonly<ControllerRevision>): void {
    if (isDeleting(history)) {
      this.deleteHistory(history);
      return;
    }
    const ref = getControllerOf(history);
    if (ref !== undefined) {
      const ds = this.resolveControllerRef(history.metadata?.namespace ?? '', ref);
      if (ds !== undefined) this.enqueue(ds);
      return;
    }
    for (const ds of this.setsSelecting(history.metadata?.namespace ?? '', history.metadata?.labels)) {
      this.enqueue(ds);
    }
  }

  private updateHistory(old: DeepReadonly<ControllerRevision>, cur: DeepReadonly<ControllerRevision>): void {
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef !== undefined) {
      const ds = this.resolveControllerRef(old.metadata?.namespace ?? '', oldRef);
      if (ds !== undefined) this.enqueue(ds);
    }
    if (curRef !== undefined) {
      const ds = this.resolveControllerRef(cur.metadata?.namespace ?? '', curRef);
      if (ds !== undefined) this.enqueue(ds);
      return;
    }
    const labelChanged = !sameLabels(old.metadata?.labels, cur.metadata?.labels);
    if (labelChanged || refChanged) {
      for (const ds of this.setsSelecting(cur.metadata?.namespace ?? '', cur.metadata?.labels)) this.enqueue(ds);
    }
  }

  private deleteHistory(history: DeepReadonly<ControllerRevision>): void {
    const ref = getControllerOf(history);
    if (ref === undefined) return;
    const ds = this.resolveControllerRef(history.metadata?.namespace ?? '', ref);
    if (ds !== undefined) this.enqueue(ds);
  }

  private addPod(pod: RPod): void {
    if (isDeleting(pod)) {
      // A restarted controller manager can meet a pod already being deleted: not a creation.
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref !== undefined) {
      const ds = this.resolveControllerRef(pod.metadata?.namespace ?? '', ref);
      if (ds === undefined) return;
      this.expectations.creationObserved(objectKey(ds));
      this.enqueue(ds);
      return;
    }
    // An orphan: the matching DaemonSets may adopt it.
    for (const ds of this.setsSelecting(pod.metadata?.namespace ?? '', pod.metadata?.labels)) this.enqueue(ds);
  }

  private updatePod(old: RPod, cur: RPod): void {
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    if (isDeleting(cur)) {
      // A graceful deletion: act on it now, not once the kubelet is done.
      this.deletePod(cur);
      return;
    }
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef !== undefined) {
      const ds = this.resolveControllerRef(old.metadata?.namespace ?? '', oldRef);
      if (ds !== undefined) this.enqueue(ds);
    }
    if (curRef !== undefined) {
      const ds = this.resolveControllerRef(cur.metadata?.namespace ?? '', curRef);
      if (ds === undefined) return;
      this.enqueue(ds);
      const minReadySeconds = ds.spec?.minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(cur) && minReadySeconds > 0) {
        this.enqueueAfter(ds, (minReadySeconds + 1) * 1000);
      }
      return;
    }
    const sets = this.setsSelecting(cur.metadata?.namespace ?? '', cur.metadata?.labels);
    if (sets.length === 0) return;
    if (!sameLabels(old.metadata?.labels, cur.metadata?.labels) || refChanged) {
      for (const ds of sets) this.enqueue(ds);
    }
  }

  private deletePod(pod: RPod): void {
    const ref = getControllerOf(pod);
    if (ref === undefined) return;
    const ds = this.resolveControllerRef(pod.metadata?.namespace ?? '', ref);
    if (ds === undefined) return;
    this.expectations.deletionObserved(objectKey(ds));
    this.enqueue(ds);
  }

  private addNode(node: RNode): void {
    for (const ds of this.sets.lister().list()) {
      if (nodeShouldRunDaemonPod(node, ds)[0]) this.enqueue(ds);
    }
  }

  private updateNode(old: RNode, cur: RNode): void {
    // shouldIgnoreNodeUpdate: only labels and taints matter.
    if (
      sameLabels(old.metadata?.labels, cur.metadata?.labels) &&
      JSON.stringify(old.spec?.taints ?? []) === JSON.stringify(cur.spec?.taints ?? [])
    ) {
      return;
    }
    for (const ds of this.sets.lister().list()) {
      const [oldRun, oldContinue] = nodeShouldRunDaemonPod(old, ds);
      const [curRun, curContinue] = nodeShouldRunDaemonPod(cur, ds);
      if (oldRun !== curRun || oldContinue !== curContinue) this.enqueue(ds);
    }
  }

  // --- the sync ---

  /** getDaemonPods: the namespace's pods claimed (adopted, released) for `ds`. */
  async getDaemonPods(ds: RDaemonSet): Promise<RPod[]> {
    const selector = labelSelectorAsSelector(ds.spec?.selector as LabelSelector | undefined);
    const pods = this.pods
      .lister()
      .byNamespace(ds.metadata?.namespace ?? '')
      .list();
    const canAdopt = recheckDeletionTimestamp(freshController(this.client, RESOURCES.daemonsets, ds, 'DaemonSet'));
    const manager = new PodControllerRefManager(this.podControl, ds, selector, DAEMON_SET_KIND, canAdopt);
    return manager.claimPods(pods);
  }

  /** getNodesToDaemonPods: the claimed pods by the node they are on or meant for. */
  async getNodesToDaemonPods(ds: RDaemonSet, includeDeletedTerminal: boolean): Promise<Map<string, RPod[]>> {
    const claimed = await this.getDaemonPods(ds);
    const byNode = new Map<string, RPod[]>();
    for (const pod of claimed) {
      const phase = pod.status?.phase;
      const terminal = phase === 'Failed' || phase === 'Succeeded';
      if (!includeDeletedTerminal && terminal && isDeleting(pod)) continue;
      let nodeName: string;
      try {
        nodeName = getTargetNodeName(pod);
      } catch {
        continue;
      }
      const list = byNode.get(nodeName);
      if (list === undefined) byNode.set(nodeName, [pod]);
      else list.push(pod);
    }
    return byNode;
  }

  /** The cached nodes, by name. */
  nodeNamed(name: string): RNode | undefined {
    return this.nodes.get(undefined, name);
  }

  /**
   * podsShouldBeOnNode: the node's name if it needs a pod, and the names of its pods to delete —
   * failed ones (outside their back-off), succeeded ones, the extras, and all where the DaemonSet
   * should not continue running.
   */
  podsShouldBeOnNode(
    node: RNode,
    nodeToDaemonPods: ReadonlyMap<string, RPod[]>,
    ds: RDaemonSet,
    hash: string,
  ): { nodesNeedingDaemonPods: string[]; podsToDelete: string[] } {
    const nodesNeedingDaemonPods: string[] = [];
    const podsToDelete: string[] = [];
    const nodeName = node.metadata?.name ?? '';
    const [shouldRun, shouldContinueRunning] = nodeShouldRunDaemonPod(node, ds);
    const daemonPods = nodeToDaemonPods.get(nodeName);
    const exists = daemonPods !== undefined;
    if (shouldRun && !exists) {
      nodesNeedingDaemonPods.push(nodeName);
    } else if (shouldContinueRunning) {
      const running: RPod[] = [];
      for (const pod of daemonPods ?? []) {
        if (isDeleting(pod)) continue;
        const { namespace = '', name = '' } = pod.metadata ?? {};
        if (pod.status?.phase === 'Failed') {
          // The kubelet cannot restart a failed pod: kill it, at most once per back-off.
          const key = failedPodsBackoffKey(ds, nodeName);
          const now = this.clock.now();
          if (this.failedPodsBackoff.isInBackOffSinceUpdate(key, now)) {
            this.enqueueAfter(ds, this.failedPodsBackoff.get(key));
            continue;
          }
          this.failedPodsBackoff.next(key, now);
          this.recorder.record(
            ds,
            'Warning',
            FAILED_DAEMON_POD_REASON,
            `Found failed daemon pod ${namespace}/${name} on node ${nodeName}, will try to kill it`,
          );
          podsToDelete.push(name);
        } else if (pod.status?.phase === 'Succeeded') {
          this.recorder.record(
            ds,
            'Normal',
            SUCCEEDED_DAEMON_POD_REASON,
            `Found succeeded daemon pod ${namespace}/${name} on node ${nodeName}, will try to delete it`,
          );
          podsToDelete.push(name);
        } else {
          running.push(pod);
        }
      }
      if (!allowsSurge(ds)) {
        // Only one pod a node: the oldest stays.
        if (running.length > 1) {
          sortPodsByCreationTimestampAndPhase(running);
          for (const pod of running.slice(1)) podsToDelete.push(pod.metadata?.name ?? '');
        }
      } else if (running.length <= 1) {
        if (running.length === 0 && shouldRun) nodesNeedingDaemonPods.push(nodeName);
      } else {
        // Surging: the oldest new and the oldest old pod stay; the old goes once the new is available.
        let oldestNew: RPod | undefined;
        let oldestOld: RPod | undefined;
        sortPodsByCreationTimestampAndPhase(running);
        for (const pod of running) {
          if (pod.metadata?.labels?.[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] === hash) {
            if (oldestNew === undefined) {
              oldestNew = pod;
              continue;
            }
          } else if (oldestOld === undefined) {
            oldestOld = pod;
            continue;
          }
          podsToDelete.push(pod.metadata?.name ?? '');
        }
        if (oldestNew !== undefined && oldestOld !== undefined) {
          if (!isPodReady(oldestOld)) {
            podsToDelete.push(oldestOld.metadata?.name ?? '');
          } else if (isPodAvailable(oldestNew, ds.spec?.minReadySeconds ?? 0, this.clock.now())) {
            podsToDelete.push(oldestOld.metadata?.name ?? '');
          }
        }
      }
    } else if (exists) {
      for (const pod of daemonPods) {
        if (isDeleting(pod)) continue;
        podsToDelete.push(pod.metadata?.name ?? '');
      }
    }
    return { nodesNeedingDaemonPods, podsToDelete };
  }

  /** manage: the pods each node needs made, the ones it should not have deleted. */
  private async manage(ds: RDaemonSet, nodeList: readonly RNode[], hash: string): Promise<void> {
    let nodeToDaemonPods: Map<string, RPod[]>;
    try {
      nodeToDaemonPods = await this.getNodesToDaemonPods(ds, false);
    } catch (err) {
      throw new Error(
        `couldn't get node to daemon pod mapping for daemon set "${ds.metadata?.name ?? ''}": ${errText(err)}`,
        { cause: err },
      );
    }
    const nodesNeeding: string[] = [];
    const podsToDelete: string[] = [];
    for (const node of nodeList) {
      const r = this.podsShouldBeOnNode(node, nodeToDaemonPods, ds, hash);
      nodesNeeding.push(...r.nodesNeedingDaemonPods);
      podsToDelete.push(...r.podsToDelete);
    }
    podsToDelete.push(...getUnscheduledPodsWithoutNode(nodeList, nodeToDaemonPods));
    await this.syncNodes(ds, podsToDelete, nodesNeeding, hash);
  }

  /**
   * syncNodes: deletes `podsToDelete` and creates a pod for each of `nodesNeedingDaemonPods`, at
   * most burstReplicas of each, creates in slow-start batches (a failed batch stops the rest).
   */
  async syncNodes(
    ds: RDaemonSet,
    podsToDelete: readonly string[],
    nodesNeedingDaemonPods: readonly string[],
    hash: string,
  ): Promise<void> {
    const dsKey = objectKey(ds);
    const createDiff = Math.min(nodesNeedingDaemonPods.length, this.burstReplicas);
    const deleteDiff = Math.min(podsToDelete.length, this.burstReplicas);
    this.expectations.setExpectations(dsKey, createDiff, deleteDiff);
    const errors: unknown[] = [];
    const namespace = ds.metadata?.namespace ?? '';
    const template = createPodTemplate(ds.spec?.template, templateGeneration(ds), hash);
    const ref = newControllerRef(ds);
    let batchSize = Math.min(createDiff, SLOW_START_INITIAL_BATCH_SIZE);
    for (let pos = 0; createDiff > pos; ) {
      const errorCount = errors.length;
      const batch: Promise<void>[] = [];
      for (let i = pos; i < pos + batchSize; i++) {
        const nodeName = nodesNeedingDaemonPods[i] as string;
        batch.push(
          (async () => {
            const podTemplate = structuredClone(template);
            if (podTemplate.spec !== undefined) {
              podTemplate.spec.affinity = replaceDaemonSetPodNodeNameNodeAffinity(podTemplate.spec.affinity, nodeName);
            }
            try {
              await this.podControl.createPods(namespace, podTemplate, ds, ref);
            } catch (err) {
              // A terminating namespace refuses every create: nothing to retry.
              if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
              this.expectations.creationObserved(dsKey);
              errors.push(err);
            }
          })(),
        );
      }
      await Promise.all(batch);
      const skipped = createDiff - (batchSize + pos);
      if (errorCount < errors.length && skipped > 0) {
        // The pods never tried are not expected.
        this.expectations.lowerExpectations(dsKey, skipped, 0);
        break;
      }
      pos += batchSize;
      batchSize = Math.min(2 * batchSize, createDiff - pos);
    }
    await Promise.all(
      podsToDelete.slice(0, deleteDiff).map(async (name) => {
        try {
          await this.podControl.deletePod(namespace, name, ds);
        } catch (err) {
          this.expectations.deletionObserved(dsKey);
          if (!isNotFound(err)) errors.push(err);
        }
      }),
    );
    const error = aggregateErrors(errors);
    if (error !== undefined) throw error;
  }

  /** updateDaemonSetStatus: the counts from the nodes and the claimed pods, written when they changed. */
  private async updateDaemonSetStatus(
    ds: RDaemonSet,
    nodeList: readonly RNode[],
    hash: string,
    updateObservedGen: boolean,
  ): Promise<void> {
    let nodeToDaemonPods: Map<string, RPod[]>;
    try {
      nodeToDaemonPods = await this.getNodesToDaemonPods(ds, false);
    } catch (err) {
      throw new Error(
        `couldn't get node to daemon pod mapping for daemon set "${ds.metadata?.name ?? ''}": ${errText(err)}`,
        { cause: err },
      );
    }
    const now = this.clock.now();
    const minReadySeconds = ds.spec?.minReadySeconds ?? 0;
    const generation = templateGeneration(ds);
    const counts = {
      desiredNumberScheduled: 0,
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      numberReady: 0,
      updatedNumberScheduled: 0,
      numberAvailable: 0,
      numberUnavailable: 0,
    };
    for (const node of nodeList) {
      const [shouldRun] = nodeShouldRunDaemonPod(node, ds);
      const daemonPods = nodeToDaemonPods.get(node.metadata?.name ?? '') ?? [];
      const scheduled = daemonPods.length > 0;
      if (shouldRun) {
        counts.desiredNumberScheduled++;
        if (!scheduled) continue;
        counts.currentNumberScheduled++;
        // The oldest scheduled pod is the one that counts.
        const pod = sortPodsByCreationTimestampAndPhase([...daemonPods])[0] as RPod;
        if (isPodReady(pod)) {
          counts.numberReady++;
          if (isPodAvailable(pod, minReadySeconds, now)) counts.numberAvailable++;
        }
        if (isPodUpdated(pod, hash, generation)) counts.updatedNumberScheduled++;
      } else if (scheduled) {
        counts.numberMisscheduled++;
      }
    }
    counts.numberUnavailable = counts.desiredNumberScheduled - counts.numberAvailable;
    try {
      await this.storeDaemonSetStatus(ds, counts, updateObservedGen);
    } catch (err) {
      throw new Error(`error storing status for daemon set ${objectKey(ds)}: ${errText(err)}`, { cause: err });
    }
    if (minReadySeconds > 0 && counts.numberReady !== counts.numberAvailable) {
      this.enqueueAfter(ds, minReadySeconds * 1000);
    }
  }

  /** storeDaemonSetStatus: nothing when unchanged; one retry on a fresh read (StatusUpdateRetries). */
  private async storeDaemonSetStatus(
    ds: RDaemonSet,
    counts: Readonly<Record<StatusCount, number>>,
    updateObservedGen: boolean,
  ): Promise<void> {
    const status = ds.status;
    const unchanged = STATUS_COUNTS.every((k) => (status?.[k] ?? 0) === counts[k]);
    if (unchanged && (status?.observedGeneration ?? 0) >= (ds.metadata?.generation ?? 0)) return;
    let toUpdate = structuredClone(ds) as DaemonSet;
    for (let i = 0; ; i++) {
      const next: NonNullable<DaemonSet['status']> = {
        ...(toUpdate.status ?? {
          currentNumberScheduled: 0,
          desiredNumberScheduled: 0,
          numberMisscheduled: 0,
          numberReady: 0,
        }),
        ...counts,
      };
      if (updateObservedGen) next.observedGeneration = ds.metadata?.generation ?? 0;
      toUpdate.status = next;
      try {
        await this.client.updateStatus(RESOURCES.daemonsets, ds.metadata?.namespace, toUpdate);
        return;
      } catch (err) {
        if (i >= STATUS_UPDATE_RETRIES) throw err;
      }
      toUpdate = await this.client.get(RESOURCES.daemonsets, ds.metadata?.namespace, ds.metadata?.name ?? '');
    }
  }

  /**
   * syncDaemonSet: the revisions (the current hash), then — with its expectations met — the pods
   * (manage, then the update strategy) and the history cleanup; the status always. The workers
   * call it a key at a time; tests call it directly, as Kubernetes' do.
   */
  async syncDaemonSet(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const ds = this.sets.get(namespace, name);
    if (ds === undefined) {
      this.expectations.deleteExpectations(key);
      return;
    }
    const nodeList = this.nodes.lister().list();
    const selector = ds.spec?.selector;
    // reflect.DeepEqual(ds.Spec.Selector, &metav1.LabelSelector{}): neither field set.
    if (selector !== undefined && selector.matchLabels === undefined && selector.matchExpressions === undefined) {
      this.recorder.record(
        ds,
        'Warning',
        SELECTING_ALL_REASON,
        'This daemon set is selecting all pods. A non-empty selector is required.',
      );
      return;
    }
    // Nothing is done for a DaemonSet being deleted, its status neither.
    if (isDeleting(ds)) return;

    let hash: string;
    let old: DeepReadonly<ControllerRevision>[];
    try {
      const history = await constructHistory(this, ds);
      hash = history.cur.metadata?.labels?.[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] ?? '';
      old = history.old;
    } catch (err) {
      throw new Error(`failed to construct revisions of DaemonSet: ${errText(err)}`, { cause: err });
    }

    if (!this.expectations.satisfiedExpectations(key)) {
      // Only the status: the last sync's creates and deletes are not all seen yet.
      await this.updateDaemonSetStatus(ds, nodeList, hash, false);
      return;
    }
    let err: unknown;
    try {
      await this.manage(ds, nodeList, hash);
      // manage set new expectations: the update waits for them.
      if (this.expectations.satisfiedExpectations(key)) {
        if (ds.spec?.updateStrategy?.type === 'RollingUpdate') await rollingUpdate(this, ds, nodeList, hash);
      }
      try {
        await cleanupHistory(this, ds, old);
      } catch (e) {
        throw new Error(`failed to clean up revisions of DaemonSet: ${errText(e)}`, { cause: e });
      }
    } catch (e) {
      err = e;
    }
    let statusErr: unknown;
    try {
      await this.updateDaemonSetStatus(ds, nodeList, hash, true);
    } catch (e) {
      statusErr = e;
    }
    if (err !== undefined) throw err;
    if (statusErr !== undefined) throw statusErr;
  }
}

const STATUS_COUNTS = [
  'desiredNumberScheduled',
  'currentNumberScheduled',
  'numberMisscheduled',
  'numberReady',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
] as const;
type StatusCount = (typeof STATUS_COUNTS)[number];

/** failedPodsBackoffKey: `<uid>/<observedGeneration>/<node>`. */
export function failedPodsBackoffKey(ds: RDaemonSet, nodeName: string): string {
  return `${ds.metadata?.uid ?? ''}/${ds.status?.observedGeneration ?? 0}/${nodeName}`;
}

/** getUnscheduledPodsWithoutNode: unbound pods meant for nodes that no longer exist. */
export function getUnscheduledPodsWithoutNode(
  nodeList: readonly RNode[],
  nodeToDaemonPods: ReadonlyMap<string, readonly RPod[]>,
): string[] {
  const running = new Set(nodeList.map((n) => n.metadata?.name ?? ''));
  const results: string[] = [];
  for (const [node, pods] of nodeToDaemonPods) {
    if (running.has(node)) continue;
    for (const pod of pods) if ((pod.spec?.nodeName ?? '') === '') results.push(pod.metadata?.name ?? '');
  }
  return results;
}

/** metav1.NewControllerRef(ds, controllerKind). */
export function newControllerRef(ds: RDaemonSet): OwnerReference {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    name: ds.metadata?.name ?? '',
    uid: ds.metadata?.uid ?? '',
    blockOwnerDeletion: true,
    controller: true,
  };
}

/** LabelSelectorAsSelector of the spec, or undefined when it is invalid. */
export function selectorOf(ds: RDaemonSet): Selector | undefined {
  try {
    return labelSelectorAsSelector(ds.spec?.selector as LabelSelector | undefined);
  } catch {
    return undefined;
  }
}

const isDeleting = (obj: { metadata?: { deletionTimestamp?: string | null } }): boolean =>
  (obj.metadata?.deletionTimestamp ?? null) !== null;

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function sameLabels(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => Object.hasOwn(b ?? {}, k) && a?.[k] === b?.[k]);
}
