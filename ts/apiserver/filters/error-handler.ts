/**
 * The one error handler, outermost in the chain (the role of k8s.io/apiserver
 * pkg/server/filters/wrap.go WithPanicRecovery and of responsewriters.ErrorNegotiated): whatever a
 * filter or handler throws is answered as a Kubernetes Status (api/status.ts toStatus); anything
 * that is not a StatusError is an InternalError, logged to the server's logger.
 */
import { StatusError, statusCode, toStatus } from '../../api/status.js';
import type { Logger } from '../../sim/logger.js';
import { jsonResponse } from '../endpoints/response.js';
import type { Incoming } from '../incoming.js';

/** The Status response for a thrown value (one the caller made: nothing is logged). */
export function statusResponse(err: unknown): Response {
  return jsonResponse(statusCode(err), toStatus(err));
}

/** The Status response for any thrown value, an unexpected one (not a StatusError) logged first. */
export function errorResponder(logger: Logger): (err: unknown) => Response {
  return (err) => {
    if (!(err instanceof StatusError)) logger.error(err, 'internal error');
    return statusResponse(err);
  };
}

/** The chain's outermost step: every error of `next` becomes its Status response. */
export function withErrorHandler(
  next: (request: Incoming) => Promise<Response>,
  logger: Logger,
): (request: Incoming) => Promise<Response> {
  const respond = errorResponder(logger);
  return async (request) => {
    try {
      return await next(request);
    } catch (err) {
      return respond(err);
    }
  };
}
