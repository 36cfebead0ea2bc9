/**
 * The node lifecycle controller's per-zone tainting queue (pkg/controller/nodelifecycle/scheduler/
 * rate_limited_queue.go at v1.32): a UniqueQueue — a heap of TimedValues ordered by processAt (Go's
 * container/heap, ported operation for operation so that ties break as in Go) plus the set of the
 * values it holds — behind a swappable token-bucket limiter. Try hands the head to `fn` while the
 * limiter accepts and the head is due; a value `fn` fails is put back `wait` later, one it finishes
 * leaves the heap but stays in the set (so Add refuses it until Remove).
 *
 *   const q = new RateLimitedTimedQueue(new TokenBucketRateLimiter(0.1, EVICTION_RATE_LIMITER_BURST, clock), clock);
 *   q.add('node-1', uid);
 *   await q.try(async (v) => [await taint(v.value), 0]);
 */
import type { Clock } from '../../../sim/clock.js';
import { NeverRateLimiter, type RateLimiter, TokenBucketRateLimiter } from './token-bucket.js';

// rate_limited_queue.go: NodeHealthUpdateRetry, NodeEvictionPeriod, EvictionRateLimiterBurst.
export const NODE_HEALTH_UPDATE_RETRY = 5;
export const NODE_EVICTION_PERIOD_MS = 100;
export const EVICTION_RATE_LIMITER_BURST = 1;

/** TimedValue: a value (a node name) with its uid, when it was added and when it is due (ms). */
export interface TimedValue {
  value: string;
  uid: unknown;
  addedAt: number;
  processAt: number;
}

/** TimedQueue with container/heap's up, down, Push, Pop and Remove. */
class TimedHeap {
  readonly items: TimedValue[] = [];

  private less(i: number, j: number): boolean {
    return (this.items[i]?.processAt ?? 0) < (this.items[j]?.processAt ?? 0);
  }

  private swap(i: number, j: number): void {
    const a = this.items[i];
    const b = this.items[j];
    if (a === undefined || b === undefined) return;
    this.items[i] = b;
    this.items[j] = a;
  }

  private up(j: number): void {
    for (;;) {
      const i = Math.trunc((j - 1) / 2);
      if (i === j || !this.less(j, i)) break;
      this.swap(i, j);
      j = i;
    }
  }

  private down(i0: number, n: number): boolean {
    let i = i0;
    for (;;) {
      const j1 = 2 * i + 1;
      if (j1 >= n || j1 < 0) break;
      let j = j1;
      const j2 = j1 + 1;
      if (j2 < n && this.less(j2, j1)) j = j2;
      if (!this.less(j, i)) break;
      this.swap(i, j);
      i = j;
    }
    return i > i0;
  }

  push(v: TimedValue): void {
    this.items.push(v);
    this.up(this.items.length - 1);
  }

  pop(): TimedValue | undefined {
    const n = this.items.length - 1;
    this.swap(0, n);
    this.down(0, n);
    return this.items.pop();
  }

  remove(i: number): TimedValue | undefined {
    const n = this.items.length - 1;
    if (n !== i) {
      this.swap(i, n);
      if (!this.down(i, n)) this.up(i);
    }
    return this.items.pop();
  }
}

/** UniqueQueue: a FIFO-by-processAt queue in which a value is at most once. */
export class UniqueQueue {
  private heap = new TimedHeap();
  private set = new Set<string>();

  /** Add: false if the value is in the set already. */
  add(value: TimedValue): boolean {
    if (this.set.has(value.value)) return false;
    this.heap.push({ ...value });
    this.set.add(value.value);
    return true;
  }

  /** Replace: the queued entry of the same value swapped for this one; false if none is queued. */
  replace(value: TimedValue): boolean {
    const i = this.heap.items.findIndex((v) => v.value === value.value);
    if (i < 0) return false;
    this.heap.remove(i);
    this.heap.push({ ...value });
    return true;
  }

