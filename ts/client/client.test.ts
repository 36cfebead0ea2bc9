import { describe, expect, expectTypeOf, it } from 'vitest';
import type { KubeList, KubeObject } from '../api/meta.js';
import { isAlreadyExists, StatusError } from '../api/status.js';
import type { Deployment } from '../api/types/apps/v1.js';
import type { ConfigMap, Pod } from '../api/types/core/v1.js';
import { createClient } from './client.js';
import { RESOURCES, resourcePath } from './resources.js';
import { byteFetch, harness, TRANSPORT_KINDS } from './testing/harness.js';
import { httpTransport, inProcessTransport } from './transport.js';
import type { WatchEvent } from './watch-stream.js';

const cm = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels },
  data,
});

const deployment = (name: string): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'a', image: 'nginx' }] } },
  },
});

const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'a', image: 'nginx' }] },
});

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

describe('resources', () => {
  it('types each call by the resource, or by the type asked for', () => {
    const client = createClient(async () => new Response('{}'));
    expectTypeOf(client.get(RESOURCES.pods, 'default', 'p')).resolves.toEqualTypeOf<Pod>();
    expectTypeOf(client.list(RESOURCES.deployments)).resolves.toEqualTypeOf<KubeList<Deployment>>();
    expectTypeOf(
      client.create(RESOURCES.configmaps, 'default', { metadata: { name: 'x' } }),
    ).resolves.toEqualTypeOf<ConfigMap>();
    expectTypeOf(
      client.get({ group: 'example.com', version: 'v1', resource: 'widgets' }, 'default', 'w'),
    ).resolves.toEqualTypeOf<KubeObject>();
    expectTypeOf(
      client.get<ConfigMap>({ group: '', version: 'v1', resource: 'configmaps' }, 'default', 'x'),
    ).resolves.toEqualTypeOf<ConfigMap>();
  });

  it('builds paths', () => {
    expect(resourcePath(RESOURCES.pods, 'default', 'p', 'status')).toBe('/api/v1/namespaces/default/pods/p/status');
    expect(resourcePath(RESOURCES.deployments)).toBe('/apis/apps/v1/deployments');
    expect(resourcePath(RESOURCES.nodes, undefined, 'n1')).toBe('/api/v1/nodes/n1');
  });
});

