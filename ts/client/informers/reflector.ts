/**
 * The Reflector (client-go tools/cache/reflector.go, kube-rs' watcher): the one writer that keeps
 * an informer's cache current by list-then-watch, as an explicit state machine:
 *
 *   list ──ok──▶ watch ──clean end──▶ watch (from the last seen resourceVersion)
 *     ▲            │ 410 Expired (HTTP or ERROR event)
 *     └────────────┘  re-list, replacing the store (the informer diffs it: deletes for vanished objects)
 *   any other failure ──▶ backoff (800 ms doubling to 30 s, on the Clock) ──▶ the state it failed in
 *
 *   const reflector = new Reflector(client, RESOURCES.pods, store, { clock });
 *   reflector.start();  …  await reflector.stop();
 *
 * It writes into a ReflectorStore (the SharedIndexInformer, shared-informer.ts): `replace` with
 * each full list, `add` / `update` / `delete` with each watch event.
 *
 * Current: a watch served in this process may carry the server's progress (ts/api/watch-progress.ts).
 * The reflector is current while it watches such a stream, the server has taken everything its
 * storage queued, and the reflector has applied every event the server wrote — then the cache has
 * every write that has finished. Without the channel (HTTP, another storage) it is never current.
 */
import type { KubeObject } from '../../api/meta.js';
import { isGone, isResourceExpired, StatusError } from '../../api/status.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Client } from '../client.js';
import type { GroupVersionResource } from '../resources.js';
import type { WatchStream } from '../watch-stream.js';

/** isExpiredError (reflector.go): the asked resourceVersion was compacted (410 Expired or Gone); re-list. */
function isExpiredError(err: unknown): boolean {
  return isResourceExpired(err) || isGone(err);
}

/** Where a reflector writes (client-go's Store as the reflector uses it). */
export interface ReflectorStore<T> {
  /** The complete list at `resourceVersion`: the store becomes exactly `items`. */
  replace(items: T[], resourceVersion: string): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
}

export interface ReflectorOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  clock?: Clock;
  /**
   * The server-side timeout of each watch. client-go picks 5–10 minutes at random
   * (reflector.go minWatchTimeout); a fixed value keeps runs reproducible.
   */
  watchTimeoutSeconds?: number;
  /** Page size of the list (0: one page). */
  pageSize?: number;
  /**
   * Each list or watch failure before the backoff (client-go's WatchErrorHandler, which logs
   * them): a 403 of a component's identity shows here instead of only as a sync that never ends.
   */
  onError?: (err: unknown) => void;
}

export type ReflectorState = 'idle' | 'list' | 'watch' | 'backoff' | 'stopped';

// reflector.go: wait.NewExponentialBackoffManager(800*time.Millisecond, 30*time.Second, …, 2.0, …).
export const INITIAL_BACKOFF_MS = 800;
export const MAX_BACKOFF_MS = 30_000;
const DEFAULT_WATCH_TIMEOUT_SECONDS = 300;

export class Reflector<T extends KubeObject = KubeObject> {
  private readonly clock: Clock;
  private resourceVersion = '';
  private state_: ReflectorState = 'idle';
  /** The state a backoff returns to. */
  private retryState: 'list' | 'watch' = 'list';
  private backoffMs = INITIAL_BACKOFF_MS;
  private current: WatchStream<T> | undefined;
  private cancelSleep: (() => void) | undefined;
  private running: Promise<void> | undefined;
  /** Events of the open watch applied to the store. */
  private applied = 0;
  /** waitUntil's callers, told after every step of the loop. */
  private waiters: Array<{ condition: () => boolean; resolve: (met: boolean) => void }> = [];
  /** The last failure, for diagnostics. */
  lastError: unknown;

  constructor(
    private readonly client: Client,
    private readonly gvr: GroupVersionResource,
    private readonly store: ReflectorStore<T>,
    private readonly options: ReflectorOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
  }

  /** Starts the list-watch loop (once); returns immediately. */
  start(): void {
    if (this.running !== undefined || this.state_ === 'stopped') return;
    this.state_ = 'list';
    this.running = this.run();
  }

  /** Ends the loop: closes the open watch, cancels a pending backoff. Resolves when the loop has exited. */
  async stop(): Promise<void> {
    this.state_ = 'stopped';
    this.current?.stop();
    this.cancelSleep?.();
    await this.running;
    for (const w of this.waiters.splice(0)) w.resolve(false);
  }

  /**
   * Whether the store has every write that has finished: it watches a stream served in this
   * process, whose server has taken everything its storage watch queued, and has applied every
   * event the server wrote into it. Always false without the server's progress (see the file doc).
   */
  isCurrent(): boolean {
    const progress = this.current?.progress;
    return (
      this.state_ === 'watch' && progress !== undefined && progress.caughtUp() && this.applied >= progress.written()
    );
  }

