/**
 * A list-then-watch informer (client-go's Reflector + Indexer, kube-rs' watcher): one writer keeps a
 * local cache of a resource current, and tells handlers about every change. An explicit state
 * machine:
 *
 *   list ──ok──▶ watch ──clean end──▶ watch (from the last seen resourceVersion)
 *     ▲            │ 410 Expired (HTTP or ERROR event)
 *     └────────────┘  re-list, diffing the cache (deletes for vanished objects)
 *   any other failure ──▶ backoff (800 ms doubling to 30 s, on the Clock) ──▶ the state it failed in
 *
 *   const pods = new Informer(client, RESOURCES.pods, { clock });
 *   pods.addEventHandler({ onAdd: (p) => queue.add(keyOf(p)) });
 *   pods.start(); await pods.synced();
 */
import type { KubeObject } from '../api/meta.js';
import { type Clock, realClock } from '../sim/clock.js';
import type { Client } from './client.js';
import { ApiError, isExpired } from './errors.js';
import type { GroupVersionResource } from './resources.js';
import type { WatchStream } from './watch-stream.js';

export interface EventHandler<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

export interface InformerOptions {
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

export type InformerState = 'idle' | 'list' | 'watch' | 'backoff' | 'stopped';

// reflector.go: wait.NewExponentialBackoffManager(800*time.Millisecond, 30*time.Second, …, 2.0, …).
export const INITIAL_BACKOFF_MS = 800;
export const MAX_BACKOFF_MS = 30_000;
const DEFAULT_WATCH_TIMEOUT_SECONDS = 300;

/** The cache key of an object: `namespace/name`, or `name` when cluster-scoped (MetaNamespaceKeyFunc). */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace ?? '';
  const name = obj.metadata?.name ?? '';
  return ns === '' ? name : `${ns}/${name}`;
}

export class Informer<T extends KubeObject = KubeObject> {
  private readonly cache = new Map<string, T>();
  private readonly handlers: EventHandler<T>[] = [];
  private readonly clock: Clock;
  private resourceVersion = '';
  private synced_ = false;
  private syncWaiters: Array<() => void> = [];
  private state_: InformerState = 'idle';
  /** The state a backoff returns to. */
  private retryState: 'list' | 'watch' = 'list';
  private backoffMs = INITIAL_BACKOFF_MS;
  private current: WatchStream<T> | undefined;
  private cancelSleep: (() => void) | undefined;
  private running: Promise<void> | undefined;
  /** The last failure, for diagnostics. */
  lastError: unknown;

  constructor(
    private readonly client: Client,
    private readonly gvr: GroupVersionResource,
    private readonly options: InformerOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
  }

  /** Registers handlers; objects already cached are replayed to it as adds. */
  addEventHandler(handler: EventHandler<T>): void {
    this.handlers.push(handler);
    for (const obj of this.cache.values()) handler.onAdd?.(obj);
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
  }

  get state(): InformerState {
    return this.state_;
  }

  /** True once the first list reached the cache. */
  hasSynced(): boolean {
    return this.synced_;
  }

  /** Resolves once the first list reached the cache. */
  synced(): Promise<void> {
    if (this.synced_) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** The resourceVersion the cache is at. */
  lastSyncResourceVersion(): string {
    return this.resourceVersion;
  }

  /** A cached object; never mutate it (it is shared with every reader). */
  get(namespace: string | undefined, name: string): T | undefined {
    return this.cache.get(namespace === undefined || namespace === '' ? name : `${namespace}/${name}`);
  }

  getByKey(key: string): T | undefined {
    return this.cache.get(key);
  }

  /** Every cached object. */
  list(): T[] {
    return [...this.cache.values()];
  }

  keys(): string[] {
    return [...this.cache.keys()];
  }

  private stopped(): boolean {
    return this.state_ === 'stopped';
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
        if (!isExpired(err)) this.options.onError?.(err);
        if (isExpired(err)) {
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

  /** list: read every object (page by page), replace the cache, emitting the differences. */
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
    this.replace(items, rv);
    this.backoffMs = INITIAL_BACKOFF_MS;
    this.state_ = 'watch';
    if (!this.synced_) {
      this.synced_ = true;
      const waiters = this.syncWaiters;
      this.syncWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** The cache becomes `items`: adds and updates for what is listed, deletes for what vanished. */
  private replace(items: T[], resourceVersion: string): void {
    const seen = new Set<string>();
    for (const obj of items) {
      const key = objectKey(obj);
      seen.add(key);
      this.upsert(key, obj);
    }
    for (const [key, old] of [...this.cache]) {
      if (!seen.has(key)) {
        this.cache.delete(key);
        this.notify((h) => h.onDelete?.(old));
      }
    }
    this.resourceVersion = resourceVersion;
  }

  private upsert(key: string, obj: T): void {
    const old = this.cache.get(key);
    this.cache.set(key, obj);
    if (old === undefined) {
      this.notify((h) => h.onAdd?.(obj));
    } else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
      // A re-list answers unchanged objects too; only real changes are updates.
      this.notify((h) => h.onUpdate?.(old, obj));
    }
  }

  /** watch: one watch from the last resourceVersion, applied to the cache until the stream ends. */
  private async watchOnce(): Promise<void> {
    const stream = await this.client.watch<T>(this.gvr, {
      ...this.selectors(),
      resourceVersion: this.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: this.options.watchTimeoutSeconds ?? DEFAULT_WATCH_TIMEOUT_SECONDS,
    });
    this.current = stream;
    if (this.stopped()) stream.stop();
    const started = this.clock.now();
    let events = 0;
    try {
      for await (const ev of stream) {
        if (this.stopped()) return;
        events++;
        if (ev.type === 'ERROR') throw new ApiError(ev.object);
        this.backoffMs = INITIAL_BACKOFF_MS;
        const obj = ev.object;
        const rv = obj.metadata?.resourceVersion;
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED') {
          this.upsert(objectKey(obj), obj);
        } else if (ev.type === 'DELETED') {
          const key = objectKey(obj);
          const old = this.cache.get(key);
          this.cache.delete(key);
          this.notify((h) => h.onDelete?.(old ?? obj));
        }
        if (rv !== undefined && rv !== '') this.resourceVersion = rv;
      }
    } finally {
      this.current = undefined;
    }
    // A clean end (server timeout): watch again from where the cache is — unless the server closed
    // at once with nothing to say, which would spin; reflector.go backs off then (< 1 s, no events).
    if (!this.stopped() && events === 0 && this.clock.now() - started < 1000) {
      throw new Error('kubewasm informer: very short watch');
    }
  }

  /** Calls every handler; one that throws is reported and does not derail the cache's writer. */
  private notify(call: (h: EventHandler<T>) => void): void {
    for (const h of this.handlers) {
      try {
        call(h);
      } catch (err) {
        console.error('kubewasm informer: event handler failed', err);
      }
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
