/**
 * The rate limiters RateLimitedTimedQueue swaps between (k8s.io/client-go/util/flowcontrol
 * throttle.go at v0.32): NewTokenBucketRateLimiter — golang.org/x/time/rate's Limiter, a bucket of
 * `burst` tokens, full at the start, refilled at `qps` a second, TryAccept taking one if there is
 * one — and NewFakeNeverRateLimiter, which accepts nothing. Both on the injected clock; qps is a
 * float32 as in Go (so `qps()` of 0.1 compares equal to another 0.1).
 *
 *   const limiter = new TokenBucketRateLimiter(0.1, 1, clock);
 *   limiter.tryAccept();   // true: the bucket starts full
 *   limiter.tryAccept();   // false until 10 s have passed
 */
import type { Clock } from '../../../sim/clock.js';

/** flowcontrol.RateLimiter, the parts the node lifecycle controller uses. */
export interface RateLimiter {
  /** Takes a token if one is there now. */
  tryAccept(): boolean;
  /** The refill rate (float32). */
  qps(): number;
  stop(): void;
}

export class TokenBucketRateLimiter implements RateLimiter {
  private readonly rate: number;
  private burst: number;
  private tokens = 0;
  /** rate.Limiter's `last`: undefined is Go's zero time (so the first advance fills the bucket). */
  private last: number | undefined;

  constructor(
    qps: number,
    burst: number,
    private readonly clock: Clock,
  ) {
    this.rate = Math.fround(qps);
    this.burst = burst;
  }

  tryAccept(): boolean {
    const now = this.clock.now();
    // rate.Limiter.reserveN with limit 0: `burst` events are allowed in all, then none.
    if (this.rate === 0) {
      if (this.burst >= 1) {
        this.burst -= 1;
        return true;
      }
      return false;
    }
    // advance: tokens refilled for the time since last, capped at burst.
    let tokens = this.burst;
    if (this.last !== undefined) {
      const last = Math.min(this.last, now);
      tokens = Math.min(this.burst, this.tokens + ((now - last) / 1000) * this.rate);
    }
    tokens -= 1;
    if (tokens < 0 || this.burst < 1) return false;
    this.tokens = tokens;
    this.last = now;
    return true;
  }

  qps(): number {
    return this.rate;
  }

  stop(): void {}
}

/** flowcontrol.NewFakeAlwaysRateLimiter: always accepts; QPS 1 (tests). */
export class AlwaysRateLimiter implements RateLimiter {
  tryAccept(): boolean {
    return true;
  }
  qps(): number {
    return 1;
  }
  stop(): void {}
}

/** flowcontrol.NewFakeNeverRateLimiter: never accepts; QPS 0. */
export class NeverRateLimiter implements RateLimiter {
  tryAccept(): boolean {
    return false;
  }
  qps(): number {
    return 0;
  }
  stop(): void {}
}
