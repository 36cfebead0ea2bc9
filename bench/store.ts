/**
 * `kubewasm bench store`: one workload, three stores, side by side — the wasm MVCC store
 * in-process, the TypeScript reference store (bench/baselines/map-store.ts), and a real etcd 3.4
 * through the `etcd3` client (started on 127.0.0.1 for the run; skipped when etcd is missing).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { type EtcdServer, startEtcd } from '../ts/storage/etcd/local-etcd.js';
import { openDurableStorage } from '../ts/storage/wasm/durable.js';
import type { Kubewasm } from '../ts/wasm/kubewasm.js';
import { MapStore } from './baselines/map-store.js';
import { type BenchRow, median, opsPerSecond, type Suite } from './harness.js';

const encoder = new TextEncoder();
const VALUE = new Uint8Array(256).fill(0x61);
const PUTS = 200_000;
const RANGE_KEYS = 10_000;
const WATCHERS = 1_000;
const FANOUT_WRITES = 2_000;
/** In-flight requests to etcd: its throughput needs concurrency, so give it plenty. */
const ETCD_CONCURRENCY = 256;

/** Keys and their concatenated bytes, for single puts and for one-crossing batches. */
function keySet(n: number, prefix: string) {
  const keys = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(8, '0')}`);
  const encoded = keys.map((k) => encoder.encode(k));
  const keyBytes = new Uint8Array(encoded.reduce((s, k) => s + k.length, 0));
  const keyEnds = new Uint32Array(n);
  let offset = 0;
  encoded.forEach((k, i) => {
    keyBytes.set(k, offset);
    offset += k.length;
    keyEnds[i] = offset;
  });
  const values = new Uint8Array(n * VALUE.length);
  const valueEnds = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    values.set(VALUE, i * VALUE.length);
    valueEnds[i] = (i + 1) * VALUE.length;
  }
  return { keys, encoded, keyBytes, keyEnds, values, valueEnds };
}

/** Runs `ops` async operations with `concurrency` in flight; returns operations per second. */
async function concurrentRate(ops: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ops) await op(next++);
    }),
  );
  return ops / ((performance.now() - start) / 1000);
}

/** Median of `runs` async measurements. */
async function medianOf(runs: number, measure: () => Promise<number>): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < runs; i++) values.push(await measure());
  return median(values);
}

export function storeSuite(kubewasm: Kubewasm): Suite {
  return {
    name: 'store',
    async run(progress) {
      const rows: BenchRow[] = [];
      const row = (c: string, impl: string, metric: string, value: number, unit: string) =>
        rows.push({ suite: 'store', case: c, impl, metric, value, unit });
      const set = keySet(PUTS, '/registry/pods/default/pod-');

      progress('put-256B-sequential · wasm');
      row(
        'put-256B-sequential',
        'wasm',
        'puts_per_s',
        opsPerSecond(() => {
          const store = kubewasm.newStore();
          store.putMany(set.keyBytes, set.keyEnds, set.values, set.valueEnds);
          store.free();
          return PUTS;
        }),
        'puts/s',
      );
      progress('put-256B-sequential · wasm, one crossing per put');
      row(
        'put-256B-sequential-per-call',
        'wasm',
        'puts_per_s',
        opsPerSecond(() => {
          const store = kubewasm.newStore();
          for (const key of set.encoded) store.put(key, VALUE);
          store.free();
          return PUTS;
        }),
        'puts/s',
      );
      progress('put-256B-sequential · ts');
      const tsPuts = opsPerSecond(() => {
        const store = new MapStore();
        for (const key of set.keys) store.put(key, VALUE);
        return PUTS;
      });
      row('put-256B-sequential', 'ts', 'puts_per_s', tsPuts, 'puts/s');
      row('put-256B-sequential-per-call', 'ts', 'puts_per_s', tsPuts, 'puts/s');

      progress('cas-txn · wasm');
      row(
        'cas-txn',
        'wasm',
        'txns_per_s',
        opsPerSecond(() => {
          const store = kubewasm.newStore();
          const key = set.encoded[0] as Uint8Array;
          let rev = 0n;
          for (let i = 0; i < PUTS; i++) rev = store.putIfModRevision(key, VALUE, rev);
          store.free();
          return PUTS;
        }),
        'txns/s',
      );
      progress('cas-txn · ts');
      row(
        'cas-txn',
        'ts',
        'txns_per_s',
        opsPerSecond(() => {
          const store = new MapStore();
          let rev = 0;
          for (let i = 0; i < PUTS; i++) rev = store.putIfModRevision(set.keys[0] as string, VALUE, rev);
          return PUTS;
        }),
        'txns/s',
      );

      progress('range-10k-at-revision · wasm');
      const wasmRangeStore = kubewasm.newStore();
      wasmRangeStore.putMany(
        set.keyBytes.subarray(0, set.keyEnds[RANGE_KEYS - 1]),
        set.keyEnds.subarray(0, RANGE_KEYS),
        set.values,
        set.valueEnds.subarray(0, RANGE_KEYS),
      );
      const pinned = wasmRangeStore.currentRevision;
      wasmRangeStore.putMany(
        set.keyBytes.subarray(0, set.keyEnds[RANGE_KEYS - 1]),
        set.keyEnds.subarray(0, RANGE_KEYS),
        set.values,
        set.valueEnds.subarray(0, RANGE_KEYS),
      );
      row(
        'range-10k-at-revision',
        'wasm',
        'ranges_per_s',
        opsPerSecond(() => {
          for (let i = 0; i < 20; i++)
            wasmRangeStore.range('/registry/pods/', { rangeEnd: '/registry/pods0', revision: pinned });
          return 20;
        }),
        'ranges/s',
      );
      wasmRangeStore.free();
      progress('range-10k-at-revision · ts');
      const tsRangeStore = new MapStore();
      for (const key of set.keys.slice(0, RANGE_KEYS)) tsRangeStore.put(key, VALUE);
      const tsPinned = tsRangeStore.currentRevision;
      for (const key of set.keys.slice(0, RANGE_KEYS)) tsRangeStore.put(key, VALUE);
      row(
        'range-10k-at-revision',
        'ts',
        'ranges_per_s',
        opsPerSecond(() => {
          for (let i = 0; i < 20; i++) tsRangeStore.range('/registry/pods/', '/registry/pods0', tsPinned);
          return 20;
        }),
        'ranges/s',
      );

      progress('watch-fanout-1000 · wasm');
      row(
        'watch-fanout-1000',
        'wasm',
        'events_per_s',
        opsPerSecond(() => {
          const store = kubewasm.newStore({ watchBufferEvents: FANOUT_WRITES });
          for (let w = 0; w < WATCHERS; w++) store.watch('/registry/pods/', { rangeEnd: '/registry/pods0' });
          store.pollWatch(); // the created responses
          let delivered = 0;
          for (let i = 0; i < FANOUT_WRITES; i += 100) {
            store.putMany(
              set.keyBytes.subarray(0, set.keyEnds[99]),
              set.keyEnds.subarray(0, 100),
              set.values,
              set.valueEnds.subarray(0, 100),
            );
            while (store.hasWatchEvents) for (const r of store.pollWatch()) delivered += r.events.length;
          }
          store.free();
          return delivered;
        }, 3),
        'events/s',
      );
      progress('watch-fanout-1000 · ts');
      row(
        'watch-fanout-1000',
        'ts',
        'events_per_s',
        opsPerSecond(() => {
          const store = new MapStore();
          for (let w = 0; w < WATCHERS; w++) store.watch('/registry/pods/');
          let delivered = 0;
          for (let i = 0; i < FANOUT_WRITES; i += 100) {
            for (let j = 0; j < 100; j++) store.put(set.keys[j] as string, VALUE);
            delivered += store.drainWatches();
          }
          return delivered;
        }, 3),
        'events/s',
      );

      for (const fsync of ['always', 'batch'] as const) {
        progress(`durable-put-${fsync} · wasm`);
        const ops = fsync === 'always' ? 2_000 : 50_000;
        row(
          `durable-put-${fsync}`,
          'wasm',
          'puts_per_s',
          await medianOf(3, async () => {
            const dir = mkdtempSync(join(tmpdir(), 'kubewasm-bench-'));
            const { storage } = openDurableStorage(kubewasm, dir, { fsync });
            const rate = await concurrentRate(ops, fsync === 'always' ? 1 : 1000, (i) =>
              storage.create(set.keys[i] as string, VALUE),
            );
            await storage.close();
            rmSync(dir, { recursive: true, force: true });
            return rate;
          }),
          'puts/s',
        );
      }

      progress('index-memory · wasm');
      const memStore = kubewasm.newStore();
      memStore.putMany(set.keyBytes, set.keyEnds, set.values, set.valueEnds);
      const oneVersion = memStore.indexBytes;
      memStore.putMany(set.keyBytes, set.keyEnds, set.values, set.valueEnds);
      const twoVersions = memStore.indexBytes;
      memStore.free();
      row('index-memory', 'wasm', 'bytes_per_key', oneVersion / PUTS, 'B');
      row('index-memory', 'wasm', 'bytes_per_version', (twoVersions - oneVersion) / PUTS, 'B');
      // etcd's own figures: c1 = 120 B per key, c2 = 30 B per version
      // (etcd-io/website benchmarks/etcd-storage-memory-benchmark.md).
      row('index-memory', 'etcd-published', 'bytes_per_key', 120, 'B');
      row('index-memory', 'etcd-published', 'bytes_per_version', 30, 'B');

      await etcdRows(set, row, progress);
      return rows;
    },
  };
}

/** The same cases against a real etcd, when `etcd` is installed. */
async function etcdRows(
  set: ReturnType<typeof keySet>,
  row: (c: string, impl: string, metric: string, value: number, unit: string) => void,
  progress: (what: string) => void,
): Promise<void> {
  let server: EtcdServer;
  try {
    server = await startEtcd();
  } catch (err) {
    console.error(`bench store: no etcd rows (${err instanceof Error ? err.message : String(err)})`);
    return;
  }
  const client = new Etcd3({ hosts: server.endpoint });
  const buf = Buffer.from(VALUE);
  try {
    progress('put-256B · etcd');
    const etcdPuts = await medianOf(3, () =>
      concurrentRate(5_000, ETCD_CONCURRENCY, async (i) => {
        await client.put(set.keys[i] as string).value(buf);
      }),
    );
    row('put-256B-sequential', 'etcd', 'puts_per_s', etcdPuts, 'puts/s');
    row('put-256B-sequential-per-call', 'etcd', 'puts_per_s', etcdPuts, 'puts/s');
    row('durable-put-always', 'etcd', 'puts_per_s', etcdPuts, 'puts/s');
    row('durable-put-batch', 'etcd', 'puts_per_s', etcdPuts, 'puts/s');

    progress('cas-txn · etcd');
    row(
      'cas-txn',
      'etcd',
      'txns_per_s',
      await medianOf(3, () =>
        concurrentRate(5_000, ETCD_CONCURRENCY, async (i) => {
          const key = `/cas/${i}`;
          await client.if(key, 'Mod', '==', 0).then(client.put(key).value(buf)).commit();
        }),
      ),
      'txns/s',
    );

    progress('range-10k-at-revision · etcd');
    await concurrentRate(RANGE_KEYS, ETCD_CONCURRENCY, async (i) => {
      await client.put(`/range/${String(i).padStart(8, '0')}`).value(buf);
    });
    const rev = (await client.kv.range({ key: Buffer.from('\0'), count_only: true })).header.revision;
    row(
      'range-10k-at-revision',
      'etcd',
      'ranges_per_s',
      await medianOf(3, async () => {
        const start = performance.now();
        for (let i = 0; i < 5; i++)
          await client.kv.range({ key: Buffer.from('/range/'), range_end: Buffer.from('/range0'), revision: rev });
        return 5 / ((performance.now() - start) / 1000);
      }),
      'ranges/s',
    );

    progress('watch-fanout-1000 · etcd');
    let delivered = 0;
    const watchers = await Promise.all(
      Array.from({ length: WATCHERS }, () =>
        client
          .watch()
          .prefix('/fan/')
          .create()
          .then((w) => w.on('put', () => void delivered++)),
      ),
    );
    const writes = 100;
    const start = performance.now();
    for (let i = 0; i < writes; i++) await client.put(`/fan/${i}`).value(buf);
    while (delivered < writes * WATCHERS && performance.now() - start < 60_000)
      await new Promise((r) => setTimeout(r, 5));
    row('watch-fanout-1000', 'etcd', 'events_per_s', delivered / ((performance.now() - start) / 1000), 'events/s');
    await Promise.all(watchers.map((w) => w.cancel()));
  } finally {
    client.close();
    await server.stop();
  }
}
