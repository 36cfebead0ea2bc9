/**
 * The bounded hand-off between a backend that produces watch batches and the consumer that
 * iterates them. When more than `capacity` events are waiting, the watch ends with one ERROR
 * (WatchTooSlow) — the consumer resumes from the last revision it saw — so memory stays bounded
 * and no event is ever skipped silently.
 */
import { StorageError } from './errors.js';
import type { Watch, WatchEvent } from './storage.js';

/** Default bound on events waiting for one consumer. */
export const DEFAULT_WATCH_CAPACITY = 10_000;

export class WatchQueue implements Watch {
  private readonly batches: WatchEvent[][] = [];
  private waiting = 0;
  private lastRevision = 0n;
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(
    private readonly onStop: () => void,
    private readonly capacity = DEFAULT_WATCH_CAPACITY,
  ) {}

  /** Queues a batch; returns false once the watch has ended (the producer should stop). */
  push(batch: WatchEvent[]): boolean {
    if (this.ended || batch.length === 0) return !this.ended;
    if (this.waiting + batch.length > this.capacity) {
      this.fail(
        new StorageError(
          'WatchTooSlow',
          `watch consumer fell more than ${this.capacity} events behind; resume from revision ${this.lastRevision}`,
          undefined,
          this.lastRevision,
        ),
      );
      return false;
    }
    this.batches.push(batch);
    this.waiting += batch.length;
    this.lastRevision = (batch[batch.length - 1] as WatchEvent).revision;
    this.wake?.();
    return true;
  }

  queuedRevision(): bigint {
    return this.lastRevision;
  }

  /** Ends the watch with one ERROR event after what is already queued. */
  fail(error: StorageError): void {
    if (this.ended) return;
    this.batches.push([{ type: 'ERROR', key: '', value: new Uint8Array(), revision: this.lastRevision, error }]);
    this.finish();
  }

  stop(): void {
    this.batches.length = 0;
    this.finish();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.onStop();
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent[]> {
    try {
      while (true) {
        const batch = this.batches.shift();
        if (batch) {
          this.waiting -= batch.length;
          yield batch;
          continue;
        }
        if (this.ended) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
      }
    } finally {
      this.stop();
    }
  }
}
