/**
 * WithMaxInFlightLimit (k8s.io/apiserver pkg/server/filters/maxinflight.go): separate budgets for
 * read-only and mutating requests (--max-requests-inflight 400, --max-mutating-requests-inflight
 * 200); a request over budget is refused at once with 429 and `Retry-After: 1`, except for
 * system:masters, which is why the filter runs after authentication. Long-running requests (watch,
 * log, …) hold no slot.
 */
import { newTooManyRequests } from '../../api/status.js';
import type { Filter } from './chain.js';
import { statusResponse } from './error-handler.js';

/** --max-requests-inflight default (k8s.io/apiserver pkg/server/config.go NewConfig). */
export const DEFAULT_MAX_REQUESTS_INFLIGHT = 400;
/** --max-mutating-requests-inflight default (k8s.io/apiserver pkg/server/config.go NewConfig). */
export const DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT = 200;
/** The Retry-After a rejected request gets (k8s.io/apiserver pkg/server/filters/maxinflight.go `retryAfter`). */
export const RETRY_AFTER_SECONDS = 1;
/** The group the max-in-flight filter never refuses (user.SystemPrivilegedGroup). */
const SYSTEM_MASTERS = 'system:masters';

/**
 * WithMaxInFlightLimit (maxinflight.go): separate budgets for read-only and mutating requests;
 * a request over budget is refused at once, except for system:masters.
 */
export class InFlightLimiter {
  private readOnly = 0;
  private mutating = 0;

  constructor(
    private readonly readOnlyLimit: number,
    private readonly mutatingLimit: number,
  ) {}

  /** A release function, or undefined when the request's budget is used up. */
  tryAcquire(mutating: boolean): (() => void) | undefined {
    const limit = mutating ? this.mutatingLimit : this.readOnlyLimit;
    const current = mutating ? this.mutating : this.readOnly;
    if (limit > 0 && current >= limit) return undefined;
    if (mutating) this.mutating++;
    else this.readOnly++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (mutating) this.mutating--;
      else this.readOnly--;
    };
  }

  /** Requests being served now, per budget. */
  get inFlight(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }
}

/**
 * The 429 a full budget answers with: maxinflight.go's text and `Retry-After: 1`. Kubernetes writes
 * that text as text/plain (http.Error); here it is the message of a TooManyRequests Status, with
 * the retryAfterSeconds client-go derives from the header, because every response of this server
 * is JSON (client-node cannot parse anything else).
 */
export function tooManyRequests(): { error: Error; headers: Record<string, string> } {
  return {
    error: newTooManyRequests('Too many requests, please try again later.', RETRY_AFTER_SECONDS),
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  };
}

/** The filter: a slot of the request's budget for the time `next` takes, or the 429. */
export function withMaxInFlightLimit(limiter: InFlightLimiter): Filter {
  return (next) => async (r) => {
    if (r.info.longRunning) return next(r);
    const release = limiter.tryAcquire(r.info.mutating);
    if (release === undefined && !(r.user?.groups ?? []).includes(SYSTEM_MASTERS)) {
      const { error, headers } = tooManyRequests();
      const res = statusResponse(error);
      for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
      return res;
    }
    try {
      return await next(r);
    } finally {
      release?.();
    }
  };
}
