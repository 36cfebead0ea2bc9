/**
 * The node lifecycle controller (pkg/controller/nodelifecycle/node_lifecycle_controller.go at
 * v1.32), with the taint eviction controller run separately (SeparateTaintEvictionController, on in
 * 1.32). Every --node-monitor-period (5 s) monitorNodeHealth reads each node's health signals — the
 * Ready condition's lastHeartbeatTime and its Lease in kube-node-lease (a newer renewTime) — and when
 * neither moved for --node-monitor-grace-period (50 s; --node-startup-grace-period, 60 s, for a node
 * that never posted Ready) sets Ready, MemoryPressure, DiskPressure and PIDPressure Unknown
 * (NodeStatusUnknown, "Kubelet stopped posting node status."; NodeStatusNeverUpdated, "Kubelet never
 * posted node status." for a condition never posted). A node whose Ready is False or Unknown is queued
 * in its zone's rate-limited tainter, which every 100 ms puts `node.kubernetes.io/not-ready` or
 * `node.kubernetes.io/unreachable` NoExecute on it (the two swapped at once when Ready flips between
 * False and Unknown; both removed when it is Ready again); its pods' Ready conditions are set False
 * (NodeNotReady events). Zones are Normal, PartialDisruption (≥ --unhealthy-zone-threshold not Ready,
 * at least 3: --secondary-node-eviction-rate above --large-cluster-size-threshold nodes, else 0) or
 * FullDisruption (none Ready: --node-eviction-rate, unless every zone is, when all tainting stops and
 * the NoExecute taints come off). On every node change, the NoSchedule taints follow the conditions
 * (and spec.unschedulable), and the beta OS and arch labels follow the GA ones.
 *
 *   const nlc = new NodeLifecycleController({ factory, client: clientFor('node-controller'), clock });
 *   factory.start();
 *   await nlc.run();   // caches synced; the monitor, tainting and workers running
 */
import { taintExists, taintSetDiff } from '../../api/taints.js';
import { rfc3339 } from '../../api/time.js';
import type { Lease } from '../../api/types/coordination/v1.js';
import type { Node, NodeCondition, NodeStatus, Pod, Taint } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { addPodNodeNameIndexer, POD_NODE_NAME_INDEX } from '../../client/informers/index-funcs.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { defaultControllerRateLimiter, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { discardLogger, type Logger } from '../../sim/logger.js';
import type { Controller } from '../framework/controller.js';
import { NODE_LIFECYCLE_CONTROLLER } from '../framework/names.js';
import { Registrations } from '../framework/workers.js';
import {
  addOrUpdateLabelsOnNode,
  getNodeCondition,
  getZoneKey,
  markPodsNotReady,
  type NodeUtilContext,
  recordNodeEvent,
  recordNodeStatusChange,
  removeTaintOffNode,
  swapNodeControllerTaint,
} from './node-utils.js';
import {
  EVICTION_RATE_LIMITER_BURST,
  NODE_EVICTION_PERIOD_MS,
  NODE_HEALTH_UPDATE_RETRY,
  RateLimitedTimedQueue,
} from './scheduler/rate-limited-queue.js';
import { TokenBucketRateLimiter } from './scheduler/token-bucket.js';

// cmd/kube-controller-manager/app/options: --node-monitor-period 5 s (KubeCloudShared,
// kube-controller-manager's defaults), --node-eviction-rate 0.1, --secondary-node-eviction-rate
// 0.01, --large-cluster-size-threshold 50, --unhealthy-zone-threshold 0.55
// (nodelifecyclecontroller.go AddFlags).
export const DEFAULT_NODE_MONITOR_PERIOD_MS = 5_000;
export const DEFAULT_NODE_EVICTION_RATE = 0.1;
export const DEFAULT_SECONDARY_NODE_EVICTION_RATE = 0.01;
export const DEFAULT_LARGE_CLUSTER_SIZE_THRESHOLD = 50;
export const DEFAULT_UNHEALTHY_ZONE_THRESHOLD = 0.55;
// pkg/controller/nodelifecycle/config/v1alpha1/defaults.go: --node-monitor-grace-period 50 s (40 s
// before 1.32), --node-startup-grace-period 60 s.
export const DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS = 50_000;
export const DEFAULT_NODE_STARTUP_GRACE_PERIOD_MS = 60_000;
// node_lifecycle_controller.go: retrySleepTime, podUpdateWorkerSize, nodeUpdateWorkerSize.
export const RETRY_SLEEP_TIME_MS = 20;
export const POD_UPDATE_WORKER_SIZE = 4;
export const NODE_UPDATE_WORKER_SIZE = 8;
// node_lifecycle_controller.go labelNodeDisruptionExclusion; k8s.io/api well_known_taints.go;
// v1.NamespaceNodeLease.
export const LABEL_NODE_DISRUPTION_EXCLUSION = 'node.kubernetes.io/exclude-disruption';
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_NODE_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_NODE_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const NAMESPACE_NODE_LEASE = 'kube-node-lease';
/** The event source of the controller's Events (NewNodeLifecycleController's recorder). */
export const NODE_CONTROLLER_COMPONENT = 'node-controller';

