/**
 * client-go's workqueue (k8s.io/client-go/util/workqueue): a FIFO of keys with a `dirty` set (keys
 * waiting) and a `processing` set (keys handed out, not yet `done`). A key is never processed twice
 * at once, and bursts of adds collapse into one pass. Delayed and rate-limited adds go through the
 * injected Clock.
 *
 *   const q = new WorkQueue<string>({ clock });
 *   for (let key = await q.get(); key !== undefined; key = await q.get()) {
 *     try { await reconcile(key); q.forget(key) } catch { q.addRateLimited(key) } finally { q.done(key) }
 *   }
 */
import { type Clock, realClock } from '../sim/clock.js';

/** Decides how long an item waits before its next retry (workqueue.RateLimiter). */
export interface RateLimiter<T> {
  when(item: T): number;
  forget(item: T): void;
  numRequeues(item: T): number;
}

/**
 * The per-item part of client-go's DefaultControllerRateLimiter:
 * NewItemExponentialFailureRateLimiter(5*time.Millisecond, 1000*time.Second)
 * (util/workqueue/default_rate_limiters.go). client-go's DefaultItemBasedRateLimiter starts at
 * 1 ms instead; controllers use the 5 ms one.
 */
export const DEFAULT_BASE_DELAY_MS = 5;
export const DEFAULT_MAX_DELAY_MS = 1000 * 1000;

/** ItemExponentialFailureRateLimiter: baseDelay·2^failures, capped at maxDelay. */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    private readonly baseDelayMs = DEFAULT_BASE_DELAY_MS,
    private readonly maxDelayMs = DEFAULT_MAX_DELAY_MS,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * 2 ** exp;
    return backoff > this.maxDelayMs || !Number.isFinite(backoff) ? this.maxDelayMs : backoff;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * BucketRateLimiter (default_rate_limiters.go) over golang.org/x/time/rate's Limiter: one token
 * bucket for all items — `qps` tokens a second, `burst` at most, full at first; each when() takes
 * a token and answers how long until it is there (Reserve().Delay()). It tracks no item.
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  /** When the tokens were last counted (rate.Limiter's last); undefined: never, the bucket is full. */
  private last: number | undefined;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    this.tokens = burst;
  }

  when(_item: T): number {
    const now = this.clock.now();
    // advance: the tokens earned since last, never more than the burst.
    const elapsed = this.last === undefined ? 0 : Math.max(0, now - this.last);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.qps) / 1000);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** MaxOfRateLimiter (default_rate_limiters.go): the longest delay of several limiters, each told of every item. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: readonly RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let delay = 0;
    for (const limiter of this.limiters) delay = Math.max(delay, limiter.when(item));
    return delay;
  }

  forget(item: T): void {
    for (const limiter of this.limiters) limiter.forget(item);
  }

  numRequeues(item: T): number {
    let requeues = 0;
    for (const limiter of this.limiters) requeues = Math.max(requeues, limiter.numRequeues(item));
    return requeues;
  }
}

// default_rate_limiters.go DefaultTypedControllerRateLimiter's overall bucket: 10 qps, burst 100.
export const DEFAULT_CONTROLLER_QPS = 10;
export const DEFAULT_CONTROLLER_BURST = 100;

/**
 * DefaultControllerRateLimiter: the per-item exponential back-off (5 ms doubling to 1000 s) and
 * an overall token bucket (10 qps, burst 100), the longer of the two — what most controllers of
 * kube-controller-manager retry with.
 */
export function defaultControllerRateLimiter<T>(clock: Clock = realClock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(),
    new BucketRateLimiter<T>(DEFAULT_CONTROLLER_QPS, DEFAULT_CONTROLLER_BURST, clock),
  );
}

export interface WorkQueueOptions<T> {
  clock?: Clock;
  /** addRateLimited's delays (default: ItemExponentialFailureRateLimiter(5 ms, 1000 s)). */
  rateLimiter?: RateLimiter<T>;
}

