/**
 * Decoding of the store's batch encoding (layout in crates/store/src/codec.rs): one Uint8Array
 * per range page or watch batch; keys and values are views into it, revisions are bigint.
 * A watch batch's event blocks are decoded once: responses that take a whole block share one
 * `events` array (treat it as read-only).
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
  /** -1n for a stream-wide progress notification. */
  watchId: bigint;
  /** Header revision: the last revision of the response's live events, else the current revision. */
  revision: bigint;
  created: boolean;
  canceled: boolean;
  /** Non-zero when the watcher was cancelled because its history was compacted. */
  compactRevision: bigint;
  cancelReason: string;
  /** Possibly shared with other responses of the same batch: do not modify. */
  events: StoreEvent[];
}

class Reader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  skip(n: number): void {
    this.offset += n;
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

// Delivery flags and selection kinds (crates/store/src/codec.rs).
const CREATED = 1;
const CANCELED = 2;
const COMPACT = 4;
const REASON = 8;
const EVENTS = 16;
const DROP_PREV = 32;
const SELECT_ALL = 0;
const SELECT_RUN = 1;
const SELECT_LIST = 2;
const decoder = new TextDecoder();

function malformed(what: string): Error {
  return new Error(`malformed watch batch: ${what}`);
}

/** A watch batch: each event block decoded once, then one response per delivery. */
export function decodeWatchBatch(bytes: Uint8Array): WatchResponse[] {
  const r = new Reader(bytes);
  const blocks: StoreEvent[][] = [];
  for (let i = r.u32(); i > 0; i--) {
    r.skip(8); // the block's last revision
    const events: StoreEvent[] = [];
    for (let j = r.u32(); j > 0; j--) {
      const type = r.u8() === 0 ? 'PUT' : 'DELETE';
      const hasPrev = r.u8() === 1;
      const kv = r.kv();
      events.push(hasPrev ? { type, kv, prevKv: r.kv() } : { type, kv });
    }
    blocks.push(events);
  }
  // Blocks without prev_kv, for the watchers that did not ask for it (made once per block).
  const withoutPrev = new Map<number, StoreEvent[]>();
  const responses: WatchResponse[] = [];
  for (let i = r.u32(); i > 0; i--) {
    const watchId = r.i64();
    const revision = r.i64();
    const flags = r.u8();
    const compactRevision = flags & COMPACT ? r.i64() : 0n;
    const cancelReason = flags & REASON ? decoder.decode(r.bytesField()) : '';
    let events: StoreEvent[] = [];
    if (flags & EVENTS) {
      const index = r.u32();
      let block = blocks[index];
      if (block === undefined) throw malformed(`no block ${index}`);
      if (flags & DROP_PREV) {
        const full = block;
        block = withoutPrev.get(index) ?? full.map((e) => (e.prevKv ? { type: e.type, kv: e.kv } : e));
        withoutPrev.set(index, block);
      }
      const selection = r.u8();
      if (selection === SELECT_ALL) {
        events = block;
      } else if (selection === SELECT_RUN) {
        const first = r.u32();
        const count = r.u32();
        if (first + count > block.length) throw malformed('run out of block');
        events = block.slice(first, first + count);
      } else if (selection === SELECT_LIST) {
        const count = r.u32();
        for (let k = 0; k < count; k++) {
          const event = block[r.u32()];
          if (event === undefined) throw malformed('index out of block');
          events.push(event);
        }
      } else {
        throw malformed(`selection ${selection}`);
      }
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
