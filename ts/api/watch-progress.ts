/**
 * The side channel of a watch served in this process: how far the apiserver's watch handler is
 * with the storage watch behind it, so that an informer reading the stream can tell whether its
 * cache has every write that has finished (SharedIndexInformer.isCurrent, ts/client/informers).
 *
 *   storage watch ──queued──▶ handler ──lines──▶ response body ──events──▶ reflector ──▶ cache
 *                   caughtUp(): every queued event taken    written(): lines put in the body
 *
 * A cache is current when the handler is caught up and the reflector has applied as many events
 * of the stream as the handler has written. Only a storage that queues a write's watch events
 * before the write resolves (`Storage.queuesWatchesOnCommit`, the in-process wasm store) makes
 * "caught up" mean "has every finished write"; the handler attaches the channel only then, and
 * only to the Response object itself — nothing of it goes over HTTP, so a client of another
 * process, or of another storage, never sees one and its informers are never current.
 *
 * Kubernetes has no such channel: its consistent reads from the watch cache (KEP-2340) ask etcd
 * for the current revision and wait for the cache to reach it. In one process the wasm store
 * makes the answer synchronous, which the admission plugins' per-request reads need.
 */

/** The Response property holding a watch's progress (client and server share the key). */
export const WATCH_PROGRESS: unique symbol = Symbol.for('kubewasm.watchProgress');

/** What the server tells the client of one watch it serves in this process. */
export interface WatchProgress {
  /**
   * True while the handler has taken every event its storage watch has queued (so every write
   * that finished before now is in the stream, or was filtered out of it); false once the storage
   * watch has ended or been dropped.
   */
  caughtUp(): boolean;
  /** How many events (lines) the handler has put into the stream so far. */
  written(): number;
}

/** The progress a watch Response carries, if it was served in this process over such a storage. */
export function watchProgressOf(response: Response): WatchProgress | undefined {
  return (response as Response & { [WATCH_PROGRESS]?: WatchProgress })[WATCH_PROGRESS];
}

/** `response` with `progress` attached (the watch handler's side). */
export function withWatchProgress(response: Response, progress: WatchProgress): Response {
  Object.defineProperty(response, WATCH_PROGRESS, { value: progress, enumerable: false });
  return response;
}
