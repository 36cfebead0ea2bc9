/**
 * A SharedIndexInformer (client-go tools/cache/shared_informer.go at v0.32): one Reflector's
 * list+watch of a resource, its cache with indexes (thread-safe-store.ts), and any number of event
 * handler registrations — every component of a process that reads the resource shares the one
 * watch and the one copy of each object (SharedInformerFactory, factory.ts, hands them out).
 *
 *   const pods = factory.informerFor(RESOURCES.pods);
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
 * kubewasm has no resync period. A delete is told with the watch event's object (its final
 * state), and only for an object the cache has (processDeltas, DeltaFIFO.Delete).
 *
 * The cache has one writer, the reflector: handlers and the get/getByKey/list readers are handed
 * DeepReadonly views of the shared objects (copy with structuredClone before changing one). A
 * transform (SetTransform) rewrites every object before it is stored and before any handler sees
 * it; an object an index function throws for is reported through onError and not stored.
 *
 * isCurrent() tells a reader in the apiserver's process whether the cache has every write that has
 * finished (reflector.ts: only a watch served in this process over a storage that queues on commit
 * can be current), so it can read the cache instead of storage and still read its own writes.
 */
import type { KubeObject } from '../../api/meta.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../client.js';
import type { GroupVersionResource } from '../resources.js';
import type { Indexers } from './index-funcs.js';
import { objectKey } from './keys.js';
import { Lister } from './listers.js';
import { Reflector, type ReflectorOptions, type ReflectorState, type ReflectorStore } from './reflector.js';
import { IndexError, type Indexer, ThreadSafeStore } from './thread-safe-store.js';

/** ResourceEventHandler: what a registration is told, after the cache has the change; never mutate what it is handed. */
export interface EventHandler<T> {
  /** `isInInitialList`: part of the first list, or of the replay to a handler added late. */
  onAdd?(obj: DeepReadonly<T>, isInInitialList: boolean): void;
  onUpdate?(oldObj: DeepReadonly<T>, newObj: DeepReadonly<T>): void;
  /**
   * The object's final state: the DELETED watch event's object, or — for one a re-list no longer
   * has — the last state the cache had.
   */
  onDelete?(obj: DeepReadonly<T>): void;
}

/**
 * TransformFunc: rewrites an object before the informer stores it or any handler sees it
 * (kube-controller-manager's trims managedFields). It must not mutate its argument (the client
 * may share it); it returns a new object, or the same one unchanged.
 */
export type TransformFunc<T> = (obj: T) => T;

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
  /** SetTransform at construction. */
  transform?: TransformFunc<KubeObject>;
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
  private transform: TransformFunc<T> | undefined;

  constructor(
    client: Client,
    /** The resource it lists and watches. */
    readonly resource: GroupVersionResource,
    private readonly options: InformerOptions = {},
  ) {
    this.store = new ThreadSafeStore<T>(options.indexers as Indexers<T> | undefined);
    this.reflector = new Reflector<T>(client, resource, this, options);
    this.transform = options.transform as TransformFunc<T> | undefined;
  }

  /** SetTransform: the transform applied to every object from now on; refused once the informer has started. */
  setTransform(transform: TransformFunc<T>): void {
    if (this.started) throw new Error('informer has already started');
    this.transform = transform;
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
    for (const obj of this.store.list()) this.call(handler, (h) => h.onAdd?.(obj, true));
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

  /** Whether the cache has every write that has finished (see the file doc); false over HTTP. */
  isCurrent(): boolean {
    return this.reflector.isCurrent();
  }

  /**
   * Resolves true once `condition()` holds, checked now and after each list, watch start, event and
   * bookmark the cache takes (e.g. isCurrent(), or a resourceVersion reached); false if it stops first.
   */
  waitUntil(condition: () => boolean): Promise<boolean> {
    return this.reflector.waitUntil(condition);
  }

  /** A cached object, read-only (it is shared with every reader). */
  get(namespace: string | undefined, name: string): DeepReadonly<T> | undefined {
    return this.store.getByKey(namespace === undefined || namespace === '' ? name : `${namespace}/${name}`);
  }

  /** A cached object by key, read-only. */
  getByKey(key: string): DeepReadonly<T> | undefined {
    return this.store.getByKey(key);
  }

  /** Every cached object, read-only. */
  list(): DeepReadonly<T>[] {
    return this.store.list();
  }

  keys(): string[] {
    return this.store.listKeys();
  }

  // ReflectorStore: the reflector's writes, transformed, applied to the cache, then told to every handler.

  /** The cache becomes `items`: adds and updates for what is listed, deletes for what vanished. */
  replace(items: T[], _resourceVersion: string): void {
    const initial = !this.synced_;
    const next = new Map<string, T>();
    for (const item of items) {
      const obj = this.transformed(item);
      next.set(objectKey(obj), obj);
    }
    const previous = new Map(this.store.entries());
    for (const err of this.store.replace(next)) this.report(err);
    for (const [key, obj] of next) {
      // Only what the cache took (an object an index refused kept the key's previous state).
      if (this.store.getMutable(key) === obj) this.notifyUpsert(previous.get(key), obj, initial);
    }
    for (const [key, old] of previous) {
      if (this.store.getMutable(key) === undefined) this.distribute((h) => h.onDelete?.(ro(old)));
    }
    if (initial) {
      this.synced_ = true;
      const waiters = this.syncWaiters;
      this.syncWaiters = [];
      for (const w of waiters) w(true);
    }
  }

  add(obj: T): void {
    this.upsert(this.transformed(obj));
  }

  update(obj: T): void {
    this.upsert(this.transformed(obj));
  }

  /** A DELETED event: reported with the event's object, and only when the cache has the key. */
  delete(event: T): void {
    const obj = this.transformed(event);
    const key = objectKey(obj);
    if (this.store.getMutable(key) === undefined) return;
    this.store.delete(key);
    this.distribute((h) => h.onDelete?.(ro(obj)));
  }

  private transformed(obj: T): T {
    return this.transform === undefined ? obj : this.transform(obj);
  }

  private upsert(obj: T): void {
    const key = objectKey(obj);
    const old = this.store.getMutable(key);
    try {
      this.store.update(key, obj);
    } catch (err) {
      if (!(err instanceof IndexError)) throw err;
      this.report(err);
      return;
    }
    this.notifyUpsert(old, obj, false);
  }

  private notifyUpsert(old: T | undefined, obj: T, initial: boolean): void {
    if (old === undefined) {
      this.distribute((h) => h.onAdd?.(ro(obj), initial));
    } else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
      // A re-list answers unchanged objects too; only real changes are updates.
      this.distribute((h) => h.onUpdate?.(ro(old), ro(obj)));
    }
  }

  /** A failure of the cache's writer that is not the reflector's (it retries on its own). */
  private report(err: unknown): void {
    this.options.onError?.(err);
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
      this.report(new Error(`kubewasm informer: event handler failed: ${String(err)}`, { cause: err }));
    }
  }
}

/** The read-only view handlers get of a cached object. */
function ro<T>(obj: T): DeepReadonly<T> {
  return obj as DeepReadonly<T>;
}
