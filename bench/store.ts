/** `kubewasm bench store`: the wasm MVCC store against the TypeScript reference, same workload. */
import type { Kubewasm } from '../ts/index.js';
import { MapStore } from './baselines/map-store.js';
import { type BenchRow, opsPerSecond, type Suite } from './harness.js';

const PUTS = 100_000;
const VALUE = new Uint8Array(256).fill(0x61);

export function storeSuite(kubewasm: Kubewasm): Suite {
  return {
    name: 'store',
    async run(progress) {
      const keys = Array.from({ length: PUTS }, (_, i) => `/registry/pods/default/pod-${i}`);
      const encoded = keys.map((k) => new TextEncoder().encode(k));
      const row = (impl: string, value: number): BenchRow => ({
        suite: 'store',
        case: 'put-256B-sequential',
        impl,
        metric: 'puts_per_s',
        value,
        unit: 'puts/s',
      });

      progress('put-256B-sequential · wasm');
      const wasm = opsPerSecond(() => {
        const store = kubewasm.newStore();
        for (const key of encoded) store.put(key, VALUE);
        store.free();
        return PUTS;
      });

      progress('put-256B-sequential · ts');
      const ts = opsPerSecond(() => {
        const store = new MapStore();
        for (const key of keys) store.put(key, VALUE);
        return PUTS;
      });
      return [row('wasm', wasm), row('ts', ts)];
    },
  };
}
