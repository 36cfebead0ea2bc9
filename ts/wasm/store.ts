import * as glue from '../../build/wasm/kubewasm.js';
import { callWasm } from './errors.js';
import { decodeRange, decodeWatchBatch, type RangeResult, type WatchResponse } from './store-codec.js';

export type { KeyValue, RangeResult, StoreEvent, WatchResponse } from './store-codec.js';

export interface StoreOptions {
  /** Record WAL bytes for `takeWal()` (for a durable store). Default false. */
  wal?: boolean;
  /** Events one watcher may hold before it catches up from history instead. Default 1024. */
  watchBufferEvents?: number;
}

export interface RangeOptions {
  /** Exclusive end of the range: omitted = the single key, "\0" = every key from `key` on. */
  rangeEnd?: Uint8Array | string;
  /** Revision to read at; omitted or 0n = latest. */
  revision?: bigint;
  /** Most keys to return; 0 = no limit. */
  limit?: number;
  countOnly?: boolean;
  keysOnly?: boolean;
}

export interface WatchOptions {
  rangeEnd?: Uint8Array | string;
  /** First revision reported (inclusive); 0n = from the next revision. */
  startRevision?: bigint;
  prevKv?: boolean;
  progressNotify?: boolean;
  noPut?: boolean;
  noDelete?: boolean;
}

export interface WalReplay {
  applied: number;
  skipped: number;
  /** Length of the intact prefix of the log. */
  validLength: number;
  /** Why the log stops early ('' when intact): truncated | checksum | malformed | rejected. */
  tailReason: '' | 'truncated' | 'checksum' | 'malformed' | 'rejected';
}

const encoder = new TextEncoder();
const bytes = (v: Uint8Array | string): Uint8Array => (typeof v === 'string' ? encoder.encode(v) : v);
const DEFAULT_WATCH_BUFFER = 1024;

/** The wasm MVCC store (etcd v3 semantics) behind a typed wrapper. Call `free()` when done. */
export class MvccStore {
  private constructor(private readonly inner: glue.MvccStore) {}

  static create(options: StoreOptions = {}): MvccStore {
    return new MvccStore(new glue.MvccStore(options.wal ?? false, options.watchBufferEvents ?? DEFAULT_WATCH_BUFFER));
  }

  /** A store rebuilt from `snapshot()` bytes. */
  static restore(snapshot: Uint8Array, options: StoreOptions = {}): MvccStore {
    return new MvccStore(
      callWasm(() =>
        glue.MvccStore.restore(snapshot, options.wal ?? false, options.watchBufferEvents ?? DEFAULT_WATCH_BUFFER),
      ),
    );
  }

  get currentRevision(): bigint {
    return this.inner.currentRevision;
  }

  get compactRevision(): bigint {
    return this.inner.compactRevision;
  }

  /** Writes a value; returns the revision of the write. */
  put(key: Uint8Array | string, value: Uint8Array | string, lease = 0n): bigint {
    return callWasm(() => this.inner.put(bytes(key), bytes(value), lease));
  }

  /**
   * Sequential puts in one crossing (each its own revision), for bulk loads: keys and values
   * concatenated, with the end offset of each. Returns the last revision.
   */
  putMany(keys: Uint8Array, keyEnds: Uint32Array, values: Uint8Array, valueEnds: Uint32Array): bigint {
    return callWasm(() => this.inner.putMany(keys, keyEnds, values, valueEnds));
  }

  /** Puts if the key's mod revision is `expected` (0n = absent): the new revision, or 0n. */
  putIfModRevision(key: Uint8Array | string, value: Uint8Array | string, expected: bigint, lease = 0n): bigint {
    return callWasm(() => this.inner.putIfModRevision(bytes(key), bytes(value), expected, lease));
  }

  /** Deletes if the key's mod revision is `expected`: the deletion's revision, or 0n. */
  deleteIfModRevision(key: Uint8Array | string, expected: bigint): bigint {
    return callWasm(() => this.inner.deleteIfModRevision(bytes(key), expected));
  }

