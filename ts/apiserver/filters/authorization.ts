/**
 * WithAuthorization (k8s.io/apiserver pkg/endpoints/filters/authorization.go), after the
 * in-flight limit: the request's attributes decided by the authorizer, anything but allow the 403
 * of auth/enforce.ts.
 */
import type { Authorizer } from '../auth/authorizer.js';
import { authorizeRequest } from '../auth/enforce.js';
import type { Filter } from './chain.js';

/** `authorizer` is asked for on each request: the server makes its RBAC authorizer on first use. */
export function withAuthorization(authorizer: () => Authorizer): Filter {
  return (next) => async (r) => {
    if (r.user !== undefined) await authorizeRequest(authorizer(), r.user, r.request.method, r.url);
    return next(r);
  };
}
