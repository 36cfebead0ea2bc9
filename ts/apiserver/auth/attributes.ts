/**
 * What a request asks to do, as the authorizer sees it (k8s.io/apiserver pkg/authorization/authorizer
 * Attributes), derived from the method and URL as RequestInfoFactory.NewRequestInfo does
 * (k8s.io/apiserver pkg/endpoints/request/requestinfo.go).
 *
 *   attributesFor(user, 'GET', new URL('https://x/api/v1/namespaces/default/pods?watch=1'))
 *   // → { verb: 'watch', resourceRequest: true, namespace: 'default', resource: 'pods', … }
 */
import type { UserInfo } from '../authn/tokens.js';

export type { UserInfo } from '../authn/tokens.js';

/** One request's authorization attributes (authorizer.AttributesRecord). */
export interface Attributes {
  user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection; for non-resource paths the lower-cased method. */
  verb: string;
  /** false for non-resource URLs such as /healthz, /api, /apis/apps/v1. */
  resourceRequest: boolean;
  /** The URL path (non-resource requests are authorized on it). */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

// requestinfo.go: APIPrefixes "api", "apis"; GrouplessAPIPrefixes "api".
const API_PREFIXES = new Set(['api', 'apis']);
// requestinfo.go namespaceSubresources: the paths under /namespaces/<name>/ that address the Namespace.
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
// requestinfo.go specialVerbs (proxy, watch); specialVerbsNoSubresources (proxy).
const SPECIAL_VERBS = new Set(['proxy', 'watch']);

/** Attributes of a request with no resource: a non-resource path. */
function nonResource(user: UserInfo, method: string, path: string): Attributes {
  return {
    user,
    verb: method.toLowerCase(),
    resourceRequest: false,
    path,
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

/** The authorization attributes of `method url` made by `user` (NewRequestInfo + GetAuthorizerAttributes). */
export function attributesFor(user: UserInfo, method: string, url: URL): Attributes {
  const path = url.pathname;
  // strings.Split(strings.Trim(req.URL.Path, "/"), "/")
  let parts = path.replace(/^\/+|\/+$/g, '').split('/');
  // A resource request has at least /prefix/group/version or /api/version plus a resource.
  if (parts.length < 3 || !API_PREFIXES.has(parts[0] as string)) return nonResource(user, method, path);
  const prefix = parts[0] as string;
  parts = parts.slice(1);
  let apiGroup = '';
  if (prefix !== 'api') {
    apiGroup = parts[0] as string;
    parts = parts.slice(1);
  }
  const apiVersion = parts[0] as string;
  parts = parts.slice(1);
  if (parts.length === 0) return nonResource(user, method, path);
  parts = parts.map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });

  let verb: string;
  switch (method.toUpperCase()) {
    case 'POST':
      verb = 'create';
      break;
    case 'GET':
    case 'HEAD':
      verb = 'get';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = 'delete';
      break;
    default:
      verb = '';
  }
  // /api/v1/watch/… and /api/v1/proxy/…: the verb is in the path.
  if (SPECIAL_VERBS.has(parts[0] as string)) {
    if (parts.length < 2) return nonResource(user, method, path);
    verb = parts[0] as string;
    parts = parts.slice(1);
  }

  let namespace = '';
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1] as string;
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2] as string)) parts = parts.slice(2);
    }
  }
  const resource = parts[0] as string;
  const name = parts.length >= 2 ? (parts[1] as string) : '';
  const subresource = parts.length >= 3 ? (parts[2] as string) : '';
  let fieldName = name;

  // A GET of a collection is a list, or a watch with ?watch=true; DELETE of one is deletecollection.
  if (name === '' && verb === 'get') {
    const watch = url.searchParams.get('watch');
    verb = watch !== null && ['1', 'true'].includes(watch.toLowerCase()) ? 'watch' : 'list';
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  // list and watch with fieldSelector metadata.name=<n> name one object (requestinfo.go).
  if (verb === 'list' || verb === 'watch') {
    const selector = url.searchParams.get('fieldSelector');
    if (selector !== null) {
      // FieldSelector.RequiresExactMatch("metadata.name"), kept when a valid path segment name.
      for (const term of selector.split(',')) {
        const m = /^\s*metadata\.name\s*(?:==|=)\s*(.*?)\s*$/.exec(term);
        const n = m?.[1];
        if (n !== undefined && n !== '' && n !== '.' && n !== '..' && !/[/%]/.test(n)) fieldName = n;
      }
    }
  }
  return {
    user,
    verb,
    resourceRequest: true,
    path,
    namespace,
    apiGroup,
    apiVersion,
    resource,
    subresource,
    name: fieldName,
  };
}
