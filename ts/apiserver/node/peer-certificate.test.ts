/**
 * Client certificates through the Node fronts: asked for in the TLS handshake, never required,
 * handed to the handler from the socket (HTTP/2 and HTTP/1.1 alike, and to a WebSocket watch) —
 * and a header claiming one counts for nothing.
 */
import { connect } from 'node:http2';
import { request } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { VirtualClock } from '../../sim/clock.js';
import { WasmStorage } from '../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../wasm/node.js';
import { parseTokenFile } from '../authn/tokens.js';
import { createCertificateAuthority, issueCertificate, type KeyPair } from '../certs.js';
import { createApiServer } from '../server.js';
import type { HttpsServer } from './bridge.js';
import { serveHttp2 } from './http2.js';
import { serveHttps } from './https.js';

let server: HttpsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Pki {
  ca: KeyPair;
  serving: KeyPair;
  client: KeyPair;
  foreign: KeyPair;
}

async function pki(): Promise<Pki> {
  const ca = await createCertificateAuthority();
  const other = await createCertificateAuthority();
  return {
    ca,
    serving: await issueCertificate(
      ca,
      { commonName: 'kube-apiserver' },
      { serving: { dnsNames: [], ips: ['127.0.0.1'] } },
    ),
    client: await issueCertificate(ca, { commonName: 'jane', organizations: ['system:masters'] }, { client: true }),
    foreign: await issueCertificate(other, { commonName: 'jane', organizations: ['system:masters'] }, { client: true }),
  };
}

async function api() {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.now());
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  return { clock, storage };
}

function http1(port: number, p: Pki, client?: KeyPair, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/namespaces',
        ca: p.ca.certPem,
        headers,
        ...(client === undefined ? {} : { cert: client.certPem, key: client.keyPem }),
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function http2(port: number, p: Pki, client?: KeyPair) {
  return new Promise<number>((resolve, reject) => {
    const session = connect(`https://127.0.0.1:${port}`, {
      ca: p.ca.certPem,
      ...(client === undefined ? {} : { cert: client.certPem, key: client.keyPem }),
    });
    session.on('error', reject);
    const stream = session.request({ ':path': '/api/v1/namespaces' });
    stream.on('response', (headers) => {
      stream.resume();
      stream.on('end', () => {
        session.close();
        resolve(Number(headers[':status']));
      });
    });
    stream.end();
  });
}

describe('client certificates through the Node fronts', () => {
  it('HTTP/2 and HTTP/1.1: the CA’s certificate authenticates, another CA’s and none are 401', async () => {
    const p = await pki();
    const { clock, storage } = await api();
    const apiServer = createApiServer({ storage, clock, tokens: parseTokenFile(''), clientCA: p.ca.certPem });
    server = await serveHttp2(apiServer, { ...p.serving, clientCA: p.ca.certPem }, '127.0.0.1', 0);
    expect(await http2(server.port, p, p.client)).toBe(200);
    expect(await http2(server.port, p, p.foreign)).toBe(401);
    expect(await http2(server.port, p)).toBe(401);
    expect((await http1(server.port, p, p.client)).status).toBe(200);
    expect((await http1(server.port, p, p.foreign)).status).toBe(401);
    // A header naming a certificate is just a header.
    expect(
      (await http1(server.port, p, undefined, { 'X-Client-Cert': p.client.certPem.replace(/\n/g, '') })).status,
    ).toBe(401);
  });

  it('the HTTPS/1.1 front and a WebSocket watch authenticated by the certificate', async () => {
    const p = await pki();
    const { clock, storage } = await api();
    const apiServer = createApiServer({ storage, clock, tokens: parseTokenFile(''), clientCA: p.ca.certPem });
    server = await serveHttps(apiServer, { ...p.serving, clientCA: p.ca.certPem }, '127.0.0.1', 0);
    expect((await http1(server.port, p, p.client)).status).toBe(200);
    const url = `wss://127.0.0.1:${server.port}/api/v1/namespaces?watch=1&timeoutSeconds=1`;
    const opened = (client: KeyPair | undefined) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(url, {
          ca: p.ca.certPem,
          origin: `https://127.0.0.1:${server?.port}`,
          ...(client === undefined ? {} : { cert: client.certPem, key: client.keyPem }),
        });
        ws.on('open', () => {
          ws.close();
          resolve('open');
        });
        ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
        ws.on('error', () => resolve('error'));
      });
    expect(await opened(p.client)).toBe('open');
    expect(await opened(p.foreign)).toBe('401');
  });

  it('a front without a client CA asks for no certificate', async () => {
    const p = await pki();
    const { clock, storage } = await api();
    const apiServer = createApiServer({ storage, clock, tokens: parseTokenFile(''), clientCA: p.ca.certPem });
    server = await serveHttp2(apiServer, p.serving, '127.0.0.1', 0);
    expect(await http2(server.port, p, p.client)).toBe(401);
  });
});
