import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WATCH_BUFFER_EVENTS } from '../endpoints/watch.js';
import { type HttpsTestServer, httpsTestServer } from './testing/https-test-server.js';
import { BEARER_PROTOCOL_PREFIX, protocolBearer } from './watch-websocket.js';

const CM = '/api/v1/namespaces/team-a/configmaps';
const bearer = (token: string) => `${BEARER_PROTOCOL_PREFIX}${Buffer.from(token).toString('base64url')}`;

let server: HttpsTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Opened {
  ws: WebSocket;
  messages: string[];
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once `n` messages arrived. */
  next(n: number): Promise<string[]>;
}

/** Opens a WebSocket; resolves once open, or rejects with the refusing HTTP status and body. */
function open(
  s: HttpsTestServer,
  path: string,
  protocols: string[],
  options: { origin?: string | null } = {},
): Promise<Opened> {
  const origin = options.origin === undefined ? s.url : options.origin;
  const ws = new WebSocket(`wss://127.0.0.1:${s.https.port}${path}`, protocols, {
    ca: s.caPem,
    ...(origin === null ? {} : { origin }),
  });
  const messages: string[] = [];
  let waiters: Array<() => void> = [];
  ws.on('message', (data, isBinary) => {
    expect(isBinary).toBe(false);
    messages.push(data.toString());
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const next = async (n: number) => {
    while (messages.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return messages.slice(0, n);
  };
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, messages, closed, next }));
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.on('error', (err) => reject(err));
  });
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; body: string }> {
  try {
    await p;
  } catch (err) {
    return err as { status: number; body: string };
  }
  throw new Error('expected the upgrade to be refused');
}

describe('watch over WebSocket', () => {
  it('sends one JSON event per text message, with the newline the JSON encoder writes', async () => {
    server = await httpsTestServer();
    const s = server;
    await s.test.json('POST', CM, { metadata: { name: 'a' } });
    const conn = await open(s, `${CM}?watch=true`, [bearer(s.token), 'binary.k8s.io']);
    // The token's subprotocol is removed; the other one is echoed.
    expect(conn.ws.protocol).toBe('binary.k8s.io');
    await s.test.json('POST', CM, { metadata: { name: 'b' } });
    const [first, second] = await conn.next(2);
    expect(first?.endsWith('}\n')).toBe(true);
    expect(JSON.parse(first ?? '')).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
    expect(JSON.parse(second ?? '')).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'b' } } });
    // What the client sends is ignored.
    conn.ws.send('hello');
    await s.test.json('DELETE', `${CM}/a`);
    expect(JSON.parse((await conn.next(3))[2] ?? '')).toMatchObject({ type: 'DELETED' });
    conn.ws.close();
    expect((await conn.closed).code).toBe(1005);
  });

  it('takes the Authorization header too, and answers refusals as HTTP before upgrading', async () => {
    server = await httpsTestServer();
    const s = server;
    const noToken = await refusal(open(s, `${CM}?watch=true`, []));
    expect(noToken.status).toBe(401);
    expect(JSON.parse(noToken.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized' });
    // A token subprotocol alone is refused: one must remain to be echoed (protocol.go).
    expect((await refusal(open(s, `${CM}?watch=true`, [bearer(s.token)]))).status).toBe(401);
    expect((await refusal(open(s, `${CM}?watch=true`, [bearer('wrong'), 'binary.k8s.io']))).status).toBe(401);

    const invalid = await refusal(open(s, `${CM}?watch=true&sendInitialEvents=true`, [bearer(s.token), 'x']));
    expect(invalid.status).toBe(422);
    expect(JSON.parse(invalid.body)).toMatchObject({ reason: 'Invalid', details: { kind: 'ListOptions' } });

    // x/net/websocket's handshake: an Origin is required, and at most one subprotocol may remain.
    expect((await refusal(open(s, `${CM}?watch=true`, [bearer(s.token), 'x'], { origin: null }))).status).toBe(403);
    expect((await refusal(open(s, `${CM}?watch=true`, [bearer(s.token), 'x', 'y']))).status).toBe(400);

    // Not a watch: the plain response, no upgrade.
    const list = await refusal(open(s, CM, [bearer(s.token), 'x']));
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toMatchObject({ kind: 'ConfigMapList' });

    const viaHeader = new WebSocket(`wss://127.0.0.1:${s.https.port}${CM}?watch=true`, {
      ca: s.caPem,
      origin: s.url,
      headers: { Authorization: `Bearer ${s.token}` },
    });
    await new Promise<void>((resolve, reject) => {
      viaHeader.on('open', () => resolve());
      viaHeader.on('error', reject);
    });
    expect(viaHeader.protocol).toBe('');
    viaHeader.close();
  });

  it('closes with 1000 at timeoutSeconds and after an ERROR event', async () => {
    server = await httpsTestServer();
    const s = server;
    const conn = await open(s, `${CM}?watch=true&resourceVersion=1&timeoutSeconds=3`, [bearer(s.token), 'x']);
    s.test.clock.advance(3000);
    expect(await conn.closed).toEqual({ code: 1000, reason: '' });

    await s.test.json('POST', CM, { metadata: { name: 'a' } });
    await s.test.json('POST', CM, { metadata: { name: 'b' } });
    await s.test.storage.compact(await s.test.storage.currentRevision());
    const old = await open(s, `${CM}?watch=true&resourceVersion=2`, [bearer(s.token), 'x']);
    const [error] = await old.next(1);
    expect(JSON.parse(error ?? '')).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
    expect((await old.closed).code).toBe(1000);
  });

  it('ends the server watch when the client closes', async () => {
    server = await httpsTestServer();
    const s = server;
    const conn = await open(s, `${CM}?watch=true&resourceVersion=1`, [bearer(s.token), 'x']);
    await s.test.json('POST', CM, { metadata: { name: 'a' } });
    await conn.next(1);
    conn.ws.close(1000);
    await conn.closed;
    await s.test.json('POST', CM, { metadata: { name: 'b' } });
    expect(conn.messages).toHaveLength(1);
  });

  it('bounds a client that stops reading: the watch ends without ERROR and resumes from the last event', async () => {
    server = await httpsTestServer();
    const s = server;
    const from = String(await s.test.storage.currentRevision());
    const conn = await open(s, `${CM}?watch=true&resourceVersion=${from}`, [bearer(s.token), 'x']);
    conn.ws.pause(); // the client stops reading: TCP backpressure reaches the server
    // Big objects, so the socket buffers fill long before the watch buffer's bound.
    const data = { blob: 'x'.repeat(16 * 1024) };
    const total = WATCH_BUFFER_EVENTS + 600;
    for (let i = 0; i < total; i++) await s.test.json('POST', CM, { metadata: { name: `cm-${i}` }, data });
    conn.ws.resume();
    const { code } = await conn.closed;
    expect(code).toBe(1000);
    const events = conn.messages.map(
      (m) => JSON.parse(m) as { type: string; object: { metadata: { name: string; resourceVersion: string } } },
    );
    expect(events.length).toBeGreaterThan(0);
    expect(events.length).toBeLessThan(total);
    expect(events.every((e) => e.type === 'ADDED')).toBe(true);
    const last = events.at(-1)?.object.metadata.resourceVersion ?? '';
    const again = await open(s, `${CM}?watch=true&resourceVersion=${last}`, [bearer(s.token), 'x']);
    const rest = await again.next(total - events.length);
    expect(JSON.parse(rest[0] ?? '').object.metadata.name).toBe(`cm-${events.length}`);
    expect(JSON.parse(rest.at(-1) ?? '').object.metadata.name).toBe(`cm-${total - 1}`);
    again.ws.close();
  }, 120_000);
});