describe.each(TRANSPORT_KINDS)('client over %s', (kind) => {
  it('creates, gets, lists, updates and deletes', async () => {
    const { client } = await harness(kind);
    const created = await client.create(RESOURCES.configmaps, 'default', cm('a', { k: 'v' }, { tier: 'web' }));
    expect(created.metadata?.uid).toBeTruthy();
    await client.create(RESOURCES.configmaps, 'default', cm('b', {}, { tier: 'db' }));
    await client.create(RESOURCES.configmaps, 'team-a', cm('c'));

    const got = await client.get(RESOURCES.configmaps, 'default', 'a');
    expect(got.data).toEqual({ k: 'v' });

    const all = await client.list(RESOURCES.configmaps);
    expect(all.items.map((o) => o.metadata?.name).sort()).toEqual(['a', 'b', 'c']);
    expect(all.metadata.resourceVersion).toMatch(/^\d+$/);
    const web = await client.list(RESOURCES.configmaps, { namespace: 'default', labelSelector: 'tier=web' });
    expect(web.items.map((o) => o.metadata?.name)).toEqual(['a']);
    const byName = await client.list(RESOURCES.configmaps, { fieldSelector: 'metadata.name=b' });
    expect(byName.items.map((o) => o.metadata?.name)).toEqual(['b']);

    const page1 = await client.list(RESOURCES.configmaps, { limit: 2 });
    expect(page1.items).toHaveLength(2);
    expect(page1.metadata.continue).toBeTruthy();
    const page2 = await client.list(RESOURCES.configmaps, { limit: 2, continue: page1.metadata.continue ?? '' });
    expect(page2.items).toHaveLength(1);

    const updated = await client.update(RESOURCES.configmaps, 'default', { ...got, data: { k: 'w' } });
    expect(updated.data).toEqual({ k: 'w' });
    expect(updated.metadata?.resourceVersion).not.toBe(got.metadata?.resourceVersion);

    await client.delete(RESOURCES.configmaps, 'default', 'a', { propagationPolicy: 'Background' });
    const gone = await rejection(client.get(RESOURCES.configmaps, 'default', 'a'));
    expect(gone.code).toBe(404);
  });

  it('turns Status errors into StatusError with the reason', async () => {
    const { client } = await harness(kind);
    const missing = await rejection(client.get(RESOURCES.configmaps, 'default', 'nope'));
    expect(missing).toMatchObject({ code: 404, reason: 'NotFound' });
    expect(missing.details).toMatchObject({ name: 'nope', kind: 'configmaps' });
    expect(missing.message).toBe('configmaps "nope" not found');

    const first = await client.create(RESOURCES.configmaps, 'default', cm('x'));
    const exists = await rejection(client.create(RESOURCES.configmaps, 'default', cm('x')));
    expect(exists).toMatchObject({ code: 409, reason: 'AlreadyExists' });
    expect(isAlreadyExists(exists)).toBe(true);

    await client.update(RESOURCES.configmaps, 'default', { ...first, data: { n: '1' } });
    const stale = await rejection(client.update(RESOURCES.configmaps, 'default', { ...first, data: { n: '2' } }));
    expect(stale).toMatchObject({ code: 409, reason: 'Conflict' });

    const noNs = await rejection(client.get(RESOURCES.pods, 'default', 'missing-pod'));
    expect(noNs.reason).toBe('NotFound');
  });

  it('answers 401 Unauthorized without a valid token', async () => {
    const { server } = await harness(kind);
    const anonymous = createClient(
      kind === 'in-process'
        ? inProcessTransport(server.api, 'wrong-token')
        : httpTransport({ server: 'https://kubewasm.test', token: 'wrong-token', fetch: byteFetch(server.api) }),
    );
    const denied = await rejection(anonymous.list(RESOURCES.pods));
    expect(denied).toMatchObject({ code: 401, reason: 'Unauthorized' });
  });

  it('patches with merge, JSON and strategic merge patches', async () => {
    const { client } = await harness(kind);
    await client.create(RESOURCES.configmaps, 'default', cm('p', { a: '1', b: '2' }));
    const merged = await client.patch(RESOURCES.configmaps, 'default', 'p', 'merge', { data: { b: null, c: '3' } });
    expect(merged.data).toEqual({ a: '1', c: '3' });
    const jsonPatched = await client.patch(RESOURCES.configmaps, 'default', 'p', 'json', [
      { op: 'replace', path: '/data/a', value: '9' },
    ]);
    expect(jsonPatched.data).toEqual({ a: '9', c: '3' });

    await client.create(RESOURCES.deployments, 'default', deployment('d'));
    const strategic = await client.patch<KubeObject & { spec: { template: { spec: { containers: unknown[] } } } }>(
      RESOURCES.deployments,
      'default',
      'd',
      'strategic',
      { spec: { template: { spec: { containers: [{ name: 'b', image: 'redis' }] } } } },
    );
    // Merged by the `name` key: both containers stay (a merge patch would have replaced the list).
    expect(strategic.spec.template.spec.containers.map((c) => (c as { name: string }).name).sort()).toEqual(['a', 'b']);

    const bad = await rejection(
      client.patch(RESOURCES.configmaps, 'default', 'p', 'json', [{ op: 'test', path: '/data/a', value: 'x' }]),
    );
    expect(bad.code).toBeGreaterThanOrEqual(400);
  });

  it('writes status, binds pods and scales deployments', async () => {
    const { client } = await harness(kind);
    const p = await client.create(RESOURCES.pods, 'default', pod('p'));
    const withStatus = await client.updateStatus(RESOURCES.pods, 'default', { ...p, status: { phase: 'Running' } });
    expect((withStatus.status as { phase: string }).phase).toBe('Running');

    const ok = await client.bind('default', 'p', 'node-1');
    expect(ok.status).toBe('Success');
    const bound = await client.get(RESOURCES.pods, 'default', 'p');
    expect((bound.spec as { nodeName?: string }).nodeName).toBe('node-1');
    const again = await rejection(client.bind('default', 'p', 'node-2'));
    expect(again).toMatchObject({ code: 409, reason: 'Conflict' });

    await client.create(RESOURCES.deployments, 'default', deployment('d'));
    const scale = await client.scale(RESOURCES.deployments, 'default', 'd', 3);
    expect(scale.spec?.replicas).toBe(3);
    expect((await client.getScale(RESOURCES.deployments, 'default', 'd')).spec?.replicas).toBe(3);
    const d = await client.get(RESOURCES.deployments, 'default', 'd');
    expect((d.spec as { replicas: number }).replicas).toBe(3);
  });

  it('watches events in order from a resourceVersion', async () => {
    const { client } = await harness(kind);
    const start = await client.list(RESOURCES.configmaps, { namespace: 'default' });
    const stream = await client.watch(RESOURCES.configmaps, {
      namespace: 'default',
      resourceVersion: start.metadata.resourceVersion ?? '',
    });
    const events: WatchEvent[] = [];
    const reading = (async () => {
      for await (const ev of stream) {
        events.push(ev);
        if (events.length === 4) break;
      }
    })();
    const a = await client.create(RESOURCES.configmaps, 'default', cm('a'));
    await client.create(RESOURCES.configmaps, 'team-a', cm('other-namespace'));
    await client.update(RESOURCES.configmaps, 'default', { ...a, data: { x: '✓ ünïcödé' } });
    await client.create(RESOURCES.configmaps, 'default', cm('b'));
    await client.delete(RESOURCES.configmaps, 'default', 'a');
    await reading;
    stream.stop();
    expect(events.map((e) => `${e.type} ${e.type === 'ERROR' ? '' : (e.object.metadata?.name ?? '')}`)).toEqual([
      'ADDED a',
      'MODIFIED a',
      'ADDED b',
      'DELETED a',
    ]);
    expect((events[1]?.object as KubeObject | undefined)?.data).toEqual({ x: '✓ ünïcödé' });
    const rvs = events.map((e) => Number(e.object.metadata?.resourceVersion));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
  });

  it('ends a watch at timeoutSeconds and reports a compacted start as 410', async () => {
    const { client, server } = await harness(kind);
    const stream = await client.watch(RESOURCES.configmaps, { resourceVersion: '', timeoutSeconds: 1 });
    await client.create(RESOURCES.configmaps, 'default', cm('a'));
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of stream) seen.push(ev.type);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    server.clock.advance(1000);
    await reading;
    expect(seen).toEqual(['ADDED']);

    const old = (await client.list(RESOURCES.configmaps)).metadata.resourceVersion ?? '';
    await client.create(RESOURCES.configmaps, 'default', cm('b'));
    await client.create(RESOURCES.configmaps, 'default', cm('c'));
    await server.storage.compact(await server.storage.currentRevision());
    let expired: StatusError | undefined;
    try {
      const late = await client.watch(RESOURCES.configmaps, { resourceVersion: old });
      for await (const ev of late) {
        if (ev.type === 'ERROR') expired = new StatusError(ev.object);
        break;
      }
      late.stop();
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      expired = err;
    }
    expect(expired).toMatchObject({ code: 410, reason: 'Expired' });
  });
});

