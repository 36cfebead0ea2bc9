// The facts of pkg/controller/tainteviction/timed_workers_test.go (v1.32), on a virtual clock.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import { newWorkArgs, TimedWorkerQueue } from './timed-workers.js';

function counting(clock: VirtualClock) {
  const fired: string[] = [];
  const queue = new TimedWorkerQueue(async (_fireAt, args) => {
    fired.push(args.name);
    await Promise.resolve();
  }, clock);
  return { fired, queue };
}

const KEYS = ['1', '2', '3', '4', '5'];

describe('TimedWorkerQueue (timed_workers_test.go)', () => {
  it('TestExecute: work due now runs once per key, a second add is a no-op', async () => {
    const clock = new VirtualClock(1_000);
    const { fired, queue } = counting(clock);
    for (const k of [...KEYS, ...KEYS]) queue.addWork(newWorkArgs(k, k), clock.now(), clock.now());
    await queue.idle();
    expect(fired.sort()).toEqual(KEYS);
    // The keys stay (as done work): adding again does nothing.
    queue.addWork(newWorkArgs('1', '1'), clock.now(), clock.now());
    await queue.idle();
    expect(fired).toHaveLength(5);
  });

  it('TestExecuteDelayed: work waits for fireAt − createdAt', async () => {
    const clock = new VirtualClock(1_000);
    const { fired, queue } = counting(clock);
    const now = clock.now();
    for (const k of [...KEYS, ...KEYS]) queue.addWork(newWorkArgs(k, k), now, now + 10_000);
    clock.advance(9_999);
    await queue.idle();
    expect(fired).toEqual([]);
    clock.advance(2_000);
    await queue.idle();
    expect(fired.sort()).toEqual(KEYS);
  });

  it('TestCancel: cancelled work does not run', async () => {
    const clock = new VirtualClock(1_000);
    const { fired, queue } = counting(clock);
    const now = clock.now();
    for (const k of [...KEYS, ...KEYS]) queue.addWork(newWorkArgs(k, k), now, now + 10_000);
    expect(queue.cancelWork('2/2')).toBe(true);
    expect(queue.cancelWork('4/4')).toBe(true);
    expect(queue.cancelWork('4/4')).toBe(false);
    clock.advance(11_000);
    await queue.idle();
    expect(fired.sort()).toEqual(['1', '3', '5']);
  });

  it('TestCancelAndReadd: cancelled and added again, the work runs', async () => {
    const clock = new VirtualClock(1_000);
    const { fired, queue } = counting(clock);
    const now = clock.now();
    for (const k of [...KEYS, ...KEYS]) queue.addWork(newWorkArgs(k, k), now, now + 10_000);
    queue.cancelWork('2/2');
    queue.cancelWork('4/4');
    queue.addWork(newWorkArgs('2', '2'), now, now + 10_000);
    clock.advance(11_000);
    await queue.idle();
    expect(fired.sort()).toEqual(['1', '2', '3', '5']);
  });

  it('failed work leaves the queue (so it can be added again); succeeded work stays', async () => {
    const clock = new VirtualClock(1_000);
    let fail = true;
    const errors: string[] = [];
    const queue = new TimedWorkerQueue(
      async () => {
        if (fail) throw new Error('boom');
      },
      clock,
      (_err, key) => errors.push(key),
    );
    queue.addWork(newWorkArgs('p', 'ns'), clock.now(), clock.now());
    await queue.idle();
    expect(errors).toEqual(['ns/p']);
    expect(queue.cancelWork('ns/p')).toBe(false);
    fail = false;
    queue.addWork(newWorkArgs('p', 'ns'), clock.now(), clock.now() + 5);
    expect(queue.getWorkerUnsafe('ns/p')?.fireAt).toBe(clock.now() + 5);
  });
});
