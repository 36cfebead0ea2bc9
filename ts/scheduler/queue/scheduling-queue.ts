// kube-scheduler's PriorityQueue (pkg/scheduler/backend/queue/scheduling_queue.go) with
// SchedulerQueueingHints off: pods wait in one of three places —
//   activeQ            a heap in PrioritySort order; Pop takes its head
//   backoffQ           pods waiting out their backoff, a heap by backoff expiry
//   unschedulablePods  pods that failed and wait for a cluster event that may help them
// A pod that fails goes to unschedulablePods, unless a move request arrived while it was being
// scheduled (moveRequestCycle ≥ its cycle): then the event it missed may already have helped,
// so it goes to backoffQ. Timers on the injected Clock flush backoffQ into activeQ every second
// and pods stuck in unschedulablePods for over 5 minutes every 30 seconds.

import type { Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Clock } from '../../sim/clock.js';
import { type ClusterEvent, EventUnschedulableTimeout, isWildCard } from './events.js';
import { KeyedHeap } from './heap.js';
import { eventMayHelp, isEventOfInterest, type PluginEventsTable } from './plugin-events.js';

/** DefaultPodInitialBackoffDuration (scheduling_queue.go; podInitialBackoffSeconds = 1 in apis/config/v1/defaults.go). */
export const DEFAULT_POD_INITIAL_BACKOFF_MS = 1_000;
/** DefaultPodMaxBackoffDuration (scheduling_queue.go; podMaxBackoffSeconds = 10 in apis/config/v1/defaults.go). */
export const DEFAULT_POD_MAX_BACKOFF_MS = 10_000;
/** DefaultPodMaxInUnschedulablePodsDuration (scheduling_queue.go). */
export const DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_MS = 5 * 60_000;
/**
 * flushBackoffQCompleted period: `wait.Until(p.flushBackoffQCompleted, 1.0*time.Second, …)` in Run
 * (newer releases tick on a 1 s ordering window, waitUntilAlignedWithOrderingWindow: same period).
 */
export const BACKOFF_FLUSH_INTERVAL_MS = 1_000;
/** flushUnschedulablePodsLeftover period: `wait.Until(…, 30*time.Second, p.stop)` in Run. */
export const UNSCHEDULABLE_FLUSH_INTERVAL_MS = 30_000;

/** framework.QueuedPodInfo: the caller's pod plus the queue's bookkeeping. */
export interface QueuedPodInfo<P> {
  pod: P;
  /** namespace/name. */
  readonly key: string;
  /** When the pod was added or last failed (ms); PrioritySort breaks priority ties by it. */
  timestamp: number;
  /** Scheduling attempts so far: incremented by Pop; drives the backoff. */
  attempts: number;
  /** When the pod first entered activeQ (ms): for the scheduling-latency metric. */
  initialAttemptTimestamp?: number;
  /** Plugins that rejected the pod in its last attempt: the caller fills it before re-queueing. */
  unschedulablePlugins: Set<string>;
}

/** Where a pod is: a sub-queue, in flight (popped, not yet Done), or absent. */
export type PodLocation = 'active' | 'backoff' | 'unschedulable';

/** The pod object: how to name it, rank it and tell a meaningful update. */
export interface PodAccessors<P> {
  /** Default: `metadata.namespace/metadata.name`. */
  key(pod: P): string;
  /** Default: `spec.priority`, else 0. */
  priority(pod: P): number;
  /** isPodUpdated: did more than status/resourceVersion/generation/managedFields/finalizers change? */
  isUpdated(oldPod: P, newPod: P): boolean;
}

export interface SchedulingQueueOptions<P> {
  clock: Clock;
  accessors?: Partial<PodAccessors<P>>;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulablePodsMs?: number;
  /** Plugin → registered events: the engine's table for its profile (pluginEventsTable). */
  pluginEvents: PluginEventsTable;
}

/** A pod handed to AddUnschedulableIfNotPresent while still queued. */
export class SchedulingQueueError extends Error {
  override readonly name = 'SchedulingQueueError';
  constructor(
    readonly code: 'E_ALREADY_QUEUED',
    message: string,
  ) {
    super(message);
  }
}

/** The default accessors: P is a Pod (a cached one, read-only) unless the caller gives its own. */
const kubeAccessors: PodAccessors<DeepReadonly<Pod>> = {
  key(pod) {
    const meta = pod.metadata;
    return `${meta?.namespace ?? ''}/${meta?.name ?? ''}`;
  },
  priority: (pod) => pod.spec?.priority ?? 0,
  isUpdated(oldPod, newPod) {
    const strip = (pod: DeepReadonly<Pod>): string => {
      const { status: _s, metadata, ...rest } = pod;
      const { resourceVersion: _r, generation: _g, managedFields: _m, finalizers: _f, ...meta } = metadata ?? {};
      return stableJson({ ...rest, metadata: meta });
    };
    return strip(oldPod) !== strip(newPod);
  },
};

