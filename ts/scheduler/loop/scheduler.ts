// The scheduler's control loop (pkg/scheduler/scheduler.go + schedule_one.go): informers feed the
// wasm engine's cache (nodes, bound pods) and the scheduling queue (pending pods); one cycle at a
// time pops a pod, asks the engine for a node (which assumes the pod there), binds it through
// pods/binding and records the Event kube-scheduler would.
//
//   const scheduler = new Scheduler({ client, kubewasm, clock });
//   await scheduler.start();   // informers synced, loop running
//   …
//   await scheduler.stop();    // nothing left pending

import type { KubeObject } from '../../api/meta.js';
import { type Client, Informer, RESOURCES } from '../../client/index.js';
import type { Clock } from '../../sim/clock.js';
import type { Kubewasm } from '../../wasm/kubewasm.js';
import type { Placement, SchedulerEngine, SchedulerProfile } from '../../wasm/scheduler.js';
import {
  assignedPodUpdateEvents,
  type ClusterEvent,
  EventAssignedPodAdd,
  EventAssignedPodDelete,
  EventNodeAdd,
  EventNodeDelete,
  nodeUpdateEvents,
  type QueuedPodInfo,
  SchedulingQueue,
  SchedulingQueueError,
} from '../queue/index.js';
import { EventRecorder, SCHEDULER_COMPONENT } from './event-recorder.js';
import { rejectorsFromMessage } from './rejectors.js';

/** v1.DefaultSchedulerName. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** The fields of a Pod the loop reads. */
export interface Pod extends KubeObject {
  spec?: {
    nodeName?: string;
    schedulerName?: string;
    containers?: Array<{ resources?: { requests?: Record<string, string> } }>;
    tolerations?: unknown[];
    [field: string]: unknown;
  };
  status?: { phase?: string; [field: string]: unknown };
}

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: unknown[]; [field: string]: unknown };
  status?: {
    allocatable?: Record<string, string>;
    conditions?: Array<{ type?: string; status?: string }>;
    [field: string]: unknown;
  };
}

export interface SchedulerOptions {
  client: Client;
  /** The wasm core: the scheduler makes (and frees) its own engine with `newScheduler`. */
  kubewasm: Pick<Kubewasm, 'newScheduler'>;
  clock: Clock;
  /** Default: kube-scheduler's default profile, named "default-scheduler". */
  profile?: SchedulerProfile;
  /** Breaks score ties reproducibly. */
  seed?: bigint;
  /** A failed Event write or a failure outside a pod's cycle; default: console.error. */
  onError?: (err: unknown, context: string) => void;
}

export type SchedulerState = 'idle' | 'starting' | 'running' | 'stopped';

/** What one cycle did, for `onCycle` observers (tests, metrics). */
export type CycleResult =
  | { pod: string; result: 'scheduled'; node: string }
  | { pod: string; result: 'unschedulable'; message: string; plugins: string[] }
  | { pod: string; result: 'bind-failed'; node: string; error: unknown }
  | { pod: string; result: 'error'; error: unknown }
  | { pod: string; result: 'skipped' };

function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

function isAssigned(pod: Pod): boolean {
  return (pod.spec?.nodeName ?? '') !== '';
}

