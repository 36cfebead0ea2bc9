import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { type Client, createClient } from '../client.js';
import { RESOURCES } from '../resources.js';
import { eventually, harness } from '../testing/harness.js';
import type { Transport } from '../transport.js';
import { metaNamespaceIndexFunc, NAMESPACE_INDEX } from './index-funcs.js';
import { type EventHandler, SharedIndexInformer } from './shared-informer.js';

const cm = (name: string, labels: Record<string, string> = {}, namespace = 'default'): KubeObject => ({
  metadata: { name, namespace, labels },
});

/** TestIndexer's index: an object under each of its label keys. */
const byLabelKey = (o: KubeObject): string[] => Object.keys(o.metadata?.labels ?? {});
const names = (objs: readonly { readonly metadata?: { readonly name?: string } }[]) =>
  objs.map((o) => o.metadata?.name).sort();

let informers: SharedIndexInformer[] = [];
afterEach(async () => {
  await Promise.all(informers.map((i) => i.stop()));
  informers = [];
});

async function setup(transport?: (inner: Transport) => Transport) {
  const h = await harness('in-process');
  const client = transport === undefined ? h.client : createClient(transport(h.transport));
  const informer = (onError?: (err: unknown) => void) => {
    const i = new SharedIndexInformer(client, RESOURCES.configmaps, {
      clock: h.server.clock,
      watchTimeoutSeconds: 1,
      indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
      ...(onError === undefined ? {} : { onError }),
    });
    informers.push(i);
    return i;
  };
  return { ...h, client: client as Client, informer };
}

/** A handler recording `add a`, `update a`, `delete a` (adds of the initial list as `add* a`). */
function recorder(): EventHandler<KubeObject> & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    onAdd: (o, initial) => log.push(`add${initial ? '*' : ''} ${o.metadata?.name}`),
    onUpdate: (_, o) => log.push(`update ${o.metadata?.name}`),
    onDelete: (o) => log.push(`delete ${o.metadata?.name}`),
  };
}

