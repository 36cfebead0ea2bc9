/**
 * How the client reaches an apiserver: a web-standard `(Request) → Response` function. In-process it
 * calls the apiserver's handler directly (no socket, no TLS); remotely it is `fetch`, and watches
 * may go over a WebSocket instead (one event per message), whose messages become the same
 * streamed body a chunked watch has.
 *
 *   const client = createClient(inProcessTransport(api, token));
 *   const remote = createClient(httpTransport({ server: 'https://127.0.0.1:6443', token }));
 *   const ws = createClient(httpTransport({ server, token, webSocket: true })); // the global WebSocket
 */

export type Transport = ((request: Request) => Promise<Response>) & {
  /**
   * The same call without making a web Request, when the transport can take it so (in-process,
   * an apiserver with handleCall): the client's fast path; it answers what the function would.
   */
  direct?: (call: TransportCall) => Promise<Response>;
};

/** A request as plain data: `new Request(url, { method, headers, body })` without the Request. */
export interface TransportCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What inProcessTransport needs of the apiserver (ts/apiserver/server.ts ApiServer). */
export interface RequestHandler {
  handle(request: Request): Promise<Response>;
  /** handle() without a web Request (ts/apiserver/server.ts handleCall). */
  handleCall?(call: TransportCall): Promise<Response>;
}

/** The origin the client writes into request URLs; transports re-target it. */
export const CLIENT_ORIGIN = 'https://kubernetes.invalid';

function withBearer(headers: Headers, token: string | undefined): Headers {
  if (token !== undefined && token !== '' && !headers.has('Authorization')) {
    headers.set('Authorization', `Bearer ${token}`);
  }
  return headers;
}

/**
 * rest.Config's UserAgent: every request without a User-Agent of its own gets `userAgent` — what
 * the apiserver names a write's field manager after (the part before the first `/`).
 */
export function withUserAgent(transport: Transport, userAgent: string): Transport {
  const wrapped: Transport = (request) => {
    if (!request.headers.has('User-Agent')) request.headers.set('User-Agent', userAgent);
    return transport(request);
  };
  const direct = transport.direct;
  if (direct !== undefined) {
    wrapped.direct = (call) => {
      const has = Object.keys(call.headers).some((k) => k.toLowerCase() === 'user-agent');
      return direct(has ? call : { ...call, headers: { ...call.headers, 'User-Agent': userAgent } });
    };
  }
  return wrapped;
}

/**
 * rest.DefaultKubernetesUserAgent (client-go rest/config.go), with AddUserAgent's suffix:
 * `<command>/<version up to its first "-"> (<platform>) kubernetes/<commit, 7 chars or "unknown">[/<name>]`.
 */
export function kubernetesUserAgent(
  command: string,
  version: { gitVersion: string; gitCommit: string; platform: string },
  name?: string,
): string {
  const v = version.gitVersion.split('-')[0] ?? '';
  const commit = version.gitCommit === '' ? 'unknown' : version.gitCommit.slice(0, 7);
  const base = `${command}/${v} (${version.platform}) kubernetes/${commit}`;
  return name === undefined ? base : `${base}/${name}`;
}

/**
 * A bearer token: fixed, or read before each request from a source that renews it (a service
 * account token requested through `serviceaccounts/<name>/token`, token-source.ts).
 */
export type BearerToken = string | (() => string);

/** Calls `server.handle` directly, adding the bearer token. */
export function inProcessTransport(server: RequestHandler, bearer?: BearerToken): Transport {
  const current = (): string | undefined => (typeof bearer === 'function' ? bearer() : bearer);
  const transport: Transport = async (request) => {
    withBearer(request.headers, current());
    return server.handle(request);
  };
  const handleCall = server.handleCall?.bind(server);
  if (handleCall !== undefined) {
    transport.direct = (call: TransportCall) => {
      const token = current();
      const hasAuth = Object.keys(call.headers).some((k) => k.toLowerCase() === 'authorization');
      const headers =
        token === undefined || token === '' || hasAuth
          ? call.headers
          : { ...call.headers, Authorization: `Bearer ${token}` };
      return handleCall({ ...call, headers });
    };
  }
  return transport;
}

/** What the transport needs of a WebSocket: the browser's, or `ws`'s (which has the same API). */
export interface WebSocketLike {
  binaryType?: string;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: WebSocketEventLike) => void): void;
}

/** The parts of the open/message/close/error events the transport reads. */
export interface WebSocketEventLike {
  /** 'open', 'message', 'close' or 'error'. */
  readonly type: string;
  /** message: the text (or bytes) received. */
  data?: unknown;
  /** close: the close code (1000 = a clean end; 1006 = the connection was lost or never opened). */
  code?: number;
  reason?: string;
}

/**
 * Opens a WebSocket: `(url, protocols) => new WebSocket(url, protocols)` in a browser; in Node
 * `(url, protocols) => new WS(url, protocols, { ca, origin })` with the `ws` package, which must send
 * an Origin (kube-apiserver refuses a WebSocket without one) and trust the cluster CA.
 */
export type WebSocketFactory = (url: string, protocols: string[]) => WebSocketLike;

