/**
 * What a request addresses (k8s.io/apiserver pkg/endpoints/request/requestinfo.go
 * RequestInfoFactory): the resource of a URL (`/api/v1/namespaces/ns/pods/name`,
 * `/apis/apps/v1/deployments`, `/api/v1/namespaces/name`), the request's verb and whether it is
 * mutating or long-running; and the chain's WithRequestInfo (pkg/endpoints/filters/requestinfo.go),
 * which learns them once for the filters after it.
 */

import type { Incoming } from '../incoming.js';
import type { Handler, RequestClass } from './chain.js';

export interface ResourcePath {
  group: string;
  version: string;
  namespace: string;
  resource: string;
  name: string;
  subresource: string;
}

/** The resource a path names, or undefined when it is not a resource path. */
export function parseResourcePath(pathname: string): ResourcePath | undefined {
  const parts = pathname.split('/').filter((p) => p !== '');
  let group: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    rest = parts.slice(1);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1] as string;
    rest = parts.slice(2);
  } else {
    return undefined;
  }
  const version = rest[0] as string;
  let segs = rest.slice(1).map(decodeURIComponent);
  let namespace = '';
  if (segs[0] === 'namespaces' && segs.length > 1) {
    namespace = segs[1] as string;
    // `/namespaces/<name>` and `/namespaces/<name>/<subresource>` address the Namespace itself.
    if (segs.length > 2 && !['status', 'finalize'].includes(segs[2] as string)) segs = segs.slice(2);
  }
  const [resource, name, subresource, ...extra] = segs;
  if (resource === undefined || extra.length > 0) return undefined;
  return { group, version, namespace, resource, name: name ?? '', subresource: subresource ?? '' };
}

/** Verbs that never count as mutating (maxinflight.go `nonMutatingRequestVerbs`). */
const NON_MUTATING_VERBS = new Set(['get', 'list', 'watch']);
/**
 * kube-apiserver's LongRunningFunc (k8s.io/kubernetes pkg/controlplane/apiserver/config.go):
 * verbs watch and proxy, subresources attach, exec, proxy, log, portforward. These hold no
 * in-flight slot and have no deadline.
 */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** RequestInfoFactory's verb for a request, and whether it is mutating or long-running. */
export function classifyRequest(method: string, url: URL): RequestClass {
  const m = method.toUpperCase();
  const path = url.pathname.replace(/\/+$/, '');
  const rp = parseResourcePath(path);
  let verb: string;
  if (rp === undefined) {
    verb = m === 'HEAD' ? 'get' : m.toLowerCase();
  } else if (m === 'GET' || m === 'HEAD') {
    const watchParam = url.searchParams.get('watch');
    const watching = watchParam === 'true' || watchParam === '1' || /^\/apis?(?:\/[^/]+)*\/watch\//.test(path);
    if (watching) verb = 'watch';
    else verb = rp.name === '' ? 'list' : 'get';
  } else if (m === 'POST') verb = 'create';
  else if (m === 'PUT') verb = 'update';
  else if (m === 'PATCH') verb = 'patch';
  else if (m === 'DELETE') verb = rp.name === '' ? 'deletecollection' : 'delete';
  else verb = m.toLowerCase();
  const longRunning =
    LONG_RUNNING_VERBS.has(verb) || (rp !== undefined && LONG_RUNNING_SUBRESOURCES.has(rp.subresource));
  return { verb, mutating: !NON_MUTATING_VERBS.has(verb), longRunning };
}

/**
 * WithRequestInfo: the request's URL, path (trailing slashes dropped) and RequestClass, for the
 * chain below. A URL that does not parse is thrown to the error handler.
 */
export function withRequestInfo(next: Handler): (request: Incoming) => Promise<Response> {
  return (request) => {
    const url = new URL(request.url);
    const info = classifyRequest(request.method, url);
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    return next({ request, url, path, info, deadlineMs: undefined, user: undefined });
  };
}