/** backoff = initial × 2^(attempts−1), capped at max; 0 before the first attempt (calculateBackoffDuration). */
export function backoffDuration(attempts: number, initialMs: number, maxMs: number): number {
  if (attempts <= 0) return 0;
  let duration = initialMs;
  for (let i = 1; i < attempts; i++) {
    if (duration > maxMs - duration) return maxMs;
    duration += duration;
  }
  return Math.min(duration, maxMs);
}

/**
 * The scheduling queue. Example:
 *   const q = new SchedulingQueue<Pod>({ clock, pluginEvents }); q.run(); q.add(pod);
 *   const info = await q.pop(); … q.addUnschedulableIfNotPresent(info, q.schedulingCycle());
 */
export class SchedulingQueue<P> {
  private readonly clock: Clock;
  private readonly access: PodAccessors<P>;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxInUnschedulableMs: number;
  private readonly pluginEvents: PluginEventsTable;

  private readonly activeQ: KeyedHeap<QueuedPodInfo<P>>;
  private readonly backoffQ: KeyedHeap<QueuedPodInfo<P>>;
  private readonly unschedulablePods = new Map<string, QueuedPodInfo<P>>();
  private readonly inFlight = new Map<string, QueuedPodInfo<P>>();
  /** Pop callers waiting for activeQ to fill, oldest first. */
  private readonly waiters: Array<(info: QueuedPodInfo<P> | undefined) => void> = [];
  private cycle = 0;
  /** The cycle during which the last move request arrived; -1: none yet. */
  private moveRequestCycle = -1;
  private closed = false;
  private readonly stopTimers: Array<() => void> = [];

  constructor(options: SchedulingQueueOptions<P>) {
    this.clock = options.clock;
    this.access = { ...(kubeAccessors as PodAccessors<P>), ...options.accessors };
    this.initialBackoffMs = options.podInitialBackoffMs ?? DEFAULT_POD_INITIAL_BACKOFF_MS;
    this.maxBackoffMs = options.podMaxBackoffMs ?? DEFAULT_POD_MAX_BACKOFF_MS;
    this.maxInUnschedulableMs = options.podMaxInUnschedulablePodsMs ?? DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_MS;
    this.pluginEvents = options.pluginEvents;
    this.activeQ = new KeyedHeap(
      (p) => p.key,
      (a, b) => this.less(a, b),
    );
    this.backoffQ = new KeyedHeap(
      (p) => p.key,
      (a, b) => {
        const ea = this.backoffExpiry(a);
        const eb = this.backoffExpiry(b);
        return ea < eb || (ea === eb && this.less(a, b));
      },
    );
  }

  /** PrioritySort's Less: higher priority first, then the earlier timestamp. */
  private less(a: QueuedPodInfo<P>, b: QueuedPodInfo<P>): boolean {
    const pa = this.access.priority(a.pod);
    const pb = this.access.priority(b.pod);
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  }

  /** Starts the periodic flushes (Run): both run once now, then every interval until close(). */
  run(): void {
    if (this.closed || this.stopTimers.length > 0) return;
    this.every(BACKOFF_FLUSH_INTERVAL_MS, () => this.flushBackoffQCompleted());
    this.every(UNSCHEDULABLE_FLUSH_INTERVAL_MS, () => this.flushUnschedulablePodsLeftover());
  }

  private every(ms: number, fn: () => void): void {
    const slot = this.stopTimers.length;
    const tick = () => {
      fn();
      if (!this.closed) this.stopTimers[slot] = this.clock.setTimer(tick, ms);
    };
    this.stopTimers.push(() => {});
    tick();
  }

  /** Stops the flushes and wakes every waiting Pop with undefined. */
  close(): void {
    this.closed = true;
    for (const stop of this.stopTimers) stop();
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  }

  /** The number of pods popped so far. */
  schedulingCycle(): number {
    return this.cycle;
  }

  /** Adds a new pod to activeQ. */
  add(pod: P): void {
    this.moveToActiveQ(this.newQueuedPodInfo(pod));
    this.broadcast();
  }

