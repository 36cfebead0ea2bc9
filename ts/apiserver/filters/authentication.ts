/**
 * WithAuthentication (k8s.io/apiserver pkg/endpoints/filters/authentication.go): the user of the
 * request from its client certificate or bearer token (authn/authenticator.ts: the union of
 * authenticators, anonymous when allowed), or the 401 `Unauthorized` it throws.
 */
import type { RequestAuthenticator } from '../authn/authenticator.js';
import type { Filter } from './chain.js';

export function withAuthentication(authenticator: RequestAuthenticator): Filter {
  return (next) => async (r) => {
    r.user = await authenticator.authenticate(r.request.headers.get('Authorization'), r.request.connection);
    return next(r);
  };
}
