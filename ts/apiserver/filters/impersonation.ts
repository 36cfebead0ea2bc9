/**
 * WithImpersonation (k8s.io/apiserver pkg/endpoints/filters/impersonation.go), after
 * authentication: the `Impersonate-*` headers switch the request's user, each value authorized as
 * the `impersonate` verb for the authenticated user (authn/impersonation.ts), or answer its 403 / 500.
 */
import type { Authorizer } from '../auth/authorizer.js';
import { impersonate } from '../authn/impersonation.js';
import type { Filter } from './chain.js';

/** `authorizer` is asked for on each request: the server makes its RBAC authorizer on first use. */
export function withImpersonation(authorizer: () => Authorizer): Filter {
  return (next) => async (r) => {
    if (r.user === undefined) return next(r);
    const acting = await impersonate(authorizer(), r.user, {
      headers: r.request.headers.entries(),
      requestUri: `${r.url.pathname}${r.url.search}`,
    });
    if ('response' in acting) return acting.response;
    r.user = acting.user;
    return next(r);
  };
}