// shared_informer_test.go (client-go v0.32) where it applies, against the test apiserver.
describe('SharedIndexInformer indexes', () => {
  it('answers byIndex after sync, for objects added later, and for an index added later (TestIndexer)', async () => {
    const { client, informer } = await setup();
    await client.create(RESOURCES.configmaps, 'default', cm('pod1', { a: 'a-val', b: 'b-val1' }));
    await client.create(RESOURCES.configmaps, 'default', cm('pod2', { b: 'b-val2' }));
    const i = informer();
    i.addIndexers({ labels: byLabelKey });
    i.start();
    await i.synced();
    expect(names(i.getIndexer().byIndex('labels', 'a'))).toEqual(['pod1']);

    await client.create(RESOURCES.configmaps, 'default', cm('pod3', { a: 'a-val2' }));
    await eventually(() => i.getIndexer().byIndex('labels', 'a').length === 2);
    expect(names(i.getIndexer().byIndex('labels', 'a'))).toEqual(['pod1', 'pod3']);

    i.addIndexers({ 'labels-again': byLabelKey });
    expect(names(i.getIndexer().byIndex('labels-again', 'a'))).toEqual(['pod1', 'pod3']);
    expect(i.getIndexer().listIndexFuncValues('labels').sort()).toEqual(['a', 'b']);
    expect(i.getIndexer().listIndexFuncValues('labels-again').sort()).toEqual(['a', 'b']);
    expect(() => i.addIndexers({ labels: byLabelKey })).toThrow('indexer conflict');
  });

  it('moves objects between buckets on updates and drops them on deletes', async () => {
    const { client, informer } = await setup();
    await client.create(RESOURCES.configmaps, 'default', cm('x', { tier: 'web' }));
    await client.create(RESOURCES.configmaps, 'team-a', cm('y', { tier: 'web' }, 'team-a'));
    const i = informer();
    i.addIndexers({ tier: (o) => [o.metadata?.labels?.tier ?? ''] });
    i.start();
    await i.synced();
    expect(i.getIndexer().indexKeys('tier', 'web')).toEqual(['default/x', 'team-a/y']);
    expect(i.getIndexer().indexKeys(NAMESPACE_INDEX, 'team-a')).toEqual(['team-a/y']);

    await client.patch(RESOURCES.configmaps, 'default', 'x', 'merge', { metadata: { labels: { tier: 'db' } } });
    await client.delete(RESOURCES.configmaps, 'team-a', 'y');
    await eventually(() => i.getIndexer().indexKeys('tier', 'db').length === 1 && i.keys().length === 1);
    expect(i.getIndexer().indexKeys('tier', 'web')).toEqual([]);
    expect(i.getIndexer().listIndexFuncValues('tier')).toEqual(['db']);
    expect(i.getIndexer().listIndexFuncValues(NAMESPACE_INDEX)).toEqual(['default']);
  });

  it('keeps the indexes right across a 410 re-list', async () => {
    let watches = 0;
    let release: (() => void) | undefined;
    let gate: Promise<void> | undefined;
    const { client, server, informer } = await setup((inner) => async (request) => {
      if (new URL(request.url).searchParams.get('watch') === 'true') {
        watches++;
        await gate;
      }
      return inner(request);
    });
    await client.create(RESOURCES.configmaps, 'default', cm('keep', { tier: 'web' }));
    await client.create(RESOURCES.configmaps, 'default', cm('change', { tier: 'web' }));
    await client.create(RESOURCES.configmaps, 'default', cm('vanish', { tier: 'web' }));
    const i = informer();
    i.addIndexers({ tier: (o) => [o.metadata?.labels?.tier ?? ''] });
    const events = recorder();
    i.addEventHandler(events);
    i.start();
    await i.synced();
    await eventually(() => watches === 1);
    events.log.length = 0;

    // Hold the next watch, end this one, change things behind the informer's back, and compact
    // the history it would resume from: the watch answers 410, the informer lists again.
    gate = new Promise((resolve) => {
      release = resolve;
    });
    server.clock.advance(1000);
    await eventually(() => watches === 2);
    await client.patch(RESOURCES.configmaps, 'default', 'change', 'merge', { metadata: { labels: { tier: 'db' } } });
    await client.delete(RESOURCES.configmaps, 'default', 'vanish');
    await client.create(RESOURCES.configmaps, 'team-a', cm('new', { tier: 'db' }, 'team-a'));
    await server.storage.compact(await server.storage.currentRevision());
    release?.();

    await eventually(() => events.log.length === 3);
    expect(events.log.sort()).toEqual(['add new', 'delete vanish', 'update change']);
    expect((i.lastError as { code?: number }).code).toBe(410);
    expect(i.getIndexer().indexKeys('tier', 'web')).toEqual(['default/keep']);
    expect(i.getIndexer().indexKeys('tier', 'db')).toEqual(['default/change', 'team-a/new']);
    expect(i.getIndexer().indexKeys(NAMESPACE_INDEX, 'default')).toEqual(['default/change', 'default/keep']);
    expect(i.getIndexer().indexKeys(NAMESPACE_INDEX, 'team-a')).toEqual(['team-a/new']);
  });
});