/** UnreachableTaintTemplate and NotReadyTaintTemplate. */
export const UNREACHABLE_TAINT_TEMPLATE: DeepReadonly<Taint> = { key: TAINT_NODE_UNREACHABLE, effect: 'NoExecute' };
export const NOT_READY_TAINT_TEMPLATE: DeepReadonly<Taint> = { key: TAINT_NODE_NOT_READY, effect: 'NoExecute' };

/** nodeConditionToTaintKeyStatusMap: the NoSchedule taint of each condition type and status. */
export const NODE_CONDITION_TO_TAINT_KEY_STATUS_MAP: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: TAINT_NODE_NOT_READY, Unknown: TAINT_NODE_UNREACHABLE },
  MemoryPressure: { True: TAINT_NODE_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_NODE_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NODE_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_NODE_PID_PRESSURE },
};

/** taintKeyToNodeConditionMap. */
const TAINT_KEY_TO_NODE_CONDITION: ReadonlySet<string> = new Set([
  TAINT_NODE_NOT_READY,
  TAINT_NODE_UNREACHABLE,
  TAINT_NODE_NETWORK_UNAVAILABLE,
  TAINT_NODE_MEMORY_PRESSURE,
  TAINT_NODE_DISK_PRESSURE,
  TAINT_NODE_PID_PRESSURE,
]);

/** labelReconcileInfo: the beta OS and arch labels kept equal to the GA ones (and added). */
const LABEL_RECONCILE_INFO = [
  { primaryKey: 'kubernetes.io/os', secondaryKey: 'beta.kubernetes.io/os', ensureSecondaryExists: true },
  { primaryKey: 'kubernetes.io/arch', secondaryKey: 'beta.kubernetes.io/arch', ensureSecondaryExists: true },
] as const;

/** ZoneState. */
export type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

type RNode = DeepReadonly<Node>;
type RCondition = DeepReadonly<NodeCondition>;

/** nodeHealthData: the last health signals seen, and when (ms on the controller's clock). */
interface NodeHealthData {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  status: NodeStatus;
  lease?: DeepReadonly<Lease> | undefined;
}

export interface NodeLifecycleControllerOptions {
  /** The shared informers: leases, pods (indexed by spec.nodeName) and nodes. */
  factory: SharedInformerFactory;
  /** kube-controller-manager's `node-controller` client (core.go startNodeLifecycleController). */
  client: Client;
  clock?: Clock;
  /** A failure the Go logs or hands to utilruntime.HandleError. */
  onError?: (err: unknown, key: string) => void;
  /** --node-monitor-grace-period (default 50 s). */
  nodeMonitorGracePeriodMs?: number;
  /** --node-startup-grace-period (default 60 s). */
  nodeStartupGracePeriodMs?: number;
  /** --node-monitor-period (default 5 s). */
  nodeMonitorPeriodMs?: number;
  /** --node-eviction-rate (nodes tainted a second per zone; default 0.1). */
  evictionLimiterQPS?: number;
  /** --secondary-node-eviction-rate (default 0.01). */
  secondaryEvictionLimiterQPS?: number;
  /** --large-cluster-size-threshold (default 50). */
  largeClusterThreshold?: number;
  /** --unhealthy-zone-threshold (default 0.55). */
  unhealthyZoneThreshold?: number;
  logger?: Logger;
}

/** What tryUpdateNodeHealth answers. */
interface HealthResult {
  gracePeriod: number;
  observedReadyCondition: NodeCondition;
  currentReadyCondition: NodeCondition | undefined;
}

/** Time (RFC 3339, seconds) to ms; 0 for none. */
function timeMs(t: string | null | undefined): number {
  return t ? Date.parse(t) || 0 : 0;
}

/** MicroTime to microseconds since the epoch (undefined for none). */
function microTime(t: string | null | undefined): number | undefined {
  if (!t) return undefined;
  const m = /^(.*?:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(t);
  if (m === null) return Date.parse(t) * 1000;
  const seconds = Date.parse(`${m[1]}${m[3]}`);
  const fraction = Number(`0.${m[2] ?? '0'}`);
  return seconds * 1000 + Math.floor(fraction * 1_000_000);
}

/** Semantic.DeepEqual of two node conditions. */
function conditionsEqual(a: RCondition | undefined, b: RCondition | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.type === b.type &&
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '') &&
    timeMs(a.lastHeartbeatTime) === timeMs(b.lastHeartbeatTime) &&
    timeMs(a.lastTransitionTime) === timeMs(b.lastTransitionTime)
  );
}

/** isNodeExcludedFromDisruptionChecks. */
function isNodeExcludedFromDisruptionChecks(node: RNode): boolean {
  return LABEL_NODE_DISRUPTION_EXCLUSION in (node.metadata?.labels ?? {});
}

export class NodeLifecycleController implements Controller {
  readonly name = NODE_LIFECYCLE_CONTROLLER;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly onError: (err: unknown, key: string) => void;
  private readonly logger: Logger;
  private readonly recorder: EventRecorder;
  private readonly util: NodeUtilContext;
  private readonly leases: SharedIndexInformer<Lease>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly handlers = new Registrations();

