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
import { isNotFound } from '../../api/status.js';
import { EventRecorder } from '../../client/event-recorder.js';
import { type Client, Informer, RESOURCES } from '../../client/index.js';
import type { Clock } from '../../sim/clock.js';
import type { Kubewasm } from '../../wasm/kubewasm.js';
import type { Explanation, Placement, SchedulerEngine, SchedulerProfile } from '../../wasm/scheduler.js';
import {
  assignedPodUpdateEvents,
  type ClusterEvent,
  EventAssignedPodAdd,
  EventAssignedPodDelete,
  EventNodeAdd,
  EventNodeDelete,
  nodeUpdateEvents,
  pluginEventsTable,
  type QueuedPodInfo,
  SchedulingQueue,
  SchedulingQueueError,
} from '../queue/index.js';
import { rfc3339, SCHEDULER_COMPONENT } from './event-recorder.js';

/** v1.DefaultSchedulerName. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/**
 * Pods popped and handed to the engine in one call when activeQ holds several: the engine places
 * them in order, assuming each before the next, exactly as that many one-pod cycles would.
 */
export const MAX_BATCH = 256;

/** validation.NoteLengthLimit (apimachinery/pkg/api/validation/events.go): schedule_one.go truncateMessage. */
const NOTE_LENGTH_LIMIT = 1024;

/** The PostFilter part of a FitError when preemption searched and found no candidate (preemption.go Preempt). */
const PREEMPTION_FOUND_NONE = / preemption: 0\/\d+ nodes are available: /;

/** v1.PodReasonUnschedulable and v1.PodReasonSchedulerError (k8s.io/api/core/v1/types.go). */
export const POD_REASON_UNSCHEDULABLE = 'Unschedulable';
export const POD_REASON_SCHEDULER_ERROR = 'SchedulerError';

/** The fields of a Pod the loop reads. */
export interface Pod extends KubeObject {
  spec?: {
    nodeName?: string;
    schedulerName?: string;
    containers?: Array<{ resources?: { requests?: Record<string, string> } }>;
    tolerations?: unknown[];
    [field: string]: unknown;
  };
  status?: {
    phase?: string;
    nominatedNodeName?: string;
    conditions?: PodCondition[];
    [field: string]: unknown;
  };
}

/** v1.PodCondition. */
export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
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

