import type * as glue from '../../build/wasm/kubewasm.js';
import { callWasm } from './errors.js';

/** One key at one revision (etcd's mvccpb.KeyValue). Revisions are bigint: never lossy. */
export interface KeyValue {
  key: Uint8Array;
  value: Uint8Array;
  createRevision: bigint;
  modRevision: bigint;
  version: bigint;
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

export interface RangeOptions {
  /** Exclusive end of the range: omitted = the single key, "\0" = every key from `key` on. */
  rangeEnd?: Uint8Array | string;
  /** Revision to read at; omitted or 0n = latest. */
  revision?: bigint;
  /** Most keys to return; 0 = no limit. */
  limit?: number;
}

const encoder = new TextEncoder();
const bytes = (v: Uint8Array | string): Uint8Array => (typeof v === 'string' ? encoder.encode(v) : v);

/** The wasm MVCC store behind a typed wrapper. */
export class MvccStore {
  constructor(private readonly inner: glue.MvccStore) {}

  get currentRevision(): bigint {
    return this.inner.currentRevision;
  }

  /** Writes a value; returns the revision of the write. */
  put(key: Uint8Array | string, value: Uint8Array | string): bigint {
    return callWasm(() => this.inner.put(bytes(key), bytes(value)));
  }

  /** Reads a key or a range, crossing the boundary once for the whole page. */
  range(key: Uint8Array | string, options: RangeOptions = {}): RangeResult {
    const page = callWasm(() =>
      this.inner.range(bytes(key), bytes(options.rangeEnd ?? ''), options.revision ?? 0n, options.limit ?? 0),
    );
    try {
      const { keys, keyEnds, values, valueEnds, createRevisions, modRevisions, versions } = page;
      const kvs: KeyValue[] = [];
      let keyStart = 0;
      let valueStart = 0;
      for (let i = 0; i < keyEnds.length; i++) {
        const keyEnd = keyEnds[i] as number;
        const valueEnd = valueEnds[i] as number;
        kvs.push({
          key: keys.subarray(keyStart, keyEnd),
          value: values.subarray(valueStart, valueEnd),
          createRevision: createRevisions[i] as bigint,
          modRevision: modRevisions[i] as bigint,
          version: versions[i] as bigint,
        });
        keyStart = keyEnd;
        valueStart = valueEnd;
      }
      return { revision: page.revision, count: page.count, more: page.more, kvs };
    } finally {
      page.free();
    }
  }

  /** Releases the store's wasm memory. */
  free(): void {
    this.inner.free();
  }
}