  /**
   * Takes the head of activeQ, waiting until there is one; undefined once closed. Counts an
   * attempt, starts a scheduling cycle and clears the pod's rejecting plugins.
   */
  pop(): Promise<QueuedPodInfo<P> | undefined> {
    if (this.activeQ.length > 0) return Promise.resolve(this.popHead());
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Pop without waiting: undefined when activeQ is empty. */
  tryPop(): QueuedPodInfo<P> | undefined {
    return this.activeQ.length > 0 ? this.popHead() : undefined;
  }

  private popHead(): QueuedPodInfo<P> {
    const info = this.activeQ.pop() as QueuedPodInfo<P>;
    info.attempts++;
    this.cycle++;
    info.unschedulablePlugins.clear();
    this.inFlight.set(info.key, info);
    return info;
  }

  /** Hands activeQ's head to waiting Pop callers (the condition variable's Broadcast). */
  private broadcast(): void {
    while (this.waiters.length > 0 && this.activeQ.length > 0) {
      const waiter = this.waiters.shift() as (info: QueuedPodInfo<P> | undefined) => void;
      waiter(this.popHead());
    }
  }

  /** Marks a popped pod as no longer being scheduled. */
  done(key: string): void {
    this.inFlight.delete(key);
  }

  /**
   * Puts back a pod whose attempt failed: to backoffQ if a move request arrived during or after
   * `podSchedulingCycle` or nothing in particular rejected it, else to unschedulablePods.
   * Throws SchedulingQueueError E_ALREADY_QUEUED when the pod is already queued.
   */
  addUnschedulableIfNotPresent(info: QueuedPodInfo<P>, podSchedulingCycle: number): void {
    this.done(info.key);
    const where = this.locate(info.key);
    if (where !== undefined) {
      throw new SchedulingQueueError('E_ALREADY_QUEUED', `Pod ${info.key} is already present in the ${where} queue`);
    }
    info.timestamp = this.clock.now();
    if (this.moveRequestCycle >= podSchedulingCycle || info.unschedulablePlugins.size === 0) {
      this.backoffQ.addOrUpdate(info);
    } else {
      this.unschedulablePods.set(info.key, info);
    }
  }

  /**
   * Replaces a queued pod with its new version. As upstream with queueing hints off, a pod being
   * scheduled right now is in no queue, so its update adds it to activeQ (and the failed attempt's
   * addUnschedulableIfNotPresent then reports E_ALREADY_QUEUED). An unschedulable pod whose spec or metadata changed
   * moves to backoffQ (still backing off) or activeQ; a pod in no queue is added to activeQ.
   */
  update(oldPod: P | undefined, newPod: P): void {
    const key = this.access.key(newPod);
    const active = this.activeQ.get(key);
    if (oldPod !== undefined && active !== undefined) {
      active.pod = newPod;
      this.activeQ.addOrUpdate(active);
      return;
    }
    const backingOff = this.backoffQ.get(key);
    if (oldPod !== undefined && backingOff !== undefined) {
      backingOff.pod = newPod;
      this.backoffQ.addOrUpdate(backingOff);
      return;
    }
    const unschedulable = this.unschedulablePods.get(key);
    if (unschedulable !== undefined) {
      unschedulable.pod = newPod;
      if (oldPod === undefined || this.access.isUpdated(oldPod, newPod)) {
        this.unschedulablePods.delete(key);
        if (this.isPodBackingOff(unschedulable)) {
          this.backoffQ.addOrUpdate(unschedulable);
        } else {
          this.moveToActiveQ(unschedulable);
          this.broadcast();
        }
      }
      return;
    }
    this.moveToActiveQ(this.newQueuedPodInfo(newPod));
    this.broadcast();
  }

  /**
   * Activate: moves the given pods from backoffQ or unschedulablePods straight to activeQ. A pod
   * being scheduled right now counts as a move request, so it is retried after backoff if it fails.
   */
  activate(pods: P[]): void {
    let activated = false;
    for (const pod of pods) {
      const key = this.access.key(pod);
      const info = this.unschedulablePods.get(key) ?? this.backoffQ.get(key);
      if (info !== undefined) {
        this.moveToActiveQ(info);
        activated = true;
      } else if (this.inFlight.has(key)) {
        this.moveRequestCycle = this.cycle;
      }
    }
    if (activated) this.broadcast();
  }

  /** Removes a pod from whichever sub-queue holds it. */
  delete(pod: P): void {
    const key = this.access.key(pod);
    if (this.activeQ.delete(key) !== undefined) return;
    if (this.backoffQ.delete(key) !== undefined) return;
    this.unschedulablePods.delete(key);
  }

  /**
   * Moves the unschedulable pods that `event` may help (and `preCheck` accepts) to activeQ, or
   * to backoffQ while they still back off, and records the move request for in-flight pods.
   * Events no plugin registered for change nothing, not even the move request cycle.
   */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent, preCheck?: (pod: P) => boolean): void {
    if (!this.isEventOfInterest(event)) return;
    const candidates = [...this.unschedulablePods.values()].filter((p) => preCheck === undefined || preCheck(p.pod));
    this.movePodsToActiveOrBackoffQueue(candidates, event);
  }

