/**
 * How a kube-controller-manager controller reaches the apiserver with
 * --use-service-account-credentials (cmd/kube-controller-manager/app/controllermanager.go): its
 * lists and watches go through the shared informers, which the controller manager opens with its
 * own credential (`rootClientBuilder.ClientOrDie("shared-informers")`, system:kube-controller-manager,
 * allowed `list, watch` on everything); every other call — gets, writes, deletes — is the
 * controller's own, with its ServiceAccount's token, and its bootstrap role decides it. (In
 * ts/cluster the shared informers themselves are the process's one factory, as system:apiserver;
 * the controller manager's credential carries a controller's own collection reads.)
 *
 *   createClient(controllerTransport(inProcessTransport(api, managerToken), inProcessTransport(api, source.current)))
 */
import type { Transport, TransportCall } from './transport.js';

/** A GET of a collection (list, or watch): `/api/v1/pods`, `/apis/apps/v1/namespaces/ns/deployments?watch=1`. */
export function isCollectionRead(method: string, url: string): boolean {
  if (method.toUpperCase() !== 'GET') return false;
  const path = new URL(url).pathname.replace(/\/+$/, '');
  const m = /^\/(?:api\/[^/]+|apis\/[^/]+\/[^/]+)\/(.+)$/.exec(path);
  if (m === null) return false;
  let rest = (m[1] as string).split('/');
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  return rest.length === 1;
}

/** `informers` for collection reads, `own` for everything else; the direct fast path kept where both have it. */
export function controllerTransport(informers: Transport, own: Transport): Transport {
  const transport: Transport = (request) =>
    isCollectionRead(request.method, request.url) ? informers(request) : own(request);
  const informersDirect = informers.direct;
  const ownDirect = own.direct;
  if (informersDirect !== undefined && ownDirect !== undefined) {
    transport.direct = (call: TransportCall) =>
      isCollectionRead(call.method, call.url) ? informersDirect(call) : ownDirect(call);
  }
  return transport;
}
