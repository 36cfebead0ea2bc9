import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import { WasmStorage } from '../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../wasm/node.js';
import { StoredLister } from './lister.js';

const text = new TextEncoder();
const json = (o: unknown): Uint8Array => text.encode(JSON.stringify(o));

async function setup() {
  const kubewasm = await loadKubewasm();
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock: new VirtualClock(0) });
  await storage.create('/registry/namespaces/a', json({ metadata: { name: 'a' } }));
  return { storage, lister: new StoredLister(storage) };
}

/** The lister's answers and storage's, for the same reads. */
async function both(lister: StoredLister, storage: WasmStorage) {
  const keys = ['/registry/namespaces/a', '/registry/namespaces/b', '/registry/limitranges/a/x'];
  const got = await Promise.all(keys.map((k) => lister.get(k)));
  const want = await Promise.all(keys.map((k) => storage.get(k, { ignoreNotFound: true })));
  const lists = await Promise.all(['/registry/limitranges/a/', '/registry/namespaces/'].map((p) => lister.list(p)));
  const stored = await Promise.all(['/registry/limitranges/a/', '/registry/namespaces/'].map((p) => storage.list(p)));
  return { got: [got, lists], want: [want, stored.map((l) => l.items)] };
}

describe('StoredLister (admission reads from a watched cache, answering as storage does)', () => {
  it('sees every write made before the read, while the cache follows', async () => {
    const { storage, lister } = await setup();
    for (let i = 0; i < 20; i++) {
      if (i % 3 === 0) await storage.create(`/registry/pods/a/p${i}`, json({ i }));
      if (i === 4) await storage.create('/registry/namespaces/b', json({ metadata: { name: 'b' } }));
      if (i === 6) await storage.create('/registry/limitranges/a/x', json({ v: 1 }));
      if (i === 9) await storage.guaranteedUpdate('/registry/limitranges/a/x', () => json({ v: 2 }));
      if (i === 12) await storage.delete('/registry/namespaces/b');
      const { got, want } = await both(lister, storage);
      expect(got).toEqual(want);
    }
    // Caught up: answered from memory.
    const reads = vi.spyOn(storage, 'get');
    expect((await lister.get('/registry/limitranges/a/x'))?.revision).toBe(
      (await storage.get('/registry/limitranges/a/x'))?.revision,
    );
    expect(reads).toHaveBeenCalledTimes(1);
    lister.stop();
  });

  it('re-lists after its watch ends (as after a 410), staying exact meanwhile', async () => {
    const { storage, lister } = await setup();
    await lister.get('/registry/namespaces/a');
    await new Promise((r) => setTimeout(r, 10));
    const kept = (lister as unknown as { collections: Map<string, { watch?: { stop(): void } }> }).collections;
    for (const c of kept.values()) c.watch?.stop();
    await storage.create('/registry/limitranges/a/x', json({ v: 1 }));
    await storage.create('/registry/namespaces/b', json({ metadata: { name: 'b' } }));
    await storage.compact(await storage.currentRevision());
    for (let i = 0; i < 5; i++) {
      const { got, want } = await both(lister, storage);
      expect(got).toEqual(want);
      await new Promise((r) => setTimeout(r, 5));
    }
    lister.stop();
  });
});