describe('retries (client-go request.go checkWait)', () => {
  const status = (code: number, retryAfter?: string) =>
    new Response(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code }), {
      status: code,
      headers: {
        'Content-Type': 'application/json',
        ...(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }),
      },
    });
  /** A transport answering `answers` in turn, then 200 with a ConfigMap; the sleeps recorded. */
  function scripted(answers: Response[], maxRetries?: number) {
    const waits: number[] = [];
    let calls = 0;
    const client = createClient(
      async () => {
        calls++;
        return answers.shift() ?? new Response(JSON.stringify(cm('ok')), { status: 200 });
      },
      { sleep: async (ms) => void waits.push(ms), ...(maxRetries === undefined ? {} : { maxRetries }) },
    );
    return { client, waits, calls: () => calls };
  }

  it('waits the Retry-After of a 429 or a 5xx and tries again', async () => {
    const s = scripted([status(429, '1'), status(503, '2')]);
    expect((await s.client.get(RESOURCES.configmaps, 'default', 'ok')).metadata?.name).toBe('ok');
    expect([s.waits, s.calls()]).toEqual([[1000, 2000], 3]);
  });

  it('does not retry without a Retry-After, for other codes, or past maxRetries', async () => {
    await expect(scripted([status(429)]).client.get(RESOURCES.configmaps, 'default', 'x')).rejects.toMatchObject({
      code: 429,
    });
    await expect(scripted([status(409, '1')]).client.get(RESOURCES.configmaps, 'default', 'x')).rejects.toMatchObject({
      code: 409,
    });
    const limited = scripted([status(429, '1'), status(429, '1'), status(429, '1')], 2);
    await expect(limited.client.get(RESOURCES.configmaps, 'default', 'x')).rejects.toMatchObject({ code: 429 });
    expect(limited.calls()).toBe(3);
  });
});
