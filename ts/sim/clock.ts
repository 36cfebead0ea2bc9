/**
 * Time, injected: every timer in kubewasm goes through a Clock, so that tests and simulations can
 * run minutes of cluster time in milliseconds (VirtualClock) and `kubewasm up` uses real time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const handle = setTimeout(fn, ms);
    // A pending timer must not keep a process alive on its own.
    (handle as { unref?: () => void }).unref?.();
    return () => clearTimeout(handle);
  },
};

/** A clock that moves only when told to; timers fire in due order during `advance`. */
export class VirtualClock implements Clock {
  private timers: Array<{ at: number; seq: number; fn: () => void }> = [];
  private seq = 0;

  constructor(private current = 0) {}

  now(): number {
    return this.current;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const until = this.current + ms;
    while (true) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = due.at;
      due.fn();
    }
    this.current = until;
  }
}
