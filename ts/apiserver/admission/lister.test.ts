import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../client/client.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { byteFetch } from '../../client/testing/harness.js';
import { httpTransport, inProcessTransport, type Transport } from '../../client/transport.js';
import { VirtualClock } from '../../sim/clock.js';
import { WasmStorage } from '../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../wasm/node.js';
import { APISERVER_USER, SYSTEM_PRIVILEGED_GROUP } from '../authn/user.js';
import { createApiServer } from '../server.js';
import { getObject, type ListerSource, listObjects } from './lister.js';

const TOKEN = 'loopback';
const text = new TextEncoder();
const json = (o: unknown): Uint8Array => text.encode(JSON.stringify(o));

let stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.reverse()) await stop();
  stops = [];
});

/** A server over a fresh store, and a lister source whose informers reach it over `via`. */
async function setup(via: 'in-process' | 'http') {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(0);
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  const api = createApiServer({
    storage,
    clock,
    tokens: new Map([[TOKEN, { name: APISERVER_USER, uid: '1', groups: [SYSTEM_PRIVILEGED_GROUP] }]]),
  });
  const transport: Transport =
    via === 'in-process'
      ? inProcessTransport(api, TOKEN)
      : httpTransport({ server: 'https://kubewasm.test', token: TOKEN, fetch: byteFetch(api) });
  const informers = new SharedInformerFactory(createClient(transport), { clock });
  stops.push(async () => {
    await informers.shutdown();
    await api.close?.();
    await storage.close();
  });
  await storage.create('/registry/namespaces/a', json({ metadata: { name: 'a' } }));
  const source: ListerSource = { storage, informers };
  return { storage, informers, source };
}

/** The lister's answers and storage's, for the same reads. */
async function both(source: ListerSource, storage: WasmStorage) {
  const got = [
    await getObject(source, RESOURCES.namespaces, '', 'a'),
    await getObject(source, RESOURCES.namespaces, '', 'b'),
    await getObject(source, RESOURCES.limitranges, 'a', 'x'),
    await listObjects(source, RESOURCES.limitranges, 'a'),
    await listObjects(source, RESOURCES.limitranges, ''),
    await listObjects(source, RESOURCES.namespaces, ''),
  ];
  const decode = (item: { value: Uint8Array; revision: bigint } | undefined) =>
    item === undefined
      ? undefined
      : (() => {
          const obj = JSON.parse(new TextDecoder().decode(item.value));
          return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(item.revision) } };
        })();
  const want = [
    decode(await storage.get('/registry/namespaces/a', { ignoreNotFound: true })),
    decode(await storage.get('/registry/namespaces/b', { ignoreNotFound: true })),
    decode(await storage.get('/registry/limitranges/a/x', { ignoreNotFound: true })),
    (await storage.list('/registry/limitranges/a/')).items.map(decode),
    (await storage.list('/registry/limitranges/')).items.map(decode),
    (await storage.list('/registry/namespaces/')).items.map(decode),
  ];
  return { got, want };
}

