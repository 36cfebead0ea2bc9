/**
 * TimedWorkerQueue (pkg/controller/tainteviction/timed_workers.go at v1.32): per key (`ns/name`) a
 * function run no earlier than its fireAt, on the injected clock. The delay is fireAt − createdAt
 * (as in Go, counted from when the work is added); work due already runs at once (off the
 * caller's path) and leaves no worker to cancel. A key stays in the queue after its work succeeded
 * (so it is not added twice) and leaves it when the work failed; CancelWork drops it either way
 * and says whether a pending timer was stopped.
 *
 *   const q = new TimedWorkerQueue(async (fireAt, args) => deletePod(args), clock);
 *   q.addWork(newWorkArgs('p', 'default'), clock.now(), clock.now() + 300_000);
 *   q.cancelWork('default/p');   // true: its timer was stopped
 */
import type { Clock } from '../../sim/clock.js';

/** WorkArgs: the pod the work is for. */
export interface WorkArgs {
  namespace: string;
  name: string;
}

/** NewWorkArgs. */
export function newWorkArgs(name: string, namespace: string): WorkArgs {
  return { namespace, name };
}

/** KeyFromWorkArgs: NamespacedName.String(), `namespace/name`. */
export function keyFromWorkArgs(args: WorkArgs): string {
  return `${args.namespace}/${args.name}`;
}

/** TimedWorker: the work of one key, its creation and fire times (ms), and its timer's cancel. */
export interface TimedWorker {
  workItem: WorkArgs;
  createdAt: number;
  fireAt: number;
  cancel(): void;
}

export type WorkFunc = (fireAt: number, args: WorkArgs) => Promise<void>;

export class TimedWorkerQueue {
  /** The workers by key; null for work that ran at once or finished (Go's nil entry). */
  private readonly workers = new Map<string, TimedWorker | null>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly workFunc: WorkFunc,
    private readonly clock: Clock,
    /** A work function that failed (the Go logs "timed worker failed"). */
    private readonly onError: (err: unknown, key: string) => void = () => {},
  ) {}

  /** AddWork: skipped if the key has work (pending, or done) already. */
  addWork(args: WorkArgs, createdAt: number, fireAt: number): void {
    const key = keyFromWorkArgs(args);
    if (this.workers.has(key)) return;
    this.workers.set(key, this.createWorker(key, args, createdAt, fireAt));
  }

  /** CancelWork: the key dropped; true if a pending timer was stopped. */
  cancelWork(key: string): boolean {
    if (!this.workers.has(key)) return false;
    const worker = this.workers.get(key) ?? null;
    this.workers.delete(key);
    if (worker === null) return false;
    worker.cancel();
    return true;
  }

  /** GetWorkerUnsafe: the pending worker of `key` (undefined for none, or for work already run). */
  getWorkerUnsafe(key: string): TimedWorker | undefined {
    return this.workers.get(key) ?? undefined;
  }

  /** Resolves once no work function is running (stop, tests). */
  async idle(): Promise<void> {
    // Work due at once starts on a microtask.
    await Promise.resolve();
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** createWorker: the wrapped work run after fireAt − createdAt, or at once if that is not positive. */
  private createWorker(key: string, args: WorkArgs, createdAt: number, fireAt: number): TimedWorker | null {
    const fire = (): void => {
      const run = this.wrapped(key, fireAt, args);
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    };
    const delay = fireAt - createdAt;
    if (delay <= 0) {
      queueMicrotask(fire);
      return null;
    }
    const cancel = this.clock.setTimer(fire, delay);
    return { workItem: args, createdAt, fireAt, cancel };
  }

  /** getWrappedWorkerFunc: on success the key stays (as null), on failure it goes. */
  private async wrapped(key: string, fireAt: number, args: WorkArgs): Promise<void> {
    try {
      await this.workFunc(fireAt, args);
      this.workers.set(key, null);
    } catch (err) {
      this.workers.delete(key);
      this.onError(err, key);
    }
  }
}
