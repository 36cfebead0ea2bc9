/**
 * The apiserver as a web-standard handler: `handle(request) → Response`, callable in-process
 * (tests, a browser worker) or behind the Node fronts (node/http2.ts, node/https.ts). As
 * kube-apiserver is built: the options completed (config.ts), the handler chain (handler-chain.ts)
 * in front of the routes (endpoints/router.ts). Every thrown value is answered as a Kubernetes Status.
 *
 *   const api = createApiServer({ storage, tokens });
 *   const res = await api.handle(new Request('https://x/api/v1/namespaces', { headers: { Authorization: 'Bearer t' } }));
 */
import type { ConnectionInfo } from './authn/connection.js';
import { type ApiServerOptions, completeConfig } from './config.js';
import { CrdControllers } from './crd/controllers.js';
import { apiRoutes } from './endpoints/router.js';
import { buildHandlerChain } from './handler-chain.js';
import { type DirectCall, incomingCall, incomingRequest } from './incoming.js';

export interface ApiServer {
  /** `connection`: what the server front knows of the TLS connection (the client certificate). */
  handle(request: Request, connection?: ConnectionInfo): Promise<Response>;
  /**
   * handle() without a web Request, for a caller in this process or a Node front that has the
   * request's parts already (node/bridge.ts): answers what
   * `handle(new Request(call.url, call), connection)` would.
   */
  handleCall?(call: DirectCall, connection?: ConnectionInfo): Promise<Response>;
}

export function createApiServer(options: ApiServerOptions): ApiServer {
  const config = completeConfig(options);
  // apiextensions' naming, establishing and finalizer controllers, in-server on the same storage.
  new CrdControllers(options.storage, config.crds, config.clock);
  const handle = buildHandlerChain(apiRoutes(config), config);
  return {
    handle: (request, connection) => handle(incomingRequest(request, connection)),
    handleCall: async (call, connection) => handle(incomingCall(call, connection)),
  };
}