  /** RemoveFromQueue: out of the heap, but kept in the set. */
  removeFromQueue(value: string): boolean {
    if (!this.set.has(value)) return false;
    const i = this.heap.items.findIndex((v) => v.value === value);
    if (i < 0) return false;
    this.heap.remove(i);
    return true;
  }

  /** Remove: out of the set and the heap; true if it was in the set. */
  remove(value: string): boolean {
    if (!this.set.has(value)) return false;
    this.set.delete(value);
    const i = this.heap.items.findIndex((v) => v.value === value);
    if (i >= 0) this.heap.remove(i);
    return true;
  }

  /** Get: pops the head (and forgets it from the set). */
  get(): TimedValue | undefined {
    if (this.heap.items.length === 0) return undefined;
    const result = this.heap.pop();
    if (result !== undefined) this.set.delete(result.value);
    return result;
  }

  /** Head: a copy of the head, left in place. */
  head(): TimedValue | undefined {
    const h = this.heap.items[0];
    return h === undefined ? undefined : { ...h };
  }

  clear(): void {
    this.heap = new TimedHeap();
    this.set = new Set();
  }

  /** The values in the heap, in heap order (tests). */
  values(): string[] {
    return this.heap.items.map((v) => v.value);
  }

  /** Whether the value is in the set (tests). */
  has(value: string): boolean {
    return this.set.has(value);
  }
}

/** ActionFunc: `[true, 0]` when done with the value, `[false, wait]` to try it again after `wait` ms. */
export type ActionFunc = (value: TimedValue) => Promise<[boolean, number]> | [boolean, number];

export class RateLimitedTimedQueue {
  readonly queue = new UniqueQueue();
  private limiterQueue: Promise<void> = Promise.resolve();

  constructor(
    private limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  /**
   * Try: while the limiter accepts and the head is due, `fn` on it. One Try at a time (Go holds
   * limiterLock for the whole of it; SwapLimiter waits for it).
   */
  try(fn: ActionFunc): Promise<void> {
    return this.locked(async () => {
      let val = this.queue.head();
      while (val !== undefined) {
        if (!this.limiter.tryAccept()) break;
        const now = this.clock.now();
        if (now < val.processAt) break;
        const [ok, wait] = await fn(val);
        if (!ok) {
          // now.Add(wait + 1): one nanosecond later than `wait`.
          val.processAt = now + wait + 1e-6;
          this.queue.replace(val);
        } else {
          this.queue.removeFromQueue(val.value);
        }
        val = this.queue.head();
      }
    });
  }

  /** Add: due now; false if the value is in the queue's set already. */
  add(value: string, uid: unknown): boolean {
    const now = this.clock.now();
    return this.queue.add({ value, uid, addedAt: now, processAt: now });
  }

  remove(value: string): boolean {
    return this.queue.remove(value);
  }

  clear(): void {
    this.queue.clear();
  }

  /**
   * SwapLimiter: a limiter of `newQPS` (burst 1; never accepting at 0 or less) unless the current one
   * has that rate; a new bucket starts empty if the old one was (it takes its token).
   */
  swapLimiter(newQPS: number): Promise<void> {
    return this.locked(async () => {
      const qps = Math.fround(newQPS);
      if (this.limiter.qps() === qps) return;
      let next: RateLimiter;
      if (qps <= 0) {
        next = new NeverRateLimiter();
      } else {
        next = new TokenBucketRateLimiter(qps, EVICTION_RATE_LIMITER_BURST, this.clock);
        if (!this.limiter.tryAccept()) next.tryAccept();
      }
      this.limiter.stop();
      this.limiter = next;
    });
  }

  /** The limiter in use (tests). */
  currentLimiter(): RateLimiter {
    return this.limiter;
  }

  private locked(fn: () => Promise<void>): Promise<void> {
    const run = this.limiterQueue.then(fn);
    this.limiterQueue = run.catch(() => {});
    return run;
  }
}