describe('the admission lister (informers while current, else storage)', () => {
  it('sees every write made just before the read, over many writes, and answers from the informers once current', async () => {
    const { storage, informers, source } = await setup('in-process');
    const fromStorage = { get: vi.spyOn(storage, 'get'), list: vi.spyOn(storage, 'list') };
    let readsFromInformers = 0;
    for (let i = 0; i < 200; i++) {
      // A write, then at once the reads: each must see it.
      if (i % 5 === 0)
        await storage.create(`/registry/limitranges/a/r${i}`, json({ metadata: { name: `r${i}`, namespace: 'a' } }));
      if (i % 5 === 1)
        await storage.guaranteedUpdate('/registry/namespaces/a', () => json({ metadata: { name: 'a' }, i }));
      if (i % 5 === 2 && i % 10 !== 2) await storage.delete(`/registry/limitranges/a/r${i - 2}`);
      if (i % 20 === 3) await storage.create('/registry/namespaces/b', json({ metadata: { name: 'b' } }));
      if (i % 20 === 13) await storage.delete('/registry/namespaces/b');
      if (i % 7 === 4)
        await storage.create(`/registry/limitranges/z/r${i}`, json({ metadata: { name: `r${i}`, namespace: 'z' } }));
      const before = fromStorage.get.mock.calls.length + fromStorage.list.mock.calls.length;
      const current =
        informers.informerFor(RESOURCES.namespaces).isCurrent() &&
        informers.informerFor(RESOURCES.limitranges).isCurrent();
      const { got, want } = await both(source, storage);
      expect(got).toEqual(want);
      // `both` reads storage 6 times itself; a current lister adds nothing to it.
      if (current && fromStorage.get.mock.calls.length + fromStorage.list.mock.calls.length - before === 6) {
        readsFromInformers++;
      }
      // Let the informers catch up now and then, so that both paths are taken.
      if (i % 3 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    expect(readsFromInformers).toBeGreaterThan(20);
    // Caught up, the informers answer without storage.
    for (const informer of [
      informers.informerFor(RESOURCES.limitranges),
      informers.informerFor(RESOURCES.namespaces),
    ]) {
      expect(await informer.waitUntil(() => informer.isCurrent())).toBe(true);
    }
    const reads = fromStorage.get.mock.calls.length + fromStorage.list.mock.calls.length;
    expect((await getObject(source, RESOURCES.namespaces, '', 'a'))?.metadata?.name).toBe('a');
    expect((await listObjects(source, RESOURCES.limitranges, 'a')).length).toBeGreaterThan(0);
    expect(fromStorage.get.mock.calls.length + fromStorage.list.mock.calls.length).toBe(reads);
  });

  it('reads storage when its informers are not current: over HTTP, where the progress does not go', async () => {
    const { storage, informers, source } = await setup('http');
    await getObject(source, RESOURCES.namespaces, '', 'a'); // starts the informer
    await informers.informerFor(RESOURCES.namespaces).synced();
    await new Promise((r) => setTimeout(r, 10));
    expect(informers.informerFor(RESOURCES.namespaces).isCurrent()).toBe(false);
    const reads = vi.spyOn(storage, 'get');
    for (let i = 0; i < 20; i++) {
      await storage.guaranteedUpdate('/registry/namespaces/a', () => json({ metadata: { name: 'a' }, i }));
      const { got, want } = await both(source, storage);
      expect(got).toEqual(want);
    }
    // Every lister get went to storage (beside `both`'s own three per round).
    expect(reads).toHaveBeenCalledTimes(20 * 6);
  });

  it('reads storage without informers, and on a storage that does not queue on commit', async () => {
    const { storage, informers } = await setup('in-process');
    const withoutInformers: ListerSource = { storage };
    const notQueuing: ListerSource = {
      storage: new Proxy(storage, {
        get: (target, prop) =>
          prop === 'queuesWatchesOnCommit' ? false : (Reflect.get(target, prop, target) as unknown),
      }),
      informers,
    };
    const reads = vi.spyOn(storage, 'get');
    for (const source of [withoutInformers, notQueuing]) {
      expect((await getObject(source, RESOURCES.namespaces, '', 'a'))?.metadata?.name).toBe('a');
    }
    expect(reads).toHaveBeenCalledTimes(2);
    // Neither started an informer.
    expect(informers.informerFor(RESOURCES.namespaces).hasStarted()).toBe(false);
  });

  it('answers in storage order (namespace, then name), from the informers as from storage', async () => {
    const { storage, informers, source } = await setup('in-process');
    for (const [ns, name] of [
      ['b', 'y'],
      ['a', 'z'],
      ['b', 'x'],
      ['a', 'a'],
    ]) {
      await storage.create(`/registry/limitranges/${ns}/${name}`, json({ metadata: { name, namespace: ns } }));
    }
    await listObjects(source, RESOURCES.limitranges, '');
    const informer = informers.informerFor(RESOURCES.limitranges);
    await informer.waitUntil(() => informer.isCurrent());
    const names = (await listObjects(source, RESOURCES.limitranges, '')).map(
      (o) => `${o.metadata?.namespace}/${o.metadata?.name}`,
    );
    expect(names).toEqual(['a/a', 'a/z', 'b/x', 'b/y']);
  });
});
