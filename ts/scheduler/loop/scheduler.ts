// The scheduler's control loop (pkg/scheduler/scheduler.go + schedule_one.go): the shared node and
// pod informers feed the wasm engine's cache (nodes, bound pods) and the scheduling queue (pending
// pods); one cycle at a time pops a pod, asks the engine for a node (which assumes the pod there),
// binds it through pods/binding and records the Event kube-scheduler would.
//
//   const scheduler = new Scheduler({ client, kubewasm, clock, informers });  // the process's factory
//   await scheduler.start();   // informers synced, loop running
//   …
//   await scheduler.stop();    // nothing left pending
//
// As kube-scheduler's addAllEventHandlers, the one pod informer serves two filtered views
// (FilteringResourceEventHandler): bound pods for the cache, unbound pods of this scheduler's name
// for the queue. Objects from the informers are shared with the whole process: read-only.

import type { KubeObject } from '../../api/meta.js';
import { isNotFound } from '../../api/status.js';
import type { Node, Pod, PodCondition } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { EventRecorder } from '../../client/event-recorder.js';
import { type Client, RESOURCES } from '../../client/index.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { filteringHandler } from '../../client/informers/filtering-handler.js';
import type {
  EventHandler,
  EventHandlerRegistration,
  SharedIndexInformer,
} from '../../client/informers/shared-informer.js';
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

/** A pod as the informer's cache holds it: shared with every reader of the process, never changed. */
type CachedPod = DeepReadonly<Pod>;
type CachedNode = DeepReadonly<Node>;