/** schedule_one.go truncateMessage: at most NoteLengthLimit bytes, ending in " ..." when cut. */
export function truncateMessage(message: string): string {
  if (message.length <= NOTE_LENGTH_LIMIT) return message;
  const suffix = ' ...';
  return message.slice(0, NOTE_LENGTH_LIMIT - suffix.length) + suffix;
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
  /** Pods assumed in the engine whose pods/binding has not answered yet. */
  private readonly binding = new Set<string>();
  /** Background API writes (bindings, pod status, preemption deletes), awaited by stop(). */
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
    // The events each plugin of the profile registered: one crossing, at construction.
    this.queue = new SchedulingQueue<Pod>({
      clock: this.clock,
      pluginEvents: pluginEventsTable(this.engine.eventsToRegister()),
    });
    this.nodes = new Informer<Node>(this.client, RESOURCES.nodes, { clock: this.clock });
    this.pods = new Informer<Pod>(this.client, RESOURCES.pods, { clock: this.clock });
    this.recorder = new EventRecorder({
      client: this.client,
      clock: this.clock,
      component: SCHEDULER_COMPONENT,
      onError: (err, event) => this.onError(err, `recording event ${event.metadata?.name ?? ''}`),
    });
    // The informers hand out read-only views of their cache; the loop reads them and never writes them.
    this.nodes.addEventHandler({
      onAdd: (n) => this.onNodeAdd(n as Node),
      onUpdate: (o, n) => this.onNodeUpdate(o as Node, n as Node),
      onDelete: (n) => this.onNodeDelete(n as Node),
    });
    this.pods.addEventHandler({
      onAdd: (p) => this.onPodAdd(p as Pod),
      onUpdate: (o, p) => this.onPodUpdate(o as Pod, p as Pod),
      onDelete: (p) => this.onPodDelete(p as Pod),
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

  /**
   * The explanation for a pod this scheduler's cache holds (undefined when it holds none). A bound
   * pod is explained as an identical pod scheduled now, beside itself in the table.
   */
  explainPod(namespace: string, name: string): Explanation | undefined {
    const pod = this.pods.get(namespace, name) as Pod | undefined;
    if (pod === undefined) return undefined;
    const { nodeName: _bound, ...spec } = pod.spec ?? {};
    return this.explain({ ...pod, spec });
  }

  /** The engine's explanation for a pod (every node, every plugin), e.g. for a UI; changes nothing. */
  explain(pod: Pod): Explanation {
    this.flushCache();
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
      const first = await this.queue.pop();
      if (first === undefined) break;
      // The rest of activeQ (up to MAX_BATCH) goes into the same engine call, each pod with the
      // scheduling cycle its own pop started.
      const batch: Array<{ info: QueuedPodInfo<Pod>; cycle: number }> = [
        { info: first, cycle: this.queue.schedulingCycle() },
      ];
      while (batch.length < MAX_BATCH) {
        const next = this.queue.tryPop();
        if (next === undefined) break;
        batch.push({ info: next, cycle: this.queue.schedulingCycle() });
      }
      this.scheduleBatch(batch);
    }
  }

  private report(result: CycleResult): void {
    for (const fn of this.cycleObservers) fn(result);
  }

  private scheduleBatch(batch: Array<{ info: QueuedPodInfo<Pod>; cycle: number }>): void {
    const live: Array<{ info: QueuedPodInfo<Pod>; cycle: number; pod: Pod }> = [];
    for (const item of batch) {
      // The queued copy may be stale: the cache says whether the pod still waits for us.
      const pod = this.pods.getByKey(item.info.key) as Pod | undefined;
      // skipPodSchedule: deleting, or assumed with its binding in flight (an update re-queued it).
      if (
        pod === undefined ||
        isAssigned(pod) ||
        !this.isResponsible(pod) ||
        pod.metadata?.deletionTimestamp ||
        this.binding.has(item.info.key)
      ) {
        this.queue.done(item.info.key);
        this.report({ pod: item.info.key, result: 'skipped' });
        continue;
      }
      item.info.pod = pod;
      live.push({ ...item, pod });
    }
    if (live.length === 0) return;
    let placements: Placement[];
    try {
      this.flushCache();
      placements = this.engine.scheduleBatch(live.map(({ pod }) => ({ pod })));
    } catch (err) {
      // A bug, not a verdict: keep the loop alive and retry the pods after backoff.
      for (const { info, cycle } of live) {
        this.onError(err, `scheduling ${info.key}`);
        this.requeue(info, cycle);
        this.report({ pod: info.key, result: 'error', error: err });
      }
      return;
    }
    live.forEach(({ info, cycle, pod }, i) => {
      const placement = placements[i];
      try {
        if (placement === undefined) throw new Error(`the engine answered ${placements.length} of ${live.length}`);
        this.handlePlacement(info, pod, placement, cycle);
      } catch (err) {
        this.onError(err, `scheduling ${info.key}`);
        this.requeue(info, cycle);
        this.report({ pod: info.key, result: 'error', error: err });
      }
    });
  }

  private handlePlacement(info: QueuedPodInfo<Pod>, pod: Pod, placement: Placement, cycle: number): void {
    if (placement.error !== undefined) {
      this.recorder.record(pod, 'Warning', 'FailedScheduling', placement.error.message);
      this.requeue(info, cycle);
      // schedulingCycle: an error clears the nomination (clearNominatedNode).
      this.updatePodStatus(pod, POD_REASON_SCHEDULER_ERROR, placement.error.message, '');
      this.report({ pod: info.key, result: 'error', error: placement.error });
      return;
    }
    if (placement.node === undefined) {
      this.report(this.handleUnschedulable(info, pod, placement, cycle));
      return;
    }
    this.bindInBackground(info, pod, placement.node, cycle);
  }

  /**
   * The binding cycle: as upstream's goroutine, it runs while the next pods are scheduled; the
   * pod stays in flight (and assumed in the engine) until the apiserver answers.
   */
  private bindInBackground(info: QueuedPodInfo<Pod>, pod: Pod, node: string, cycle: number): void {
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    this.binding.add(info.key);
    const binding = this.client.bind(ns, name, node).then(
      () => {
        this.binding.delete(info.key);
        this.queue.done(info.key);
        // schedule_one.go finishBinding: Eventf(…, "Scheduled", "Binding", "Successfully assigned %v/%v to %v").
        this.recorder.record(pod, 'Normal', 'Scheduled', `Successfully assigned ${ns}/${name} to ${node}`);
        // A nomination elsewhere no longer holds (Kubernetes 1.34 clears it on binding, KEP-5278).
        const nominated = pod.status?.nominatedNodeName ?? '';
        if (nominated !== '' && nominated !== node) this.patchStatus(pod, { nominatedNodeName: null });
        this.report({ pod: info.key, result: 'scheduled', node });
      },
      (err: unknown) => {
        this.binding.delete(info.key);
        // ForgetPod: the assumption must not hold capacity the pod never took.
        this.forget(ns, name);
        this.recorder.record(pod, 'Warning', 'FailedScheduling', `Binding rejected: ${errorMessage(err)}`);
        this.requeue(info, cycle);
        this.report({ pod: info.key, result: 'bind-failed', node, error: err });
      },
    );
    this.track(binding);
  }

  private handleUnschedulable(info: QueuedPodInfo<Pod>, pod: Pod, placement: Placement, cycle: number): CycleResult {
    const message = placement.message ?? '';
    // handleSchedulingFailure: the FitError's Diagnosis.UnschedulablePlugins go to the queue,
    // which moves the pod only on the events those plugins registered.
    const plugins = placement.unschedulablePlugins ?? [];
    for (const p of plugins) info.unschedulablePlugins.add(p);
    if (placement.victims !== undefined && placement.victims.length > 0) this.evict(placement.victims);
    this.requeue(info, cycle);
    this.recorder.record(pod, 'Warning', 'FailedScheduling', message);
    // DefaultPreemption's PostFilter: a nominated node is set; a search that found no candidate
    // (its FitError, "preemption: 0/N nodes are available: …") clears an old one
    // (NewPostFilterResultWithNominatedNode("")); a pod not eligible to preempt, or a profile
    // without preemption, leaves it as it is (no PostFilterResult).
    const nominated = placement.nominatedNode ?? (PREEMPTION_FOUND_NONE.test(message) ? '' : undefined);
    this.updatePodStatus(pod, POD_REASON_UNSCHEDULABLE, message, nominated);
    return { pod: info.key, result: 'unschedulable', message, plugins: [...plugins] };
  }

  /**
   * schedule_one.go updatePod: PodScheduled=False with the reason and message, and the nominated
   * node when `nominated` is given and differs, through a strategic merge patch of pods/status;
   * nothing is written when neither would change.
   */
  private updatePodStatus(pod: Pod, reason: string, message: string, nominated: string | undefined): void {
    const condition: PodCondition = {
      type: 'PodScheduled',
      status: 'False',
      reason,
      message: truncateMessage(message),
      lastProbeTime: null,
      lastTransitionTime: rfc3339(this.clock.now()),
    };
    const old = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    // podutil.UpdatePodCondition: the transition time moves only when the status does.
    if (old !== undefined && old.status === condition.status) {
      condition.lastTransitionTime = old.lastTransitionTime ?? null;
    }
    const conditionChanged =
      old === undefined ||
      old.status !== condition.status ||
      old.reason !== condition.reason ||
      old.message !== condition.message ||
      (old.lastProbeTime ?? null) !== condition.lastProbeTime ||
      (old.lastTransitionTime ?? null) !== condition.lastTransitionTime;
    const nnnChanged = nominated !== undefined && (pod.status?.nominatedNodeName ?? '') !== nominated;
    if (!conditionChanged && !nnnChanged) return;
    const status: Record<string, unknown> = {};
    // lastProbeTime stays out: null in a strategic merge patch would delete it, and it is unset.
    const { lastProbeTime: _unset, ...written } = condition;
    if (conditionChanged) status.conditions = [written];
    if (nnnChanged) status.nominatedNodeName = nominated === '' ? null : nominated;
    this.patchStatus(pod, status);
  }

  /** A strategic merge patch of pods/status (conditions merge by type), off the cycle. */
  private patchStatus(pod: Pod, status: Record<string, unknown>): void {
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const write = this.client.patch(RESOURCES.pods, ns, name, 'strategic', { status }, { subresource: 'status' }).then(
      () => undefined,
      (err: unknown) => {
        // The pod is gone: there is nothing left to report on.
        if (isNotFound(err)) return;
        this.onError(err, `updating the status of ${ns}/${name}`);
      },
    );
    this.track(write);
  }

  /** Preemption chose victims (already dropped from the engine): delete them through the API. */
  private evict(victims: string[]): void {
    for (const key of victims) {
      const [ns = '', name = ''] = key.split('/');
      this.track(
        this.client.delete(RESOURCES.pods, ns, name).then(
          () => undefined,
          (err: unknown) => this.onError(err, `preempting ${key}`),
        ),
      );
    }
  }

  /** Keeps a background API write (binding, status, preemption delete) for stop() to await. */
  private track(write: Promise<void>): void {
    const tracked = write.catch((err: unknown) => this.onError(err, 'background write'));
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
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
    this.flushCache();
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

  /**
   * Bound pods (new, confirmed bindings, updates) gathered for one `addPods` call: a burst of
   * bindings crosses into wasm once, before the next scheduling call or anything reading the table.
   */
  private readonly pendingAssigned = new Map<string, Pod>();

  /** Adds (or confirms, or replaces) a bound pod in the engine, at the next flushCache. */
  private addAssigned(pod: Pod): void {
    this.pendingAssigned.set(podKey(pod), pod);
  }

  /** Nodes, then bound pods, into the engine. */
  private flushCache(): void {
    this.flushNodes(); // a pod's node must be in the table first
    if (this.pendingAssigned.size === 0) return;
    const pods = [...this.pendingAssigned.values()];
    this.pendingAssigned.clear();
    try {
      this.engine.addPods(pods);
    } catch {
      // addPods stops at the first pod it cannot place (its node unknown yet): one by one, the
      // pods before it are simply replaced by themselves.
      for (const pod of pods) this.addAssignedNow(pod);
    }
  }

  /** Adds one bound pod; parks it while its node is unknown. */
  private addAssignedNow(pod: Pod): void {
    try {
      this.engine.addPods([pod]);
    } catch (err) {
      if (errorCode(err) !== 'E_UNKNOWN_NODE') {
        this.onError(err, `pod ${podKey(pod)}`);
        return;
      }
      const node = pod.spec?.nodeName ?? '';
      const waiting = this.orphans.get(node) ?? new Map<string, Pod>();
      this.orphans.set(node, waiting);
      waiting.set(podKey(pod), pod);
    }
  }

  private removeAssigned(pod: Pod): void {
    const node = pod.spec?.nodeName ?? '';
    this.pendingAssigned.delete(podKey(pod));
    if (this.orphans.get(node)?.delete(podKey(pod))) return;
    this.forget(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
    this.move(EventAssignedPodDelete);
  }
}
