import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../sim/clock.js';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  WorkQueue,
} from './workqueue.js';

describe('WorkQueue', () => {
  it('collapses adds of a queued key', async () => {
    const q = new WorkQueue<string>({ clock: new VirtualClock() });
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
    expect(q.len()).toBe(0);
  });

  it('never hands out a key that is processing; a re-add is processed once after done', async () => {
    const q = new WorkQueue<string>({ clock: new VirtualClock() });
    q.add('a');
    const first = await q.get();
    expect(first).toBe('a');
    q.add('a');
    q.add('a');
    expect(q.len()).toBe(0);
    let second: string | undefined;
    void q.get().then((k) => {
      second = k;
    });
    await Promise.resolve();
    expect(second).toBeUndefined();
    q.done('a');
    await Promise.resolve();
    expect(second).toBe('a');
    q.done('a');
    expect(q.len()).toBe(0);
  });

  it('lets several workers run without ever processing one key twice at once', async () => {
    const q = new WorkQueue<string>({ clock: new VirtualClock() });
    const active = new Set<string>();
    const processed: string[] = [];
    let overlaps = 0;
    const worker = async () => {
      for (let key = await q.get(); key !== undefined; key = await q.get()) {
        if (active.has(key)) overlaps++;
        active.add(key);
        processed.push(key);
        await new Promise((resolve) => setTimeout(resolve, 1));
        active.delete(key);
        q.done(key);
      }
    };
    const workers = [worker(), worker(), worker()];
    for (let round = 0; round < 5; round++) {
      for (const key of ['a', 'b', 'a', 'a', 'c', 'b']) q.add(key);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    q.shutDown();
    await Promise.all(workers);
    expect(overlaps).toBe(0);
    // Every key was processed, and bursts collapsed: far fewer passes than the 30 adds.
    expect(new Set(processed)).toEqual(new Set(['a', 'b', 'c']));
    expect(processed.length).toBeLessThanOrEqual(15);
  });

  it('wakes a waiting get on add, and with undefined on shutDown', async () => {
    const q = new WorkQueue<string>({ clock: new VirtualClock() });
    const waiting = q.get();
    q.add('x');
    expect(await waiting).toBe('x');
    const idle = q.get();
    q.shutDown();
    expect(await idle).toBeUndefined();
    q.add('y');
    expect(q.len()).toBe(0);
    expect(q.shuttingDown()).toBe(true);
  });

  it('drains what was queued before shutDown', async () => {
    const q = new WorkQueue<string>({ clock: new VirtualClock() });
    q.add('a');
    q.shutDown();
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBeUndefined();
  });

  it('delays rate-limited adds 5, 10, 20 ms and starts over after forget', async () => {
    const clock = new VirtualClock();
    const q = new WorkQueue<string>({ clock });
    for (const delay of [5, 10, 20]) {
      q.addRateLimited('k');
      clock.advance(delay - 1);
      expect(q.len()).toBe(0);
      clock.advance(1);
      expect(q.len()).toBe(1);
      expect(await q.get()).toBe('k');
      q.done('k');
    }
    expect(q.numRequeues('k')).toBe(3);
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
    q.addRateLimited('k');
    clock.advance(5);
    expect(q.len()).toBe(1);
  });

  it('keeps the earliest of several addAfter times', () => {
    const clock = new VirtualClock();
    const q = new WorkQueue<string>({ clock });
    q.addAfter('k', 100);
    q.addAfter('k', 10);
    q.addAfter('k', 50);
    clock.advance(10);
    expect(q.len()).toBe(1);
    clock.advance(200);
    expect(q.len()).toBe(1);
  });
});

describe('ItemExponentialFailureRateLimiter', () => {
  it('doubles from 5 ms to the 1000 s cap, per item', () => {
    const rl = new ItemExponentialFailureRateLimiter<string>();
    const delays = Array.from({ length: 20 }, () => rl.when('a'));
    expect(delays.slice(0, 4)).toEqual([5, 10, 20, 40]);
    expect(delays[17]).toBe(655_360);
    expect(delays[18]).toBe(1_000_000);
    expect(rl.when('b')).toBe(5);
    for (let i = 0; i < 2000; i++) rl.when('a');
    expect(rl.when('a')).toBe(1_000_000);
  });
});

// default_rate_limiters.go BucketRateLimiter over golang.org/x/time/rate (its Reserve().Delay()).
describe('BucketRateLimiter', () => {
  it('lets a full bucket through at once, then one token each 1/qps, the wait growing with the debt', () => {
    const clock = new VirtualClock(0);
    const limiter = new BucketRateLimiter<string>(10, 3, clock);
    expect([limiter.when('a'), limiter.when('b'), limiter.when('c')]).toEqual([0, 0, 0]);
    expect(limiter.when('d')).toBe(100);
    expect(limiter.when('e')).toBe(200);
    // 250 ms later 2.5 tokens came back: 0.5 of debt remains after this one.
    clock.advance(250);
    expect(limiter.when('f')).toBe(50);
    // It tracks no item.
    expect(limiter.numRequeues('a')).toBe(0);
  });

  it('never holds more than the burst', () => {
    const clock = new VirtualClock(0);
    const limiter = new BucketRateLimiter<string>(10, 2, clock);
    clock.advance(60_000);
    expect([limiter.when('a'), limiter.when('b'), limiter.when('c')]).toEqual([0, 0, 100]);
  });
});

// default_rate_limiters_test.go TestMaxOfRateLimiter, with the limiters kubewasm has.
describe('MaxOfRateLimiter', () => {
  it('answers the longest delay, the most requeues, and forgets in every limiter', () => {
    const clock = new VirtualClock(0);
    const limiter = new MaxOfRateLimiter<string>(
      new ItemExponentialFailureRateLimiter<string>(5, 60_000),
      new BucketRateLimiter<string>(10, 2, clock),
    );
    // The bucket's 2 tokens first (the per-item 5 ms, 10 ms win), then the bucket's debt.
    expect([limiter.when('one'), limiter.when('one'), limiter.when('one')]).toEqual([5, 10, 100]);
    expect(limiter.numRequeues('one')).toBe(3);
    limiter.forget('one');
    expect(limiter.numRequeues('one')).toBe(0);
    clock.advance(10_000);
    expect(limiter.when('one')).toBe(5);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('backs an item off 5 ms doubling, and every item together past a burst of 100 at 10 qps', () => {
    const limiter = defaultControllerRateLimiter<string>(new VirtualClock(0));
    expect([limiter.when('a'), limiter.when('a'), limiter.when('a')]).toEqual([5, 10, 20]);
    for (let i = 0; i < 97; i++) limiter.when(`item-${i}`);
    // The bucket is empty now: the next new item waits a tenth of a second.
    expect(limiter.when('b')).toBe(100);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
  });
});