  /**
   * Resolves true once `condition()` holds — checked now and after every step of the loop (a list
   * stored, a watch opened, an event or bookmark applied) — or false when the reflector stops first.
   */
  waitUntil(condition: () => boolean): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    if (this.stopped()) return Promise.resolve(false);
    return new Promise((resolve) => this.waiters.push({ condition, resolve }));
  }

  get state(): ReflectorState {
    return this.state_;
  }

  /** The resourceVersion the store is at. */
  lastSyncResourceVersion(): string {
    return this.resourceVersion;
  }

  private stopped(): boolean {
    return this.state_ === 'stopped';
  }

  /** A step of the loop was taken: the waiters whose condition now holds are told. */
  private progressed(): void {
    if (this.waiters.length === 0) return;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) {
      if (w.condition()) w.resolve(true);
      else this.waiters.push(w);
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped()) {
      const state = this.state_ as 'list' | 'watch' | 'backoff';
      try {
        if (state === 'list') await this.relist();
        else if (state === 'watch') await this.watchOnce();
        else await this.backoff();
      } catch (err) {
        if (this.stopped()) break;
        this.lastError = err;
        if (!isExpiredError(err)) this.options.onError?.(err);
        if (isExpiredError(err)) {
          this.state_ = 'list';
        } else {
          this.retryState = state === 'backoff' ? this.retryState : state;
          this.state_ = 'backoff';
        }
      }
    }
  }

  private async backoff(): Promise<void> {
    const ms = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    await new Promise<void>((resolve) => {
      const cancel = this.clock.setTimer(resolve, ms);
      this.cancelSleep = () => {
        cancel();
        resolve();
      };
    });
    this.cancelSleep = undefined;
    if (!this.stopped()) this.state_ = this.retryState;
  }

  /** list: read every object (page by page), then replace the store with them. */
  private async relist(): Promise<void> {
    const items: T[] = [];
    let cont: string | undefined;
    let rv = '';
    do {
      const page = await this.client.list<T>(this.gvr, {
        ...this.selectors(),
        ...(this.options.pageSize ? { limit: this.options.pageSize } : {}),
        ...(cont ? { continue: cont } : {}),
      });
      if (this.stopped()) return;
      items.push(...page.items);
      rv = page.metadata.resourceVersion ?? '';
      cont = page.metadata.continue;
    } while (cont !== undefined && cont !== '');
    this.resourceVersion = rv;
    this.store.replace(items, rv);
    this.backoffMs = INITIAL_BACKOFF_MS;
    this.state_ = 'watch';
    this.progressed();
  }

  /** watch: one watch from the last resourceVersion, applied to the store until the stream ends. */
  private async watchOnce(): Promise<void> {
    const stream = await this.client.watch<T>(this.gvr, {
      ...this.selectors(),
      resourceVersion: this.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: this.options.watchTimeoutSeconds ?? DEFAULT_WATCH_TIMEOUT_SECONDS,
    });
    this.current = stream;
    this.applied = 0;
    if (this.stopped()) stream.stop();
    this.progressed();
    const started = this.clock.now();
    let events = 0;
    try {
      for await (const ev of stream) {
        if (this.stopped()) return;
        events++;
        if (ev.type === 'ERROR') throw new StatusError(ev.object);
        this.backoffMs = INITIAL_BACKOFF_MS;
        const obj = ev.object;
        const rv = obj.metadata?.resourceVersion;
        if (ev.type === 'ADDED') this.store.add(obj);
        else if (ev.type === 'MODIFIED') this.store.update(obj);
        else if (ev.type === 'DELETED') this.store.delete(obj);
        if (rv !== undefined && rv !== '') this.resourceVersion = rv;
        this.applied++;
        this.progressed();
      }
    } finally {
      this.current = undefined;
    }
    // A clean end (server timeout): watch again from where the store is — unless the server closed
    // at once with nothing to say, which would spin; reflector.go backs off then (< 1 s, no events).
    if (!this.stopped() && events === 0 && this.clock.now() - started < 1000) {
      throw new Error('kubewasm informer: very short watch');
    }
  }

  private selectors(): { namespace?: string; labelSelector?: string; fieldSelector?: string } {
    const o = this.options;
    return {
      ...(o.namespace === undefined ? {} : { namespace: o.namespace }),
      ...(o.labelSelector === undefined ? {} : { labelSelector: o.labelSelector }),
      ...(o.fieldSelector === undefined ? {} : { fieldSelector: o.fieldSelector }),
    };
  }
}
