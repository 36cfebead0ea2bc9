/**
 * The apiserver as a web-standard handler: `handle(request) → Response`, callable in-process
 * (tests, a browser worker) or behind the Node fronts (node/http2.ts, node/https.ts). As
 * kube-apiserver is built: the options completed (config.ts), the handler chain (handler-chain.ts)
 * in front of the routes (endpoints/router.ts). Every thrown value is answered as a Kubernetes Status.
 *
 *   const api = createApiServer({ storage, tokens });
 *   const res = await api.handle(new Request('https://x/api/v1/namespaces', { headers: { Authorization: 'Bearer t' } }));
 *   …  await api.close();   // its informers and in-server controllers (before the storage closes)
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
  /**
   * Stops what the server runs besides requests: the in-server CRD controllers, and the informers
   * when they are its own (a factory given in the options is its owner's to shut down).
   * createApiServer's server has it; a front or a wrapper need not.
   */
  close?(): Promise<void>;
}

export function createApiServer(options: ApiServerOptions): ApiServer {
  let server: ApiServer | undefined;
  const config = completeConfig(options, () => {
    if (server === undefined) throw new Error('kubewasm apiserver: a loopback request before the server was made');
    return server;
  });
  // apiextensions' naming, establishing and finalizer controllers, in-server on the same storage.
  const crdControllers = new CrdControllers(options.storage, config.crds, config.clock);
  const handle = buildHandlerChain(apiRoutes(config), config);
  server = {
    handle: (request, connection) => handle(incomingRequest(request, connection)),
    handleCall: async (call, connection) => handle(incomingCall(call, connection)),
    async close() {
      crdControllers.stop();
      config.crds.stop();
      if (config.ownsInformers) await config.informers.shutdown();
    },
  };
  return server;
}