describe('SharedIndexInformer handlers', () => {
  it('removes handlers by registration; removing a removed or foreign one is a no-op (TestSharedInformerRemoveHandler, …ForeignHandler, TestRemovingRemovedSharedInformer)', async () => {
    const { informer } = await setup();
    const i = informer();
    const other = informer();
    const handler: EventHandler<KubeObject> = {};
    const r1 = i.addEventHandler(handler);
    const r2 = i.addEventHandler(handler); // TestSharedInformerMultipleRegistration: twice is two registrations
    expect(i.handlerCount()).toBe(2);
    other.removeEventHandler(r1);
    expect(i.handlerCount()).toBe(2);
    i.removeEventHandler(r1);
    expect(i.handlerCount()).toBe(1);
    i.removeEventHandler(r1);
    expect(i.handlerCount()).toBe(1);
    i.removeEventHandler(r2);
    expect(i.handlerCount()).toBe(0);
  });

  it('refuses a handler once stopped, and still removes one (TestAddOnStoppedSharedInformer, TestRemoveOnStoppedSharedInformer)', async () => {
    const { informer } = await setup();
    const i = informer();
    const reg = i.addEventHandler({});
    expect(i.hasStarted()).toBe(false);
    expect(i.isStopped()).toBe(false);
    i.start();
    await i.stop();
    expect(i.isStopped()).toBe(true);
    expect(i.hasStarted()).toBe(true);
    expect(() => i.addEventHandler({})).toThrow(/was not added to shared informer because it has stopped already$/);
    expect(() => i.addIndexers({ x: () => [] })).toThrow('indexer was not added because it has stopped already');
    i.removeEventHandler(reg);
    expect(i.handlerCount()).toBe(0);
    i.start(); // never again
    expect(i.state).toBe('stopped');
  });

  it('tells a removed handler nothing more (TestRemoveWhileActive)', async () => {
    const { client, informer } = await setup();
    const i = informer();
    const events = recorder();
    const reg = i.addEventHandler(events);
    i.start();
    await i.synced();
    await client.create(RESOURCES.configmaps, 'default', cm('pod1'));
    await eventually(() => events.log.length === 1);
    i.removeEventHandler(reg);
    await client.create(RESOURCES.configmaps, 'default', cm('pod2'));
    await eventually(() => i.get('default', 'pod2') !== undefined);
    expect(events.log).toEqual(['add pod1']);
  });

  it('replays the cache to a handler added late, which then follows changes (TestAddWhileActive)', async () => {
    const { client, informer } = await setup();
    await client.create(RESOURCES.configmaps, 'default', cm('pod0'));
    const i = informer();
    const first = recorder();
    const reg1 = i.addEventHandler(first);
    expect(reg1.hasSynced()).toBe(false);
    i.start();
    expect(await reg1.synced()).toBe(true);
    expect(reg1.hasSynced()).toBe(true);
    await client.create(RESOURCES.configmaps, 'default', cm('pod1'));
    await eventually(() => first.log.length === 2);

    const late = recorder();
    const reg2 = i.addEventHandler(late);
    expect(late.log.sort()).toEqual(['add* pod0', 'add* pod1']);
    expect(reg2.hasSynced()).toBe(true);
    await client.create(RESOURCES.configmaps, 'default', cm('pod2'));
    await client.delete(RESOURCES.configmaps, 'default', 'pod0');
    await eventually(() => late.log.length === 4 && first.log.length === 4);
    expect(first.log).toEqual(['add* pod0', 'add pod1', 'add pod2', 'delete pod0']);
    expect(late.log.slice(2)).toEqual(['add pod2', 'delete pod0']);
  });

  it('reports a handler that throws, and still tells the others and keeps the cache', async () => {
    const { client, informer } = await setup();
    const errors: unknown[] = [];
    const i = informer((err) => errors.push(err));
    i.addEventHandler({
      onAdd: () => {
        throw new Error('boom');
      },
    });
    const events = recorder();
    i.addEventHandler(events);
    i.start();
    await i.synced();
    await client.create(RESOURCES.configmaps, 'default', cm('a'));
    await eventually(() => events.log.length === 1);
    expect(i.get('default', 'a')?.metadata?.name).toBe('a');
    expect(errors.map(String)).toEqual(['Error: kubewasm informer: event handler failed: Error: boom']);
  });

  it('answers synced() false when stopped before its first list', async () => {
    const { informer } = await setup();
    const i = informer();
    const reg = i.addEventHandler({});
    const waiting = reg.synced();
    await i.stop();
    expect(await waiting).toBe(false);
    expect(reg.hasSynced()).toBe(false);
  });
});

/** An informer driven by hand through its ReflectorStore side (no list or watch): the writes a reflector makes. */
async function fed(options: { onError?: (err: unknown) => void; transform?: (o: KubeObject) => KubeObject } = {}) {
  const h = await harness('in-process');
  const i = new SharedIndexInformer(h.client, RESOURCES.configmaps, {
    clock: h.server.clock,
    indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
    ...options,
  });
  informers.push(i);
  return i;
}

const at = (name: string, rv: string, data: Record<string, string> = {}): KubeObject => ({
  metadata: { name, namespace: 'default', resourceVersion: rv },
  data,
});

// shared_informer.go processDeltas and delta_fifo.go Delete (client-go v0.32).
describe('SharedIndexInformer deletes', () => {
  it('tells onDelete the watch event’s object, the final state, not the cached one', async () => {
    const i = await fed();
    const deleted: KubeObject[] = [];
    i.addEventHandler({ onDelete: (o) => deleted.push(o as KubeObject) });
    i.replace([at('a', '1', { v: 'cached' })], '1');
    const final = at('a', '2', { v: 'final' });
    i.delete(final);
    expect(deleted).toEqual([final]);
    expect(i.getByKey('default/a')).toBeUndefined();
  });

  it('reports nothing for a DELETED of a key the cache does not have (deleted by a re-list already)', async () => {
    const i = await fed();
    const log = recorder();
    i.addEventHandler(log);
    i.replace([at('a', '1')], '1');
    i.replace([], '2'); // the re-list found it gone: one delete
    i.delete(at('a', '3')); // the watch's late DELETED: no second report
    i.delete(at('never-seen', '4'));
    expect(log.log).toEqual(['add* a', 'delete a']);
  });
});

