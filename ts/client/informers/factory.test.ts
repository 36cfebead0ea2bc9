import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { parseLabelSelector } from '../../api/labels/selector.js';
import type { KubeObject } from '../../api/meta.js';
import type { Deployment } from '../../api/types/apps/v1.js';
import type { Namespace, Pod } from '../../api/types/core/v1.js';
import { createClient } from '../client.js';
import { isCollectionRead } from '../controller-transport.js';
import { RESOURCES } from '../resources.js';
import { eventually, harness } from '../testing/harness.js';
import { SharedInformerFactory } from './factory.js';
import { NAMESPACE_INDEX, POD_NODE_NAME_INDEX, podNodeNameIndexFunc } from './index-funcs.js';
import type { SharedIndexInformer } from './shared-informer.js';

let factories: SharedInformerFactory[] = [];
afterEach(async () => {
  await Promise.all(factories.map((f) => f.shutdown()));
  factories = [];
});

/** A test apiserver whose collection reads are counted: `list /api/v1/pods`, `watch /api/v1/pods`. */
async function counted() {
  const h = await harness('in-process');
  const requests: string[] = [];
  const client = createClient(async (request) => {
    const url = new URL(request.url);
    if (isCollectionRead(request.method, request.url)) {
      requests.push(`${url.searchParams.get('watch') === 'true' ? 'watch' : 'list'} ${url.pathname}`);
    }
    return h.transport(request);
  });
  const factory = (options: ConstructorParameters<typeof SharedInformerFactory>[1] = {}) => {
    const f = new SharedInformerFactory(client, { clock: h.server.clock, ...options });
    factories.push(f);
    return f;
  };
  const count = (what: string) => requests.filter((r) => r === what).length;
  return { ...h, requests, count, factory };
}

const pod = (name: string, nodeName?: string, labels: Record<string, string> = {}): KubeObject => ({
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName === undefined ? {} : { nodeName }) },
});

