/**
 * The Storage interface over a real etcd v3 cluster, through the npm `etcd3` client — the backend
 * for users who outgrow one process. It uses exactly the etcd calls kube-apiserver uses
 * (../shared/reference/store.md §3.5): Range (prefix, limit, revision, count_only), Txn on
 * `mod_revision ==` with Put/Delete/Get, Watch with prev_kv and progress_notify, Compact, and
 * LeaseGrant for objects with a TTL.
 *
 * Differences etcd forces, compared with the wasm backend:
 * - `requestProgress()`: etcd3 (the npm client) does not expose WatchProgressRequest, so progress
 *   comes only from etcd's periodic progress notifications (`--experimental-watch-progress-notify-interval`).
 * - A watch cancelled for compaction arrives as a bare "Watcher canceled" error (etcd leaves
 *   cancel_reason empty and the client drops compact_revision); it is reported as Expired without
 *   the compaction revision.
 */
import { Etcd3, type IKeyValue, type IOptions, type IRequestOp, type IWatchResponse } from 'etcd3';
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
import { WatchQueue } from '../watch-queue.js';

const buffer = (bytes: Uint8Array | string): Buffer =>
  typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function toObject(kv: IKeyValue): StoredObject {
  return { key: decodeKey(kv.key), value: new Uint8Array(kv.value), revision: BigInt(kv.mod_revision) };
}

/** etcd's revision errors as Kubernetes' storage errors. */
function translate(err: unknown): unknown {
  const message = err instanceof Error ? err.message : '';
  if (message.includes('required revision has been compacted')) return StorageError.expired();
  if (message.includes('required revision is a future revision')) {
    return new StorageError('TooLargeResourceVersion', 'Too large resource version');
  }
  if (message.includes('request is too large')) return new StorageError('InvalidObj', message);
  return err;
}

export class EtcdStorage implements Storage {
  private readonly client: Etcd3;

  constructor(options: IOptions) {
    this.client = new Etcd3(options);
  }

  async currentRevision(): Promise<bigint> {
    // A Range that returns no data still carries the current revision (KEP-2340's quorum read).
    const res = await this.call(() => this.client.kv.range({ key: buffer('\0'), count_only: true, limit: 1 }));
    return BigInt(res.header.revision);
  }

  async create(key: string, value: Uint8Array, options: CreateOptions = {}): Promise<StoredObject> {
    let lease: string | undefined;
    if (options.ttlSeconds !== undefined && options.ttlSeconds > 0) {
      lease = (await this.call(() => this.client.leaseClient.leaseGrant({ TTL: options.ttlSeconds as number }))).ID;
    }
    const res = await this.call(() =>
      this.client.kv.txn({
        compare: [{ key: buffer(key), target: 'Mod', result: 'Equal', mod_revision: 0 }],
        success: [{ request_put: { key: buffer(key), value: buffer(value), ...(lease ? { lease } : {}) } }],
        failure: [],
      }),
    );
    if (!res.succeeded) throw StorageError.keyExists(key);
    return { key, value, revision: BigInt(res.header.revision) };
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | undefined> {
    const revision = await this.readRevision(options);
    const res = await this.call(() => this.client.kv.range({ key: buffer(key), revision: String(revision) }));
    const kv = res.kvs[0];
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
      async (from, rangeEnd, revision, limit) => {
        const res = await this.call(() =>
          this.client.kv.range({
            key: buffer(from),
            range_end: Buffer.from(rangeEnd),
            revision: String(revision),
            limit,
          }),
        );
        return {
          items: res.kvs.map(toObject),
          more: res.more,
          count: Number(res.count),
          revision: BigInt(res.header.revision),
        };
      },
    );
  }

  async count(prefix: string): Promise<number> {
    const dir = asDirectory(prefix);
    const res = await this.call(() =>
      this.client.kv.range({ key: buffer(dir), range_end: Buffer.from(prefixEnd(encodeKey(dir))), count_only: true }),
    );
    return Number(res.count);
  }

  async guaranteedUpdate(
    key: string,
    tryUpdate: (current: StoredObject | undefined) => Uint8Array | Promise<Uint8Array>,
    options: UpdateOptions = {},
  ): Promise<StoredObject> {
    let current = await this.get(key, { ignoreNotFound: true });
    while (true) {
      if (!current && !options.ignoreNotFound) throw StorageError.keyNotFound(key);
      const expected = options.preconditions?.revision;
      if (current && expected !== undefined && expected !== current.revision) {
        throw StorageError.conflict(key, expected, current.revision);
      }
      const value = await tryUpdate(current);
      const res = await this.optimistic(key, current?.revision ?? 0n, {
        request_put: { key: buffer(key), value: buffer(value) },
      });
      if (res.succeeded) return { key, value, revision: res.revision };
      current = res.current; // Someone changed it meanwhile: retry against the fresh object.
    }
  }

