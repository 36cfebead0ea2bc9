/**
 * The transport contract: the same client behaviour whichever way it reaches the apiserver —
 * in-process (no socket), HTTP (fetch over HTTPS, chunked watches) and WebSocket (fetch, with
 * watches as WebSocket messages) — against the real HTTPS adapter on a loopback port.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../ts/api/meta.js';
import { StatusError } from '../../ts/api/status.js';
import { type HttpsTestServer, httpsTestServer } from '../../ts/apiserver/node/testing/https-test-server.js';
import { type Client, createClient } from '../../ts/client/client.js';
import { SharedIndexInformer as Informer } from '../../ts/client/informers/shared-informer.js';
import { RESOURCES } from '../../ts/client/resources.js';
import { httpTransport, inProcessTransport, type Transport } from '../../ts/client/transport.js';
import type { WatchEvent, WatchStream } from '../../ts/client/watch-stream.js';

type Kind = 'in-process' | 'http' | 'websocket';
const KINDS: readonly Kind[] = ['in-process', 'http', 'websocket'];

function transportFor(kind: Kind, s: HttpsTestServer, token = s.token): Transport {
  switch (kind) {
    case 'in-process':
      return inProcessTransport(s.test.api, token);
    case 'http':
      return httpTransport({ server: s.url, token, fetch: s.fetch });
    case 'websocket':
      return httpTransport({ server: s.url, token, fetch: s.fetch, webSocket: s.webSocket });
  }
}

const cm = (name: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
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

/** Reads `count` events (or until the stream ends). */
async function take(stream: WatchStream, count: number): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  if (count === 0) return out;
  for await (const ev of stream) {
    out.push(ev);
    if (out.length === count) break;
  }
  return out;
}

const label = (e: WatchEvent) => `${e.type} ${e.type === 'ERROR' ? '' : (e.object.metadata?.name ?? '')}`;

