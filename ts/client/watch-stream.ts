/**
 * A watch response body — chunked `{"type":…,"object":…}` lines — read incrementally as typed
 * events. Chunks may split a line anywhere (even inside a UTF-8 sequence); `stop()` cancels the
 * body, which ends the server's watch. A watch served in this process may carry the server's
 * progress (ts/api/watch-progress.ts), which the stream hands on as `progress`.
 */
import type { KubeObject, Status, WatchEventType } from '../api/meta.js';
import type { WatchProgress } from '../api/watch-progress.js';

/** One watch event; ERROR events carry a Status. */
export type WatchEvent<T = KubeObject> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; object: T }
  | { type: 'ERROR'; object: Status };

/** An open watch: iterate its events (once); `stop()` ends it early. */
export interface WatchStream<T = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  stop(): void;
  /**
   * The server's progress with this watch (one line per event): present only for a watch served in
   * this process over a storage that queues on commit — never over HTTP.
   */
  readonly progress?: WatchProgress;
}

const EVENT_TYPES = new Set<WatchEventType>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

function parseLine<T>(line: string): WatchEvent<T> {
  const ev = JSON.parse(line) as { type?: unknown; object?: unknown };
  if (typeof ev.type !== 'string' || !EVENT_TYPES.has(ev.type as WatchEventType) || typeof ev.object !== 'object') {
    throw new Error(`kubewasm client: malformed watch event: ${line.slice(0, 200)}`);
  }
  return ev as WatchEvent<T>;
}

/** The events of a watch response body (and the server's progress with it, when it has one). */
export function watchStream<T = KubeObject>(
  body: ReadableStream<Uint8Array> | null,
  progress?: WatchProgress,
): WatchStream<T> {
  const reader = body?.getReader();
  let stopped = false;
  return {
    ...(progress === undefined ? {} : { progress }),
    stop() {
      if (stopped) return;
      stopped = true;
      reader?.cancel().catch(() => {});
    },
    async *[Symbol.asyncIterator]() {
      if (reader === undefined) return;
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        while (!stopped) {
          const { done, value } = await reader.read();
          if (done) break;
          buffered += decoder.decode(value, { stream: true });
          let newline = buffered.indexOf('\n');
          while (newline >= 0) {
            const line = buffered.slice(0, newline).trim();
            buffered = buffered.slice(newline + 1);
            if (line !== '') yield parseLine<T>(line);
            if (stopped) return;
            newline = buffered.indexOf('\n');
          }
        }
        if (stopped) return;
        const rest = (buffered + decoder.decode()).trim();
        if (rest !== '') yield parseLine<T>(rest);
      } catch (err) {
        // A cancelled body rejects pending reads; that is the end the caller asked for.
        if (!stopped) throw err;
      } finally {
        stopped = true;
        reader.cancel().catch(() => {});
      }
    },
  };
}