export interface HttpTransportOptions {
  /** The apiserver's base URL: `https://127.0.0.1:6443`. */
  server: string;
  /** A bearer token, or where to read the current one before each request (a renewed one). */
  token?: BearerToken;
  /** Defaults to the global fetch; tests pass one that trusts the cluster CA or routes in memory. */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Watches over WebSocket: `true` uses the global WebSocket (browsers, Node 22+), a factory opens
   * them any other way. Absent: watches are chunked HTTP responses.
   */
  webSocket?: boolean | WebSocketFactory;
}

/** authentication/request/websocket/protocol.go bearerProtocolPrefix: a token browsers can send. */
export const BEARER_PROTOCOL_PREFIX = 'base64url.bearer.authorization.k8s.io.';

/**
 * The subprotocol offered beside the token, which Kubernetes requires so that one remains to be
 * echoed; the watch handler only echoes it (frames stay JSON text). The name clients such as
 * dashboards offer.
 */
export const WATCH_SUBPROTOCOL = 'binary.k8s.io';

function base64Url(text: string): string {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The subprotocols of a watch WebSocket carrying `token`. */
export function webSocketProtocols(token: string | undefined): string[] {
  return token === undefined || token === '' ? [] : [`${BEARER_PROTOCOL_PREFIX}${base64Url(token)}`, WATCH_SUBPROTOCOL];
}

function isWatch(request: Request, url: URL): boolean {
  const w = url.searchParams.get('watch');
  return request.method === 'GET' && (w === 'true' || w === '1');
}

function globalWebSocket(): WebSocketFactory {
  const Ctor = (globalThis as { WebSocket?: new (url: string, protocols: string[]) => WebSocketLike }).WebSocket;
  if (Ctor === undefined) throw new TypeError('kubewasm client: no global WebSocket; pass a factory (the ws package)');
  return (url, protocols) => new Ctor(url, protocols);
}

/**
 * A watch over WebSocket as a Response whose body carries the events as lines. Until the socket
 * opens nothing is known of the outcome (browsers do not show a refused handshake's response), so a
 * socket that closes before opening falls back to `fallback` — the same watch over fetch, which
 * answers the apiserver's Status (401, 410, 422, …) or, past a proxy without WebSockets, the watch.
 * Browsers give a WebSocket no receive backpressure: what the consumer has not read yet is held here.
 */
function webSocketWatch(
  open: WebSocketFactory,
  url: string,
  protocols: string[],
  signal: AbortSignal,
  fallback: () => Promise<Response>,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let socket: WebSocketLike;
    try {
      socket = open(url, protocols);
    } catch {
      resolve(fallback());
      return;
    }
    if ('binaryType' in socket) socket.binaryType = 'arraybuffer';
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    let opened = false;
    let ended = false;
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      cancel() {
        ended = true;
        socket.close(1000);
      },
    });
    const onAbort = () => {
      if (!opened) reject(signal.reason);
      socket.close(1000);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.addEventListener('open', () => {
      opened = true;
      resolve(new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } }));
    });
    socket.addEventListener('message', (event) => {
      if (ended) return;
      const data = event.data;
      const text =
        typeof data === 'string'
          ? data
          : data instanceof ArrayBuffer || ArrayBuffer.isView(data)
            ? decoder.decode(data as ArrayBuffer)
            : String(data);
      // One event per message; the server ends each with a newline, as the JSON encoder writes it.
      controller?.enqueue(encoder.encode(text.endsWith('\n') ? text : `${text}\n`));
    });
    socket.addEventListener('close', (event) => {
      signal.removeEventListener('abort', onAbort);
      if (!opened) {
        if (!signal.aborted) resolve(fallback());
        return;
      }
      if (ended) return;
      ended = true;
      if (event.code === 1000 || event.code === 1005) controller?.close();
      else
        controller?.error(
          new Error(`kubewasm client: watch WebSocket closed (${event.code ?? 0} ${event.reason ?? ''})`),
        );
    });
    socket.addEventListener('error', () => {
      // A close event follows, which decides.
    });
  });
}

/** Sends requests with fetch to `server`, adding the bearer token; watches over WebSocket if asked. */
export function httpTransport(options: HttpTransportOptions): Transport {
  const base = options.server.replace(/\/+$/, '');
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const ws = options.webSocket;
  const openSocket = ws === undefined || ws === false ? undefined : ws === true ? globalWebSocket() : ws;
  const { token: bearer } = options;
  return async (request) => {
    const url = new URL(request.url);
    const token = typeof bearer === 'function' ? bearer() : bearer;
    const headers = withBearer(new Headers(request.headers), token);
    // Bodies are small JSON documents: buffering them avoids the `duplex: 'half'` streaming request.
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const init: RequestInit = { method: request.method, headers, signal: request.signal };
    if (body !== undefined && body.byteLength > 0) init.body = body;
    const viaFetch = () => send(new Request(`${base}${url.pathname}${url.search}`, init));
    if (openSocket !== undefined && isWatch(request, url)) {
      const target = `${base.replace(/^http/, 'ws')}${url.pathname}${url.search}`;
      return webSocketWatch(openSocket, target, webSocketProtocols(token), request.signal, viaFetch);
    }
    return viaFetch();
  };
}
