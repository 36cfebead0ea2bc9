/**
 * Watch (../shared/reference/api.md §4): a stream of `{"type":…,"object":…}\n` lines — chunked over
 * HTTP, one line per WebSocket text message through node/https.ts, or read in-process.
 *
 * - Start (read-options.ts watchStart): with sendInitialEvents (the default for resourceVersion ""
 *   and "0") ADDED events for the state at the start revision, then — with allowWatchBookmarks — a
 *   BOOKMARK annotated `k8s.io/initial-events-end: "true"` at that revision (watch-list, KEP-3157);
 *   otherwise only changes after resourceVersion (or after now, for "" and "0").
 * - Changes: objects that stop (or start) matching the selectors are sent as DELETED (ADDED), as
 *   the cacher does; BOOKMARKs from the store's progress notifications, and one shortly before the
 *   deadline, with allowWatchBookmarks.
 * - End: at timeoutSeconds; a compacted start answers with an ERROR event holding a 410 Expired
 *   Status.
 * - Bounded: live events wait in a per-watcher buffer of WATCH_BUFFER_EVENTS. A consumer that falls
 *   further behind is ended the way the cacher ends an unresponsive watcher (cache_watcher.go add:
 *   "Forcing watcher close due to unresponsiveness"): no ERROR event, what was not yet handed over
 *   is dropped, the stream closes, and the client watches again from the last resourceVersion it
 *   received (client-go's reflector and client-node's ListWatch both do).
 * - In process, over a storage that queues on commit: the Response carries the watch's progress
 *   (watch-progress.ts), which tells an informer reading it whether it has every finished write.
 */
import type { KubeObject } from '../../api/meta.js';
import { toStatus } from '../../api/status.js';
import { interpretStorageError } from '../../api/storage-errors.js';
import { withWatchProgress } from '../../api/watch-progress.js';
import { StorageError } from '../../storage/errors.js';
import type { Storage, Watch, WatchEvent } from '../../storage/storage.js';
import { decodeStored } from '../decode/codec.js';
import type { ResourceRequest, RestContext } from '../registry/generic/context.js';
import { parseSelectors, type Selectors, selects, watchStart } from '../registry/generic/read-options.js';
import { collectionPrefix, groupVersion, objectKey, type ResourceInfo } from '../registry/resources.js';
import { JSON_TYPE } from './response.js';
import { toTable, wantsTable } from './table.js';
import { servedWatchProgress } from './watch-progress.js';

/** metav1.InitialEventsAnnotationKey (apimachinery/pkg/apis/meta/v1/types.go). */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/**
 * The watch timeout when the request sets none: kube-apiserver's --min-request-timeout default
 * (apiserver/pkg/server/config.go MinRequestTimeout: 1800). Kubernetes scales it by a random
 * factor in [1, 2) (handlers/get.go); a fixed value keeps runs reproducible.
 */
export const MIN_REQUEST_TIMEOUT_SECONDS = 1800;

/**
 * Live events one watcher may have waiting before it is ended as unresponsive. The cacher gives a
 * watcher an input and a result channel of up to maxWatchChanSizeWithIndexWithoutTrigger = 1000
 * events each (cacher/watch_cache.go); here the two channels' worth, without the cacher's
 * dispatch time budget (the buffer bound alone keeps memory bounded).
 */
export const WATCH_BUFFER_EVENTS = 2 * 1000;

/** The cacher sends a last bookmark this long before the deadline (cache_watcher.go nextBookmarkTime). */
const PRE_DEADLINE_BOOKMARK_MS = 2000;

/** Initial events are handed over in chunks of about this many bytes. */
const INITIAL_CHUNK_BYTES = 64 * 1024;

export interface WatchLimits {
  /** Live events a watcher may have waiting (default WATCH_BUFFER_EVENTS). */
  bufferEvents?: number;
}

/** Whether a request URL asks for a watch, as the router routes it (`watch=true` or `watch=1`). */
export function isWatchUrl(url: URL): boolean {
  const w = url.searchParams.get('watch');
  return w === 'true' || w === '1';
}

/**
 * Encoded event lines shared by the watchers of one storage, as the watch cache's cachingObject
 * serializes an event once for all its watchers instead of once per watcher. Keyed by type,
 * revision and key (unique per event); the newest LINE_CACHE_SIZE are kept.
 */
const LINE_CACHE_SIZE = 4096;
const lineCaches = new WeakMap<Storage, Map<string, string>>();