  private readonly nodeMonitorPeriod: number;
  private readonly nodeStartupGracePeriod: number;
  private readonly nodeMonitorGracePeriod: number;
  private readonly evictionLimiterQPS: number;
  private readonly secondaryEvictionLimiterQPS: number;
  private readonly largeClusterThreshold: number;
  private readonly unhealthyZoneThreshold: number;

  /** knownNodeSet. */
  private readonly knownNodeSet = new Map<string, RNode>();
  /** nodeHealthMap. */
  private readonly nodeHealthMap = new Map<string, NodeHealthData>();
  /** zoneNoExecuteTainter: per zone, the nodes waiting for their NoExecute taint. */
  readonly zoneNoExecuteTainter = new Map<string, RateLimitedTimedQueue>();
  /** nodesToRetry: nodes whose pods still need marking not ready. */
  private readonly nodesToRetry = new Set<string>();
  /** zoneStates. */
  readonly zoneStates = new Map<string, ZoneState>();

  private readonly nodeUpdateQueue: WorkQueue<string>;
  private readonly podUpdateQueue: WorkQueue<string>;
  private stopped = false;
  private readonly cancels: Array<() => void> = [];
  private readonly loops = new Set<Promise<void>>();

  constructor(options: NodeLifecycleControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.onError = options.onError ?? (() => {});
    this.logger = options.logger ?? discardLogger;
    this.nodeMonitorPeriod = options.nodeMonitorPeriodMs ?? DEFAULT_NODE_MONITOR_PERIOD_MS;
    this.nodeStartupGracePeriod = options.nodeStartupGracePeriodMs ?? DEFAULT_NODE_STARTUP_GRACE_PERIOD_MS;
    this.nodeMonitorGracePeriod = options.nodeMonitorGracePeriodMs ?? DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS;
    this.evictionLimiterQPS = Math.fround(options.evictionLimiterQPS ?? DEFAULT_NODE_EVICTION_RATE);
    this.secondaryEvictionLimiterQPS = Math.fround(
      options.secondaryEvictionLimiterQPS ?? DEFAULT_SECONDARY_NODE_EVICTION_RATE,
    );
    this.largeClusterThreshold = options.largeClusterThreshold ?? DEFAULT_LARGE_CLUSTER_SIZE_THRESHOLD;
    this.unhealthyZoneThreshold = Math.fround(options.unhealthyZoneThreshold ?? DEFAULT_UNHEALTHY_ZONE_THRESHOLD);
    this.recorder = new EventRecorder({ client: this.client, clock: this.clock, component: NODE_CONTROLLER_COMPONENT });
    this.util = { client: this.client, clock: this.clock, recorder: this.recorder, onError: this.onError };
    this.nodeUpdateQueue = new WorkQueue<string>({ clock: this.clock });
    this.podUpdateQueue = new WorkQueue<string>({
      clock: this.clock,
      rateLimiter: defaultControllerRateLimiter(this.clock),
    });

    this.leases = options.factory.informerFor(RESOURCES.leases);
    this.pods = options.factory.informerFor(RESOURCES.pods);
    addPodNodeNameIndexer(this.pods);
    this.nodes = options.factory.informerFor(RESOURCES.nodes);
    this.handlers.add(this.pods, {
      onAdd: (pod) => this.podUpdated(undefined, pod),
      onUpdate: (old, pod) => this.podUpdated(old, pod),
    });
    this.handlers.add(this.nodes, {
      onAdd: (node) => this.nodeUpdateQueue.add(node.metadata?.name ?? ''),
      onUpdate: (_old, node) => this.nodeUpdateQueue.add(node.metadata?.name ?? ''),
      onDelete: (node) => this.nodesToRetry.delete(node.metadata?.name ?? ''),
    });
    this.handlers.add(this.leases, {});
  }