// shared_informer.go SetTransform, informers.WithTransform (client-go v0.32).
describe('SharedIndexInformer transform', () => {
  const trim = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, annotations: { trimmed: 'yes' } } });

  it('rewrites every object before it is cached and before a handler sees it', async () => {
    const i = await fed({ transform: trim });
    const seen: string[] = [];
    const mark = (o: { readonly metadata?: { readonly annotations?: Readonly<Record<string, string>> } }) =>
      seen.push(o.metadata?.annotations?.trimmed ?? 'raw');
    i.addEventHandler({ onAdd: mark, onUpdate: (_, o) => mark(o), onDelete: mark });
    i.replace([at('a', '1')], '1');
    i.add(at('b', '2'));
    i.update(at('a', '3'));
    i.delete(at('b', '4'));
    expect(seen).toEqual(['yes', 'yes', 'yes', 'yes']);
    expect(i.getByKey('default/a')?.metadata?.annotations).toEqual({ trimmed: 'yes' });
  });

  it('takes a transform until it starts, and refuses one after', async () => {
    const i = await fed();
    i.setTransform(trim);
    i.add(at('a', '1'));
    expect(i.getByKey('default/a')?.metadata?.annotations).toEqual({ trimmed: 'yes' });
    i.start();
    expect(() => i.setTransform(trim)).toThrow('informer has already started');
  });
});

describe('SharedIndexInformer index failures', () => {
  /** An index that throws for objects labelled bad=true. */
  const picky = (o: KubeObject): string[] => {
    if (o.metadata?.labels?.bad === 'true') throw new Error('cannot index');
    return [o.metadata?.name ?? ''];
  };
  const bad = (name: string, rv: string): KubeObject => ({
    metadata: { name, namespace: 'default', resourceVersion: rv, labels: { bad: 'true' } },
  });

  it('reports the object through onError and keeps the cache and its indexes as they were', async () => {
    const errors: string[] = [];
    const i = await fed({ onError: (err) => errors.push((err as Error).message) });
    i.addIndexers({ picky });
    const log = recorder();
    i.addEventHandler(log);
    i.replace([at('a', '1'), bad('b', '1')], '1');
    i.update(bad('a', '2'));
    i.add(at('c', '3'));
    expect(errors).toEqual([
      'unable to calculate an index entry for key "default/b" on index "picky": cannot index',
      'unable to calculate an index entry for key "default/a" on index "picky": cannot index',
    ]);
    // a keeps its first version, under its bucket; b was never cached; the writer goes on.
    expect(i.getByKey('default/a')?.metadata?.resourceVersion).toBe('1');
    expect(
      i
        .getIndexer()
        .byIndex('picky', 'a')
        .map((o) => o.metadata?.resourceVersion),
    ).toEqual(['1']);
    expect(i.getByKey('default/b')).toBeUndefined();
    expect(
      i
        .getIndexer()
        .byIndex(NAMESPACE_INDEX, 'default')
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'c']);
    expect(log.log).toEqual(['add* a', 'add c']);
    expect(i.hasSynced()).toBe(true);
  });

  it('keeps, in a re-list, the previous state of a key whose new one an index refuses', async () => {
    const errors: unknown[] = [];
    const i = await fed({ onError: (err) => errors.push(err) });
    i.addIndexers({ picky });
    i.replace([at('a', '1'), at('b', '1')], '1');
    i.replace([bad('a', '2')], '2');
    expect(errors).toHaveLength(1);
    expect(i.getByKey('default/a')?.metadata?.resourceVersion).toBe('1');
    expect(i.getByKey('default/b')).toBeUndefined();
    expect(i.getIndexer().listIndexFuncValues('picky')).toEqual(['a']);
  });
});

describe('SharedIndexInformer read-only views', () => {
  // Compile-time checks (tsc runs the test files): only the reflector writes the cache.
  it('types what handlers and readers get as read-only', async () => {
    const i = await fed();
    const writes = (): void => {
      i.addEventHandler({
        onAdd: (o) => {
          // @ts-expect-error a handler's object is the cache's: read-only
          o.metadata = {};
        },
        onUpdate: (old) => {
          // @ts-expect-error the old object too
          old.data = {};
        },
      });
      const cached = i.getByKey('default/a');
      // @ts-expect-error getByKey hands out a read-only view
      if (cached?.metadata !== undefined) cached.metadata.name = 'renamed';
      const got = i.get('default', 'a');
      // @ts-expect-error get too
      if (got !== undefined) got.kind = 'Secret';
      const [first] = i.list();
      // @ts-expect-error list too
      if (first !== undefined) first.apiVersion = 'v2';
    };
    expect(typeof writes).toBe('function');
  });
});
