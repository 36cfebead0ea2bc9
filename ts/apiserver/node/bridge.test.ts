/**
 * The fronts' direct path (bridge.ts → ApiServer.handleCall, no web Request) answers byte for byte
 * what the web Request path answers, over HTTP/2 and HTTP/1.1 — and the requests only a web
 * Request reads exactly go that way.
 */
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate } from '../certs.js';
import type { DirectCall } from '../incoming.js';
import { MAX_REQUEST_BODY_BYTES } from '../incoming.js';
import type { ApiServer } from '../server.js';
import { type TestServer, TOKEN, testServer } from '../testing/test-server.js';
import type { HttpsServer } from './bridge.js';
import { serveHttp2 } from './http2.js';
import { h2Request } from './testing/https-test-server.js';

interface Answer {
  status: number;
  headers: [string, string][];
  text: string;
}

interface Sent {
  method: string;
  path: string;
  /** Values as arrays are sent as repeated header fields. */
  headers: Record<string, string | string[]>;
  body?: Uint8Array;
}

const ns = '/api/v1/namespaces/default';
const LIMITED = 'limited-token';
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

/** Requests the two paths must answer alike (names unique: both servers see every request once). */
function requests(tag: string): Sent[] {
  const auth = { authorization: `Bearer ${TOKEN}` };
  const json = { ...auth, 'content-type': 'application/json' };
  return [
    {
      method: 'POST',
      path: `${ns}/configmaps`,
      headers: json,
      // A byte order mark and invalid UTF-8: decoded as Request.text() decodes them.
      body: bytes([0xef, 0xbb, 0xbf], `{"metadata":{"name":"bom-${tag}"},"data":{"a":"x`, [0xff, 0xc3], `y"}}`),
    },
    // A body without a Content-Type: bytes get no default one.
    { method: 'POST', path: `${ns}/configmaps`, headers: auth, body: bytes(`{"metadata":{"name":"plain-${tag}"}}`) },
    { method: 'POST', path: `${ns}/configmaps`, headers: json, body: bytes('{"metadata":{"name":"cut"') },
    { method: 'POST', path: `${ns}/configmaps`, headers: json },
    {
      method: 'POST',
      path: `${ns}/configmaps`,
      headers: { ...auth, 'content-type': 'application/yaml' },
      body: bytes(`metadata:\n  name: y-${tag}\n`),
    },
    {
      method: 'POST',
      path: `${ns}/configmaps`,
      headers: { ...auth, 'content-type': 'application/vnd.kubernetes.protobuf' },
      body: bytes([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x02]),
    },
    {
      method: 'GET',
      path: `${ns}/configmaps/plain-${tag}?x=%zz&y=<é>`,
      headers: { ...auth, accept: 'application/json' },
    },
    { method: 'PUT', path: `${ns}/configmaps/plain-${tag}`, headers: json, body: bytes('{"metadata":{"name":"x"}}') },
    {
      method: 'PATCH',
      path: `${ns}/configmaps/plain-${tag}`,
      headers: { ...auth, 'content-type': 'application/merge-patch+json' },
      body: bytes('{"data":{"k":"v"}}'),
    },
    { method: 'DELETE', path: `${ns}/configmaps/plain-${tag}`, headers: auth },
    { method: 'OPTIONS', path: `${ns}/configmaps`, headers: auth },
    // Impersonation reads every header in Headers' order, repeated ones joined.
    {
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      headers: {
        ...json,
        'impersonate-user': 'u',
        'impersonate-extra-zeta': ['1', '2'],
        'impersonate-extra-alpha': 'a',
        'impersonate-group': ['g1', 'g2'],
      },
      body: bytes('{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}'),
    },
    {
      method: 'GET',
      path: `${ns}/configmaps`,
      headers: {
        authorization: `Bearer ${LIMITED}`,
        'impersonate-user': 'u',
        'impersonate-extra-zeta': 'z',
        'impersonate-extra-alpha': 'a',
      },
    },
    { method: 'GET', path: '/api', headers: { ...auth, 'x-a': ['1', '2'], 'set-cookie': ['a=1', 'b=2'] } },
    { method: 'GET', path: '//api/v1/../v1/namespaces', headers: auth },
    { method: 'GET', path: `${ns}/pods`, headers: {} },
  ];
}

/** Counts the requests that reached handleCall, or hides it (only handle: the web Request path). */
function counting(api: ApiServer, direct: boolean, seen: DirectCall[]): ApiServer {
  if (!direct) return { handle: (r, c) => api.handle(r, c) };
  return {
    handle: (r, c) => api.handle(r, c),
    handleCall: (call, c) => {
      seen.push(call);
      const handleCall = api.handleCall;
      if (handleCall === undefined) throw new Error('no handleCall');
      return handleCall(call, c);
    },
  };
}

