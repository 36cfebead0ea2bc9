/**
 * The Node HTTPS front of the web-standard handler: node:https with the serving certificate,
 * request bodies limited to 3 MiB (413 beyond, as kube-apiserver's maxRequestBodyBytes), and
 * Response bodies streamed as they come (watch).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { newRequestEntityTooLarge, toStatus } from '../../api/status.js';
import type { KeyPair } from '../certs.js';
import type { ApiServer } from '../server.js';

/** kube-apiserver's default --max-request-body-bytes ... is 3 MiB for JSON objects. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

export interface HttpsServer {
  port: number;
  close(): Promise<void>;
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  out.set(Buffer.concat(chunks));
  return out;
}

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function serve(
  api: ApiServer,
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
  log: ((line: string) => void) | undefined,
): Promise<void> {
  const declared = Number(req.headers['content-length'] ?? '0');
  let body: Uint8Array<ArrayBuffer> | undefined;
  try {
    if (declared > MAX_REQUEST_BODY_BYTES) throw new BodyTooLarge();
    if (req.method !== 'GET' && req.method !== 'HEAD') body = await readBody(req, MAX_REQUEST_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      sendJson(res, 413, toStatus(newRequestEntityTooLarge(`limit is ${MAX_REQUEST_BODY_BYTES}`)));
      req.resume();
      return;
    }
    throw err;
  }
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const request = new Request(`https://${host}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    ...(body !== undefined && body.length > 0 ? { body } : {}),
    signal: abort.signal,
  });
  const response = await api.handle(request);
  if (log)
    log(
      `${req.method} ${req.url} ${req.headers['content-type'] ?? '-'} ${req.headers.accept ?? '-'} → ${response.status}`,
    );
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    const prev = out[key];
    out[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  });
  // Headers.forEach joins repeated headers; Warning is the one we repeat.
  const warnings = response.headers.get('warning');
  if (warnings !== null) out.warning = warnings.split(/,\s*(?=299 )/);
  res.writeHead(response.status, out);
  res.flushHeaders();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => {
    reader.cancel().catch(() => {});
  });
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve));
    }
  } catch {
    // the client went away
  }
  res.end();
}

/** Serves `api` over HTTPS on host:port (port 0 = any free port). */
/** `log` gets one line per request (method, URL, content type, accept, status). */
export function serveHttps(
  api: ApiServer,
  tls: KeyPair,
  host: string,
  port: number,
  log?: (line: string) => void,
): Promise<HttpsServer> {
  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    serve(api, req, res, `${host}:${port}`, log).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, toStatus(err));
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const actual = (server.address() as AddressInfo).port;
      resolve({
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
