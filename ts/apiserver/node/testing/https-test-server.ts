/**
 * Tests only: the test apiserver (../../testing/test-server.ts) behind the real HTTPS adapter on a loopback
 * port, with a fetch and a `ws` WebSocket factory that trust its CA — what tests of the socket
 * paths (chunked and WebSocket watch, real clients) need.
 */
import { connect, type OutgoingHttpHeaders } from 'node:http2';
import WebSocket from 'ws';
import { tlsFetch } from '../../../cluster/node-remote.js';
import { createCertificateAuthority, issueCertificate } from '../../certs.js';
import type { ApiServer } from '../../server.js';
import { type TestServer, TOKEN, testServer } from '../../testing/test-server.js';
import { type HttpsServer, serveHttps } from '../https.js';

export interface HttpsTestServer {
  test: TestServer;
  https: HttpsServer;
  /** `https://127.0.0.1:<port>` */
  url: string;
  caPem: string;
  token: string;
  /** fetch over node:https trusting the CA (the global fetch cannot take a CA in Node 20). */
  fetch(request: Request): Promise<Response>;
  /** `ws` WebSockets trusting the CA, with an Origin (kube-apiserver requires one). */
  webSocket(url: string, protocols: string[]): WebSocket;
  close(): Promise<void>;
}

/** fetch for a server whose certificate `caPem` signed. */
export function caFetch(caPem: string): (request: Request) => Promise<Response> {
  return tlsFetch({ caPem });
}

/**
 * A fresh test apiserver served over HTTPS on 127.0.0.1 (any free port); `wrap` may put a handler
 * in front of it (to count or hold requests).
 */
export async function httpsTestServer(wrap: (api: ApiServer) => ApiServer = (api) => api): Promise<HttpsTestServer> {
  const test = await testServer();
  const ca = await createCertificateAuthority();
  const serving = await issueCertificate(
    ca,
    { commonName: 'kube-apiserver' },
    { serving: { dnsNames: ['localhost'], ips: ['127.0.0.1'] } },
  );
  const https = await serveHttps(wrap(test.api), serving, '127.0.0.1', 0);
  const url = `https://127.0.0.1:${https.port}`;
  return {
    test,
    https,
    url,
    caPem: ca.certPem,
    token: TOKEN,
    fetch: caFetch(ca.certPem),
    webSocket: (target, protocols) => new WebSocket(target, protocols, { ca: ca.certPem, origin: url }),
    close: () => https.close(),
  };
}

/** One HTTP/2 request on a new connection to 127.0.0.1:`port` trusting `ca`: its response headers and body text. */
export function h2Request(
  port: number,
  ca: string,
  sent: { method: string; path: string; headers?: OutgoingHttpHeaders; body?: string | Uint8Array },
): Promise<{ head: Record<string, unknown>; text: string }> {
  const session = connect(`https://127.0.0.1:${port}`, { ca });
  return new Promise((resolve, reject) => {
    const stream = session.request(
      { ':method': sent.method, ':path': sent.path, ...sent.headers },
      { endStream: sent.body === undefined },
    );
    let head: Record<string, unknown> = {};
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => {
      head = h;
    });
    stream.on('data', (c: string) => {
      text += c;
    });
    stream.on('end', () => {
      session.close();
      resolve({ head, text });
    });
    stream.on('error', reject);
    if (sent.body !== undefined) stream.end(sent.body);
  });
}
