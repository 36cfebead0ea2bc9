/**
 * The Storage interface over the wasm MVCC store — kubewasm's default backend, in Node and in the
 * browser. Every write is one store transaction (Kubernetes' OptimisticPut/Delete: compare the
 * mod revision, then write). With a write-ahead log, a write is acknowledged, and shown to
 * watchers, only once its WAL records are as durable as the log's fsync policy promises.
 */
import { type Clock, realClock } from '../../sim/clock.js';
import { KubewasmError } from '../../wasm/errors.js';
import type { KeyValue, MvccStore, StoreEvent, WatchResponse } from '../../wasm/store.js';
import { StorageError } from '../errors.js';
import { asDirectory, decodeKey, encodeKey, prefixEnd } from '../keys.js';
import { listPage } from '../list-page.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  ReadAt,
  Storage,
  StoredObject,
  UpdateOptions,
  Watch,
  WatchEvent,
  WatchOptions,
} from '../storage.js';
import { bookmark, toWatchBatches } from '../watch-events.js';
import { DEFAULT_WATCH_CAPACITY, WatchQueue } from '../watch-queue.js';

/** Where WAL records go (the Node data directory; nothing in a browser). */
export interface WriteAheadLog {
  append(records: Uint8Array): Promise<void>;
  close?(): void;
}

export interface WasmStorageOptions {
  /** The store; WasmStorage owns it from now on (close() frees it). */
  store: MvccStore;
  log?: WriteAheadLog;
  clock?: Clock;
  /** Events one watch consumer may fall behind before it is ended with WatchTooSlow. */
  watchCapacity?: number;
  /** Period of progress notifications to watches that asked for them (Kubernetes runs etcd with 5 s). */
  progressIntervalMs?: number;
}

interface ActiveWatch {
  queue: WatchQueue;
  options: WatchOptions;
}

const PROGRESS_WATCH_ID = -1n;

/** The store's coded errors as storage errors. */
function translate(err: unknown): unknown {
  if (!(err instanceof KubewasmError)) return err;
  switch (err.code) {
    case 'E_COMPACTED':
      return StorageError.expired();
    case 'E_FUTURE_REV':
      return new StorageError('TooLargeResourceVersion', 'Too large resource version');
    case 'E_REQUEST_TOO_LARGE':
    case 'E_EMPTY_KEY':
    case 'E_NO_SPACE':
      return new StorageError('InvalidObj', err.message);
    default:
      return err;
  }
}

/**
 * A stored object whose value is a view into the range page: the page is already a copy out of
 * wasm memory made for this read alone, so a second copy per value only costs time and garbage
 * (half a gigabyte of it for a 150,000-pod LIST, `bench api`).
 */
function toObject(kv: KeyValue): StoredObject {
  return { key: decodeKey(kv.key), value: kv.value, revision: kv.modRevision };
}

export class WasmStorage implements Storage {
  /** Every commit hands its events to the watch queues before the write resolves (drain). */
  readonly queuesWatchesOnCommit = true;
  private readonly store: MvccStore;
  private readonly log: WriteAheadLog | undefined;
  private readonly clock: Clock;
  private readonly watchCapacity: number;
  private readonly progressIntervalMs: number;
  private readonly watches = new Map<bigint, ActiveWatch>();
  private cancelLeaseTimer: (() => void) | undefined;
  private cancelProgressTimer: (() => void) | undefined;
  private closed = false;
  /** Converted watch batches by the decoded events array they came from (shared across watches). */
  private readonly converted = new WeakMap<readonly StoreEvent[], WatchEvent[][]>();
  private readonly convertedWithPrev = new WeakMap<readonly StoreEvent[], WatchEvent[][]>();
  /** A progress request the store holds until every watcher has caught up. */
  private progressRequested = false;

  constructor(options: WasmStorageOptions) {
    this.store = options.store;
    this.log = options.log;
    this.clock = options.clock ?? realClock;
    this.watchCapacity = options.watchCapacity ?? DEFAULT_WATCH_CAPACITY;
    this.progressIntervalMs = options.progressIntervalMs ?? 5000;
    this.scheduleLeaseExpiry();
  }

  async currentRevision(): Promise<bigint> {
    return this.store.currentRevision;
  }

