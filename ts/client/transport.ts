/**
 * How the client reaches an apiserver: a web-standard `(Request) → Response` function. In-process it
 * calls the apiserver's handler directly (no socket, no TLS); remotely it is `fetch`.
 *
 *   const client = createClient(inProcessTransport(api, token));
 *   const remote = createClient(httpTransport({ server: 'https://127.0.0.1:6443', token }));
 */

export type Transport = (request: Request) => Promise<Response>;

/** What inProcessTransport needs of the apiserver (ts/apiserver/server.ts ApiServer). */
export interface RequestHandler {
  handle(request: Request): Promise<Response>;
}

/** The origin the client writes into request URLs; transports re-target it. */
export const CLIENT_ORIGIN = 'https://kubernetes.invalid';

function withBearer(headers: Headers, token: string | undefined): Headers {
  if (token !== undefined && token !== '' && !headers.has('Authorization')) {
    headers.set('Authorization', `Bearer ${token}`);
  }
  return headers;
}

/** Calls `server.handle` directly, adding the bearer token. */
export function inProcessTransport(server: RequestHandler, token?: string): Transport {
  return async (request) => {
    withBearer(request.headers, token);
    return server.handle(request);
  };
}

export interface HttpTransportOptions {
  /** The apiserver's base URL: `https://127.0.0.1:6443`. */
  server: string;
  token?: string;
  /** Defaults to the global fetch; tests pass one that trusts the cluster CA or routes in memory. */
  fetch?: (request: Request) => Promise<Response>;
}

/** Sends requests with fetch to `server`, adding the bearer token. */
export function httpTransport(options: HttpTransportOptions): Transport {
  const base = options.server.replace(/\/+$/, '');
  const send = options.fetch ?? ((request: Request) => fetch(request));
  return async (request) => {
    const url = new URL(request.url);
    const headers = withBearer(new Headers(request.headers), options.token);
    // Bodies are small JSON documents: buffering them avoids the `duplex: 'half'` streaming request.
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const init: RequestInit = { method: request.method, headers, signal: request.signal };
    if (body !== undefined && body.byteLength > 0) init.body = body;
    return send(new Request(`${base}${url.pathname}${url.search}`, init));
  };
}
