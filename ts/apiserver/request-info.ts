/**
 * What a resource URL addresses (k8s.io/apiserver pkg/endpoints/request RequestInfoFactory):
 * `/api/v1/namespaces/ns/pods/name`, `/apis/apps/v1/deployments`, `/api/v1/namespaces/name`.
 */

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
