/**
 * The Node HTTP/2 front of the web-standard handler: node:http2 over TLS, offering `h2` and
 * `http/1.1` by ALPN (allowHTTP1), so kubectl and client-go — which negotiate h2 and multiplex every
 * request over one connection — and HTTP/1.1 clients share one port, as on kube-apiserver. Each
 * request is served by bridge.ts; watch over WebSocket on HTTP/1.1 Upgrade requests
 * (watch-websocket.ts). This is the front `kubewasm up` serves through.
 */
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { ServingTls } from '../certs.js';
import type { ApiServer } from '../server.js';
import { clientCertificateOptions, type HttpsServer, listen, requestListener } from './bridge.js';

// kube-apiserver's HTTP/2 settings (k8s.io/apiserver/pkg/server/secure_serving.go): "at least 99% of
// serialized resources … were smaller than 256kb" (resourceBody99Percentile) sizes each stream's
// upload buffer and the largest frame read; 250 concurrent streams (the default made explicit);
// the connection's upload buffer is the two multiplied. Node's defaults (64 KiB windows for the
// stream and the whole connection) make 100 clients' request bodies wait for window updates.
const RESOURCE_BODY_99_PERCENTILE = 256 * 1024;
const MAX_CONCURRENT_STREAMS = 250;

/**
 * Serves `api` over TLS on host:port (port 0 = any free port) with HTTP/2 and HTTP/1.1 by ALPN.
 * `log` gets one line per request (method, URL, content type, accept, status).
 */
export function serveHttp2(
  api: ApiServer,
  tls: ServingTls,
  host: string,
  port: number,
  log?: (line: string) => void,
): Promise<HttpsServer> {
  let address = `${host}:${port}`;
  const server: Http2SecureServer = createSecureServer(
    // Node ends a session with ENHANCE_YOUR_CALM past maxSessionMemory (10 MB by default), which
    // 100 streams of ≈2 KB requests in flight reach; kube-apiserver, in Go, has no such cap.
    {
      cert: tls.certPem,
      key: tls.keyPem,
      ...clientCertificateOptions(tls),
      allowHTTP1: true,
      maxSessionMemory: 256,
      settings: {
        initialWindowSize: RESOURCE_BODY_99_PERCENTILE,
        maxFrameSize: RESOURCE_BODY_99_PERCENTILE,
        maxConcurrentStreams: MAX_CONCURRENT_STREAMS,
      },
    },
    requestListener(api, () => address, log),
  );
  const sessions = new Set<{ destroy(): void }>();
  server.on('session', (s) => {
    s.setLocalWindowSize(RESOURCE_BODY_99_PERCENTILE * MAX_CONCURRENT_STREAMS);
    sessions.add(s);
    s.once('close', () => sessions.delete(s));
  });
  const sockets = new Set<{ destroy(): void }>();
  server.on('secureConnection', (socket: { destroy(): void; once(e: 'close', f: () => void): void }) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const closeConnections = () => {
    for (const s of sessions) s.destroy();
    for (const s of sockets) s.destroy();
  };
  return listen(server, api, { host, port }, (a) => (address = a), closeConnections, log);
}
