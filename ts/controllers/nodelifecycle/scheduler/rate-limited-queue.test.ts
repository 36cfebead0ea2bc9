// The facts of pkg/controller/nodelifecycle/scheduler/rate_limited_queue_test.go (v1.32).
import { describe, expect, it } from 'vitest';
import { type Clock, VirtualClock } from '../../../sim/clock.js';
import { RateLimitedTimedQueue, type TimedValue, UniqueQueue } from './rate-limited-queue.js';
import { AlwaysRateLimiter, NeverRateLimiter, TokenBucketRateLimiter } from './token-bucket.js';

/** A clock whose every now() is one step later (the Go tests' `now` override). */
function tickingClock(stepMs: number): Clock & { delay: number } {
  let current = 0;
  return {
    delay: 0,
    now() {
      if (this.delay > 0) this.delay--;
      else current += stepMs;
      return current;
    },
    setTimer: () => () => {},
  };
}

function threeQueued(clock: Clock = new VirtualClock()): RateLimitedTimedQueue {
  const q = new RateLimitedTimedQueue(new AlwaysRateLimiter(), clock);
  q.add('first', '11111');
  q.add('second', '22222');
  q.add('third', '33333');
  return q;
}

describe('UniqueQueue and RateLimitedTimedQueue (rate_limited_queue_test.go)', () => {
  it('TestUniqueQueueGet', () => {
    let tick = 0;
    const now = () => tick++ * 1000;
    const q = new UniqueQueue();
    for (const [value, uid] of [
      ['first', '11111'],
      ['second', '22222'],
      ['third', '33333'],
    ]) {
      q.add({ value: value ?? '', uid, addedAt: now(), processAt: now() });
    }
    expect(q.values()).toEqual(['first', 'second', 'third']);
    q.get();
    expect(q.values()).toEqual(['second', 'third']);
    expect(['first', 'second', 'third'].filter((v) => q.has(v))).toEqual(['second', 'third']);
  });

  it('TestAddNode', () => {
    const q = threeQueued();
    expect(q.queue.values()).toEqual(['first', 'second', 'third']);
    expect(q.add('first', 'x')).toBe(false);
  });

  it.each([
    ['first', ['second', 'third']],
    ['second', ['first', 'third']],
    ['third', ['first', 'second']],
  ])('TestDelNode: remove %s', (removed, left) => {
    const q = threeQueued(tickingClock(1000));
    q.remove(removed);
    expect(q.queue.values()).toEqual(left);
    expect(['first', 'second', 'third'].filter((v) => q.queue.has(v))).toEqual(left);
  });

  it('TestTry', async () => {
    const q = threeQueued();
    q.remove('second');
    const deleted: string[] = [];
    await q.try((v) => {
      deleted.push(v.value);
      return [true, 0];
    });
    expect(deleted.sort()).toEqual(['first', 'third']);
  });

  it('TestTryOrdering: a failed value is put back `wait` (and 1 ns) later', async () => {
    const clock = tickingClock(1);
    const q = threeQueued(clock);
    const order: string[] = [];
    let count = 0;
    let hasQueued = false;
    await q.try((v: TimedValue) => {
      count++;
      expect(v.processAt).not.toBe(0);
      const added = { first: 1, second: 2, third: 3 }[v.value];
      expect(v.addedAt).toBe(added);
      if (v.value === 'second') {
        if (hasQueued) {
          expect(v.processAt).toBe(6);
        } else {
          hasQueued = true;
          clock.delay = 1;
          return [false, 2];
        }
      }
      order.push(v.value);
      return [true, 0];
    });
    expect(order).toEqual(['first', 'third']);
    expect(count).toBe(3);
  });

  it('TestTryRemovingWhileTry: a value removed while it is tried is not retried', async () => {
    const q = threeQueued(tickingClock(1));
    const order: string[] = [];
    let count = 0;
    let queued = false;
    await q.try(async (v) => {
      count++;
      if (!queued && v.value === 'second') {
        queued = true;
        await Promise.resolve();
        q.remove('second');
        return [false, 1];
      }
      order.push(v.value);
      return [true, 0];
    });
    expect(order).toEqual(['first', 'third']);
    expect(count).toBe(3);
  });

  it('TestClear', () => {
    const q = threeQueued();
    q.clear();
    expect(q.queue.values()).toEqual([]);
  });

  it('TestSwapLimiter', async () => {
    const q = new RateLimitedTimedQueue(new AlwaysRateLimiter(), new VirtualClock());
    expect(q.currentLimiter().qps()).toBe(new AlwaysRateLimiter().qps());
    await q.swapLimiter(0);
    expect(q.currentLimiter().qps()).toBe(new NeverRateLimiter().qps());
    await q.swapLimiter(5.5);
    expect(q.currentLimiter().qps()).toBe(Math.fround(5.5));
    const prev = q.currentLimiter();
    await q.swapLimiter(5.5);
    expect(q.currentLimiter()).toBe(prev);
  });

  it('TestAddAfterTry: a value tried successfully stays in the set until removed', async () => {
    const q = threeQueued();
    q.remove('second');
    const deleted: string[] = [];
    await q.try((v) => {
      deleted.push(v.value);
      return [true, 0];
    });
    expect(deleted.sort()).toEqual(['first', 'third']);
    expect(q.add('first', '11111')).toBe(false);
    let called = false;
    await q.try(() => {
      called = true;
      return [true, 0];
    });
    expect(called).toBe(false);
  });

  it('a token bucket of 0.1 qps and burst 1 accepts once, then once every 10 s', () => {
    const clock = new VirtualClock(1_000_000);
    const limiter = new TokenBucketRateLimiter(0.1, 1, clock);
    expect(limiter.tryAccept()).toBe(true);
    expect(limiter.tryAccept()).toBe(false);
    clock.advance(9_999);
    expect(limiter.tryAccept()).toBe(false);
    clock.advance(1);
    expect(limiter.tryAccept()).toBe(true);
    expect(limiter.qps()).toBe(Math.fround(0.1));
  });
});
