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
export const DEFAULT_BACKOFF: Backoff = { steps: 4, durationMs: 10, factor: 5 };
// util/retry/util.go DefaultRetry: Steps 5, Duration 10ms, Factor 1.0 (the jitter left out too).
export const DEFAULT_RETRY: Backoff = { steps: 5, durationMs: 10, factor: 1 };

/** A wait.Backoff without jitter. */
export interface Backoff {
  readonly steps: number;
  readonly durationMs: number;
  readonly factor: number;
}

/** OnError(backoff, IsConflict, fn): wait.ExponentialBackoff around `fn` (DefaultBackoff unless told). */
export async function retryOnConflict(
  clock: Clock,
  fn: () => Promise<void>,
  backoff: Backoff = DEFAULT_BACKOFF,
): Promise<void> {
  let delay = backoff.durationMs;
  for (let step = 1; ; step++) {
    try {
      await fn();
      return;
    } catch (err) {
      if (!isConflict(err) || step >= backoff.steps) throw err;
    }
    await new Promise<void>((resolve) => clock.setTimer(resolve, delay));
    delay *= backoff.factor;
  }
}
