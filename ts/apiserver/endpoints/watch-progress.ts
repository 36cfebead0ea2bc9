/**
 * The watch handler's side of the in-process progress channel (ts/api/watch-progress.ts): the
 * revision up to which the handler has taken its storage watch's batches, against the revision the
 * storage has queued to that watch, and the number of lines it has put into the stream.
 *
 *   const progress = servedWatchProgress(storage, watch);   // undefined: no channel
 *   progress?.wrote();             // a line went into the stream
 *   progress?.consumed(revision);  // a batch was taken (turned into lines, or filtered out)
 *   progress?.end();               // the storage watch ended: never caught up again
 */
import type { WatchProgress } from '../../api/watch-progress.js';
import type { Storage, Watch } from '../../storage/storage.js';

export class ServedWatchProgress implements WatchProgress {
  private consumedRevision = 0n;
  private lines = 0;
  private ended = false;

  /** `queuedRevision`: the storage watch's (Watch.queuedRevision). */
  constructor(private readonly queuedRevision: () => bigint) {}

  caughtUp(): boolean {
    return !this.ended && this.consumedRevision >= this.queuedRevision();
  }

  written(): number {
    return this.lines;
  }

  /** `count` more lines are in the stream, in order. */
  wrote(count = 1): void {
    this.lines += count;
  }

  /** Every batch up to `revision` has been taken from the storage watch. */
  consumed(revision: bigint): void {
    if (revision > this.consumedRevision) this.consumedRevision = revision;
  }

  end(): void {
    this.ended = true;
  }
}

/**
 * The progress of a watch on `storage`, when the channel means something: the storage queues a
 * write's events before the write resolves and the watch tells what it has queued.
 */
export function servedWatchProgress(storage: Storage, watch: Watch): ServedWatchProgress | undefined {
  const queued = watch.queuedRevision?.bind(watch);
  if (storage.queuesWatchesOnCommit !== true || queued === undefined) return undefined;
  return new ServedWatchProgress(queued);
}