describe('SharedInformerFactory', () => {
  it('gives two components asking for pods one informer: one list and one watch', async () => {
    const { client, count, factory } = await counted();
    await client.create(RESOURCES.pods, 'default', pod('a', 'n1'));
    const f = factory();
    // Two components (say a controller and a node agent) of one process.
    const seenByA: string[] = [];
    const seenByB: string[] = [];
    const forA = f.informerFor(RESOURCES.pods);
    forA.addEventHandler({ onAdd: (p) => seenByA.push(p.metadata?.name ?? '') });
    const forB = f.informerFor(RESOURCES.pods);
    forB.addIndexers({ [POD_NODE_NAME_INDEX]: podNodeNameIndexFunc });
    forB.addEventHandler({ onAdd: (p) => seenByB.push(p.metadata?.name ?? '') });
    expect(forB).toBe(forA);
    f.start();
    expect([...(await f.waitForCacheSync())]).toEqual([['/v1, Resource=pods', true]]);
    await client.create(RESOURCES.pods, 'default', pod('b', 'n1'));
    await eventually(() => seenByA.length === 2 && seenByB.length === 2);
    expect(forA.getIndexer().indexKeys(POD_NODE_NAME_INDEX, 'n1')).toEqual(['default/a', 'default/b']);
    expect(count('list /api/v1/pods')).toBe(1);
    expect(count('watch /api/v1/pods')).toBe(1);
  });

  it('starts only what is new on a second start, and only once (Start is idempotent)', async () => {
    const { count, factory } = await counted();
    const f = factory();
    f.informerFor(RESOURCES.namespaces);
    f.start();
    f.start();
    await f.waitForCacheSync();
    f.informerFor(RESOURCES.configmaps);
    // Asked for after start: not started until start() again.
    expect([...(await f.waitForCacheSync()).keys()]).toEqual(['/v1, Resource=namespaces']);
    expect(count('list /api/v1/configmaps')).toBe(0);
    f.start();
    const synced = await f.waitForCacheSync();
    expect(synced.get('/v1, Resource=configmaps')).toBe(true);
    await eventually(() => count('watch /api/v1/configmaps') === 1 && count('watch /api/v1/namespaces') === 1);
    expect(count('list /api/v1/namespaces')).toBe(1);
    expect(count('list /api/v1/configmaps')).toBe(1);
    expect(f.resources()).toEqual(['/v1, Resource=namespaces', '/v1, Resource=configmaps']);
  });

  it('gives every informer the namespace index, and serves listers from it', async () => {
    const { client, factory } = await counted();
    await client.create(RESOURCES.pods, 'default', pod('web', undefined, { app: 'web' }));
    await client.create(RESOURCES.pods, 'team-a', pod('web', undefined, { app: 'web' }));
    const f = factory();
    const pods = f.informerFor(RESOURCES.pods);
    expect(Object.keys(pods.getIndexer().getIndexers())).toEqual([NAMESPACE_INDEX]);
    f.start();
    await f.waitForCacheSync();
    const lister = pods.lister();
    expect(
      lister
        .byNamespace('team-a')
        .list(parseLabelSelector('app=web'))
        .map((p) => p.metadata?.namespace),
    ).toEqual(['team-a']);
    expect(lister.list().length).toBe(2);
  });

  it('is another factory with other options: namespace and tweakListOptions narrow its lists and watches', async () => {
    const { client, requests, factory } = await counted();
    await client.create(RESOURCES.configmaps, 'default', { metadata: { name: 'a', labels: { team: 'x' } } });
    await client.create(RESOURCES.configmaps, 'default', { metadata: { name: 'b' } });
    await client.create(RESOURCES.configmaps, 'team-a', { metadata: { name: 'c', labels: { team: 'x' } } });
    const all = factory();
    const narrowed = factory({
      namespace: 'default',
      tweakListOptions: (o) => {
        o.labelSelector = 'team=x';
      },
    });
    const everything = all.informerFor(RESOURCES.configmaps);
    const mine = narrowed.informerFor(RESOURCES.configmaps);
    expect(mine).not.toBe(everything);
    all.start();
    narrowed.start();
    await Promise.all([all.waitForCacheSync(), narrowed.waitForCacheSync()]);
    expect(mine.keys()).toEqual(['default/a']);
    expect(everything.keys().sort()).toEqual(['default/a', 'default/b', 'team-a/c']);
    expect(requests).toContain('list /api/v1/namespaces/default/configmaps');
  });

  it('stops every informer on shutdown, and starts none after', async () => {
    const { factory } = await counted();
    const f = factory();
    const ns = f.informerFor(RESOURCES.namespaces);
    f.start();
    await f.waitForCacheSync();
    const late = f.informerFor(RESOURCES.configmaps);
    await f.shutdown();
    expect(ns.state).toBe('stopped');
    f.start();
    expect(late.hasStarted()).toBe(false);
    expect([...(await f.waitForCacheSync())]).toEqual([['/v1, Resource=namespaces', true]]);
  });

  it('stops an informer asked for once it is shutting down: it never starts, and its synced() answers', async () => {
    const { factory } = await counted();
    const f = factory();
    await f.shutdown();
    const after = f.informerFor(RESOURCES.secrets);
    after.start();
    expect(after.hasStarted()).toBe(false);
    expect(await after.synced()).toBe(false);
  });

  it('types each informer by its resource’s kind, or as asked', async () => {
    const { factory } = await counted();
    const f = factory();
    expectTypeOf(f.informerFor(RESOURCES.pods)).toEqualTypeOf<SharedIndexInformer<Pod>>();
    expectTypeOf(f.informerFor(RESOURCES.deployments)).toEqualTypeOf<SharedIndexInformer<Deployment>>();
    expectTypeOf(f.informerFor<Namespace>(RESOURCES.namespaces)).toEqualTypeOf<SharedIndexInformer<Namespace>>();
    const custom = { group: 'example.com', version: 'v1', resource: 'widgets' };
    expectTypeOf(f.informerFor(custom)).toEqualTypeOf<SharedIndexInformer<KubeObject>>();
    // One informer per resource, whatever type it was asked with.
    expect(f.informerFor<Namespace>(RESOURCES.namespaces)).toBe(f.informerFor(RESOURCES.namespaces));
  });

  it('reports each informer’s list failures with its resource', async () => {
    const h = await harness('in-process');
    const client = createClient(async () => new Response('upstream down', { status: 503 }));
    const errors: string[] = [];
    const f = new SharedInformerFactory(client, {
      clock: h.server.clock,
      onError: (err, gvr) => errors.push(`${gvr.resource}: ${(err as { reason?: string }).reason}`),
    });
    factories.push(f);
    f.informerFor(RESOURCES.pods);
    f.start();
    await eventually(() => errors.length === 1);
    expect(errors).toEqual(['pods: ServiceUnavailable']);
  });
});

// informers/factory.go WithTransform (client-go v0.32): kube-controller-manager trims managedFields.
describe('SharedInformerFactory transform', () => {
  it('gives every informer the transform: objects cached and told to handlers without managedFields', async () => {
    const { client, factory } = await counted();
    // A create records managedFields (the create's Update entry).
    await client.create(RESOURCES.configmaps, 'default', { metadata: { name: 'a' }, data: { k: 'v' } });
    expect((await client.get(RESOURCES.configmaps, 'default', 'a')).metadata?.managedFields).toBeDefined();
    const f = factory({
      transform: (o) => {
        const { managedFields: _dropped, ...metadata } = o.metadata ?? {};
        return { ...o, metadata };
      },
    });
    const configMaps = f.informerFor(RESOURCES.configmaps);
    const seen: unknown[] = [];
    configMaps.addEventHandler({ onAdd: (o) => seen.push(o.metadata?.managedFields) });
    f.start();
    await f.waitForCacheSync();
    expect(seen).toEqual([undefined]);
    expect(configMaps.get('default', 'a')?.metadata?.managedFields).toBeUndefined();
    expect(configMaps.get('default', 'a')?.data).toEqual({ k: 'v' });
  });
});
