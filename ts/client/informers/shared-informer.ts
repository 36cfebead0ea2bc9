/**
 * A SharedIndexInformer (client-go tools/cache/shared_informer.go at v0.32): one Reflector's
 * list+watch of a resource, its cache with indexes (thread-safe-store.ts), and any number of event
 * handler registrations — every component of a process that reads the resource shares the one
 * watch and the one copy of each object (SharedInformerFactory, factory.ts, hands them out).
 *
 *   const pods = factory.informerFor<Pod>(RESOURCES.pods);
 *   pods.addIndexers({ [POD_NODE_NAME_INDEX]: podNodeNameIndexFunc });
 *   const reg = pods.addEventHandler({ onAdd: (p) => queue.add(objectKey(p)) });
 *   factory.start(); await reg.synced();
 *   pods.lister().byNamespace('default').list(selector);
 *
 * Handlers are called in order, synchronously, as the reflector writes (after the cache has the
 * change): they should only enqueue keys; workers read the listers. A handler added after the
 * informer started gets the cache replayed as adds (`isInInitialList` true), as client-go does.
 * An update that does not change the resourceVersion (a re-list answering an unchanged object)
 * is not delivered: client-go delivers those only to handlers that asked for resyncs, and
 * kubewasm has no resync period.
 */
import type { KubeObject } from '../../api/meta.js';
import type { Client } from '../client.js';
import type { GroupVersionResource } from '../resources.js';
import type { Indexers } from './index-funcs.js';
import { objectKey } from './keys.js';
import { Lister } from './listers.js';
import { Reflector, type ReflectorOptions, type ReflectorState, type ReflectorStore } from './reflector.js';
import { type Indexer, ThreadSafeStore } from './thread-safe-store.js';

/** ResourceEventHandler: what a registration is told, after the cache has the change. */
export interface EventHandler<T> {
  /** `isInInitialList`: part of the first list, or of the replay to a handler added late. */
  onAdd?(obj: T, isInInitialList: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  /** The last state the cache had of the object. */
  onDelete?(obj: T): void;
}

/** ResourceEventHandlerRegistration: removes the handler again, tells whether it has synced. */
export interface EventHandlerRegistration {
  /** True once the informer has synced and this handler has been given every object of the first list. */
  hasSynced(): boolean;
  /** Resolves true once hasSynced(), false if the informer stopped first. */
  synced(): Promise<boolean>;
}

export interface InformerOptions extends ReflectorOptions {
  /** Indexes the cache starts with (more with addIndexers). */
  indexers?: Indexers;
}

export type InformerState = ReflectorState;

class Registration<T> implements EventHandlerRegistration {
  constructor(
    readonly handler: EventHandler<T>,
    private readonly informer: { hasSynced(): boolean; synced(): Promise<boolean> },
  ) {}

  hasSynced(): boolean {
    return this.informer.hasSynced();
  }

  synced(): Promise<boolean> {
    return this.informer.synced();
  }
}

export class SharedIndexInformer<T extends KubeObject = KubeObject> implements ReflectorStore<T> {
  private readonly store: ThreadSafeStore<T>;
  private readonly reflector: Reflector<T>;
  private registrations: Registration<T>[] = [];
  private started = false;
  private stopped_ = false;
  private synced_ = false;
  private syncWaiters: Array<(synced: boolean) => void> = [];

  constructor(
    client: Client,
    /** The resource it lists and watches. */
    readonly resource: GroupVersionResource,
    private readonly options: InformerOptions = {},
  ) {
    this.store = new ThreadSafeStore<T>(options.indexers as Indexers<T> | undefined);
    this.reflector = new Reflector<T>(client, resource, this, options);
  }

  /**
   * AddEventHandler: registers `handler`; objects already cached are replayed to it as adds.
   * Refused once the informer has stopped.
   */
  addEventHandler(handler: EventHandler<T>): EventHandlerRegistration {
    if (this.stopped_) {
      throw new Error('handler was not added to shared informer because it has stopped already');
    }
    const registration = new Registration<T>(handler, this);
    this.registrations.push(registration);
    for (const [, obj] of this.store.entries()) this.call(handler, (h) => h.onAdd?.(obj, true));
    return registration;
  }

  /** RemoveEventHandler: the handler is told nothing more; an unknown or removed registration is a no-op. */
  removeEventHandler(registration: EventHandlerRegistration): void {
    this.registrations = this.registrations.filter((r) => r !== registration);
  }

  /** The number of registered handlers. */
  handlerCount(): number {
    return this.registrations.length;
  }