function answerOf(status: number, raw: Record<string, unknown>, text: string): Answer {
  const headers: [string, string][] = [];
  for (const [k, v] of Object.entries(raw)) {
    if (k.startsWith(':') || k === 'date') continue;
    headers.push([k, Array.isArray(v) ? v.join('\n') : String(v)]);
  }
  headers.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  // What differs between the two servers: uids, the names' tags, the port.
  const same = text
    .replace(/"uid":"[^"]+"/g, '"uid":"?"')
    .replace(/-(one|two)\b/g, '-?')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:?');
  return { status, headers, text: same };
}

async function viaH2(port: number, ca: string, sent: Sent): Promise<Answer> {
  const { head, text } = await h2Request(port, ca, {
    method: sent.method,
    path: sent.path,
    headers: sent.headers,
    body: sent.body ?? new Uint8Array(),
  });
  return answerOf(Number(head[':status']), head, text);
}

function viaH1(port: number, ca: string, sent: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: sent.path, method: sent.method, headers: sent.headers, ca, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve(answerOf(res.statusCode ?? 0, res.headers, text)));
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });
}

let ca: string;
const servers: { test: TestServer; front: HttpsServer; seen: DirectCall[] }[] = [];

beforeAll(async () => {
  const authority = await createCertificateAuthority();
  ca = authority.certPem;
  const serving = await issueCertificate(
    authority,
    { commonName: 'kube-apiserver' },
    { serving: { dnsNames: ['localhost'], ips: ['127.0.0.1'] } },
  );
  for (const direct of [true, false]) {
    const test = await testServer({ tokens: `${LIMITED},limited,2\n` });
    // `limited` may impersonate users and nothing else: the first extra it asks for is the one refused.
    await test.call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: 'impersonate-users' },
      rules: [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }],
    });
    await test.call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: 'limited' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonate-users' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'limited' }],
    });
    const seen: DirectCall[] = [];
    const front = await serveHttp2(counting(test.api, direct, seen), serving, '127.0.0.1', 0);
    servers.push({ test, front, seen });
  }
});
afterAll(async () => {
  for (const s of servers) {
    await s.front.close();
    await s.test.storage.close();
  }
});

describe('the direct path (handleCall) of the Node fronts', () => {
  for (const [protocol, send] of [
    ['HTTP/2', viaH2],
    ['HTTP/1.1', viaH1],
  ] as const) {
    it(`answers as the web Request path over ${protocol}`, async () => {
      const [directServer, webServer] = servers as [(typeof servers)[0], (typeof servers)[0]];
      const tag = protocol === 'HTTP/2' ? 'h2' : 'h1';
      const web = requests(`${tag}-two`);
      for (const [i, sent] of requests(`${tag}-one`).entries()) {
        const got = await send(directServer.front.port, ca, sent);
        const want = await send(webServer.front.port, ca, web[i] as Sent);
        expect(got, `${sent.method} ${sent.path}`).toEqual(want);
      }
    });
  }

  it('answers 413 to a body past 3 MiB sent without a Content-Length', async () => {
    const [direct] = servers as [(typeof servers)[0]];
    const big = Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 32);
    const sent = { method: 'POST', path: `${ns}/configmaps`, headers: { authorization: `Bearer ${TOKEN}` }, body: big };
    // node:https sends a body given to end() with a Content-Length: chunked needs writes before.
    const h1 = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: direct.front.port, path: sent.path, method: 'POST', headers: sent.headers, ca },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write(big.subarray(0, 1024));
      req.end(big.subarray(1024));
    });
    expect(h1).toBe(413);
    expect((await viaH2(direct.front.port, ca, sent)).status).toBe(413);
  });

  it('takes the requests a web Request reads exactly, and leaves the others to it', async () => {
    const [direct] = servers as [(typeof servers)[0]];
    direct.seen.length = 0;
    await viaH2(direct.front.port, ca, { method: 'GET', path: '/version', headers: { 'x-a': ['1', '2'] } });
    await viaH1(direct.front.port, ca, { method: 'GET', path: '/version', headers: { 'x-a': ['1', '2'] } });
    expect(direct.seen.map((c) => [c.method, c.headers['x-a']])).toEqual([
      ['GET', '1, 2'],
      ['GET', '1, 2'],
    ]);
    direct.seen.length = 0;
    // set-cookie: separate pairs in Headers; a method Request would rewrite.
    await viaH2(direct.front.port, ca, { method: 'GET', path: '/version', headers: { 'set-cookie': ['a', 'b'] } });
    await viaH2(direct.front.port, ca, { method: 'get', path: '/version', headers: {} });
    expect(direct.seen).toEqual([]);
  });
});
