/**
 * Watch over HTTP (../shared/reference/api.md §4): a chunked body of `{"type":…,"object":…}`
 * lines. Initial ADDED events for the current state when resourceVersion is unset or "0", then
 * every change after the start revision; BOOKMARK with allowWatchBookmarks; the stream ends at
 * timeoutSeconds; a compacted start answers with an ERROR event holding a 410 Expired Status.
 * Objects that stop (or start) matching the selectors are sent as DELETED (ADDED), as the cacher does.
 */
import type { KubeObject } from '../api/meta.js';
import { toStatus } from '../api/status.js';
import { interpretStorageError } from '../api/storage-errors.js';
import type { WatchEvent } from '../storage/storage.js';
import { decodeStored } from './codec.js';
import { parseResourceVersion, parseSelectors, type Selectors, selects } from './read-options.js';
import { collectionPrefix, groupVersion, objectKey, type ResourceInfo } from './resources.js';
import { JSON_TYPE } from './response.js';
import type { ResourceRequest, RestContext } from './rest.js';
import { toTable, wantsTable } from './table.js';

type Line = { type: string; object: unknown };

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

/** GET of a collection (or one name, as a field selector) with `watch=true`. */
export async function watchObjects(ctx: RestContext, req: ResourceRequest): Promise<Response> {
  const { info, query } = req;
  const selectors = parseSelectors(info, query);
  const rv = query.get('resourceVersion') ?? '';
  const bookmarks = query.get('allowWatchBookmarks') === 'true';
  const timeoutText = query.get('timeoutSeconds');
  const timeoutSeconds = timeoutText === null ? 1800 : Number(timeoutText);
  const asTable = wantsTable(req.accept);
  // A watch on /…/<name> is a watch of the collection with metadata.name=<name>.
  const key = req.name === '' ? collectionPrefix(info, req.namespace) : objectKey(info, req.namespace, req.name);
  const recursive = req.name === '';

  const initial: KubeObject[] = [];
  let start: bigint;
  if (rv === '' || rv === '0') {
    if (recursive) {
      let page: Awaited<ReturnType<typeof ctx.storage.list>>;
      try {
        page = await ctx.storage.list(key);
      } catch (err) {
        throw interpretStorageError('list', err, info, '');
      }
      start = page.revision;
      for (const item of page.items) {
        const obj = decodeStored(item);
        if (selects(info, selectors, obj)) initial.push(obj);
      }
    } else {
      start = await ctx.storage.currentRevision();
      const item = await ctx.storage.get(key, { ignoreNotFound: true });
      if (item !== undefined && selects(info, selectors, decodeStored(item))) initial.push(decodeStored(item));
    }
  } else {
    start = parseResourceVersion(rv);
  }

  const watch = ctx.storage.watch(key, { revision: start, recursive, progressNotify: bookmarks, prevValue: true });
  const iterator = watch[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let headersSent = false;
  const wire = (type: string, obj: KubeObject): Line => {
    if (!asTable) return { type, object: obj };
    const table = toTable(info, [obj], {
      now: ctx.clock.now(),
      noHeaders: headersSent,
      resourceVersion: obj.metadata?.resourceVersion ?? '',
    });
    headersSent = true;
    return { type, object: table };
  };
  const pending: Line[] = initial.map((o) => wire('ADDED', o));
  let done = false;
  let cancelTimer: (() => void) | undefined;

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      cancelTimer = ctx.clock.setTimer(() => {
        done = true;
        watch.stop();
        try {
          controller.close();
        } catch {
          // already closed
        }
      }, timeoutSeconds * 1000);
    },
    async pull(controller) {
      while (pending.length === 0 && !done) {
        const next = await iterator.next();
        if (next.done) {
          done = true;
          break;
        }
        for (const ev of next.value) {
          if (ev.type === 'BOOKMARK') {
            if (bookmarks) {
              const object = {
                kind: info.kind,
                apiVersion: groupVersion(info),
                metadata: { resourceVersion: String(ev.revision) },
              };
              pending.push({ type: 'BOOKMARK', object });
            }
          } else if (ev.type === 'ERROR') {
            const err = interpretStorageError(
              'watch',
              ev.error,
              info,
              '',
              rv === '' ? {} : { requestedResourceVersion: rv },
            );
            pending.push({ type: 'ERROR', object: toStatus(err) });
            done = true;
          } else {
            const out = convert(info, selectors, ev);
            if (out) pending.push(wire(out.type, out.obj));
          }
        }
      }
      if (pending.length > 0) {
        const text = pending.map((l) => `${JSON.stringify(l)}\n`).join('');
        pending.length = 0;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          return; // closed by the timeout
        }
        return;
      }
      cancelTimer?.();
      watch.stop();
      try {
        controller.close();
      } catch {
        // already closed
      }
    },
    cancel() {
      done = true;
      cancelTimer?.();
      watch.stop();
    },
  });
  return new Response(stream, { status: 200, headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-cache' } });
}
