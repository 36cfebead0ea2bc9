/**
 * The Node HTTPS/1.1 front of the web-standard handler: node:https with the serving certificate;
 * requests, listening and WebSocket watch through bridge.ts. `kubewasm up` serves through http2.ts, which offers h2 beside HTTP/1.1;
 * this front is the plain-HTTP/1.1 baseline the API benchmark compares it with.
 */
import { createServer, type Server } from 'node:https';
import type { ServingTls } from '../certs.js';
import type { ApiServer } from '../server.js';
import { clientCertificateOptions, type HttpsServer, listen, requestListener } from './bridge.js';

export type { HttpsServer } from './bridge.js';

/** Serves `api` over HTTPS on host:port (port 0 = any free port); `log` gets a line per request. */
export function serveHttps(
  api: ApiServer,
  tls: ServingTls,
  host: string,
  port: number,
  log?: (line: string) => void,
): Promise<HttpsServer> {
  let address = `${host}:${port}`;
  const server: Server = createServer(
    { cert: tls.certPem, key: tls.keyPem, ...clientCertificateOptions(tls) },
    requestListener(api, () => address, log),
  );
  return listen(
    server,
    api,
    { host, port },
    (a) => (address = a),
    () => server.closeAllConnections(),
    log,
  );
}