  async delete(key: string, options: DeleteOptions = {}): Promise<StoredObject> {
    let current = await this.get(key, { ignoreNotFound: true });
    while (true) {
      if (!current) throw StorageError.keyNotFound(key);
      const expected = options.preconditions?.revision;
      if (expected !== undefined && expected !== current.revision) {
        throw StorageError.conflict(key, expected, current.revision);
      }
      await options.validate?.(current);
      const res = await this.optimistic(key, current.revision, { request_delete_range: { key: buffer(key) } });
      if (res.succeeded) return { ...current, revision: res.revision };
      current = res.current;
    }
  }

  /** Kubernetes' OptimisticPut/Delete: Txn If(mod_revision == expected) Then(op) Else(Get). */
  private async optimistic(
    key: string,
    expected: bigint,
    op: IRequestOp,
  ): Promise<{ succeeded: boolean; revision: bigint; current: StoredObject | undefined }> {
    const res = await this.call(() =>
      this.client.kv.txn({
        compare: [{ key: buffer(key), target: 'Mod', result: 'Equal', mod_revision: String(expected) }],
        success: [op],
        failure: [{ request_range: { key: buffer(key) } }],
      }),
    );
    const kv = res.succeeded ? undefined : res.responses[0]?.response_range?.kvs[0];
    return { succeeded: res.succeeded, revision: BigInt(res.header.revision), current: kv ? toObject(kv) : undefined };
  }

  watch(key: string, options: WatchOptions): Watch {
    let cancel = () => {};
    const queue = new WatchQueue(() => cancel());
    const builder = this.client.watch();
    if (options.recursive) builder.prefix(asDirectory(key));
    else builder.key(key);
    if (options.revision > 0n) builder.startRevision(String(options.revision + 1n));
    // Always ask for prev_kv: a DELETED event carries the object as it was.
    builder.withPreviousKV();
    const watcher = builder.watcher();
    cancel = () => void watcher.cancel();
    watcher.on('data', (res: IWatchResponse) => {
      for (const batch of toBatches(res, options)) if (!queue.push(batch)) return;
    });
    watcher.on('error', (err: Error) => {
      const message = err.message;
      // Compaction: etcd cancels the watch with an empty reason (store.md §1.7).
      queue.fail(
        message.startsWith('Watcher canceled') ? StorageError.expired() : new StorageError('Unreachable', message),
      );
    });
    return queue;
  }

  async requestProgress(): Promise<void> {
    // Not exposed by the etcd3 client; see the note at the top of this file.
  }

  async compact(revision: bigint): Promise<void> {
    await this.call(() => this.client.kv.compact({ revision: String(revision), physical: true }));
  }

  async close(): Promise<void> {
    this.client.close();
  }

  /** The revision to read at (0 = latest) for the read consistency asked. */
  private async readRevision(at: ReadAt): Promise<bigint> {
    if (at.revision !== undefined && at.revision > 0n) return at.revision;
    if (at.minRevision !== undefined && at.minRevision > 0n) {
      const current = await this.currentRevision();
      if (current < at.minRevision) throw StorageError.tooLarge(at.minRevision, current);
    }
    return 0n;
  }

  private async call<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw translate(err);
    }
  }
}

/** One etcd watch response as batches of Kubernetes watch events, one batch per revision. */
function toBatches(res: IWatchResponse, options: WatchOptions): WatchEvent[][] {
  if (res.events.length === 0) {
    // A progress notification: every event up to header.revision has been delivered.
    return options.progressNotify ? [bookmark(BigInt(res.header.revision))] : [];
  }
  return toWatchBatches(
    res.events.map((ev) => ({
      kind: ev.type === 'Delete' ? 'delete' : 'put',
      key: decodeKey(ev.kv.key),
      value: new Uint8Array(ev.kv.value),
      version: BigInt(ev.kv.version),
      modRevision: BigInt(ev.kv.mod_revision),
      prevValue: ev.prev_kv ? new Uint8Array(ev.prev_kv.value) : undefined,
    })),
    options.prevValue ?? false,
  );
}
