/**
 * retry.RetryOnConflict (k8s.io/client-go/util/retry/util.go at v0.32) with retry.DefaultBackoff:
 * a read-modify-write tried again when it meets a 409 Conflict, at most DEFAULT_BACKOFF.steps
 * times, waiting 10 ms, 50 ms, 250 ms between tries on the injected clock; any other error, or the
 * last conflict, is thrown.
 *
 *   await retryOnConflict(clock, async () => { const o = await get(); await patch(o) });
 */
import { isConflict } from '../../api/status.js';
import type { Clock } from '../../sim/clock.js';

// util/retry/util.go DefaultBackoff: Steps 4, Duration 10ms, Factor 5.0, Jitter 0.1 (the jitter is
// left out, as kubewasm's other backoffs leave it out, so that runs are reproducible).
export const DEFAULT_BACKOFF = { steps: 4, durationMs: 10, factor: 5 } as const;

/** OnError(DefaultBackoff, IsConflict, fn): wait.ExponentialBackoff around `fn`. */
export async function retryOnConflict(clock: Clock, fn: () => Promise<void>): Promise<void> {
  let delay: number = DEFAULT_BACKOFF.durationMs;
  for (let step = 1; ; step++) {
    try {
      await fn();
      return;
    } catch (err) {
      if (!isConflict(err) || step >= DEFAULT_BACKOFF.steps) throw err;
    }
    await new Promise<void>((resolve) => clock.setTimer(resolve, delay));
    delay *= DEFAULT_BACKOFF.factor;
  }
}