export interface SchedulerOptions {
  client: Client;
  /**
   * The process's shared informers (kube-scheduler's informerFactory), which its node and pod
   * informers come from; default: a factory of its own over `client`, which stop() shuts down.
   */
  informers?: SharedInformerFactory;
  /** The wasm core: the scheduler makes (and frees) its own engine with `newScheduler`. */
  kubewasm: Pick<Kubewasm, 'newScheduler'>;
  clock: Clock;
  /** Default: kube-scheduler's default profile, named "default-scheduler". */
  profile?: SchedulerProfile;
  /** Breaks score ties reproducibly. */
  seed?: bigint;
  /** A failed Event write or a failure outside a pod's cycle; default: dropped (ts/cluster logs them to kube-scheduler's logger). */
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

function podKey(pod: CachedPod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

function isAssigned(pod: CachedPod): boolean {
  return (pod.spec?.nodeName ?? '') !== '';
}

/** Succeeded or Failed: no longer holding resources (the cache drops terminated pods). */
function isTerminal(pod: CachedPod): boolean {
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
  private readonly queue: SchedulingQueue<CachedPod>;
  private readonly informers: SharedInformerFactory;
  /** Whether `informers` is the scheduler's own (made here, shut down by stop()). */
  private readonly ownsInformers: boolean;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly pods: SharedIndexInformer<Pod>;
  /** Removes each of the scheduler's event handlers from its shared informer (stop()). */
  private readonly unregister: Array<() => void> = [];
  private readonly recorder: EventRecorder;
  private readonly onError: (err: unknown, context: string) => void;
  /** Bound pods whose node the engine does not know yet, by node name. */
  private readonly orphans = new Map<string, Map<string, CachedPod>>();
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
    this.onError = options.onError ?? (() => {});
    this.engine = options.kubewasm.newScheduler(options.profile, options.seed);
    this.stopping = new Promise((resolve) => {
      this.signalStop = resolve;
    });
    // The events each plugin of the profile registered: one crossing, at construction.
    this.queue = new SchedulingQueue<CachedPod>({
      clock: this.clock,
      pluginEvents: pluginEventsTable(this.engine.eventsToRegister()),
    });
    this.ownsInformers = options.informers === undefined;
    this.informers = options.informers ?? new SharedInformerFactory(this.client, { clock: this.clock });
    this.nodes = this.informers.informerFor(RESOURCES.nodes);
    this.pods = this.informers.informerFor(RESOURCES.pods);
    this.recorder = new EventRecorder({
      client: this.client,
      clock: this.clock,
      component: SCHEDULER_COMPONENT,
      onError: (err, event) => this.onError(err, `recording event ${event.metadata?.name ?? ''}`),
    });
  }

  get state(): SchedulerState {
    return this.state_;
  }

  /** Calls `fn` after every scheduling cycle. */
  onCycle(fn: (r: CycleResult) => void): void {
    this.cycleObservers.push(fn);
  }

  /**
   * Starts the informers (InformerFactory.Start), takes the nodes first (so bound pods find their
   * node), then the pods — the pod handlers are added once the nodes are in, and are handed the
   * cached pods — then runs the loop.
   */
  async start(): Promise<void> {
    if (this.state_ !== 'idle') return;
    this.state_ = 'starting';
    this.queue.run();
    const nodes = this.handle(this.nodes, {
      onAdd: (n) => this.onNodeAdd(n),
      onUpdate: (o, n) => this.onNodeUpdate(o, n),
      onDelete: (n) => this.onNodeDelete(n),
    });
    this.informers.start();
    await Promise.race([nodes.synced(), this.stopping]);
    if (this.isStopped()) return;
    // addAllEventHandlers: the queue's view, then the cache's (an update that binds a pod leaves the
    // queue before the cache takes it).
    const queued = this.handle(
      this.pods,
      filteringHandler<Pod>((p) => !isAssigned(p) && this.isResponsible(p), {
        onAdd: (p) => this.queue.add(p),
        onUpdate: (o, p) => this.queue.update(o, p),
        onDelete: (p) => this.queue.delete(p),
      }),
    );
    const cached = this.handle(
      this.pods,
      filteringHandler<Pod>((p) => isAssigned(p) && !isTerminal(p), {
        onAdd: (p) => this.onAssignedPodAdd(p),
        onUpdate: (o, p) => this.onAssignedPodUpdate(o, p),
        onDelete: (p) => this.removeAssigned(p),
      }),
    );
    await Promise.race([Promise.all([queued.synced(), cached.synced()]), this.stopping]);
    if (this.isStopped()) return;
    this.state_ = 'running';
    this.loop = this.run();
  }

  /**
   * Stops the loop and leaves the informers (its handlers removed; its own informers stopped),
   * waits for the cycle and event writes in flight, frees the engine.
   */
  async stop(): Promise<void> {
    if (this.state_ === 'stopped') return;
    this.state_ = 'stopped';
    this.signalStop();
    this.queue.close();
    for (const remove of this.unregister.splice(0)) remove();
    if (this.ownsInformers) await this.informers.shutdown();
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
    const pod = this.pods.get(namespace, name);
    if (pod === undefined) return undefined;
    const { nodeName: _bound, ...spec } = pod.spec ?? {};
    return this.explain({ ...pod, spec });
  }

  /** The engine's explanation for a pod (every node, every plugin), e.g. for a UI; changes nothing. */
  explain(pod: DeepReadonly<KubeObject>): Explanation {
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

  /** Adds one of the scheduler's handlers to a shared informer (stop() removes it). */
  private handle<T extends Node | Pod>(
    informer: SharedIndexInformer<T>,
    handler: EventHandler<T>,
  ): EventHandlerRegistration {
    const registration = informer.addEventHandler(handler);
    this.unregister.push(() => informer.removeEventHandler(registration));
    return registration;
  }

  // ----- the cycle -----

  private async run(): Promise<void> {
    while (!this.isStopped()) {
      const first = await this.queue.pop();
      if (first === undefined) break;
      // The rest of activeQ (up to MAX_BATCH) goes into the same engine call, each pod with the
      // scheduling cycle its own pop started.
      const batch: Array<{ info: QueuedPodInfo<CachedPod>; cycle: number }> = [
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

  private scheduleBatch(batch: Array<{ info: QueuedPodInfo<CachedPod>; cycle: number }>): void {
    const live: Array<{ info: QueuedPodInfo<CachedPod>; cycle: number; pod: CachedPod }> = [];
    for (const item of batch) {
      // The queued copy may be stale: the cache says whether the pod still waits for us.
      const pod = this.pods.getByKey(item.info.key);
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

  private handlePlacement(info: QueuedPodInfo<CachedPod>, pod: CachedPod, placement: Placement, cycle: number): void {
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
  private bindInBackground(info: QueuedPodInfo<CachedPod>, pod: CachedPod, node: string, cycle: number): void {
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

  private handleUnschedulable(
    info: QueuedPodInfo<CachedPod>,
    pod: CachedPod,
    placement: Placement,
    cycle: number,
  ): CycleResult {
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
  private updatePodStatus(pod: CachedPod, reason: string, message: string, nominated: string | undefined): void {
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
  private patchStatus(pod: CachedPod, status: Record<string, unknown>): void {
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

  private requeue(info: QueuedPodInfo<CachedPod>, cycle: number): void {
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

  private isResponsible(pod: CachedPod): boolean {
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
  private readonly pendingNodes = new Map<string, CachedNode>();

  private upsertNode(node: CachedNode): void {
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

  private onNodeAdd(node: CachedNode): void {
    this.upsertNode(node);
    const name = node.metadata?.name ?? '';
    const waiting = this.orphans.get(name);
    if (waiting !== undefined) {
      this.orphans.delete(name);
      for (const pod of waiting.values()) this.addAssigned(pod);
    }
    this.move(EventNodeAdd);
  }

  private onNodeUpdate(oldNode: CachedNode, node: CachedNode): void {
    this.upsertNode(node);
    for (const event of nodeUpdateEvents(oldNode, node)) this.move(event);
  }

  private onNodeDelete(node: CachedNode): void {
    this.flushCache();
    try {
      this.engine.removeNode(node.metadata?.name ?? '');
    } catch (err) {
      if (errorCode(err) !== 'E_UNKNOWN_NODE') throw err;
    }
    this.move(EventNodeDelete);
  }

  // ----- pods: the cache's view (bound and not terminated; kube-scheduler's pod informer leaves
  // Succeeded and Failed pods out with a field selector, so they leave its cache as deletes) -----

  private onAssignedPodAdd(pod: CachedPod): void {
    this.addAssigned(pod);
    this.move(EventAssignedPodAdd);
  }

  private onAssignedPodUpdate(oldPod: CachedPod, pod: CachedPod): void {
    this.addAssigned(pod);
    for (const event of assignedPodUpdateEvents(oldPod, pod)) this.move(event);
  }

  /**
   * Bound pods (new, confirmed bindings, updates) gathered for one `addPods` call: a burst of
   * bindings crosses into wasm once, before the next scheduling call or anything reading the table.
   */
  private readonly pendingAssigned = new Map<string, CachedPod>();

  /** Adds (or confirms, or replaces) a bound pod in the engine, at the next flushCache. */
  private addAssigned(pod: CachedPod): void {
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
  private addAssignedNow(pod: CachedPod): void {
    try {
      this.engine.addPods([pod]);
    } catch (err) {
      if (errorCode(err) !== 'E_UNKNOWN_NODE') {
        this.onError(err, `pod ${podKey(pod)}`);
        return;
      }
      const node = pod.spec?.nodeName ?? '';
      const waiting = this.orphans.get(node) ?? new Map<string, CachedPod>();
      this.orphans.set(node, waiting);
      waiting.set(podKey(pod), pod);
    }
  }

  private removeAssigned(pod: CachedPod): void {
    const node = pod.spec?.nodeName ?? '';
    this.pendingAssigned.delete(podKey(pod));
    if (this.orphans.get(node)?.delete(podKey(pod))) return;
    this.forget(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
    this.move(EventAssignedPodDelete);
  }
}