  /** AddIndexers: more indexes (the cached objects indexed at once); a name taken, or a stopped informer, is refused. */
  addIndexers(indexers: Indexers): void {
    if (this.stopped_) throw new Error('indexer was not added because it has stopped already');
    this.store.addIndexers(indexers as Indexers<T>);
  }

  /** The cache, read-only: keys, objects, indexes. */
  getIndexer(): Indexer<T> {
    return this.store;
  }

  /** A lister over the cache (namespace-indexed when the informer has the namespace index). */
  lister(): Lister<T> {
    return new Lister<T>(this.store);
  }

  /** Starts the list-watch (once); returns immediately. An informer stopped is never started again. */
  start(): void {
    if (this.started || this.stopped_) return;
    this.started = true;
    this.reflector.start();
  }

  /** Ends the list-watch; resolves when it has. */
  async stop(): Promise<void> {
    this.stopped_ = true;
    await this.reflector.stop();
    const waiters = this.syncWaiters;
    this.syncWaiters = [];
    for (const w of waiters) w(this.synced_);
  }

  hasStarted(): boolean {
    return this.started;
  }

  isStopped(): boolean {
    return this.stopped_;
  }

  get state(): InformerState {
    return this.reflector.state;
  }

  /** The last list or watch failure, for diagnostics. */
  get lastError(): unknown {
    return this.reflector.lastError;
  }

  /** True once the first list reached the cache (and every handler). */
  hasSynced(): boolean {
    return this.synced_;
  }

  /** Resolves true once the first list reached the cache, false if the informer stopped first. */
  synced(): Promise<boolean> {
    if (this.synced_ || this.stopped_) return Promise.resolve(this.synced_);
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** The resourceVersion the cache is at. */
  lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion();
  }

  /** A cached object; never mutate it (it is shared with every reader — listers hand out read-only views). */
  get(namespace: string | undefined, name: string): T | undefined {
    return this.store.getMutable(namespace === undefined || namespace === '' ? name : `${namespace}/${name}`);
  }

  /** A cached object by key; never mutate it. */
  getByKey(key: string): T | undefined {
    return this.store.getMutable(key);
  }

  /** Every cached object; never mutate them. */
  list(): T[] {
    return [...this.store.entries()].map(([, obj]) => obj);
  }

  keys(): string[] {
    return this.store.listKeys();
  }

  // ReflectorStore: the reflector's writes, applied to the cache, then told to every handler.

  /** The cache becomes `items`: adds and updates for what is listed, deletes for what vanished. */
  replace(items: T[], _resourceVersion: string): void {
    const initial = !this.synced_;
    const next = new Map<string, T>();
    for (const obj of items) next.set(objectKey(obj), obj);
    const previous = new Map(this.store.entries());
    this.store.replace(next);
    for (const [key, obj] of next) this.notifyUpsert(previous.get(key), obj, initial);
    for (const [key, old] of previous) {
      if (!next.has(key)) this.distribute((h) => h.onDelete?.(old));
    }
    if (initial) {
      this.synced_ = true;
      const waiters = this.syncWaiters;
      this.syncWaiters = [];
      for (const w of waiters) w(true);
    }
  }

  add(obj: T): void {
    this.upsert(obj);
  }

  update(obj: T): void {
    this.upsert(obj);
  }

  delete(obj: T): void {
    const key = objectKey(obj);
    const old = this.store.getMutable(key);
    this.store.delete(key);
    this.distribute((h) => h.onDelete?.(old ?? obj));
  }

  private upsert(obj: T): void {
    const key = objectKey(obj);
    const old = this.store.getMutable(key);
    this.store.update(key, obj);
    this.notifyUpsert(old, obj, false);
  }

  private notifyUpsert(old: T | undefined, obj: T, initial: boolean): void {
    if (old === undefined) {
      this.distribute((h) => h.onAdd?.(obj, initial));
    } else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
      // A re-list answers unchanged objects too; only real changes are updates.
      this.distribute((h) => h.onUpdate?.(old, obj));
    }
  }

  /** sharedProcessor.distribute: every handler, in registration order. */
  private distribute(call: (h: EventHandler<T>) => void): void {
    for (const r of [...this.registrations]) this.call(r.handler, call);
  }

  /** A handler that throws is reported (onError) and does not derail the cache's writer. */
  private call(handler: EventHandler<T>, call: (h: EventHandler<T>) => void): void {
    try {
      call(handler);
    } catch (err) {
      this.options.onError?.(new Error(`kubewasm informer: event handler failed: ${String(err)}`, { cause: err }));
    }
  }
}