export class WorkQueue<T = string> {
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter<T>;
  /** Keys waiting to be handed out, in order; every one is in `dirty` and not in `processing`. */
  private queue: T[] = [];
  /** Keys that need processing (queued, or re-added while processing). */
  private readonly dirty = new Set<T>();
  /** Keys handed out by `get` and not yet `done`. */
  private readonly processing = new Set<T>();
  /** `get` callers waiting for a key. */
  private waiters: Array<(item: T | undefined) => void> = [];
  /** Cancels of pending `addAfter` timers, per key the earliest one (the delaying queue keeps the soonest). */
  private readonly waiting = new Map<T, { at: number; cancel: () => void }>();
  private shutting = false;

  constructor(options: WorkQueueOptions<T> = {}) {
    this.clock = options.clock ?? realClock;
    this.rateLimiter = options.rateLimiter ?? new ItemExponentialFailureRateLimiter<T>();
  }

  /** Marks `item` as needing processing; a no-op when it already waits. */
  add(item: T): void {
    if (this.shutting || this.dirty.has(item)) return;
    this.dirty.add(item);
    if (this.processing.has(item)) return; // queued again by `done`
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      this.dirty.delete(item);
      this.processing.add(item);
      waiter(item);
      return;
    }
    this.queue.push(item);
  }

  /** The next key to process, marked as processing; waits for one; undefined once shut down and empty. */
  get(): Promise<T | undefined> {
    const item = this.take();
    if (item !== undefined || this.shutting) return Promise.resolve(item);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private take(): T | undefined {
    if (this.queue.length === 0) return undefined;
    const item = this.queue.shift() as T;
    this.dirty.delete(item);
    this.processing.add(item);
    return item;
  }

  /** Ends the processing of `item`; if it was added meanwhile it is queued again. */
  done(item: T): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) {
      this.dirty.delete(item);
      this.add(item);
    }
  }

  /** Adds `item` after `ms` (through the clock); the earliest pending time wins. */
  addAfter(item: T, ms: number): void {
    if (this.shutting) return;
    if (ms <= 0) {
      this.add(item);
      return;
    }
    const at = this.clock.now() + ms;
    const pending = this.waiting.get(item);
    if (pending !== undefined) {
      if (pending.at <= at) return;
      pending.cancel();
    }
    const cancel = this.clock.setTimer(() => {
      this.waiting.delete(item);
      this.add(item);
    }, ms);
    this.waiting.set(item, { at, cancel });
  }

  /** Adds `item` after the rate limiter's delay for it (5 ms, 10 ms, 20 ms, … by default). */
  addRateLimited(item: T): void {
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** Stops tracking `item`'s failures: its next rate-limited add starts over at the base delay. */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /** Keys waiting to be handed out. */
  len(): number {
    return this.queue.length;
  }

  /** Ignores further adds, drops delayed ones, and wakes every waiting `get` with undefined. */
  shutDown(): void {
    this.shutting = true;
    for (const { cancel } of this.waiting.values()) cancel();
    this.waiting.clear();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(undefined);
  }

  shuttingDown(): boolean {
    return this.shutting;
  }
}

/**
 * One worker (client-go's processNextWorkItem loop): each key taken is handed to `sync` until the
 * queue shuts down; a success forgets the key's failures, a failure goes to `onError` and brings
 * the key back rate-limited.
 *
 *   for (let i = 0; i < workers; i++) running.push(runWorker(queue, (key) => sync(key), onError));
 */
export async function runWorker<T>(
  queue: WorkQueue<T>,
  sync: (item: T) => Promise<void>,
  onError: (err: unknown, item: T) => void,
): Promise<void> {
  for (;;) {
    const item = await queue.get();
    if (item === undefined) return;
    try {
      await sync(item);
      queue.forget(item);
    } catch (err) {
      onError(err, item);
      queue.addRateLimited(item);
    } finally {
      queue.done(item);
    }
  }
}
