import { connect } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate } from '../certs.js';
import { type TestServer, TOKEN, testServer } from '../testing/test-server.js';
import { serveHttp2 } from './http2.js';
import type { HttpsServer } from './https.js';
import { caFetch, h2Request } from './testing/https-test-server.js';

let test: TestServer;
let server: HttpsServer;
let caPem: string;

beforeAll(async () => {
  test = await testServer();
  const ca = await createCertificateAuthority();
  caPem = ca.certPem;
  const serving = await issueCertificate(
    ca,
    { commonName: 'kube-apiserver' },
    { serving: { dnsNames: ['localhost'], ips: ['127.0.0.1'] } },
  );
  server = await serveHttp2(test.api, serving, '127.0.0.1', 0);
});
afterAll(async () => {
  await server.close();
  await test.storage.close();
});

/** One HTTP/2 request; the answer's status, headers and body text. */
async function h2(method: string, path: string, body?: string) {
  const headers = {
    authorization: `Bearer ${TOKEN}`,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  const { head, text } = await h2Request(server.port, caPem, {
    method,
    path,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  return {
    status: Number(head[':status']),
    type: String(head['content-type']),
    length: String(head['content-length']),
    text,
  };
}

describe('serveHttp2', () => {
  it('serves the API over HTTP/2 with whole bodies', async () => {
    const created = await h2(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      '{"metadata":{"name":"a"},"data":{"k":"v"}}',
    );
    expect(created.status).toBe(201);
    expect(created.type).toBe('application/json');
    expect(Number(created.length)).toBe(Buffer.byteLength(created.text));
    expect(JSON.parse(created.text).data).toEqual({ k: 'v' });
    const missing = await h2('GET', '/api/v1/namespaces/default/configmaps/nope');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).reason).toBe('NotFound');
  });

  it('answers HTTP/1.1 clients on the same port (ALPN)', async () => {
    const res = await caFetch(caPem)(
      new Request(`https://127.0.0.1:${server.port}/api/v1/namespaces/default/configmaps`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { kind: string }).kind).toBe('ConfigMapList');
  });

  it('streams a watch as its events come', async () => {
    const session = connect(`https://127.0.0.1:${server.port}`, { ca: caPem });
    const stream = session.request(
      { ':path': '/api/v1/namespaces/default/configmaps?watch=true', authorization: `Bearer ${TOKEN}` },
      { endStream: true },
    );
    stream.setEncoding('utf8');
    const first = new Promise<string>((resolve) => stream.once('data', (c: string) => resolve(c)));
    const line = JSON.parse((await first).split('\n')[0] ?? '') as {
      type: string;
      object: { metadata: { name: string } };
    };
    expect(line.type).toBe('ADDED');
    expect(line.object.metadata.name).toBe('a');
    session.destroy();
  });

  it('refuses bodies over 3 MiB with 413', async () => {
    const res = await h2('POST', '/api/v1/namespaces/default/configmaps', `{"x":"${'a'.repeat(3 * 1024 * 1024)}"}`);
    expect(res.status).toBe(413);
  });
});
