/**
 * `authentication.k8s.io/v1 TokenReview`: create-only, never stored; the token in the spec run
 * through the apiserver's bearer token authenticators for the spec's audiences (default: the API
 * audiences), as pkg/registry/authentication/tokenreview/storage.go does (v1.32).
 */
import { newBadRequest, newInternalError, newMethodNotAllowed, newPathNotFound } from '../../api/status.js';
import { decodeCreateBody } from '../endpoints/create.js';
import { jsonResponse } from '../endpoints/response.js';
import type { RequestAuthenticator } from './authenticator.js';
import { AUTHENTICATION_GROUP, type ReviewRequest, userInfoJson } from './self-subject-review.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** storage.go badAuthenticatorAuds. */
const BAD_AUTHENTICATOR_AUDS = 'error validating audiences';

/** POST a TokenReview: 201 with the status; 400 without a token; 405 for any other method. */
export async function handleTokenReview(
  req: ReviewRequest,
  method: string,
  bodyText: string,
  authenticator: RequestAuthenticator,
  apiAudiences: readonly string[],
): Promise<Response> {
  if (req.name !== '' || req.namespace !== '') throw newPathNotFound();
  if (method !== 'POST') throw newMethodNotAllowed();
  const { body, warnings } = decodeCreateBody(req.info, req.query, bodyText);
  const spec: Obj = isObj(body.spec) ? body.spec : {};
  const token = typeof spec.token === 'string' ? spec.token : '';
  if (token === '') throw newBadRequest('token is required for TokenReview in authentication');
  const specAudiences = Array.isArray(spec.audiences)
    ? spec.audiences.filter((a): a is string => typeof a === 'string')
    : [];
  const audiences = specAudiences.length > 0 ? specAudiences : [...apiAudiences];
  const result = await authenticator.authenticateToken(token, audiences);
  // A token good for none of the requested audiences is the authenticator's fault, not the token's.
  if (
    result.user !== undefined &&
    result.audiences !== undefined &&
    audiences.length > 0 &&
    !result.audiences.some((a) => audiences.includes(a))
  ) {
    throw newInternalError(BAD_AUTHENTICATOR_AUDS);
  }
  const meta = isObj(body.metadata) ? body.metadata : {};
  const status: Obj = {};
  if (result.user !== undefined) status.authenticated = true;
  // UserInfo is a struct: encoding/json writes it even when empty.
  status.user = result.user === undefined ? {} : userInfoJson({ ...result.user, extra: result.user.extra ?? {} });
  if (result.user !== undefined && result.audiences !== undefined && result.audiences.length > 0) {
    status.audiences = result.audiences;
  }
  if (result.error !== undefined) status.error = result.error;
  const obj = {
    kind: 'TokenReview',
    apiVersion: `${AUTHENTICATION_GROUP}/v1`,
    metadata: { ...meta, creationTimestamp: null },
    spec: { token, ...(specAudiences.length > 0 ? { audiences: specAudiences } : {}) },
    status,
  };
  return jsonResponse(201, obj, { warnings });
}