/** Succeeded or Failed: no longer holding resources (the cache drops terminated pods). */
function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class Scheduler {
  readonly schedulerName: string;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly engine: SchedulerEngine;
  private readonly queue: SchedulingQueue<Pod>;
  private readonly nodes: Informer<Node>;
  private readonly pods: Informer<Pod>;
  private readonly recorder: EventRecorder;
  private readonly onError: (err: unknown, context: string) => void;
  /** Bound pods whose node the engine does not know yet, by node name. */
  private readonly orphans = new Map<string, Map<string, Pod>>();
  private readonly cycleObservers: Array<(r: CycleResult) => void> = [];
  /** Background API writes (preemption deletes), awaited by stop(). */
  private readonly background = new Set<Promise<void>>();
  private state_: SchedulerState = 'idle';
  /** Resolves when stop() begins: start() waits on it too, so a stop during sync ends start(). */
  private readonly stopping: Promise<void>;
  private signalStop: () => void = () => {};
  private loop: Promise<void> | undefined;

  constructor(options: SchedulerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.schedulerName = options.profile?.schedulerName ?? DEFAULT_SCHEDULER_NAME;
    this.onError = options.onError ?? ((err, context) => console.error(`kubewasm scheduler: ${context}`, err));
    this.engine = options.kubewasm.newScheduler(options.profile, options.seed);
    this.stopping = new Promise((resolve) => {
      this.signalStop = resolve;
    });
    this.queue = new SchedulingQueue<Pod>({ clock: this.clock });
    this.nodes = new Informer<Node>(this.client, RESOURCES.nodes, { clock: this.clock });
    this.pods = new Informer<Pod>(this.client, RESOURCES.pods, { clock: this.clock });
    this.recorder = new EventRecorder(
      this.client,
      this.clock,
      (err, event) => this.onError(err, `recording event ${event.metadata?.name ?? ''}`),
      SCHEDULER_COMPONENT,
    );
    this.nodes.addEventHandler({
      onAdd: (n) => this.onNodeAdd(n),
      onUpdate: (o, n) => this.onNodeUpdate(o, n),
      onDelete: (n) => this.onNodeDelete(n),
    });
    this.pods.addEventHandler({
      onAdd: (p) => this.onPodAdd(p),
      onUpdate: (o, p) => this.onPodUpdate(o, p),
      onDelete: (p) => this.onPodDelete(p),
    });
  }

  get state(): SchedulerState {
    return this.state_;
  }

  /** Calls `fn` after every scheduling cycle. */
  onCycle(fn: (r: CycleResult) => void): void {
    this.cycleObservers.push(fn);
  }

  /** Syncs nodes first (so bound pods find their node), then pods, then runs the loop. */
  async start(): Promise<void> {
    if (this.state_ !== 'idle') return;
    this.state_ = 'starting';
    this.queue.run();
    this.nodes.start();
    await Promise.race([this.nodes.synced(), this.stopping]);
    if (this.isStopped()) return;
    this.pods.start();
    await Promise.race([this.pods.synced(), this.stopping]);
    if (this.isStopped()) return;
    this.state_ = 'running';
    this.loop = this.run();
  }

  /** Stops informers and the loop, waits for the cycle and event writes in flight, frees the engine. */
  async stop(): Promise<void> {
    if (this.state_ === 'stopped') return;
    this.state_ = 'stopped';
    this.signalStop();
    this.queue.close();
    await Promise.all([this.nodes.stop(), this.pods.stop()]);
    await this.loop;
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    await this.recorder.flush();
    this.engine.free();
  }

  /** The engine's explanation for a pod (every node, every plugin), e.g. for a UI. */
  explain(pod: Pod) {
    this.flushNodes();
    return this.engine.explain({ pod });
  }

  /** Queue contents by sub-queue, for tests and debugging. */
  pending() {
    return this.queue.pending();
  }

  private isStopped(): boolean {
    return this.state_ === 'stopped';
  }

  // ----- the cycle -----

  private async run(): Promise<void> {
    while (!this.isStopped()) {
      const info = await this.queue.pop();
      if (info === undefined) break;
      let result: CycleResult;
      try {
        result = await this.scheduleOne(info);
      } catch (err) {
        // A bug, not a verdict: keep the loop alive and retry the pod after backoff.
        this.onError(err, `scheduling ${info.key}`);
        this.requeue(info, this.queue.schedulingCycle());
        result = { pod: info.key, result: 'error', error: err };
      }
      for (const fn of this.cycleObservers) fn(result);
    }
  }

  private async scheduleOne(info: QueuedPodInfo<Pod>): Promise<CycleResult> {
    const cycle = this.queue.schedulingCycle();
    // The queued copy may be stale: the cache says whether the pod still waits for us.
    const pod = this.pods.getByKey(info.key);
    if (pod === undefined || isAssigned(pod) || !this.isResponsible(pod) || pod.metadata?.deletionTimestamp) {
      this.queue.done(info.key);
      return { pod: info.key, result: 'skipped' };
    }
    info.pod = pod;
    this.flushNodes();
    const [placement] = this.engine.scheduleBatch([{ pod }]) as [Placement];
    if (placement.error !== undefined) {
      this.recorder.record(pod, 'Warning', 'FailedScheduling', placement.error.message);
      this.requeue(info, cycle);
      return { pod: info.key, result: 'error', error: placement.error };
    }
    if (placement.node === undefined) return this.handleUnschedulable(info, pod, placement, cycle);

    const node = placement.node;
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    try {
      await this.client.bind(ns, name, node);
    } catch (err) {
      // ForgetPod: the assumption must not hold capacity the pod never took.
      this.forget(ns, name);
      this.recorder.record(pod, 'Warning', 'FailedScheduling', `Binding rejected: ${errorMessage(err)}`);
      this.requeue(info, cycle);
      return { pod: info.key, result: 'bind-failed', node, error: err };
    }
    this.queue.done(info.key);
    // schedule_one.go finishBinding: Eventf(…, "Scheduled", "Binding", "Successfully assigned %v/%v to %v").
    this.recorder.record(pod, 'Normal', 'Scheduled', `Successfully assigned ${ns}/${name} to ${node}`);
    return { pod: info.key, result: 'scheduled', node };
  }

  private handleUnschedulable(info: QueuedPodInfo<Pod>, pod: Pod, placement: Placement, cycle: number): CycleResult {
    const message = placement.message ?? '';
    const plugins = rejectorsFromMessage(message) ?? this.rejectorsFromExplain(pod);
    for (const p of plugins) info.unschedulablePlugins.add(p);
    if (placement.victims !== undefined && placement.victims.length > 0) this.evict(placement.victims);
    this.requeue(info, cycle);
    this.recorder.record(pod, 'Warning', 'FailedScheduling', message);
    return { pod: info.key, result: 'unschedulable', message, plugins: [...plugins] };
  }

  /** The slow path: a message with a reason this loop does not know; ask the engine node by node. */
  private rejectorsFromExplain(pod: Pod): Set<string> {
    const plugins = new Set<string>();
    for (const node of this.engine.explain({ pod }).nodes) {
      for (const f of node.filters) if (f.code !== 'Success' && f.code !== 'Skip') plugins.add(f.plugin);
    }
    return plugins;
  }

  /** Preemption chose victims (already dropped from the engine): delete them through the API. */
  private evict(victims: string[]): void {
    for (const key of victims) {
      const [ns = '', name = ''] = key.split('/');
      const write = this.client.delete(RESOURCES.pods, ns, name).then(
        () => undefined,
        (err: unknown) => this.onError(err, `preempting ${key}`),
      );
      this.background.add(write);
      void write.finally(() => this.background.delete(write));
    }
  }

  private requeue(info: QueuedPodInfo<Pod>, cycle: number): void {
    try {
      this.queue.addUnschedulableIfNotPresent(info, cycle);
    } catch (err) {
      // An update during the cycle already re-queued the pod: nothing to do.
      if (!(err instanceof SchedulingQueueError)) throw err;
    }
  }

  private forget(ns: string, name: string): void {
    try {
      this.engine.removePod(ns, name);
    } catch (err) {
      if (errorCode(err) !== 'E_UNKNOWN_POD') throw err;
    }
  }

  private isResponsible(pod: Pod): boolean {
    return (pod.spec?.schedulerName || DEFAULT_SCHEDULER_NAME) === this.schedulerName;
  }

  private move(event: ClusterEvent): void {
    this.queue.moveAllToActiveOrBackoffQueue(event);
  }

  // ----- nodes -----

  /**
   * Node adds and updates are gathered and handed to the engine in one call (an informer's
   * initial list of thousands of nodes crosses the wasm boundary once), before anything that
   * reads or depends on the node table.
   */
  private readonly pendingNodes = new Map<string, Node>();

  private upsertNode(node: Node): void {
    this.pendingNodes.set(node.metadata?.name ?? '', node);
  }

  private flushNodes(): void {
    if (this.pendingNodes.size === 0) return;
    const nodes = [...this.pendingNodes.values()];
    this.pendingNodes.clear();
    try {
      this.engine.upsertNodes(nodes);
    } catch {
      // One node the engine cannot read must not keep the others out: add them one by one.
      for (const node of nodes) {
        try {
          this.engine.upsertNodes([node]);
        } catch (err) {
          this.onError(err, `node ${node.metadata?.name ?? ''}`);
        }
      }
    }
  }

  private onNodeAdd(node: Node): void {
    this.upsertNode(node);
    const name = node.metadata?.name ?? '';
    const waiting = this.orphans.get(name);
    if (waiting !== undefined) {
      this.orphans.delete(name);
      for (const pod of waiting.values()) this.addAssigned(pod);
    }
    this.move(EventNodeAdd);
  }

  private onNodeUpdate(oldNode: Node, node: Node): void {
    this.upsertNode(node);
    for (const event of nodeUpdateEvents(oldNode, node)) this.move(event);
  }

  private onNodeDelete(node: Node): void {
    this.flushNodes();
    try {
      this.engine.removeNode(node.metadata?.name ?? '');
    } catch (err) {
      if (errorCode(err) !== 'E_UNKNOWN_NODE') throw err;
    }
    this.move(EventNodeDelete);
  }

  // ----- pods -----

  private onPodAdd(pod: Pod): void {
    if (isAssigned(pod)) {
      if (isTerminal(pod)) return;
      this.addAssigned(pod);
      this.move(EventAssignedPodAdd);
    } else if (this.isResponsible(pod)) {
      this.queue.add(pod);
    }
  }

  private onPodUpdate(oldPod: Pod, pod: Pod): void {
    if (isAssigned(pod)) {
      if (!isAssigned(oldPod)) {
        // Bound (by us or anyone): it leaves the queue and joins the cache.
        this.queue.delete(oldPod);
        this.addAssigned(pod);
        this.move(EventAssignedPodAdd);
      } else if (isTerminal(pod)) {
        if (!isTerminal(oldPod)) this.removeAssigned(pod);
      } else {
        this.addAssigned(pod);
        for (const event of assignedPodUpdateEvents(oldPod, pod)) this.move(event);
      }
    } else if (this.isResponsible(pod)) {
      this.queue.update(oldPod, pod);
    } else if (this.isResponsible(oldPod)) {
      this.queue.delete(oldPod);
    }
  }

  private onPodDelete(pod: Pod): void {
    if (isAssigned(pod)) {
      if (!isTerminal(pod)) this.removeAssigned(pod);
    } else if (this.isResponsible(pod)) {
      this.queue.delete(pod);
    }
  }

  /** Adds (or confirms, or replaces) a bound pod in the engine; parks it while its node is unknown. */
  private addAssigned(pod: Pod): void {
    this.flushNodes(); // the pod's node must be in the table first
    try {
      this.engine.addPods([pod]);
    } catch (err) {
      if (errorCode(err) !== 'E_UNKNOWN_NODE') throw err;
      const node = pod.spec?.nodeName ?? '';
      const waiting = this.orphans.get(node) ?? new Map<string, Pod>();
      this.orphans.set(node, waiting);
      waiting.set(podKey(pod), pod);
    }
  }

  private removeAssigned(pod: Pod): void {
    const node = pod.spec?.nodeName ?? '';
    if (this.orphans.get(node)?.delete(podKey(pod))) return;
    this.forget(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
    this.move(EventAssignedPodDelete);
  }
}
