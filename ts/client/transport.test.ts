import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status.js';
import { createClient } from './client.js';
import { RESOURCES } from './resources.js';
import {
  BEARER_PROTOCOL_PREFIX,
  httpTransport,
  kubernetesUserAgent,
  type Transport,
  type TransportCall,
  WATCH_SUBPROTOCOL,
  type WebSocketEventLike,
  type WebSocketLike,
  webSocketProtocols,
  withUserAgent,
} from './transport.js';

type Listener = (event: WebSocketEventLike) => void;

/** A WebSocket driven by the test: it records what was opened and emits what the test says. */
class FakeSocket implements WebSocketLike {
  binaryType = 'blob';
  closedWith: number | undefined;
  private readonly listeners = new Map<string, Listener[]>();
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(code?: number): void {
    this.closedWith = code;
  }
  emit(type: 'open' | 'message' | 'close' | 'error', event: Omit<WebSocketEventLike, 'type'> = {}): void {
    for (const l of this.listeners.get(type) ?? []) l({ type, ...event });
  }
}

function setup(fetchResponse?: () => Response) {
  const sockets: FakeSocket[] = [];
  const fetched: string[] = [];
  const transport = httpTransport({
    server: 'https://127.0.0.1:6443/',
    token: 'tøken',
    fetch: async (request) => {
      fetched.push(`${request.method} ${request.url} ${request.headers.get('Authorization')}`);
      return fetchResponse ? fetchResponse() : new Response('{"kind":"ConfigMapList","items":[],"metadata":{}}');
    },
    webSocket: (url, protocols) => {
      const s = new FakeSocket(url, protocols);
      sockets.push(s);
      return s;
    },
  });
  return { sockets, fetched, client: createClient(transport) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('httpTransport with webSocket', () => {
  it('opens watches as WebSockets with the bearer token as a subprotocol; other requests use fetch', async () => {
    const { sockets, fetched, client } = setup();
    await client.list(RESOURCES.configmaps, { namespace: 'default' });
    expect(fetched).toEqual(['GET https://127.0.0.1:6443/api/v1/namespaces/default/configmaps Bearer tøken']);

    const opening = client.watch(RESOURCES.configmaps, { namespace: 'default', resourceVersion: '5' });
    await tick();
    const socket = sockets[0] as FakeSocket;
    expect(socket.url).toBe('wss://127.0.0.1:6443/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=5');
    expect(socket.protocols).toEqual([`${BEARER_PROTOCOL_PREFIX}dMO4a2Vu`, WATCH_SUBPROTOCOL]);
    expect(socket.binaryType).toBe('arraybuffer');
    socket.emit('open');
    const stream = await opening;
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of stream)
        seen.push(`${ev.type} ${ev.type === 'ERROR' ? '' : (ev.object.metadata?.name ?? '')}`);
    })();
    socket.emit('message', { data: '{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n' });
    // Binary frames and frames without the newline are events too.
    socket.emit('message', {
      data: new TextEncoder().encode('{"type":"MODIFIED","object":{"metadata":{"name":"é"}}}').buffer,
    });
    socket.emit('close', { code: 1000, reason: '' });
    await reading;
    expect(seen).toEqual(['ADDED a', 'MODIFIED é']);
  });

  it('fails the stream when the connection is lost, and closes the socket when stopped', async () => {
    const { sockets, client } = setup();
    const opening = client.watch(RESOURCES.configmaps, { resourceVersion: '1' });
    await tick();
    (sockets[0] as FakeSocket).emit('open');
    const lost = await opening;
    const reading = (async () => {
      for await (const _ of lost) {
        // nothing arrives
      }
    })();
    (sockets[0] as FakeSocket).emit('close', { code: 1006, reason: '' });
    await expect(reading).rejects.toThrow(/1006/);

    const second = client.watch(RESOURCES.configmaps, { resourceVersion: '1' });
    await tick();
    (sockets[1] as FakeSocket).emit('open');
    (await second).stop();
    expect((sockets[1] as FakeSocket).closedWith).toBe(1000);
  });

  it('asks again over fetch when the socket never opens, so the Status reaches the caller', async () => {
    const expired = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'too old resource version: 1 (5)',
      reason: 'Expired',
      code: 410,
    };
    const { sockets, fetched, client } = setup(() => new Response(JSON.stringify(expired), { status: 410 }));
    const opening = client.watch(RESOURCES.configmaps, { resourceVersion: '1' });
    await tick();
    (sockets[0] as FakeSocket).emit('error');
    (sockets[0] as FakeSocket).emit('close', { code: 1006 });
    const err = await opening.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StatusError);
    expect(err).toMatchObject({ code: 410, reason: 'Expired' });
    expect(fetched).toEqual(['GET https://127.0.0.1:6443/api/v1/configmaps?watch=true&resourceVersion=1 Bearer tøken']);
  });

  it('offers no subprotocol without a token', () => {
    expect(webSocketProtocols(undefined)).toEqual([]);
    expect(webSocketProtocols('a.b-c_d')).toEqual([`${BEARER_PROTOCOL_PREFIX}YS5iLWNfZA`, WATCH_SUBPROTOCOL]);
  });
});

describe('withUserAgent', () => {
  const version = { gitVersion: 'v1.32.0-kubewasm', gitCommit: '', platform: 'wasm/kubewasm' };

  it("builds client-go's default user agent, with AddUserAgent's suffix", () => {
    expect(kubernetesUserAgent('kube-scheduler', version)).toBe(
      'kube-scheduler/v1.32.0 (wasm/kubewasm) kubernetes/unknown',
    );
    expect(
      kubernetesUserAgent(
        'kube-controller-manager',
        { ...version, gitCommit: '59526cd4867447956156ae3a602fcbac10a2c335' },
        'replicaset-controller',
      ),
    ).toBe('kube-controller-manager/v1.32.0 (wasm/kubewasm) kubernetes/59526cd/replicaset-controller');
  });

  it('sets the header on both paths, unless the request has one', async () => {
    const seen: Array<string | null | undefined> = [];
    const inner: Transport = async (request) => {
      seen.push(request.headers.get('User-Agent'));
      return new Response('{}');
    };
    inner.direct = async (call: TransportCall) => {
      seen.push(call.headers['User-Agent'] ?? call.headers['user-agent']);
      return new Response('{}');
    };
    const t = withUserAgent(inner, 'ua/1');
    await t(new Request('https://x/api'));
    await t(new Request('https://x/api', { headers: { 'User-Agent': 'mine' } }));
    await t.direct?.({ method: 'GET', url: 'https://x/api', headers: {} });
    await t.direct?.({ method: 'GET', url: 'https://x/api', headers: { 'user-agent': 'mine' } });
    expect(seen).toEqual(['ua/1', 'mine', 'ua/1', 'mine']);
  });
});
