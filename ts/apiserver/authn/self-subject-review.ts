/**
 * `authentication.k8s.io/v1 SelfSubjectReview` (`kubectl auth whoami`): create-only, never stored;
 * the answer is the requester's user as authentication (and impersonation) left it
 * (pkg/registry/authentication/selfsubjectreview/rest.go, v1.32).
 */
import { newBadRequest, newMethodNotAllowed, newPathNotFound } from '../../api/status.js';
import { rfc3339 } from '../../api/time.js';
import { decodeCreateBody } from '../endpoints/create.js';
import { jsonResponse } from '../endpoints/response.js';
import type { ResourceInfo } from '../registry/resources.js';
import type { UserInfo } from './tokens.js';

export const AUTHENTICATION_GROUP = 'authentication.k8s.io';

/** authentication/v1 UserInfo as JSON: every field omitempty. */
export function userInfoJson(user: UserInfo): Record<string, unknown> {
  const extra = user.extra ?? {};
  return {
    ...(user.name === '' ? {} : { username: user.name }),
    ...(user.uid === '' ? {} : { uid: user.uid }),
    ...(user.groups.length === 0 ? {} : { groups: [...user.groups] }),
    ...(Object.keys(extra).length === 0 ? {} : { extra: { ...extra } }),
  };
}

/** What a review handler reads of the request. */
export interface ReviewRequest {
  info: ResourceInfo;
  name: string;
  namespace: string;
  query: URLSearchParams;
}

/** POST a SelfSubjectReview: 201 with `status.userInfo`; 405 for any other method. */
export function handleSelfSubjectReview(
  req: ReviewRequest,
  method: string,
  user: UserInfo | undefined,
  bodyText: string,
  now: number,
): Response {
  if (req.name !== '' || req.namespace !== '') throw newPathNotFound();
  if (method !== 'POST') throw newMethodNotAllowed();
  const { warnings } = decodeCreateBody(req.info, req.query, bodyText);
  if (user === undefined) throw newBadRequest('no user present on request');
  const obj = {
    kind: 'SelfSubjectReview',
    apiVersion: `${AUTHENTICATION_GROUP}/v1`,
    metadata: { creationTimestamp: rfc3339(now) },
    status: { userInfo: userInfoJson(user) },
  };
  return jsonResponse(201, obj, { warnings });
}
