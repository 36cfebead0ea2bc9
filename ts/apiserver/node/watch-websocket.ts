/**
 * Watch over WebSocket for the Node adapters, as kube-apiserver serves it
 * (endpoints/handlers/watch.go serveWatchHandler → WatchServer.HandleWS, on golang.org/x/net/websocket):
 *
 * - An HTTP/1.1 Upgrade request goes through the web-standard handler like any other request —
 *   authentication, routing, watch options and storage errors answer as plain HTTP responses
 *   (401, 404, 410, 422, …), written on the socket before it closes.
 * - A bearer token may come as the subprotocol `base64url.bearer.authorization.k8s.io.<token>`
 *   (authentication/request/websocket/protocol.go: browsers cannot set Authorization on a
 *   WebSocket); it needs one more subprotocol beside it, and is removed before the handshake.
 * - The handshake is x/net/websocket's Handler: an Origin header that parses as a request URI is
 *   required (checkOrigin; 403 Forbidden without), and at most one subprotocol may remain, which is
 *   echoed back (hybiServerHandshaker.AcceptHandshake; 400 with more than one).
 * - Then every watch event is one text message — the JSON event with its trailing newline, as the
 *   JSON encoder writes it. There is no base64 variant for watch: `base64.binary.k8s.io` belongs to
 *   the wsstream channels of exec/attach/logs; here a subprotocol is only echoed.
 * - Messages from the client are ignored (wsstream.IgnoreReceives). The server closes with 1000
 *   when the stream ends (timeoutSeconds, an ERROR event, a dropped slow watcher); the client
 *   closing ends the watch.
 * - Backpressure: the next event is read from the watch stream only once the socket has taken the
 *   previous ones (beyond a small send buffer), so a client that stops reading leaves the events in
 *   the watch's bounded buffer, which ends it (../endpoints/watch.ts).
 */
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { isWatchUrl } from '../endpoints/watch.js';
import type { ApiServer } from '../server.js';
import { connectionInfo } from './peer-certificate.js';

/** authentication/request/websocket/protocol.go bearerProtocolPrefix. */
export const BEARER_PROTOCOL_PREFIX = 'base64url.bearer.authorization.k8s.io.';

/** Bytes the adapter lets the WebSocket buffer before it waits for the socket to take them. */
const WS_HIGH_WATER_BYTES = 64 * 1024;

/** Close code for a clean end (RFC 6455 §7.4.1; x/net/websocket's closeStatusNormal). */
const CLOSE_NORMAL = 1000;

/** wsstream.IsWebSocketRequest: `Connection: upgrade` and `Upgrade: websocket`. */
export function isWebSocketRequest(req: IncomingMessage): boolean {
  const connection = (req.headers.connection ?? '').toLowerCase().split(',');
  return connection.some((t) => t.trim() === 'upgrade') && (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

function protocolList(header: string | string[] | undefined): string[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values
    .flatMap((v) => v.split(','))
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * ProtocolAuthenticator: the bearer token carried as a subprotocol, and the other subprotocols.
 * `error` for what Kubernetes refuses (two tokens, bad base64url, no other subprotocol).
 */
export function protocolBearer(header: string | string[] | undefined): {
  token?: string;
  others: string[];
  error?: string;
} {
  let token: string | undefined;
  const others: string[] = [];
  for (const p of protocolList(header)) {
    if (!p.startsWith(BEARER_PROTOCOL_PREFIX)) {
      others.push(p);
      continue;
    }
    if (token !== undefined) return { others, error: 'multiple base64.bearer.authorization tokens specified' };
    const encoded = p.slice(BEARER_PROTOCOL_PREFIX.length);
    // base64.RawURLEncoding: the URL alphabet, no padding.
    if (!/^[A-Za-z0-9_-]*$/.test(encoded) || encoded.length % 4 === 1) {
      return { others, error: 'invalid base64.bearer.authorization token encoding' };
    }
    const bytes = Buffer.from(encoded, 'base64url');
    try {
      token = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { others, error: 'invalid base64.bearer.authorization token' };
    }
  }
  if (token !== undefined && token !== '' && others.length === 0)
    return { others, error: 'missing additional subprotocol' };
  return token === undefined || token === '' ? { others } : { token, others };
}

/** url.ParseRequestURI accepts an absolute URL or an absolute path; "null" and "" fail. */
function isRequestUri(origin: string | undefined): boolean {
  if (origin === undefined || origin === '') return false;
  if (origin.startsWith('/')) return true;
  try {
    new URL(origin);
    return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(origin);
  } catch {
    return false;
  }
}

/** Writes `response` as a plain HTTP/1.1 response on a not-upgraded socket, then closes it. */
async function writeHttpResponse(socket: Duplex, response: Response): Promise<void> {
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'connection' && name !== 'transfer-encoding') {
      lines.push(`${name}: ${value}`);
    }
  });
  // No length: the body ends where the connection does.
  lines.push('Connection: close');
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (response.body !== null) {
    const reader = response.body.getReader();
    socket.once('close', () => {
      reader.cancel().catch(() => {});
    });
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done || socket.destroyed) break;
        if (!socket.write(value)) await new Promise<void>((resolve) => socket.once('drain', resolve));
      }
    } catch {
      // the client went away
    }
  }
  socket.end();
}

