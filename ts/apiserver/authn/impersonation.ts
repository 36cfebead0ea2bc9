/**
 * Impersonation (k8s.io/apiserver pkg/endpoints/filters/impersonation.go, v1.32): the
 * Impersonate-User, Impersonate-Group, Impersonate-Uid and Impersonate-Extra-<key> headers switch
 * the request's user after authentication, each requested value first authorized for the
 * authenticated user as the `impersonate` verb on users, groups, serviceaccounts (namespaced),
 * uids or userextras/<key>. The first refusal is the 403; groups, extras or a uid without a user
 * are refused as the filter does, with responsewriters.InternalError's plain-text 500.
 */
import { goQuote } from '../../api/go-format.js';
import { forbiddenStatusError } from '../../api/status.js';
import type { Attributes } from '../auth/attributes.js';
import type { Authorizer } from '../auth/authorizer.js';
import type { UserInfo } from './tokens.js';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER } from './user.js';

/** k8s.io/api/authentication/v1 types.go: the impersonation headers. */
export const IMPERSONATE_USER_HEADER = 'Impersonate-User';
export const IMPERSONATE_UID_HEADER = 'Impersonate-Uid';
export const IMPERSONATE_GROUP_HEADER = 'Impersonate-Group';
export const IMPERSONATE_USER_EXTRA_HEADER_PREFIX = 'Impersonate-Extra-';

/** serviceaccount/util.go ServiceAccountUsernamePrefix. */
const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';
const AUTHENTICATION_V1 = 'authentication.k8s.io/v1';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** What the filter reads of the request: its headers (the repeated ones as the web joins them) and URI. */
export interface ImpersonationRequest {
  headers: Iterable<[string, string]>;
  /** req.RequestURI: the path and query as sent. */
  requestUri: string;
}

/** The user to act as, or the plain-text response the filter answers with instead. */
export type ImpersonationResult = { user: UserInfo } | { response: Response };

/** A v1.ObjectReference as buildImpersonationRequests fills it. */
interface Reference {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  apiVersion: string;
  fieldPath: string;
}

/** Go's %v of a v1.ObjectReference: its seven fields, space separated, in braces. */
function referenceString(r: Reference): string {
  return `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`;
}

/** serviceaccount.SplitUsername: namespace and name, or undefined for any other user name. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) return undefined;
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) return undefined;
  return { namespace, name };
}

/** serviceaccount.MakeGroupNames. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/** http.Header's repeated values, from the web's `a, b` join. */
function values(joined: string): string[] {
  return joined.split(', ');
}

/** unescapeExtraKey: %-decoded, or as sent when it does not decode. */
function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** buildImpersonationRequests: the references to authorize, or the error for a request without a user. */
function buildImpersonationRequests(headers: Iterable<[string, string]>): { refs: Reference[]; error?: string } {
  const byName = new Map<string, string>();
  const extras: [string, string][] = [];
  const extraPrefix = IMPERSONATE_USER_EXTRA_HEADER_PREFIX.toLowerCase();
  for (const [k, v] of headers) {
    const name = k.toLowerCase();
    if (name.startsWith(extraPrefix)) extras.push([name.slice(extraPrefix.length), v]);
    else byName.set(name, v);
  }
  const refs: Reference[] = [];
  const ref = (kind: Reference['kind'], name: string, more: Partial<Reference> = {}): Reference => ({
    kind,
    namespace: '',
    name,
    apiVersion: '',
    fieldPath: '',
    ...more,
  });
  const requestedUser = byName.get(IMPERSONATE_USER_HEADER.toLowerCase()) ?? '';
  const hasUser = requestedUser !== '';
  if (hasUser) {
    const sa = splitServiceAccountUsername(requestedUser);
    refs.push(
      sa === undefined ? ref('User', requestedUser) : ref('ServiceAccount', sa.name, { namespace: sa.namespace }),
    );
  }
  const groupHeader = byName.get(IMPERSONATE_GROUP_HEADER.toLowerCase());
  const hasGroups = groupHeader !== undefined;
  for (const group of groupHeader === undefined ? [] : values(groupHeader)) refs.push(ref('Group', group));
  for (const [key, joined] of extras) {
    const extraKey = unescapeExtraKey(key);
    // One request per value, so that each is authorized.
    for (const value of values(joined)) {
      refs.push(ref('UserExtra', value, { apiVersion: AUTHENTICATION_V1, fieldPath: extraKey }));
    }
  }
  const requestedUid = byName.get(IMPERSONATE_UID_HEADER.toLowerCase()) ?? '';
  const hasUid = requestedUid !== '';
  if (hasUid) refs.push(ref('UID', requestedUid, { apiVersion: AUTHENTICATION_V1 }));
  if ((hasGroups || extras.length > 0 || hasUid) && !hasUser) {
    return { refs, error: `requested [${refs.map(referenceString).join(' ')}] without impersonating a user` };
  }
  return { refs };
}

