import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../ts/sim/clock.js';
import type { WatchEvent } from '../../ts/storage/storage.js';
import { WasmStorage } from '../../ts/storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../ts/wasm/node.js';
import { storageContract } from './contract.js';

storageContract(
  'the wasm MVCC store',
  async () => {
    const kubewasm = await loadKubewasm();
    return new WasmStorage({ store: kubewasm.newStore() });
  },
  { progressRequest: true },
);

describe('the wasm store with an injected clock', () => {
  it('deletes an object when its TTL runs out, with a DELETED event', async () => {
    const clock = new VirtualClock(1_000_000);
    const storage = new WasmStorage({ store: (await loadKubewasm()).newStore(), clock });
    const start = await storage.currentRevision();
    await storage.create('/registry/events/default/e1', new TextEncoder().encode('{}'), { ttlSeconds: 3600 });
    const watch = storage.watch('/registry/events/', { revision: start, recursive: true });
    clock.advance(3599_000);
    expect(await storage.count('/registry/events/')).toBe(1);
    clock.advance(1_000);
    await new Promise((r) => setTimeout(r, 0));
    expect(await storage.count('/registry/events/')).toBe(0);
    const seen: WatchEvent[] = [];
    for await (const batch of watch) {
      seen.push(...batch);
      if (seen.length >= 2) break;
    }
    expect(seen.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    await storage.close();
  });

  it('sends periodic BOOKMARKs to a watch that asked for progress', async () => {
    const clock = new VirtualClock();
    const storage = new WasmStorage({ store: (await loadKubewasm()).newStore(), clock, progressIntervalMs: 5000 });
    await storage.create('/registry/pods/default/a', new TextEncoder().encode('{}'));
    const current = await storage.currentRevision();
    const watch = storage.watch('/registry/pods/', { revision: current, recursive: true, progressNotify: true });
    clock.advance(5000);
    const iterator = watch[Symbol.asyncIterator]();
    const { value } = await iterator.next();
    expect(value).toEqual([{ type: 'BOOKMARK', key: '', value: new Uint8Array(), revision: current }]);
    watch.stop();
    await storage.close();
  });
});
