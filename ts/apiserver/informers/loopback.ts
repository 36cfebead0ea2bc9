/**
 * The apiserver's loopback client (k8s.io/apiserver pkg/server/config.go AuthorizeClientBearerToken
 * and SecureServingInfo.NewLoopbackClientConfig): a bearer token made in memory at every start,
 * authenticating as `system:apiserver` in `system:masters`, and the SharedInformerFactory over a
 * client of the server itself with it — the informers of an apiserver no process factory was
 * given to (genericConfig.SharedInformerFactory).
 *
 * The token is added to the token authenticator as kube-apiserver adds it: 32 random bytes, never
 * written down nor logged, so only code holding the server object can present it. The factory's
 * requests go through the whole handler chain like any other client's; being in system:masters,
 * they are allowed before RBAC is asked — which the RBAC authorizer's own informers need.
 */
import { createClient } from '../../client/client.js';
import { SharedInformerFactory, type SharedInformerFactoryOptions } from '../../client/informers/factory.js';
import { inProcessTransport, type RequestHandler } from '../../client/transport.js';
import type { UserInfo } from '../authn/tokens.js';
import { APISERVER_USER, SYSTEM_PRIVILEGED_GROUP } from '../authn/user.js';

/** The loopback credential: its bearer token and the user it authenticates as. */
export interface LoopbackCredential {
  readonly token: string;
  readonly user: UserInfo;
}

/** A new loopback credential (uuid.New() in kube-apiserver; 32 random bytes here, as the cluster's tokens). */
export function loopbackCredential(): LoopbackCredential {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  const token = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return {
    token,
    user: { name: APISERVER_USER, uid: globalThis.crypto.randomUUID(), groups: [SYSTEM_PRIVILEGED_GROUP] },
  };
}

/** `tokens` with the loopback token added (a new map: the caller's is left as it is). */
export function withLoopbackToken(
  tokens: ReadonlyMap<string, UserInfo>,
  loopback: LoopbackCredential,
): ReadonlyMap<string, UserInfo> {
  return new Map([...tokens, [loopback.token, loopback.user]]);
}

/**
 * The informer factory over an in-process client of `server` with the bearer `token` (the loopback
 * one). `server` is asked for at each request, so the factory can be made before the server it
 * reads exists (the server is given it; ts/cluster makes the process's one factory so).
 */
export function loopbackInformers(
  server: () => RequestHandler,
  token: string,
  options: SharedInformerFactoryOptions,
): SharedInformerFactory {
  const self: RequestHandler = {
    handle: (request) => server().handle(request),
    handleCall: (call) => {
      const target = server();
      return target.handleCall !== undefined ? target.handleCall(call) : target.handle(new Request(call.url, call));
    },
  };
  return new SharedInformerFactory(createClient(inProcessTransport(self, token)), options);
}
