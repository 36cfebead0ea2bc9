import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { createClient } from '../client.js';
import { RESOURCES } from '../resources.js';
import { eventually, harness, TRANSPORT_KINDS } from '../testing/harness.js';
import type { Transport } from '../transport.js';
import { SharedIndexInformer as Informer } from './shared-informer.js';

const cm = (name: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

/** A transport that counts watch requests and can hold new ones until opened. */
function gated(inner: Transport): { transport: Transport; watches: () => number; close(): void; open(): void } {
  let watches = 0;
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  return {
    watches: () => watches,
    close() {
      gate = new Promise((resolve) => {
        release = resolve;
      });
    },
    open() {
      gate = undefined;
      release?.();
    },
    async transport(request) {
      if (new URL(request.url).searchParams.get('watch') === 'true') {
        watches++;
        await gate;
      }
      return inner(request);
    },
  };
}

/** The cache as `namespace/name → data` for comparing. */
function snapshot(informer: Informer): Record<string, unknown> {
  return Object.fromEntries(informer.list().map((o) => [`${o.metadata?.namespace}/${o.metadata?.name}`, o.data]));
}

describe.each(TRANSPORT_KINDS)('Informer over %s', (kind) => {
  it('lists, then keeps the cache current from the watch, calling handlers', async () => {
    const { client, server } = await harness(kind);
    await client.create(RESOURCES.configmaps, 'default', cm('a', { v: '1' }));
    const informer = new Informer(client, RESOURCES.configmaps, { clock: server.clock });
    const log: string[] = [];
    informer.addEventHandler({
      onAdd: (o) => log.push(`add ${o.metadata?.name}`),
      onUpdate: (o, n) => log.push(`update ${o.metadata?.name} ${String((n.data as { v?: string }).v)}`),
      onDelete: (o) => log.push(`delete ${o.metadata?.name}`),
    });
    expect(informer.hasSynced()).toBe(false);
    informer.start();
    await informer.synced();
    expect(informer.hasSynced()).toBe(true);
    expect(snapshot(informer)).toEqual({ 'default/a': { v: '1' } });

    await client.create(RESOURCES.configmaps, 'team-a', cm('b'));
    await client.patch(RESOURCES.configmaps, 'default', 'a', 'merge', { data: { v: '2' } });
    await client.delete(RESOURCES.configmaps, 'team-a', 'b');
    await eventually(() => log.length === 4);
    expect(log).toEqual(['add a', 'add b', 'update a 2', 'delete b']);
    expect(snapshot(informer)).toEqual({ 'default/a': { v: '2' } });
    expect(informer.get('default', 'a')?.data).toEqual({ v: '2' });
    // The DELETED event carries the deletion's revision, the newest there is.
    const current = await client.list(RESOURCES.configmaps);
    expect(informer.lastSyncResourceVersion()).toBe(current.metadata.resourceVersion);

    // A handler added late is replayed the cache.
    const late: string[] = [];
    informer.addEventHandler({ onAdd: (o) => late.push(o.metadata?.name ?? '') });
    expect(late).toEqual(['a']);
    await informer.stop();
    expect(informer.state).toBe('stopped');
  });

  it('watches again from the last resourceVersion when a watch stream ends', async () => {
    const { server, transport } = await harness(kind);
    const g = gated(transport);
    const client = createClient(g.transport);
    await client.create(RESOURCES.configmaps, 'default', cm('a'));
    const informer = new Informer(client, RESOURCES.configmaps, { clock: server.clock, watchTimeoutSeconds: 1 });
    let lists = 0;
    informer.addEventHandler({ onAdd: () => lists++ });
    informer.start();
    await informer.synced();
    await eventually(() => g.watches() === 1);
    await client.create(RESOURCES.configmaps, 'default', cm('b'));
    await eventually(() => informer.list().length === 2);

    server.clock.advance(1000); // the server ends the watch at timeoutSeconds
    await eventually(() => g.watches() === 2);
    await client.create(RESOURCES.configmaps, 'default', cm('c'));
    await client.delete(RESOURCES.configmaps, 'default', 'a');
    await eventually(() => informer.list().length === 2 && informer.get('default', 'c') !== undefined);
    expect(Object.keys(snapshot(informer)).sort()).toEqual(['default/b', 'default/c']);
    expect(informer.state).toBe('watch');
    expect(lists).toBe(3); // a, b, c: no re-list replayed adds
    await informer.stop();
  });

  it('re-lists after 410 Expired and diffs the cache, emitting deletes for vanished objects', async () => {
    const { server, transport } = await harness(kind);
    const g = gated(transport);
    const client = createClient(g.transport);
    await client.create(RESOURCES.configmaps, 'default', cm('keep', { v: '1' }));
    await client.create(RESOURCES.configmaps, 'default', cm('change', { v: '1' }));
    await client.create(RESOURCES.configmaps, 'default', cm('vanish'));
    const informer = new Informer(client, RESOURCES.configmaps, { clock: server.clock, watchTimeoutSeconds: 1 });
    const log: string[] = [];
    informer.addEventHandler({
      onAdd: (o) => log.push(`add ${o.metadata?.name}`),
      onUpdate: (o) => log.push(`update ${o.metadata?.name}`),
      onDelete: (o) => log.push(`delete ${o.metadata?.name}`),
    });
    informer.start();
    await informer.synced();
    await eventually(() => g.watches() === 1);
    log.length = 0;

    // Hold the next watch, end the current one, change things behind the informer's back, and
    // compact the history it would resume from.
    g.close();
    server.clock.advance(1000);
    await eventually(() => g.watches() === 2);
    await client.patch(RESOURCES.configmaps, 'default', 'change', 'merge', { data: { v: '2' } });
    await client.delete(RESOURCES.configmaps, 'default', 'vanish');
    await client.create(RESOURCES.configmaps, 'default', cm('new'));
    await server.storage.compact(await server.storage.currentRevision());
    g.open();

    await eventually(() => log.length === 3);
    expect(log.sort()).toEqual(['add new', 'delete vanish', 'update change']);
    expect(snapshot(informer)).toEqual({
      'default/keep': { v: '1' },
      'default/change': { v: '2' },
      'default/new': {},
    });
    expect((informer.lastError as { code?: number }).code).toBe(410);
    await eventually(() => informer.state === 'watch' && g.watches() === 3);

    // And it keeps following changes after the re-list.
    await client.delete(RESOURCES.configmaps, 'default', 'keep');
    await eventually(() => informer.get('default', 'keep') === undefined);
    await informer.stop();
  });

  it('re-lists when the watch request itself answers HTTP 410', async () => {
    const { server, transport } = await harness(kind);
    let lists = 0;
    let watches = 0;
    const client = createClient(async (request) => {
      const watching = new URL(request.url).searchParams.get('watch') === 'true';
      if (!watching) lists++;
      else if (++watches === 1) {
        const status = {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          reason: 'Expired',
          code: 410,
        };
        return new Response(JSON.stringify(status), { status: 410, headers: { 'Content-Type': 'application/json' } });
      }
      return transport(request);
    });
    await client.create(RESOURCES.configmaps, 'default', cm('a'));
    const informer = new Informer(client, RESOURCES.configmaps, { clock: server.clock });
    informer.start();
    await eventually(() => watches === 2 && informer.state === 'watch');
    expect(lists).toBe(3); // the create above, the first list, the re-list
    await client.create(RESOURCES.configmaps, 'default', cm('b'));
    await eventually(() => informer.list().length === 2);
    await informer.stop();
  });

  it('follows a label selector: objects that stop matching leave the cache', async () => {
    const { client, server } = await harness(kind);
    const labelled = (name: string, tier: string): KubeObject => ({
      ...cm(name),
      metadata: { name, labels: { tier } },
    });
    await client.create(RESOURCES.configmaps, 'default', labelled('w1', 'web'));
    await client.create(RESOURCES.configmaps, 'default', labelled('d1', 'db'));
    const informer = new Informer(client, RESOURCES.configmaps, {
      clock: server.clock,
      namespace: 'default',
      labelSelector: 'tier=web',
    });
    informer.start();
    await informer.synced();
    expect(informer.keys()).toEqual(['default/w1']);
    await client.patch(RESOURCES.configmaps, 'default', 'd1', 'merge', { metadata: { labels: { tier: 'web' } } });
    await client.patch(RESOURCES.configmaps, 'default', 'w1', 'merge', { metadata: { labels: { tier: 'db' } } });
    await client.create(RESOURCES.configmaps, 'team-a', labelled('w2', 'web'));
    await eventually(() => informer.get('default', 'w1') === undefined && informer.get('default', 'd1') !== undefined);
    expect(informer.keys()).toEqual(['default/d1']);
    await informer.stop();
  });

  it('backs off on the clock after a failed list, then recovers', async () => {
    const { server, transport } = await harness(kind);
    let fail = true;
    const client = createClient(async (request) => {
      if (fail) return new Response('upstream down', { status: 503 });
      return transport(request);
    });
    const informer = new Informer(client, RESOURCES.configmaps, { clock: server.clock });
    informer.start();
    await eventually(() => informer.state === 'backoff');
    expect((informer.lastError as { reason?: string }).reason).toBe('ServiceUnavailable');
    fail = false;
    server.clock.advance(799);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(informer.hasSynced()).toBe(false);
    server.clock.advance(1);
    await informer.synced();
    await informer.stop();
  });
});
