/**
 * One Node request served by the web-standard handler, for both fronts (https.ts, http2.ts): the
 * body read up to kube-apiserver's 3 MiB limit (413 beyond); the request handed over as its parts
 * (ApiServer.handleCall: a web Request per request costs ~50 µs of CPU) or, for the few only a
 * web Request reads exactly, as one that aborts when the client leaves early; the Response written
 * back — in one piece when endpoints/response.ts holds it as text, else streamed chunk by chunk with
 * backpressure (watch); and listening, with watch over WebSocket on Upgrade requests.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { newRequestEntityTooLarge, toStatus } from '../../api/status.js';
import type { ServingTls } from '../certs.js';
import { bufferedBody } from '../endpoints/response.js';
import type { DirectCall } from '../incoming.js';
import { MAX_REQUEST_BODY_BYTES } from '../incoming.js';
import type { ApiServer } from '../server.js';
import { connectionInfo } from './peer-certificate.js';
import { webSocketWatchHandler } from './watch-websocket.js';

export type NodeRequest = IncomingMessage | Http2ServerRequest;
export type NodeResponse = ServerResponse | Http2ServerResponse;

/** What a front returns: its port and a close that ends every connection. */
export interface HttpsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The TLS options that ask a client for its certificate (Go's tls.RequestClientCert with
 * --client-ca-file): asked for, never required, and not refused at the handshake — the
 * authenticator (../authn/x509.ts) verifies it, so a bad one is a 401, not a failed handshake.
 */
export function clientCertificateOptions(tls: ServingTls): {
  requestCert?: boolean;
  rejectUnauthorized?: boolean;
  ca?: string;
} {
  if (tls.clientCA === undefined) return {};
  return { requestCert: true, rejectUnauthorized: false, ca: tls.clientCA };
}

class BodyTooLarge extends Error {}

/**
 * The body's bytes (undefined when empty), read to `limit`: past it BodyTooLarge and the request
 * destroyed, as leaving a `for await` over it would. Flowing 'data' events: an async iterator costs
 * a few µs a request more.
 */
function readBody(req: NodeRequest, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err: Error | undefined) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', finish);
      req.off('close', onClose);
      if (err !== undefined) reject(err);
      else resolve(size === 0 ? undefined : concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      finish(new BodyTooLarge());
    };
    const onEnd = () => finish(undefined);
    const onClose = () => finish(new Error('the client closed the request before its end'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', finish);
    req.on('close', onClose);
  });
}