function sharedLine(storage: Storage, ev: WatchEvent, encode: () => string): string {
  let cache = lineCaches.get(storage);
  if (cache === undefined) {
    cache = new Map();
    lineCaches.set(storage, cache);
  }
  const key = `${ev.type}\u0000${ev.revision}\u0000${ev.key}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = encode();
    cache.set(key, text);
    // A Map iterates in insertion order: the first key is the oldest.
    if (cache.size > LINE_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  return text;
}

/** The API watch events one storage event gives after selector filtering. */
function convert(info: ResourceInfo, s: Selectors, ev: WatchEvent): { type: string; obj: KubeObject } | undefined {
  const obj = decodeStored({ value: ev.value, revision: ev.revision });
  if (s.everything) return { type: ev.type, obj };
  const now = selects(info, s, obj);
  if (ev.type === 'ADDED') return now ? { type: 'ADDED', obj } : undefined;
  if (ev.type === 'DELETED') return now ? { type: 'DELETED', obj } : undefined;
  const before =
    ev.prevValue !== undefined && selects(info, s, decodeStored({ value: ev.prevValue, revision: ev.revision }));
  if (now && before) return { type: 'MODIFIED', obj };
  if (now) return { type: 'ADDED', obj };
  if (before) return { type: 'DELETED', obj };
  return undefined;
}

/** The state a watch with initial events starts from, and the revision it was read at. */
async function readInitial(
  ctx: RestContext,
  info: ResourceInfo,
  key: string,
  recursive: boolean,
  selectors: Selectors,
  rv: string,
): Promise<{ objects: KubeObject[]; revision: bigint }> {
  // "" is a consistent read, "0" any state, N a state not older than N (store.md §3.4).
  const minRevision = rv === '' || rv === '0' ? undefined : BigInt(rv);
  try {
    if (recursive) {
      const page = await ctx.storage.list(key, minRevision === undefined ? {} : { minRevision });
      const objects: KubeObject[] = [];
      for (const item of page.items) {
        const obj = decodeStored(item);
        if (selects(info, selectors, obj)) objects.push(obj);
      }
      return { objects, revision: page.revision };
    }
    const revision = await ctx.storage.currentRevision();
    if (minRevision !== undefined && minRevision > revision) throw StorageError.tooLarge(minRevision, revision);
    // Read at exactly that revision, so the watch from it neither repeats nor misses a change.
    const item = await ctx.storage.get(key, { revision, ignoreNotFound: true });
    const obj = item === undefined ? undefined : decodeStored(item);
    return { objects: obj !== undefined && selects(info, selectors, obj) ? [obj] : [], revision };
  } catch (err) {
    throw interpretStorageError('list', err, info, '');
  }
}

/** GET of a collection (or one name, as a field selector) with `watch=true`. */
export async function watchObjects(
  ctx: RestContext,
  req: ResourceRequest,
  limits: WatchLimits = {},
): Promise<Response> {
  const { info, query } = req;
  const bufferLimit = limits.bufferEvents ?? WATCH_BUFFER_EVENTS;
  const selectors = parseSelectors(info, query);
  const opts = watchStart(query);
  const rv = opts.resourceVersion;
  const bookmarks = opts.allowWatchBookmarks;
  const timeoutMs = (opts.timeoutSeconds ?? MIN_REQUEST_TIMEOUT_SECONDS) * 1000;
  const asTable = wantsTable(req.accept);
  // A watch on /…/<name> is a watch of the collection with metadata.name=<name>.
  const key = req.name === '' ? collectionPrefix(info, req.namespace) : objectKey(info, req.namespace, req.name);
  const recursive = req.name === '';

  let initial: KubeObject[] = [];
  let start: bigint;
  if (opts.sendInitialEvents) {
    const read = await readInitial(ctx, info, key, recursive, selectors, rv);
    initial = read.objects;
    start = read.revision;
  } else if (rv === '' || rv === '0') {
    start = await ctx.storage.currentRevision();
  } else {
    start = BigInt(rv);
  }
  // Events up to here are history the store replays at once; they are handed over as the consumer
  // reads (as the cacher's processInterval does), and only live events count against the bound.
  const current = await ctx.storage.currentRevision();
  const historyEnd = current > start ? current : start;

  const bookmarkObject = (revision: bigint, annotations?: Record<string, string>): KubeObject => ({
    kind: info.kind,
    apiVersion: groupVersion(info),
    metadata: { resourceVersion: String(revision), ...(annotations ? { annotations } : {}) },
  });
  let headersSent = false;
  const line = (type: string, object: unknown): string => {
    if (asTable && type !== 'BOOKMARK' && type !== 'ERROR') {
      const obj = object as KubeObject;
      object = toTable(info, [obj], {
        now: ctx.clock.now(),
        noHeaders: headersSent,
        resourceVersion: obj.metadata?.resourceVersion ?? '',
      });
      headersSent = true;
    }
    return `${JSON.stringify({ type, object })}\n`;
  };

  // Initial events are encoded as they are handed over; the end bookmark follows them.
  let initialIndex = 0;
  const initialEnd = opts.sendInitialEvents && bookmarks ? start : undefined;
  let initialEndSent = initialEnd === undefined;
  /** Encoded live events not yet handed to the stream, at most `bufferLimit`. */
  let live: string[] = [];
  /** No more live events will come (the storage watch ended, failed or was dropped). */
  let inputDone = false;
  /** The stream was closed or cancelled. */
  let closed = false;
  let wake: (() => void) | undefined;
  const signal = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  /** Wakes the pump when the consumer took the buffer (or the stream ended). */
  let taken: (() => void) | undefined;
  const signalTaken = () => {
    const t = taken;
    taken = undefined;
    t?.();
  };

  const watch: Watch = ctx.storage.watch(key, {
    revision: start,
    recursive,
    progressNotify: bookmarks,
    prevValue: true,
  });
  const progress = servedWatchProgress(ctx.storage, watch);
  progress?.wrote(initial.length + (initialEnd === undefined ? 0 : 1));
  /** A live line into the buffer (counted in the progress). */
  const emit = (text: string) => {
    live.push(text);
    progress?.wrote();
  };
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  const cancelTimers: Array<() => void> = [];
  const finish = () => {
    if (closed) return;
    closed = true;
    inputDone = true;
    progress?.end();
    live = [];
    for (const cancel of cancelTimers) cancel();
    watch.stop();
    try {
      controllerRef?.close();
    } catch {
      // already closed
    }
    signal();
    signalTaken();
  };
  /** The consumer fell too far behind: drop the watcher (see the file comment). */
  const dropSlowWatcher = () => {
    inputDone = true;
    progress?.end();
    live = [];
    initial = [];
    initialIndex = 0;
    initialEndSent = true;
    watch.stop();
    signal();
  };

  // The pump moves storage batches into the bounded buffer as soon as they arrive, so the store's
  // own queue never backs up; the stream's pull hands the buffer over as the consumer reads.
  const pump = async () => {
    try {
      for await (const batch of watch) {
        if (inputDone) break;
        for (const ev of batch) {
          if (ev.type === 'BOOKMARK') {
            if (bookmarks) emit(line('BOOKMARK', bookmarkObject(ev.revision)));
          } else if (ev.type === 'ERROR') {
            if (ev.error?.code === 'WatchTooSlow') {
              dropSlowWatcher();
              return;
            }
            const err = interpretStorageError(
              'watch',
              ev.error,
              info,
              '',
              rv === '' || rv === '0' ? {} : { requestedResourceVersion: rv },
            );
            emit(line('ERROR', toStatus(err)));
            inputDone = true;
          } else if (selectors.everything && !asTable) {
            // Every watcher of the collection sends this event as it is: encode it once for all.
            emit(
              sharedLine(ctx.storage, ev, () =>
                line(ev.type, decodeStored({ value: ev.value, revision: ev.revision })),
              ),
            );
          } else {
            const out = convert(info, selectors, ev);
            if (out) emit(line(out.type, out.obj));
          }
        }
        const last = batch[batch.length - 1];
        if (last !== undefined) progress?.consumed(last.revision);
        if (live.length > bufferLimit) {
          if (last === undefined || last.revision > historyEnd) {
            dropSlowWatcher();
            return;
          }
          // Replayed history: wait for the consumer instead.
          signal();
          while (live.length > bufferLimit && !closed && !inputDone) {
            await new Promise<void>((resolve) => {
              taken = resolve;
            });
          }
        }
        signal();
      }
    } catch (err) {
      if (!closed) emit(line('ERROR', toStatus(err)));
    } finally {
      inputDone = true;
      progress?.end();
      signal();
    }
  };

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controllerRef = controller;
      cancelTimers.push(ctx.clock.setTimer(finish, timeoutMs));
      if (bookmarks && timeoutMs > PRE_DEADLINE_BOOKMARK_MS) {
        cancelTimers.push(
          ctx.clock.setTimer(() => {
            ctx.storage.requestProgress().catch(() => {});
          }, timeoutMs - PRE_DEADLINE_BOOKMARK_MS),
        );
      }
      void pump();
    },
    async pull(controller) {
      while (!closed) {
        if (initialIndex < initial.length) {
          let text = '';
          while (initialIndex < initial.length && text.length < INITIAL_CHUNK_BYTES) {
            text += line('ADDED', initial[initialIndex++]);
          }
          if (initialIndex >= initial.length) {
            initial = []; // handed over: let the objects go
            initialIndex = 0;
          }
          controller.enqueue(encoder.encode(text));
          return;
        }
        if (!initialEndSent) {
          initialEndSent = true;
          if (initialEnd !== undefined) {
            const end = bookmarkObject(initialEnd, { [INITIAL_EVENTS_END_ANNOTATION]: 'true' });
            controller.enqueue(encoder.encode(line('BOOKMARK', end)));
            return;
          }
        }
        if (live.length > 0) {
          const text = live.join('');
          live = [];
          signalTaken();
          controller.enqueue(encoder.encode(text));
          return;
        }
        if (inputDone) {
          finish();
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
    cancel() {
      finish();
    },
  });
  const response = new Response(stream, {
    status: 200,
    headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-cache' },
  });
  return progress === undefined ? response : withWatchProgress(response, progress);
}
