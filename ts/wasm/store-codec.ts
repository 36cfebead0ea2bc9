/**
 * Decoding of the store's batch encoding (layout in crates/store/src/codec.rs): one Uint8Array
 * per range page or watch batch; keys and values are views into it, revisions are bigint.
 */

/** One key at one revision (etcd's mvccpb.KeyValue). */
export interface KeyValue {
  key: Uint8Array;
  value: Uint8Array;
  createRevision: bigint;
  modRevision: bigint;
  version: bigint;
  /** 0n = no lease. */
  lease: bigint;
}

export interface RangeResult {
  /** The store's current revision (etcd's header revision). */
  revision: bigint;
  /** Keys in the range, whatever the limit. */
  count: number;
  /** True when the limit cut keys off. */
  more: boolean;
  kvs: KeyValue[];
}

export interface StoreEvent {
  type: 'PUT' | 'DELETE';
  kv: KeyValue;
  prevKv?: KeyValue;
}

export interface WatchResponse {
  watchId: bigint;
  /** Header revision: the batch's revision for live events, else the current revision. */
  revision: bigint;
  created: boolean;
  canceled: boolean;
  /** Non-zero when the watcher was cancelled because its history was compacted. */
  compactRevision: bigint;
  cancelReason: string;
  events: StoreEvent[];
}

class Reader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u8(): number {
    return this.view.getUint8(this.offset++);
  }

  u32(): number {
    const n = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return n;
  }

  i64(): bigint {
    const n = this.view.getBigInt64(this.offset, true);
    this.offset += 8;
    return n;
  }

  bytesField(): Uint8Array {
    const len = this.u32();
    const out = this.bytes.subarray(this.offset, this.offset + len);
    this.offset += len;
    return out;
  }

  kv(): KeyValue {
    const key = this.bytesField();
    const createRevision = this.i64();
    const modRevision = this.i64();
    const version = this.i64();
    const lease = this.i64();
    return { key, createRevision, modRevision, version, lease, value: this.bytesField() };
  }
}

export function decodeRange(bytes: Uint8Array): RangeResult {
  const r = new Reader(bytes);
  const n = r.u32();
  const more = r.u8() === 1;
  const count = Number(r.i64());
  const revision = r.i64();
  const kvs: KeyValue[] = [];
  for (let i = 0; i < n; i++) kvs.push(r.kv());
  return { revision, count, more, kvs };
}

const CREATED = 1;
const CANCELED = 2;
const decoder = new TextDecoder();

export function decodeWatchBatch(bytes: Uint8Array): WatchResponse[] {
  const r = new Reader(bytes);
  const responses: WatchResponse[] = [];
  for (let i = r.u32(); i > 0; i--) {
    const watchId = r.i64();
    const revision = r.i64();
    const compactRevision = r.i64();
    const flags = r.u8();
    const cancelReason = decoder.decode(r.bytesField());
    const events: StoreEvent[] = [];
    for (let j = r.u32(); j > 0; j--) {
      const type = r.u8() === 0 ? 'PUT' : 'DELETE';
      const hasPrev = r.u8() === 1;
      const kv = r.kv();
      events.push(hasPrev ? { type, kv, prevKv: r.kv() } : { type, kv });
    }
    responses.push({
      watchId,
      revision,
      compactRevision,
      created: (flags & CREATED) !== 0,
      canceled: (flags & CANCELED) !== 0,
      cancelReason,
      events,
    });
  }
  return responses;
}