describe('chunked watch over HTTPS', () => {
  it('bounds a client that stops reading the same way', async () => {
    server = await httpsTestServer();
    const s = server;
    const from = String(await s.test.storage.currentRevision());
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: s.https.port,
          path: `${CM}?watch=true&resourceVersion=${from}`,
          ca: s.caPem,
          headers: { Authorization: `Bearer ${s.token}` },
        },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
    res.pause();
    const data = { blob: 'x'.repeat(16 * 1024) };
    const total = WATCH_BUFFER_EVENTS + 600;
    for (let i = 0; i < total; i++) await s.test.json('POST', CM, { metadata: { name: `cm-${i}` }, data });
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      text += c;
    });
    res.resume();
    await new Promise<void>((resolve) => res.on('end', () => resolve()));
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(total);
    expect(lines.every((l) => (JSON.parse(l) as { type: string }).type === 'ADDED')).toBe(true);
  }, 120_000);
});

describe('protocolBearer', () => {
  it('reads the token and keeps the other subprotocols, refusing what Kubernetes refuses', () => {
    expect(protocolBearer(`${bearer('tøken')}, binary.k8s.io`)).toEqual({ token: 'tøken', others: ['binary.k8s.io'] });
    expect(protocolBearer('a, b')).toEqual({ others: ['a', 'b'] });
    expect(protocolBearer(bearer('t')).error).toBe('missing additional subprotocol');
    expect(protocolBearer(`${bearer('t')}, ${bearer('u')}, x`).error).toBe(
      'multiple base64.bearer.authorization tokens specified',
    );
    expect(protocolBearer(`${BEARER_PROTOCOL_PREFIX}a+b/, x`).error).toBe(
      'invalid base64.bearer.authorization token encoding',
    );
    expect(protocolBearer(`${BEARER_PROTOCOL_PREFIX}_w, x`).error).toBe('invalid base64.bearer.authorization token');
  });
});