  /** Reads a key or a range, crossing the boundary once for the whole page. */
  range(key: Uint8Array | string, options: RangeOptions = {}): RangeResult {
    const page = callWasm(() =>
      this.inner.range(
        bytes(key),
        bytes(options.rangeEnd ?? ''),
        options.revision ?? 0n,
        options.limit ?? 0,
        options.countOnly ?? false,
        options.keysOnly ?? false,
      ),
    );
    return decodeRange(page);
  }

  /** Deletes a key or a range in one revision; returns how many keys were deleted. */
  deleteRange(key: Uint8Array | string, rangeEnd: Uint8Array | string = ''): number {
    return callWasm(() => this.inner.deleteRange(bytes(key), bytes(rangeEnd)));
  }

  /** Starts a watch; its responses come out of `pollWatch()`. Returns the watch id. */
  watch(key: Uint8Array | string, options: WatchOptions = {}): bigint {
    return callWasm(() =>
      this.inner.watch(
        bytes(key),
        bytes(options.rangeEnd ?? ''),
        options.startRevision ?? 0n,
        options.prevKv ?? false,
        options.progressNotify ?? false,
        options.noPut ?? false,
        options.noDelete ?? false,
      ),
    );
  }

  cancelWatch(id: bigint): void {
    callWasm(() => this.inner.cancelWatch(id));
  }

  get hasWatchEvents(): boolean {
    return this.inner.hasWatchEvents;
  }

  /** Pending responses of every watch, up to `maxEvents` events, in one crossing. */
  pollWatch(maxEvents = 65_536): WatchResponse[] {
    return decodeWatchBatch(this.inner.pollWatch(maxEvents));
  }

  requestProgress(): void {
    this.inner.requestProgress();
  }

  progressTick(): void {
    this.inner.progressTick();
  }

  compact(revision: bigint): void {
    callWasm(() => this.inner.compact(revision));
  }

  /** Grants a lease of `ttlSeconds` from `nowMs` (`id` 0n = store picks); returns its id. */
  leaseGrant(ttlSeconds: number, nowMs: number, id = 0n): bigint {
    return callWasm(() => this.inner.leaseGrant(id, BigInt(ttlSeconds), nowMs));
  }

  leaseRevoke(id: bigint): bigint {
    return callWasm(() => this.inner.leaseRevoke(id));
  }

  leaseKeepAlive(id: bigint, nowMs: number): bigint {
    return callWasm(() => this.inner.leaseKeepAlive(id, nowMs));
  }

  /** Restarts every lease's TTL from `nowMs` (after recovery: downtime does not count). */
  leaseRefreshAll(nowMs: number): void {
    this.inner.leaseRefreshAll(nowMs);
  }

  /** Revokes the leases due at `nowMs` (deleting their keys); returns their ids. */
  expireLeases(nowMs: number, max = 1000): bigint[] {
    return Array.from(this.inner.expireLeases(nowMs, max));
  }

  /** Earliest lease deadline in ms, or undefined without leases. */
  get nextLeaseDeadline(): number | undefined {
    const ms = this.inner.nextLeaseDeadline;
    return ms < 0 ? undefined : ms;
  }

  /** WAL records written since the last call. */
  takeWal(): Uint8Array {
    return this.inner.takeWal();
  }

  snapshot(): Uint8Array {
    return this.inner.snapshot();
  }

  /** Applies a WAL file's bytes; stops at the first torn or corrupt record and says where. */
  replayWal(wal: Uint8Array): WalReplay {
    const r = this.inner.replayWal(wal);
    try {
      return {
        applied: r.applied,
        skipped: r.skipped,
        validLength: r.validLength,
        tailReason: r.tailReason as WalReplay['tailReason'],
      };
    } finally {
      r.free();
    }
  }

  get indexBytes(): number {
    return this.inner.indexBytes;
  }

  get keyCount(): number {
    return this.inner.keyCount;
  }

  get versionCount(): number {
    return this.inner.versionCount;
  }

  /** Releases the store's wasm memory. */
  free(): void {
    this.inner.free();
  }
}