let server: HttpsTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(KINDS)('transport contract: %s', (kind) => {
  async function setup(): Promise<{ s: HttpsTestServer; client: Client }> {
    server = await httpsTestServer();
    return { s: server, client: createClient(transportFor(kind, server)) };
  }

  it('does CRUD and turns refusals into StatusError with the Status', async () => {
    const { s, client } = await setup();
    const created = await client.create(RESOURCES.configmaps, 'default', cm('a', { k: 'v' }));
    expect(created.metadata?.uid).toBeTruthy();
    const got = await client.get(RESOURCES.configmaps, 'default', 'a');
    const updated = await client.update(RESOURCES.configmaps, 'default', { ...got, data: { k: 'w' } });
    expect(updated.data).toEqual({ k: 'w' });
    const patched = await client.patch(RESOURCES.configmaps, 'default', 'a', 'merge', { data: { x: '✓' } });
    expect(patched.data).toEqual({ k: 'w', x: '✓' });
    expect((await client.list(RESOURCES.configmaps, { namespace: 'default' })).items).toHaveLength(1);
    await client.delete(RESOURCES.configmaps, 'default', 'a');
    expect(await rejection(client.get(RESOURCES.configmaps, 'default', 'a'))).toMatchObject({
      code: 404,
      reason: 'NotFound',
    });
    await client.create(RESOURCES.configmaps, 'default', cm('b'));
    expect(await rejection(client.create(RESOURCES.configmaps, 'default', cm('b')))).toMatchObject({
      code: 409,
      reason: 'AlreadyExists',
    });
    const anonymous = createClient(transportFor(kind, s, 'wrong-token'));
    expect(await rejection(anonymous.list(RESOURCES.configmaps))).toMatchObject({ code: 401, reason: 'Unauthorized' });
    expect(await rejection(anonymous.watch(RESOURCES.configmaps, { resourceVersion: '' }))).toMatchObject({
      code: 401,
      reason: 'Unauthorized',
    });
  });

  it('watches changes in order from a list’s resourceVersion', async () => {
    const { client } = await setup();
    const start = await client.list(RESOURCES.configmaps, { namespace: 'default' });
    const stream = await client.watch(RESOURCES.configmaps, {
      namespace: 'default',
      resourceVersion: start.metadata.resourceVersion ?? '',
    });
    const reading = take(stream, 4);
    const a = await client.create(RESOURCES.configmaps, 'default', cm('a'));
    await client.create(RESOURCES.configmaps, 'team-a', cm('other-namespace'));
    await client.update(RESOURCES.configmaps, 'default', { ...a, data: { x: '✓ ünïcödé' } });
    await client.create(RESOURCES.configmaps, 'default', cm('b'));
    await client.delete(RESOURCES.configmaps, 'default', 'a');
    const events = await reading;
    stream.stop();
    expect(events.map(label)).toEqual(['ADDED a', 'MODIFIED a', 'ADDED b', 'DELETED a']);
    expect(events[1]?.object).toMatchObject({ data: { x: '✓ ünïcödé' } });
  });

  it('starts with the state and the initial-events-end bookmark (watch-list defaults)', async () => {
    const { s, client } = await setup();
    await client.create(RESOURCES.configmaps, 'default', cm('a'));
    await client.create(RESOURCES.configmaps, 'default', cm('b'));
    const stream = await client.watch(RESOURCES.configmaps, {
      namespace: 'default',
      resourceVersion: '',
      allowWatchBookmarks: true,
    });
    const head = await take(stream, 3);
    expect(head.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
    expect(head[2]?.object.metadata).toEqual({
      resourceVersion: String(await s.test.storage.currentRevision()),
      annotations: { 'k8s.io/initial-events-end': 'true' },
    });
    stream.stop();
  });

  it('ends cleanly at timeoutSeconds, and reports a compacted start as 410', async () => {
    const { s, client } = await setup();
    const stream = await client.watch(RESOURCES.configmaps, { resourceVersion: '1', timeoutSeconds: 2 });
    const reading = take(stream, 10);
    await new Promise((resolve) => setTimeout(resolve, 20));
    s.test.clock.advance(2000);
    expect(await reading).toEqual([]);

    const old = (await client.list(RESOURCES.configmaps)).metadata.resourceVersion ?? '';
    await client.create(RESOURCES.configmaps, 'default', cm('x'));
    await client.create(RESOURCES.configmaps, 'default', cm('y'));
    await s.test.storage.compact(await s.test.storage.currentRevision());
    const late = await client.watch(RESOURCES.configmaps, { resourceVersion: old });
    const [ev] = await take(late, 1);
    expect(ev?.type).toBe('ERROR');
    expect(ev?.type === 'ERROR' ? new StatusError(ev.object) : undefined).toMatchObject({
      code: 410,
      reason: 'Expired',
    });
  });

  it('refuses invalid watch options with the 422 Status', async () => {
    const { client } = await setup();
    const err = await rejection(
      client.watch(RESOURCES.configmaps, { resourceVersion: '5', fieldSelector: 'metadata.nope=x' }),
    );
    expect(err.code).toBe(400);
  });

  it('keeps an informer’s cache right across server-side watch timeouts', async () => {
    const { s, client } = await setup();
    await client.create(RESOURCES.configmaps, 'default', cm('a'));
    const informer = new Informer(client, RESOURCES.configmaps, { namespace: 'default', watchTimeoutSeconds: 5 });
    informer.start();
    await informer.synced();
    for (let round = 0; round < 3; round++) {
      await client.create(RESOURCES.configmaps, 'default', cm(`r${round}`));
      await waitFor(() => informer.get('default', `r${round}`) !== undefined);
      s.test.clock.advance(5000); // the server ends the watch; the informer watches again
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.delete(RESOURCES.configmaps, 'default', 'a');
    await waitFor(() => informer.get('default', 'a') === undefined);
    expect(informer.keys().sort()).toEqual(['default/r0', 'default/r1', 'default/r2']);
    expect(informer.state).toBe('watch');
    await informer.stop();
  });
});

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