  async create(key: string, value: Uint8Array, options: CreateOptions = {}): Promise<StoredObject> {
    const ttl = options.ttlSeconds ?? 0;
    const lease = ttl > 0 ? this.call(() => this.store.leaseGrant(ttl, this.clock.now())) : 0n;
    const revision = this.call(() => this.store.putIfModRevision(key, value, 0n, lease));
    if (revision === 0n) {
      if (lease !== 0n) this.store.leaseRevoke(lease);
      await this.commit();
      throw StorageError.keyExists(key);
    }
    await this.commit();
    if (lease !== 0n) this.scheduleLeaseExpiry();
    return { key, value, revision };
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | undefined> {
    const kv = this.read(key, this.readRevision(options));
    if (!kv) {
      if (options.ignoreNotFound) return undefined;
      throw StorageError.keyNotFound(key);
    }
    return toObject(kv);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    return listPage(
      prefix,
      options,
      (at) => this.readRevision(at),
      (from, rangeEnd, revision, limit) => {
        const page = this.call(() => this.store.range(from, { rangeEnd, revision, limit }));
        return { items: page.kvs.map(toObject), more: page.more, count: page.count, revision: page.revision };
      },
    );
  }

  async count(prefix: string): Promise<number> {
    const dir = asDirectory(prefix);
    return this.store.range(dir, { rangeEnd: prefixEnd(encodeKey(dir)), countOnly: true }).count;
  }

  async guaranteedUpdate(
    key: string,
    tryUpdate: (current: StoredObject | undefined) => Uint8Array | Promise<Uint8Array>,
    options: UpdateOptions = {},
  ): Promise<StoredObject> {
    while (true) {
      const kv = this.read(key, 0n);
      if (!kv && !options.ignoreNotFound) throw StorageError.keyNotFound(key);
      const expected = options.preconditions?.revision;
      if (kv && expected !== undefined && expected !== kv.modRevision) {
        throw StorageError.conflict(key, expected, kv.modRevision);
      }
      const value = await tryUpdate(kv ? toObject(kv) : undefined);
      // The object keeps its lease (an event keeps its TTL across updates).
      const revision = this.call(() => this.store.putIfModRevision(key, value, kv?.modRevision ?? 0n, kv?.lease ?? 0n));
      if (revision !== 0n) {
        await this.commit();
        return { key, value, revision };
      }
      // Changed while tryUpdate ran: try again against the fresh object.
    }
  }

  async delete(key: string, options: DeleteOptions = {}): Promise<StoredObject> {
    while (true) {
      const kv = this.read(key, 0n);
      if (!kv) throw StorageError.keyNotFound(key);
      const expected = options.preconditions?.revision;
      if (expected !== undefined && expected !== kv.modRevision) {
        throw StorageError.conflict(key, expected, kv.modRevision);
      }
      const current = toObject(kv);
      await options.validate?.(current);
      const revision = this.call(() => this.store.deleteIfModRevision(key, kv.modRevision));
      if (revision !== 0n) {
        await this.commit();
        return { ...current, revision };
      }
    }
  }

  watch(key: string, options: WatchOptions): Watch {
    const range = options.recursive
      ? { key: asDirectory(key), rangeEnd: prefixEnd(encodeKey(asDirectory(key))) }
      : { key, rangeEnd: new Uint8Array() };
    let id: bigint | undefined;
    const queue = new WatchQueue(() => {
      if (id !== undefined && this.watches.delete(id) && !this.closed) this.store.cancelWatch(id);
    }, this.watchCapacity);
    try {
      id = this.store.watch(range.key, {
        rangeEnd: range.rangeEnd,
        startRevision: options.revision > 0n ? options.revision + 1n : 0n,
        prevKv: true, // a DELETED event carries the object as it was
        progressNotify: options.progressNotify ?? false,
      });
    } catch (err) {
      queue.fail(translate(err) instanceof StorageError ? (translate(err) as StorageError) : StorageError.expired());
      return queue;
    }
    this.watches.set(id, { queue, options });
    if (options.progressNotify) this.scheduleProgress();
    this.drain();
    return queue;
  }

  async requestProgress(): Promise<void> {
    this.store.requestProgress();
    this.progressRequested = true;
    this.drain();
  }

  async compact(revision: bigint): Promise<void> {
    this.call(() => this.store.compact(revision));
    await this.commit();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.cancelLeaseTimer?.();
    this.cancelProgressTimer?.();
    for (const { queue } of this.watches.values()) queue.stop();
    this.closed = true;
    this.watches.clear();
    this.log?.close?.();
    this.store.free();
  }

  /** The WAL records of the last writes go to the log; then watchers see the writes. */
  private async commit(): Promise<void> {
    if (this.log) {
      const records = this.store.takeWal();
      if (records.length > 0) await this.log.append(records);
    }
    this.drain();
  }

  /** Hands every pending watch response to its watch, all in one crossing per batch. */
  private drain(): void {
    while (!this.closed && (this.store.hasWatchEvents || this.progressRequested)) {
      const more = this.store.hasWatchEvents;
      for (const response of this.store.pollWatch()) this.dispatch(response);
      // A held progress request comes out of a later poll, once some watcher has caught up.
      if (!more) break;
    }
  }

  private dispatch(response: WatchResponse): void {
    if (response.watchId === PROGRESS_WATCH_ID) {
      this.progressRequested = false;
      for (const { queue } of this.watches.values()) queue.push(bookmark(response.revision));
      return;
    }
    const active = this.watches.get(response.watchId);
    if (!active || response.created) return;
    if (response.canceled) {
      this.watches.delete(response.watchId);
      active.queue.fail(
        response.compactRevision > 0n
          ? StorageError.expired(response.compactRevision)
          : new StorageError('Unreachable', response.cancelReason),
      );
      return;
    }
    if (response.events.length === 0) {
      if (active.options.progressNotify) active.queue.push(bookmark(response.revision));
      return;
    }
    for (const batch of this.batchesOf(response.events, active.options.prevValue ?? false)) {
      if (!active.queue.push(batch)) return;
    }
  }

  /**
   * Kubernetes watch batches for a block of store events. Watches of one range share the block's
   * events array (the decoder hands every such delivery the same one), so the conversion — key
   * decoding included — is done once per block, not once per watcher.
   */
  private batchesOf(events: readonly StoreEvent[], withPrevValue: boolean): WatchEvent[][] {
    const cache = withPrevValue ? this.convertedWithPrev : this.converted;
    let batches = cache.get(events);
    if (!batches) {
      batches = toWatchBatches(
        events.map((e) => ({
          kind: e.type === 'PUT' ? ('put' as const) : ('delete' as const),
          key: decodeKey(e.kv.key),
          value: e.kv.value,
          version: e.kv.version,
          modRevision: e.kv.modRevision,
          prevValue: e.prevKv?.value,
        })),
        withPrevValue,
      );
      cache.set(events, batches);
    }
    return batches;
  }

  /** One key at `revision` (0n = latest). */
  private read(key: string, revision: bigint): KeyValue | undefined {
    return this.call(() => this.store.range(key, { revision })).kvs[0];
  }

  private readRevision(at: ReadAt): bigint {
    if (at.revision !== undefined && at.revision > 0n) return at.revision;
    const current = this.store.currentRevision;
    if (at.minRevision !== undefined && at.minRevision > current) throw StorageError.tooLarge(at.minRevision, current);
    return 0n;
  }

  /** Expires leases (deleting their keys) when the earliest one falls due. */
  private scheduleLeaseExpiry(): void {
    this.cancelLeaseTimer?.();
    const due = this.store.nextLeaseDeadline;
    if (due === undefined || this.closed) return;
    this.cancelLeaseTimer = this.clock.setTimer(
      () => {
        this.store.expireLeases(this.clock.now());
        void this.commit().then(() => this.scheduleLeaseExpiry());
      },
      Math.max(0, due - this.clock.now()),
    );
  }

  private scheduleProgress(): void {
    if (this.cancelProgressTimer || this.closed) return;
    this.cancelProgressTimer = this.clock.setTimer(() => {
      this.cancelProgressTimer = undefined;
      this.store.progressTick();
      this.drain();
      if ([...this.watches.values()].some((w) => w.options.progressNotify)) this.scheduleProgress();
    }, this.progressIntervalMs);
  }

  private call<T>(op: () => T): T {
    try {
      return op();
    } catch (err) {
      throw translate(err);
    }
  }
}
