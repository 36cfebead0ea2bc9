import { describe, expect, it } from 'vitest';
import { StatusError } from '../../api/status.js';
import { VirtualClock } from '../../sim/clock.js';
import { DEFAULT_BACKOFF, retryOnConflict } from './retry.js';

const conflict = () =>
  new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409 });

/** Lets pending promise callbacks run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

// client-go util/retry/util_test.go (v0.32) TestRetryOnConflict, on the injected clock.
describe('retryOnConflict (RetryOnConflict with DefaultBackoff)', () => {
  it('tries again after 10 ms, 50 ms, 250 ms, and gives up with the conflict after 4 tries', async () => {
    const clock = new VirtualClock(0);
    const tries: number[] = [];
    const done = retryOnConflict(clock, async () => {
      tries.push(clock.now());
      throw conflict();
    }).catch((err: unknown) => err);
    for (const ms of [10, 50, 250]) {
      await settle();
      clock.advance(ms);
    }
    const err = await done;
    expect(tries).toEqual([0, 10, 60, 310]);
    expect((err as StatusError).code).toBe(409);
    expect(DEFAULT_BACKOFF.steps).toBe(4);
  });

  it('returns once a try succeeds, and throws any other error at once', async () => {
    const clock = new VirtualClock(0);
    let n = 0;
    const done = retryOnConflict(clock, async () => {
      n++;
      if (n === 1) throw conflict();
    });
    await settle();
    clock.advance(10);
    await done;
    expect(n).toBe(2);
    await expect(
      retryOnConflict(clock, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
  });
});
