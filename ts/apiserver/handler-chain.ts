/**
 * The handler chain every request goes through before the routes, in order, as
 * DefaultBuildHandlerChain composes it (k8s.io/apiserver pkg/server/config.go, v1.32). The order is
 * observable (test/bad-requests/): a malformed `?timeout=` is a 400 before credentials are
 * looked at, system:masters passes a full in-flight budget because authentication comes first, and
 * authorization runs inside the in-flight slot. Long-running requests (watch, log) skip the
 * deadline, the timeout and the in-flight limit.
 */

import type { Clock } from '../sim/clock.js';
import type { Logger } from '../sim/logger.js';
import type { Authorizer } from './auth/authorizer.js';
import type { RequestAuthenticator } from './authn/authenticator.js';
import { withAuthentication } from './filters/authentication.js';
import { withAuthorization } from './filters/authorization.js';
import type { Filter, Handler } from './filters/chain.js';
import { withErrorHandler } from './filters/error-handler.js';
import { withImpersonation } from './filters/impersonation.js';
import { type InFlightLimiter, withMaxInFlightLimit } from './filters/max-in-flight.js';
import { withPublicPaths } from './filters/public-paths.js';
import { withRequestDeadline } from './filters/request-deadline.js';
import { withRequestInfo } from './filters/request-info.js';
import { withTimeout } from './filters/timeout.js';
import type { Incoming } from './incoming.js';

/** What the filters are made with (config.ts completes it from the server's options). */
export interface ChainConfig {
  clock: Clock;
  /** Where internal errors (anything thrown that is not a StatusError) are logged. */
  logger: Logger;
  requestTimeoutMs: number;
  limiter: InFlightLimiter;
  authenticator: RequestAuthenticator;
  authorizer: () => Authorizer;
}

/** `routes` behind the filters, outermost first; the result answers every request, errors included. */
export function buildHandlerChain(routes: Handler, c: ChainConfig): (request: Incoming) => Promise<Response> {
  return withErrorHandler(
    withRequestInfo(
      compose(
        [
          withRequestDeadline(c.requestTimeoutMs),
          withTimeout(c.clock, c.logger),
          withPublicPaths,
          withAuthentication(c.authenticator),
          withImpersonation(c.authorizer),
          withMaxInFlightLimit(c.limiter),
          withAuthorization(c.authorizer),
        ],
        routes,
      ),
    ),
    c.logger,
  );
}

/** `filters` around `handler`, the first one outermost. */
function compose(filters: readonly Filter[], handler: Handler): Handler {
  return filters.reduceRight<Handler>((next, filter) => filter(next), handler);
}