function refuseHandshake(socket: Duplex, status: number): void {
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
}

/** Sends each watch line as one text message until the stream or the socket ends. */
async function pipeWatch(body: ReadableStream<Uint8Array>, ws: WebSocket): Promise<void> {
  const reader = body.getReader();
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  void closed.then(() => reader.cancel().catch(() => {}));
  ws.on('message', () => {}); // the client should send nothing; what it sends is ignored
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    while (ws.readyState === ws.OPEN) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let newline = buffered.indexOf('\n');
      while (newline >= 0 && ws.readyState === ws.OPEN) {
        const line = buffered.slice(0, newline + 1);
        buffered = buffered.slice(newline + 1);
        const sent = new Promise<void>((resolve) => ws.send(line, () => resolve()));
        if (ws.bufferedAmount > WS_HIGH_WATER_BYTES) await Promise.race([sent, closed]);
        newline = buffered.indexOf('\n');
      }
    }
  } catch {
    // the stream failed or was cancelled: close below
  }
  if (ws.readyState === ws.OPEN) ws.close(CLOSE_NORMAL);
}

export interface WatchUpgradeOptions {
  /** `host:port` for request URLs. */
  host: string;
  log?: (line: string) => void;
}

/**
 * The `upgrade` listener for a node:http(s) server: WebSocket watches through `api`. `close()`
 * ends every open WebSocket (server.close does not see upgraded sockets).
 */
export function webSocketWatchHandler(
  api: ApiServer,
  options: WatchUpgradeOptions,
): {
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
} {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: true });

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(`https://${options.host}${req.url ?? '/'}`);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    const ws = isWebSocketRequest(req);
    if (ws && !headers.has('authorization')) {
      const bearer = protocolBearer(req.headers['sec-websocket-protocol']);
      if (bearer.token !== undefined) {
        headers.set('authorization', `Bearer ${bearer.token}`);
        // On success the token's subprotocol is removed (protocol.go), so it is never echoed.
        req.headers['sec-websocket-protocol'] = bearer.others.join(', ');
        headers.set('sec-websocket-protocol', bearer.others.join(', '));
      }
    }
    const abort = new AbortController();
    socket.once('close', () => abort.abort());
    const response = await api.handle(
      new Request(url, { method: req.method ?? 'GET', headers, signal: abort.signal }),
      connectionInfo(req.socket),
    );
    options.log?.(`${req.method} ${req.url} (upgrade ${req.headers.upgrade ?? '-'}) → ${response.status}`);
    const watching = ws && req.method === 'GET' && isWatchUrl(url) && response.status === 200 && response.body !== null;
    if (!watching) {
      await writeHttpResponse(socket, response);
      return;
    }
    const body = response.body as ReadableStream<Uint8Array>;
    const refuse = (status: number) => {
      body.cancel().catch(() => {});
      refuseHandshake(socket, status);
    };
    if (!isRequestUri(req.headers.origin)) return refuse(403);
    const protocols = protocolList(req.headers['sec-websocket-protocol']);
    if (protocols.length > 1) return refuse(400);
    if (protocols.length === 0) delete req.headers['sec-websocket-protocol'];
    wss.handleUpgrade(req, socket, head, (conn) => {
      void pipeWatch(body, conn);
    });
    // A handshake ws refused (bad key or version) destroys the socket: end the watch with it.
    socket.once('close', () => body.cancel().catch(() => {}));
  }

  return {
    onUpgrade(req, socket, head) {
      socket.on('error', () => {});
      upgrade(req, socket, head).catch(() => socket.destroy());
    },
    close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