/** responsewriters.InternalError: http.Error's plain text, the URI quoted, &<> escaped. */
function internalError(requestUri: string, err: string): Response {
  const text = `Internal Server Error: ${goQuote(requestUri)}: ${err}`
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
  return new Response(`${text}\n`, {
    status: 500,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });
}

/**
 * WithImpersonation: `requestor` unchanged without impersonation headers; else every requested
 * value authorized (the 403 thrown for the first refused) and the impersonated user built.
 */
export async function impersonate(
  authorizer: Authorizer,
  requestor: UserInfo,
  request: ImpersonationRequest,
): Promise<ImpersonationResult> {
  const built = buildImpersonationRequests(request.headers);
  if (built.error !== undefined) return { response: internalError(request.requestUri, built.error) };
  if (built.refs.length === 0) return { user: requestor };
  // Groups given are the authority, system:authenticated and system:unauthenticated included.
  const groupsSpecified = built.refs.some((r) => r.kind === 'Group');
  let username = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  let uid = '';
  for (const r of built.refs) {
    const attributes: Attributes = {
      user: requestor,
      verb: 'impersonate',
      resourceRequest: true,
      path: '',
      namespace: r.namespace,
      apiGroup: r.apiVersion === '' ? '' : 'authentication.k8s.io',
      apiVersion: r.apiVersion === '' ? '' : 'v1',
      resource: '',
      subresource: '',
      name: r.name,
    };
    switch (r.kind) {
      case 'ServiceAccount':
        attributes.resource = 'serviceaccounts';
        username = `${SERVICE_ACCOUNT_USERNAME_PREFIX}${r.namespace}:${r.name}`;
        // A service account's groups are a fixed mapping.
        if (!groupsSpecified) groups = serviceAccountGroups(r.namespace);
        break;
      case 'User':
        attributes.resource = 'users';
        username = r.name;
        break;
      case 'Group':
        attributes.resource = 'groups';
        groups.push(r.name);
        break;
      case 'UserExtra':
        attributes.resource = 'userextras';
        attributes.subresource = r.fieldPath;
        extra[r.fieldPath] = [...(extra[r.fieldPath] ?? []), r.name];
        break;
      case 'UID':
        uid = r.name;
        attributes.resource = 'uids';
        break;
    }
    const { decision, reason } = await authorizer.authorize(attributes);
    if (decision !== 'allow') {
      throw forbiddenStatusError(
        {
          user: requestor.name,
          verb: attributes.verb,
          resourceRequest: true,
          group: attributes.apiGroup,
          resource: attributes.resource,
          subresource: attributes.subresource,
          namespace: attributes.namespace,
          name: attributes.name,
        },
        reason,
      );
    }
  }
  if (username !== ANONYMOUS_USER) {
    // system:authenticated, unless it or system:unauthenticated is among the groups.
    if (!groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups.push(ALL_UNAUTHENTICATED);
  }
  return { user: { name: username, uid, groups, extra } };
}