/** The chunks as one array; one chunk (most bodies) as a plain view of its memory, not copied. */
function concat(chunks: readonly Buffer[], size: number): Uint8Array<ArrayBuffer> {
  const [first] = chunks;
  // A Buffer's memory is an ArrayBuffer (Node never hands out a SharedArrayBuffer's) nothing else writes.
  if (chunks.length === 1 && first !== undefined) {
    return new Uint8Array(first.buffer as ArrayBuffer, first.byteOffset, first.length);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

function sendJson(res: NodeResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Request headers as pairs, without HTTP/2's pseudo-headers (`:path`, `:method`, …). */
function headerPairs(headers: IncomingHttpHeaders): [string, string][] {
  const pairs: [string, string][] = [];
  for (const k in headers) {
    if (k.charCodeAt(0) === 58 /* ':' */) continue;
    const v = headers[k];
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const one of v) pairs.push([k, one]);
    else pairs.push([k, v]);
  }
  return pairs;
}

// The methods Node hands over (its HTTP/1.1 parser's, HTTP/2's `:method`) that `new Request`
// takes as they are; any other (lower case, CONNECT, a token Request refuses) goes the slow way.
const DIRECT_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Request headers as a DirectCall takes them — repeated ones joined with ", " as Headers joins
 * them — or undefined when only a web Request reads them exactly: `set-cookie`, the one header
 * Headers keeps as separate pairs (and Node as an array).
 */
function directHeaders(headers: IncomingHttpHeaders): Record<string, string> | undefined {
  // No prototype: a header named `__proto__` is a header like any other.
  const out: Record<string, string> = Object.create(null);
  for (const k in headers) {
    if (k.charCodeAt(0) === 58 /* ':' */) continue;
    const v = headers[k];
    if (v === undefined) continue;
    if (k === 'set-cookie') return undefined;
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/**
 * The request as a DirectCall for `api.handleCall`, when it reads exactly as the web Request
 * serve() would make: a method Request keeps as is, a path (not a proxy's absolute URL, which
 * makes no valid URL after the host), headers directHeaders takes. Else undefined.
 */
function directCall(req: NodeRequest, host: string, body: Uint8Array<ArrayBuffer> | undefined): DirectCall | undefined {
  const method = req.method ?? 'GET';
  const path = req.url ?? '/';
  if (!DIRECT_METHODS.has(method) || path.charCodeAt(0) !== 47 /* '/' */) return undefined;
  const headers = directHeaders(req.headers);
  if (headers === undefined) return undefined;
  return { method, url: `https://${host}${path}`, headers, ...(body !== undefined ? { body } : {}) };
}

/** Response headers for writeHead; `Warning` is the header this server repeats. */
function responseHeaders(response: Response): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    // Headers.forEach joins repeated headers with ", ".
    out[key] = key === 'warning' ? value.split(/,\s*(?=299 )/) : value;
  });
  return out;
}

/** Waits for the socket to take more, or to close; either way neither listener is left behind. */
function drainedOrClosed(res: NodeResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The web Request for `req`, aborted when the client leaves early. */
function webRequest(
  req: NodeRequest,
  res: NodeResponse,
  host: string,
  method: string,
  body: Uint8Array<ArrayBuffer> | undefined,
): Request {
  const abort = new AbortController();
  // Only a client that leaves early aborts (an abort makes a DOMException: not for every request).
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  return new Request(`https://${host}${req.url ?? '/'}`, {
    method,
    headers: headerPairs(req.headers),
    ...(body !== undefined ? { body } : {}),
    signal: abort.signal,
  });
}

async function serve(
  api: ApiServer,
  req: NodeRequest,
  res: NodeResponse,
  host: string,
  log: ((line: string) => void) | undefined,
): Promise<void> {
  const method = req.method ?? 'GET';
  let body: Uint8Array<ArrayBuffer> | undefined;
  try {
    if (Number(req.headers['content-length'] ?? '0') > MAX_REQUEST_BODY_BYTES) throw new BodyTooLarge();
    if (method !== 'GET' && method !== 'HEAD') body = await readBody(req, MAX_REQUEST_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      sendJson(res, 413, toStatus(newRequestEntityTooLarge(`limit is ${MAX_REQUEST_BODY_BYTES}`)));
      req.resume();
      return;
    }
    throw err;
  }
  // The client certificate comes from the TLS socket, never a header; under HTTP/2 the session's
  // socket, one for all its streams (req.socket is a new proxy per stream).
  const h2 = (req as Partial<Http2ServerRequest>).stream?.session?.socket;
  const connection = connectionInfo(h2 ?? req.socket);
  // Without a web Request where the handler takes the request's parts (DirectCall): the same answer.
  const call = api.handleCall !== undefined ? directCall(req, host, body) : undefined;
  const response =
    call !== undefined && api.handleCall !== undefined
      ? await api.handleCall(call, connection)
      : await api.handle(webRequest(req, res, host, method, body), connection);
  log?.(`${method} ${req.url} ${req.headers['content-type'] ?? '-'} ${req.headers.accept ?? '-'} → ${response.status}`);
  const headers = responseHeaders(response);
  const buffered = bufferedBody(response);
  if (buffered !== undefined) {
    // With its length known, HTTP/1.1 sends head and body in one write instead of chunks.
    headers['content-length'] = String(Buffer.byteLength(buffered));
    res.writeHead(response.status, headers);
    res.end(buffered);
    return;
  }
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  // Streamed (watch): headers now, then each chunk as it comes.
  (res as { flushHeaders?: () => void }).flushHeaders?.();
  const reader = response.body.getReader();
  res.on('close', () => {
    reader.cancel().catch(() => {});
  });
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      // Backpressure: a slow reader leaves the rest in the watch's bounded buffer (../endpoints/watch.ts).
      if (!(res as { write(chunk: Uint8Array): boolean }).write(value)) await drainedOrClosed(res);
    }
  } catch {
    // the client went away
  }
  res.end();
}

/**
 * The request listener of a front: `host` (host:port) names the server in the web Request's URL;
 * `log` gets one line per request (method, URL, content type, accept, status).
 */
export function requestListener(
  api: ApiServer,
  host: () => string,
  log?: (line: string) => void,
): (req: NodeRequest, res: NodeResponse) => void {
  return (req, res) => {
    serve(api, req, res, host(), log).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, toStatus(err));
      else res.destroy();
    });
  };
}

/** What both fronts' servers (node:https, node:http2 with allowHTTP1) offer for listening. */
interface ListeningServer {
  listen(port: number, host: string, callback: () => void): unknown;
  once(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'upgrade', listener: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown;
  address(): AddressInfo | string | null;
  close(callback: () => void): unknown;
}

/**
 * Listens on host:port (0 = any free port), tells the front its address, serves watch over
 * WebSocket on HTTP/1.1 Upgrade requests (watch-websocket.ts); close() also ends the connections
 * still open (`closeConnections`) and the WebSockets.
 */
export function listen(
  server: ListeningServer,
  api: ApiServer,
  where: { host: string; port: number },
  onAddress: (address: string) => void,
  closeConnections: () => void,
  log?: (line: string) => void,
): Promise<HttpsServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.off('error', reject);
      const actual = (server.address() as AddressInfo).port;
      const address = `${where.host}:${actual}`;
      onAddress(address);
      const webSockets = webSocketWatchHandler(api, { host: address, ...(log ? { log } : {}) });
      server.on('upgrade', webSockets.onUpgrade);
      resolve({
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            closeConnections();
            webSockets.close();
          }),
      });
    });
  });
}
