import { describe, expect, it } from 'vitest';
import { SLOW_START_INITIAL_BATCH_SIZE, slowStartBatch } from './slow-start.js';

// replica_set_test.go TestSlowStartBatch (v1.32)
describe('slowStartBatch', () => {
  const fakeErr = new Error('fake error');

  /** fn that counts its calls and fails from the `failAfter`-th on. */
  function counting(failAfter = Number.POSITIVE_INFINITY) {
    let calls = 0;
    return {
      calls: () => calls,
      fn: async () => {
        calls++;
        if (calls > failAfter) throw fakeErr;
      },
    };
  }

  it.each([
    // name, count, calls that succeed, want successes, want calls, want error
    // The first batch: fn is called at least once.
    ['callLimit = 0 (all fail)', 10, 0, 0, 1, true],
    // 1 + 2 + 4 + 3
    ['callLimit = count (all succeed)', 10, 10, 10, 10, false],
    // 1 + 2 + 4: the third batch has failures, the fourth is not sent.
    ['callLimit < count (some succeed)', 10, 5, 5, 7, true],
    ['count = 0: no call', 0, Number.POSITIVE_INFINITY, 0, 0, false],
  ])('%s', async (_name, count, failAfter, successes, calls, failed) => {
    const c = counting(failAfter);
    const result = await slowStartBatch(count, SLOW_START_INITIAL_BATCH_SIZE, c.fn);
    expect(result.successes).toBe(successes);
    expect(c.calls()).toBe(calls);
    expect(result.error).toBe(failed ? fakeErr : undefined);
  });

  it('runs each batch at once, doubling: 1, 2, 4, then what remains', async () => {
    const batches: number[] = [];
    let inFlight = 0;
    let batch = 0;
    await slowStartBatch(10, 1, async () => {
      inFlight++;
      batch = Math.max(batch, inFlight);
      await Promise.resolve();
      inFlight--;
      if (inFlight === 0) {
        batches.push(batch);
        batch = 0;
      }
    });
    expect(batches).toEqual([1, 2, 4, 3]);
  });

  it('ends with the failure that happened first, not the first call’s (Go reads it off errCh)', async () => {
    const late = new Error('late');
    const early = new Error('early');
    let call = 0;
    const result = await slowStartBatch(3, 1, async () => {
      call++;
      if (call === 1) return;
      // The second batch: its first call fails after its second one.
      if (call === 2) {
        await new Promise((r) => setTimeout(r, 20));
        throw late;
      }
      throw early;
    });
    expect(result).toEqual({ successes: 1, error: early });
  });
});