  private isEventOfInterest(event: ClusterEvent): boolean {
    if (isEventOfInterest(this.pluginEvents, event)) return true;
    // A plugin missing from the table is interested in everything (allClusterEvents upstream).
    for (const info of this.unschedulablePods.values()) {
      for (const plugin of info.unschedulablePlugins) if (this.pluginEvents[plugin] === undefined) return true;
    }
    return false;
  }

  private movePodsToActiveOrBackoffQueue(pods: QueuedPodInfo<P>[], event: ClusterEvent): void {
    let activated = false;
    for (const info of pods) {
      if (!isWildCard(event) && !eventMayHelp(this.pluginEvents, info.unschedulablePlugins, event)) continue;
      this.unschedulablePods.delete(info.key);
      if (this.isPodBackingOff(info)) {
        this.backoffQ.addOrUpdate(info);
      } else {
        this.moveToActiveQ(info);
        activated = true;
      }
    }
    this.moveRequestCycle = this.cycle;
    if (activated) this.broadcast();
  }

  /** Moves every pod whose backoff has expired from backoffQ to activeQ. */
  flushBackoffQCompleted(): void {
    const now = this.clock.now();
    let activated = false;
    for (let head = this.backoffQ.peek(); head !== undefined; head = this.backoffQ.peek()) {
      if (this.backoffExpiry(head) > now) break;
      this.backoffQ.pop();
      this.moveToActiveQ(head);
      activated = true;
    }
    if (activated) this.broadcast();
  }

  /** Moves pods unschedulable for longer than the maximum (5 min) out, as a wildcard event would. */
  flushUnschedulablePodsLeftover(): void {
    const now = this.clock.now();
    const stale = [...this.unschedulablePods.values()].filter((p) => now - p.timestamp > this.maxInUnschedulableMs);
    if (stale.length > 0) this.movePodsToActiveOrBackoffQueue(stale, EventUnschedulableTimeout);
  }

  /** When the pod's backoff ends (ms): its timestamp plus the backoff for its attempts. */
  backoffExpiry(info: QueuedPodInfo<P>): number {
    return info.timestamp + backoffDuration(info.attempts, this.initialBackoffMs, this.maxBackoffMs);
  }

  private isPodBackingOff(info: QueuedPodInfo<P>): boolean {
    return this.backoffExpiry(info) > this.clock.now();
  }

  private moveToActiveQ(info: QueuedPodInfo<P>): void {
    info.initialAttemptTimestamp ??= this.clock.now();
    this.unschedulablePods.delete(info.key);
    this.backoffQ.delete(info.key);
    this.activeQ.addOrUpdate(info);
  }

  private newQueuedPodInfo(pod: P): QueuedPodInfo<P> {
    return {
      pod,
      key: this.access.key(pod),
      timestamp: this.clock.now(),
      attempts: 0,
      unschedulablePlugins: new Set(),
    };
  }

  /** Which sub-queue holds the pod with `key`, if any. */
  locate(key: string): PodLocation | undefined {
    if (this.activeQ.has(key)) return 'active';
    if (this.backoffQ.has(key)) return 'backoff';
    if (this.unschedulablePods.has(key)) return 'unschedulable';
    return undefined;
  }

  /** GetPod: the queued entry for `key`, in any sub-queue. */
  get(key: string): QueuedPodInfo<P> | undefined {
    return this.activeQ.get(key) ?? this.backoffQ.get(key) ?? this.unschedulablePods.get(key);
  }

  /** Keys in each sub-queue (activeQ in pop order) and in flight, for tests and debugging. */
  pending(): { active: string[]; backoff: string[]; unschedulable: string[]; inFlight: string[] } {
    return {
      active: this.activeQ
        .list()
        .sort((a, b) => (this.less(a, b) ? -1 : this.less(b, a) ? 1 : 0))
        .map((p) => p.key),
      backoff: this.backoffQ
        .list()
        .sort((a, b) => this.backoffExpiry(a) - this.backoffExpiry(b))
        .map((p) => p.key),
      unschedulable: [...this.unschedulablePods.keys()],
      inFlight: [...this.inFlight.keys()],
    };
  }
}

/** JSON with object keys sorted, so that key order does not count as a change. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
