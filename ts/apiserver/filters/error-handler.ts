/**
 * The one error handler, outermost in the chain (the role of k8s.io/apiserver
 * pkg/server/filters/wrap.go WithPanicRecovery and of responsewriters.ErrorNegotiated): whatever a
 * filter or handler throws is answered as a Kubernetes Status (api/status.ts toStatus); anything
 * that is not a StatusError is an InternalError, logged.
 */
import { StatusError, statusCode, toStatus } from '../../api/status.js';
import { jsonResponse } from '../endpoints/response.js';
import type { Incoming } from '../incoming.js';

/** The Status response for any thrown value. */
export function errorResponse(err: unknown): Response {
  const status = toStatus(err);
  if (!(err instanceof StatusError)) console.error('kubewasm apiserver: internal error', err);
  return jsonResponse(statusCode(err), status);
}

/** The chain's outermost step: every error of `next` becomes its Status response. */
export function withErrorHandler(
  next: (request: Incoming) => Promise<Response>,
): (request: Incoming) => Promise<Response> {
  return async (request) => {
    try {
      return await next(request);
    } catch (err) {
      return errorResponse(err);
    }
  };
}