  /**
   * Run: waits for the lease, node and pod caches, then starts the node workers (NoSchedule taints
   * and labels), the pod workers, the NoExecute tainting pass every 100 ms and monitorNodeHealth every
   * --node-monitor-period, each period counted from the end of the last pass (wait.Until).
   */
  async run(): Promise<void> {
    this.logger.info('Starting node controller');
    if (!(await this.handlers.synced()) || this.stopped) return;
    for (let i = 0; i < NODE_UPDATE_WORKER_SIZE; i++) this.track(this.nodeWorker());
    for (let i = 0; i < POD_UPDATE_WORKER_SIZE; i++) this.track(this.podWorker());
    this.every(NODE_EVICTION_PERIOD_MS, () => this.doNoExecuteTaintingPass());
    this.every(this.nodeMonitorPeriod, async () => {
      try {
        await this.monitorNodeHealth();
      } catch (err) {
        this.logger.error(err, 'Error monitoring node health');
        this.onError(err, '');
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const cancel of this.cancels.splice(0)) cancel();
    this.nodeUpdateQueue.shutDown();
    this.podUpdateQueue.shutDown();
    this.handlers.removeAll();
    while (this.loops.size > 0) await Promise.all([...this.loops]);
    await this.recorder.flush();
    this.logger.info('Shutting down node controller');
  }

  /** Resolves once the events recorded so far are written (tests). */
  flushEvents(): Promise<void> {
    return this.recorder.flush();
  }

  private track(p: Promise<void>): void {
    this.loops.add(p);
    void p.finally(() => this.loops.delete(p));
  }

  /** wait.UntilWithContext: `fn` now, then `period` after each run ends, until stopped. */
  private every(period: number, fn: () => Promise<void>): void {
    const loop = (): void => {
      if (this.stopped) return;
      const pass = fn().then(() => {
        if (!this.stopped) this.cancels.push(this.clock.setTimer(loop, period));
      });
      this.track(pass);
    };
    loop();
  }

  private async nodeWorker(): Promise<void> {
    for (;;) {
      const nodeName = await this.nodeUpdateQueue.get();
      if (nodeName === undefined) return;
      try {
        await this.doNoScheduleTaintingPass(nodeName);
      } catch (err) {
        this.logger.error(err, 'Failed to taint NoSchedule on node, requeue it', { node: nodeName });
        this.onError(err, nodeName);
      }
      try {
        await this.reconcileNodeLabels(nodeName);
      } catch (err) {
        this.logger.error(err, 'Failed to reconcile labels for node, requeue it', { node: nodeName });
        this.onError(err, nodeName);
      }
      this.nodeUpdateQueue.done(nodeName);
    }
  }

  private async podWorker(): Promise<void> {
    for (;;) {
      const key = await this.podUpdateQueue.get();
      if (key === undefined) return;
      try {
        await this.processPod(key);
      } finally {
        this.podUpdateQueue.done(key);
      }
    }
  }

  /** doNoScheduleTaintingPass: the node's condition and unschedulable NoSchedule taints made to match. */
  async doNoScheduleTaintingPass(nodeName: string): Promise<void> {
    const node = this.nodes.get(undefined, nodeName);
    if (node === undefined) return;
    const taints: Taint[] = [];
    for (const condition of node.status?.conditions ?? []) {
      const key = NODE_CONDITION_TO_TAINT_KEY_STATUS_MAP[condition.type]?.[condition.status];
      if (key !== undefined) taints.push({ key, effect: 'NoSchedule' });
    }
    if (node.spec?.unschedulable === true) taints.push({ key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
    const nodeTaints = (node.spec?.taints ?? []).filter(
      (t) =>
        t.effect === 'NoSchedule' && (t.key === TAINT_NODE_UNSCHEDULABLE || TAINT_KEY_TO_NODE_CONDITION.has(t.key)),
    );
    const [toAdd, toDel] = taintSetDiff(taints, nodeTaints);
    if (toAdd.length === 0 && toDel.length === 0) return;
    if (!(await swapNodeControllerTaint(this.util, toAdd, toDel, node))) {
      throw new Error(`failed to swap taints of node ${nodeName}`);
    }
  }

  /** doNoExecuteTaintingPass: each zone's tainter tried: not-ready or unreachable NoExecute, the other removed. */
  async doNoExecuteTaintingPass(): Promise<void> {
    for (const tainter of [...this.zoneNoExecuteTainter.values()]) {
      await tainter.try(async (value) => {
        const node = this.nodes.get(undefined, value.value);
        if (node === undefined) {
          this.logger.info('Node no longer present in nodeLister', { node: value.value });
          return [true, 0];
        }
        const condition = getNodeCondition(node.status, 'Ready');
        if (condition === undefined) {
          this.logger.info('Failed to get NodeCondition from the node status', { node: value.value });
          return [false, 50];
        }
        let taintToAdd: DeepReadonly<Taint>;
        let oppositeTaint: DeepReadonly<Taint>;
        switch (condition.status) {
          case 'False':
            taintToAdd = NOT_READY_TAINT_TEMPLATE;
            oppositeTaint = UNREACHABLE_TAINT_TEMPLATE;
            break;
          case 'Unknown':
            taintToAdd = UNREACHABLE_TAINT_TEMPLATE;
            oppositeTaint = NOT_READY_TAINT_TEMPLATE;
            break;
          default:
            return [true, 0];
        }
        return [await swapNodeControllerTaint(this.util, [taintToAdd], [oppositeTaint], node), 0];
      });
    }
  }

  /**
   * monitorNodeHealth: new nodes registered (RegisteredNode), gone ones removed (RemovingNode);
   * each node's health updated (NODE_UPDATE_WORKER_SIZE at a time), its tainting decided and its pods
   * marked not ready on a Ready → not Ready transition; then the zones' states and limiters.
   */
  async monitorNodeHealth(): Promise<void> {
    const nodes = this.nodes.lister().list();
    const { added, deleted, newZoneRepresentatives } = this.classifyNodes(nodes);
    for (const node of newZoneRepresentatives) this.addPodEvictorForNewZone(node);
    for (const node of added) {
      const { name = '', uid = '' } = node.metadata ?? {};
      recordNodeEvent(this.recorder, name, uid, 'Normal', 'RegisteredNode', `Registered Node ${name} in Controller`);
      this.knownNodeSet.set(name, node);
      this.addPodEvictorForNewZone(node);
      try {
        await this.markNodeAsReachable(node);
      } catch {
        // Logged by markNodeAsReachable; the next pass tries again.
      }
    }
    for (const node of deleted) {
      const { name = '', uid = '' } = node.metadata ?? {};
      recordNodeEvent(this.recorder, name, uid, 'Normal', 'RemovingNode', `Removing Node ${name} from Controller`);
      this.knownNodeSet.delete(name);
    }

    const zoneToNodeConditions = new Map<string, Array<NodeCondition | undefined>>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < nodes.length) {
        const node = nodes[next++];
        if (node !== undefined) await this.updateNode(node, zoneToNodeConditions);
      }
    };
    await Promise.all(Array.from({ length: Math.min(NODE_UPDATE_WORKER_SIZE, nodes.length) }, worker));
    await this.handleDisruption(zoneToNodeConditions, nodes);
  }

  /** monitorNodeHealth's updateNodeFunc for one node. */
  private async updateNode(
    cached: RNode,
    zoneToNodeConditions: Map<string, Array<NodeCondition | undefined>>,
  ): Promise<void> {
    let node = structuredClone(cached) as Node;
    const name = node.metadata?.name ?? '';
    let result: HealthResult | undefined;
    // wait.PollImmediate(retrySleepTime, retrySleepTime*NodeHealthUpdateRetry): a failed update
    // retried on a fresh read.
    for (let attempt = 0; attempt < NODE_HEALTH_UPDATE_RETRY; attempt++) {
      if (attempt > 0) await new Promise<void>((r) => this.clock.setTimer(r, RETRY_SLEEP_TIME_MS));
      try {
        result = await this.tryUpdateNodeHealth(node);
        break;
      } catch {
        try {
          node = await this.client.get(RESOURCES.nodes, undefined, name);
        } catch (err) {
          this.logger.error(
            err,
            'Failed while getting a Node to retry updating node health. Probably Node was deleted',
            {
              node: name,
            },
          );
          break;
        }
      }
    }
    if (result === undefined) {
      this.logger.error(undefined, 'Update health of Node from Controller error, Skipping - no pods will be evicted', {
        node: name,
      });
      return;
    }
    const { observedReadyCondition: observed, currentReadyCondition: current } = result;
    if (!isNodeExcludedFromDisruptionChecks(node)) {
      const zone = getZoneKey(node);
      const list = zoneToNodeConditions.get(zone) ?? [];
      list.push(current);
      zoneToNodeConditions.set(zone, list);
    }
    if (current !== undefined) {
      const pods = this.pods.getIndexer().byIndex(POD_NODE_NAME_INDEX, name);
      await this.processTaintBaseEviction(node, observed);
      const needsRetry = this.nodesToRetry.has(name);
      const transitioned = current.status !== 'True' && observed.status === 'True';
      if (transitioned) recordNodeStatusChange(this.recorder, node, 'NodeNotReady');
      if (transitioned || (needsRetry && observed.status !== 'True')) {
        try {
          await markPodsNotReady(this.util, pods, name);
        } catch (err) {
          this.onError(
            new Error(`unable to mark all pods NotReady on node ${name}: ${String(err)}; queuing for retry`),
            name,
          );
          this.nodesToRetry.add(name);
          return;
        }
      }
    }
    this.nodesToRetry.delete(name);
  }

  /** processTaintBaseEviction: the node queued for (or swapped to) its NoExecute taint, or untainted when Ready. */
  private async processTaintBaseEviction(node: Node, observed: NodeCondition): Promise<void> {
    const taints = node.spec?.taints ?? [];
    switch (observed.status) {
      case 'False':
        if (taintExists(taints, UNREACHABLE_TAINT_TEMPLATE)) {
          if (
            !(await swapNodeControllerTaint(this.util, [NOT_READY_TAINT_TEMPLATE], [UNREACHABLE_TAINT_TEMPLATE], node))
          ) {
            this.logger.error(
              undefined,
              'Failed to instantly swap UnreachableTaint to NotReadyTaint. Will try again in the next cycle',
            );
          }
        } else {
          this.markNodeForTainting(node, 'False');
        }
        break;
      case 'Unknown':
        if (taintExists(taints, NOT_READY_TAINT_TEMPLATE)) {
          if (
            !(await swapNodeControllerTaint(this.util, [UNREACHABLE_TAINT_TEMPLATE], [NOT_READY_TAINT_TEMPLATE], node))
          ) {
            this.logger.error(
              undefined,
              'Failed to instantly swap NotReadyTaint to UnreachableTaint. Will try again in the next cycle',
            );
          }
        } else {
          this.markNodeForTainting(node, 'Unknown');
        }
        break;
      case 'True':
        try {
          await this.markNodeAsReachable(node);
        } catch {
          // Logged; retried in the next pass.
        }
        break;
    }
  }

  /**
   * tryUpdateNodeHealth: the node's health signals compared with the saved ones (probe and
   * transition timestamps), and its conditions set Unknown (written with UpdateStatus) once the
   * grace period has passed without a signal. Throws when the status write fails.
   */
  private async tryUpdateNodeHealth(node: Node): Promise<HealthResult> {
    const name = node.metadata?.name ?? '';
    const saved = this.nodeHealthMap.get(name);
    let nodeHealth: NodeHealthData | undefined = saved === undefined ? undefined : structuredClone(saved);
    const status: NodeStatus = node.status ?? {};
    node.status = status;
    const creation = timeMs(node.metadata?.creationTimestamp);
    const creationTime = node.metadata?.creationTimestamp ?? null;
    let gracePeriod: number;
    let observedReadyCondition: NodeCondition;
    let currentReadyCondition = getNodeCondition<NodeCondition>(status, 'Ready');
    try {
      if (currentReadyCondition === undefined) {
        // Never posted: a fake Unknown Ready as of the node's creation, and the startup grace period.
        observedReadyCondition = {
          type: 'Ready',
          status: 'Unknown',
          lastHeartbeatTime: creationTime,
          lastTransitionTime: creationTime,
        };
        gracePeriod = this.nodeStartupGracePeriod;
        if (nodeHealth !== undefined) nodeHealth.status = status;
        else nodeHealth = { status, probeTimestamp: creation, readyTransitionTimestamp: creation };
      } else {
        observedReadyCondition = { ...currentReadyCondition };
        gracePeriod = this.nodeMonitorGracePeriod;
      }
      let savedCondition: NodeCondition | undefined;
      let savedLease: DeepReadonly<Lease> | undefined;
      if (nodeHealth !== undefined) {
        savedCondition = getNodeCondition<NodeCondition>(nodeHealth.status, 'Ready');
        savedLease = nodeHealth.lease;
      }
      const now = this.clock.now();
      if (nodeHealth === undefined) {
        nodeHealth = { status, probeTimestamp: now, readyTransitionTimestamp: now };
      } else if (savedCondition === undefined && currentReadyCondition !== undefined) {
        nodeHealth = { status, probeTimestamp: now, readyTransitionTimestamp: now };
      } else if (savedCondition !== undefined && currentReadyCondition === undefined) {
        this.logger.error(undefined, 'ReadyCondition was removed from Status of Node', { node: name });
        nodeHealth = { status, probeTimestamp: now, readyTransitionTimestamp: now };
      } else if (
        savedCondition !== undefined &&
        currentReadyCondition !== undefined &&
        timeMs(savedCondition.lastHeartbeatTime) !== timeMs(currentReadyCondition.lastHeartbeatTime)
      ) {
        const transitionTime =
          timeMs(savedCondition.lastTransitionTime) !== timeMs(currentReadyCondition.lastTransitionTime)
            ? now
            : nodeHealth.readyTransitionTimestamp;
        nodeHealth = { status, probeTimestamp: now, readyTransitionTimestamp: transitionTime };
      }
      // A renewed lease is a probe too (a node that never posted status but renews is healthy).
      const observedLease = this.leases.get(NAMESPACE_NODE_LEASE, name);
      if (observedLease !== undefined && (savedLease === undefined || microBefore(savedLease, observedLease))) {
        nodeHealth.lease = observedLease;
        nodeHealth.probeTimestamp = now;
      }

      if (now > nodeHealth.probeTimestamp + gracePeriod) {
        const nowTimestamp = rfc3339(now);
        for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
          const current = getNodeCondition<NodeCondition>(status, type);
          if (current === undefined) {
            status.conditions = [
              ...(status.conditions ?? []),
              {
                type,
                status: 'Unknown',
                reason: 'NodeStatusNeverUpdated',
                message: 'Kubelet never posted node status.',
                lastHeartbeatTime: creationTime,
                lastTransitionTime: nowTimestamp,
              },
            ];
          } else if (current.status !== 'Unknown') {
            current.status = 'Unknown';
            current.reason = 'NodeStatusUnknown';
            current.message = 'Kubelet stopped posting node status.';
            current.lastTransitionTime = nowTimestamp;
          }
        }
        currentReadyCondition = getNodeCondition<NodeCondition>(status, 'Ready');
        if (!conditionsEqual(currentReadyCondition, observedReadyCondition)) {
          try {
            await this.client.updateStatus(RESOURCES.nodes, undefined, node);
          } catch (err) {
            this.logger.error(err, 'Error updating node', { node: name });
            throw err;
          }
          nodeHealth = {
            status,
            probeTimestamp: nodeHealth.probeTimestamp,
            readyTransitionTimestamp: this.clock.now(),
            lease: observedLease,
          };
        }
      }
      return { gracePeriod, observedReadyCondition, currentReadyCondition };
    } finally {
      if (nodeHealth !== undefined) this.nodeHealthMap.set(name, nodeHealth);
    }
  }

  /** handleDisruption: each zone's new state, the limiters swapped, and the all-zones full-disruption mode. */
  private async handleDisruption(
    zoneToNodeConditions: Map<string, Array<NodeCondition | undefined>>,
    nodes: readonly RNode[],
  ): Promise<void> {
    const newZoneStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [zone, conditions] of zoneToNodeConditions) {
      const [, newState] = this.computeZoneState(conditions);
      if (newState !== 'FullDisruption') allAreFullyDisrupted = false;
      newZoneStates.set(zone, newState);
      if (!this.zoneStates.has(zone)) {
        this.logger.error(undefined, 'Setting initial state for unseen zone', { zone });
        this.zoneStates.set(zone, 'Initial');
      }
    }
    let allWasFullyDisrupted = true;
    for (const [zone, state] of [...this.zoneStates]) {
      if (!zoneToNodeConditions.has(zone)) {
        this.zoneStates.delete(zone);
        continue;
      }
      if (state !== 'FullDisruption') {
        allWasFullyDisrupted = false;
        break;
      }
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return;
    if (allAreFullyDisrupted) {
      this.logger.info('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      for (const node of nodes) {
        try {
          await this.markNodeAsReachable(node);
        } catch {
          this.logger.error(undefined, 'Failed to remove taints from Node', { node: node.metadata?.name });
        }
      }
      for (const zone of this.zoneStates.keys()) await this.zoneNoExecuteTainter.get(zone)?.swapLimiter(0);
      for (const zone of this.zoneStates.keys()) this.zoneStates.set(zone, 'FullDisruption');
      return;
    }
    if (allWasFullyDisrupted) {
      this.logger.info('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      const now = this.clock.now();
      for (const node of nodes) {
        const health = this.nodeHealthMap.get(node.metadata?.name ?? '');
        if (health === undefined) continue;
        health.probeTimestamp = now;
        health.readyTransitionTimestamp = now;
      }
      for (const zone of [...this.zoneStates.keys()]) {
        const state = newZoneStates.get(zone);
        await this.setLimiterInZone(zone, zoneToNodeConditions.get(zone)?.length ?? 0, state);
        if (state !== undefined) this.zoneStates.set(zone, state);
      }
      return;
    }
    for (const [zone, state] of [...this.zoneStates]) {
      const newState = newZoneStates.get(zone);
      if (state === newState) continue;
      this.logger.info('Controller detected that zone is now in new state', { zone, newState });
      await this.setLimiterInZone(zone, zoneToNodeConditions.get(zone)?.length ?? 0, newState);
      if (newState !== undefined) this.zoneStates.set(zone, newState);
    }
  }

  /** podUpdated: a pod newly bound (or moved) to a node is queued. */
  private podUpdated(oldPod: DeepReadonly<Pod> | undefined, newPod: DeepReadonly<Pod>): void {
    const nodeName = newPod.spec?.nodeName ?? '';
    if (nodeName !== '' && (oldPod === undefined || nodeName !== (oldPod.spec?.nodeName ?? ''))) {
      this.podUpdateQueue.add(`${newPod.metadata?.namespace ?? ''}/${newPod.metadata?.name ?? ''}`);
    }
  }

  /** processPod: a pod bound to a node that is not Ready is marked not ready. */
  private async processPod(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const pod = this.pods.get(key.slice(0, slash), key.slice(slash + 1));
    if (pod === undefined) return;
    const nodeName = pod.spec?.nodeName ?? '';
    const nodeHealth = this.nodeHealthMap.get(nodeName);
    if (nodeHealth === undefined) return;
    if (this.nodes.get(undefined, nodeName) === undefined) {
      this.logger.info('Failed to read node', { node: nodeName });
      this.podUpdateQueue.addRateLimited(key);
      return;
    }
    const current = getNodeCondition<NodeCondition>(nodeHealth.status, 'Ready');
    if (current === undefined) return;
    if (current.status !== 'True') {
      try {
        await markPodsNotReady(this.util, [pod], nodeName);
      } catch (err) {
        this.logger.info('Unable to mark pod NotReady on node', { pod: key, node: nodeName, err: String(err) });
        this.podUpdateQueue.addRateLimited(key);
      }
    }
  }

  private async setLimiterInZone(zone: string, zoneSize: number, state: ZoneState | undefined): Promise<void> {
    const tainter = this.zoneNoExecuteTainter.get(zone);
    if (tainter === undefined) return;
    switch (state) {
      case 'Normal':
        await tainter.swapLimiter(this.evictionLimiterQPS);
        break;
      case 'PartialDisruption':
        await tainter.swapLimiter(this.reducedQPSFunc(zoneSize));
        break;
      case 'FullDisruption':
        await tainter.swapLimiter(this.healthyQPSFunc(zoneSize));
        break;
      default:
        break;
    }
  }

  /** classifyNodes: nodes new to the controller, nodes gone, and known nodes of a zone without a state. */
  private classifyNodes(allNodes: readonly RNode[]): {
    added: RNode[];
    deleted: RNode[];
    newZoneRepresentatives: RNode[];
  } {
    const added: RNode[] = [];
    const deleted: RNode[] = [];
    const newZoneRepresentatives: RNode[] = [];
    for (const node of allNodes) {
      if (!this.knownNodeSet.has(node.metadata?.name ?? '')) added.push(node);
      else if (!this.zoneStates.has(getZoneKey(node))) newZoneRepresentatives.push(node);
    }
    if (this.knownNodeSet.size + added.length !== allNodes.length) {
      const names = new Set(allNodes.map((n) => n.metadata?.name ?? ''));
      for (const [name, node] of this.knownNodeSet) if (!names.has(name)) deleted.push(node);
    }
    return { added, deleted, newZoneRepresentatives };
  }

  /** HealthyQPSFunc. */
  healthyQPSFunc(_nodeNum: number): number {
    return this.evictionLimiterQPS;
  }

  /** ReducedQPSFunc: the secondary rate above the large-cluster threshold, else 0. */
  reducedQPSFunc(nodeNum: number): number {
    return nodeNum > this.largeClusterThreshold ? this.secondaryEvictionLimiterQPS : 0;
  }

  /** addPodEvictorForNewZone: a zone seen for the first time gets its state and tainter. */
  private addPodEvictorForNewZone(node: RNode): void {
    const zone = getZoneKey(node);
    if (this.zoneStates.has(zone)) return;
    this.zoneStates.set(zone, 'Initial');
    this.zoneNoExecuteTainter.set(
      zone,
      new RateLimitedTimedQueue(
        new TokenBucketRateLimiter(this.evictionLimiterQPS, EVICTION_RATE_LIMITER_BURST, this.clock),
        this.clock,
      ),
    );
    this.logger.info('Initializing eviction metric for zone', { zone });
  }

  /** markNodeForTainting: the node (re)queued in its zone's tainter unless it waits there already. */
  private markNodeForTainting(node: RNode, status: 'False' | 'Unknown'): boolean {
    const tainter = this.zoneNoExecuteTainter.get(getZoneKey(node));
    if (tainter === undefined) return false;
    const taints = node.spec?.taints ?? [];
    const name = node.metadata?.name ?? '';
    if (status === 'False' && !taintExists(taints, NOT_READY_TAINT_TEMPLATE)) tainter.remove(name);
    if (status === 'Unknown' && !taintExists(taints, UNREACHABLE_TAINT_TEMPLATE)) tainter.remove(name);
    return tainter.add(name, node.metadata?.uid ?? '');
  }

  /** markNodeAsReachable: both NoExecute taints removed, the node out of its zone's tainter. */
  private async markNodeAsReachable(node: RNode): Promise<boolean> {
    const name = node.metadata?.name ?? '';
    try {
      await removeTaintOffNode(this.util, name, node, [UNREACHABLE_TAINT_TEMPLATE]);
    } catch (err) {
      this.logger.error(err, 'Failed to remove unreachable taint from node', { node: name });
      throw err;
    }
    try {
      await removeTaintOffNode(this.util, name, node, [NOT_READY_TAINT_TEMPLATE]);
    } catch (err) {
      this.logger.error(err, 'Failed to remove not-ready taint from node', { node: name });
      throw err;
    }
    return this.zoneNoExecuteTainter.get(getZoneKey(node))?.remove(name) ?? false;
  }

  /**
   * ComputeZoneState: FullDisruption when no node is Ready (and some are not), PartialDisruption when
   * more than 2 are not Ready and they are at least the unhealthy-zone threshold, else Normal; with
   * the number not Ready.
   */
  computeZoneState(conditions: ReadonlyArray<RCondition | undefined>): [number, ZoneState] {
    let ready = 0;
    let notReady = 0;
    for (const c of conditions) {
      if (c !== undefined && c.status === 'True') ready++;
      else notReady++;
    }
    if (ready === 0 && notReady > 0) return [notReady, 'FullDisruption'];
    if (notReady > 2 && Math.fround(notReady / (notReady + ready)) >= this.unhealthyZoneThreshold) {
      return [notReady, 'PartialDisruption'];
    }
    return [notReady, 'Normal'];
  }

  /** reconcileNodeLabels: the beta OS and arch labels set from the GA ones. */
  async reconcileNodeLabels(nodeName: string): Promise<void> {
    const node = this.nodes.get(undefined, nodeName);
    const labels = node?.metadata?.labels;
    if (labels === undefined) return;
    const labelsToUpdate: Record<string, string> = {};
    for (const r of LABEL_RECONCILE_INFO) {
      const primary = labels[r.primaryKey];
      if (primary === undefined) continue;
      const secondary = labels[r.secondaryKey];
      if (secondary !== undefined && primary !== secondary) labelsToUpdate[r.secondaryKey] = primary;
      else if (secondary === undefined && r.ensureSecondaryExists) labelsToUpdate[r.secondaryKey] = primary;
    }
    if (Object.keys(labelsToUpdate).length === 0) return;
    if (!(await addOrUpdateLabelsOnNode(this.util, labelsToUpdate, nodeName))) {
      throw new Error(`failed update labels for node ${nodeName}`);
    }
  }
}

/** savedLease.Spec.RenewTime.Before(observedLease.Spec.RenewTime): false when either is unset. */
function microBefore(saved: DeepReadonly<Lease>, observed: DeepReadonly<Lease>): boolean {
  const a = microTime(saved.spec?.renewTime);
  const b = microTime(observed.spec?.renewTime);
  return a !== undefined && b !== undefined && a < b;
}
