import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { type Client, createClient } from '../client.js';
import { RESOURCES } from '../resources.js';
import { eventually, harness } from '../test-support.js';
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
