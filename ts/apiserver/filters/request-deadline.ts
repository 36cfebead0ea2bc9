/**
 * WithRequestDeadline (k8s.io/apiserver pkg/endpoints/filters/request_deadline.go): the deadline of
 * a request that is not long-running — the --request-timeout default (60 s), shortened by
 * `?timeout=` (Go durations), never lengthened; a malformed value is 400 BadRequest.
 */
import { parseGoDuration } from '../../api/go-duration.js';
import { newBadRequest } from '../../api/status.js';
import type { Filter } from './chain.js';

/** --request-timeout default, 60s (k8s.io/apiserver pkg/server/config.go NewConfig RequestTimeout). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * WithRequestDeadline (k8s.io/apiserver pkg/endpoints/filters/request_deadline.go): `?timeout=`
 * shortens the default deadline, never lengthens it; 0 or a negative value means the default. A
 * malformed value is 400 BadRequest.
 */
export function requestDeadlineMs(query: URLSearchParams, defaultMs: number): number {
  const value = query.get('timeout') ?? '';
  if (value === '') return defaultMs;
  let ms: number;
  try {
    ms = parseGoDuration(value);
  } catch (err) {
    throw newBadRequest(`invalid timeout specified in the request URL - ${(err as Error).message}`);
  }
  return ms > 0 && ms < defaultMs ? ms : defaultMs;
}

/**
 * The filter: `deadlineMs` for the timeout filter after it; long-running requests have none. A
 * malformed `?timeout=` is thrown to the error handler.
 */
export function withRequestDeadline(defaultMs: number): Filter {
  return (next) => (r) => {
    if (!r.info.longRunning) r.deadlineMs = requestDeadlineMs(r.url.searchParams, defaultMs);
    return next(r);
  };
}
