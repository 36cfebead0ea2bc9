/**
 * WithTimeoutForNonLongRunningRequests (k8s.io/apiserver pkg/server/filters/timeout.go): the
 * response, or once the request's deadline passes the 504 `Timeout: request did not complete within
 * the allotted timeout`, while the handler keeps running to its end, as Go's does.
 */
import { newTimeoutError } from '../../api/status.js';
import type { Clock } from '../../sim/clock.js';
import type { Logger } from '../../sim/logger.js';
import type { Filter } from './chain.js';
import { errorResponder } from './error-handler.js';

/**
 * WithTimeoutForNonLongRunningRequests (k8s.io/apiserver pkg/server/filters/timeout.go): the
 * response, or after `ms` the 504 `Timeout: request did not complete within the allotted timeout`
 * while the handler keeps running to its end, as Go's does.
 */
export function withDeadline(
  work: Promise<Response>,
  ms: number,
  clock: Clock,
  timedOut: (err: Error) => Response,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let done = false;
    const cancel = clock.setTimer(() => {
      if (done) return;
      done = true;
      resolve(timedOut(newTimeoutError('request did not complete within the allotted timeout', 0)));
    }, ms);
    work.then(
      (res) => {
        if (done) {
          // Too late: nobody reads this response any more.
          res.body?.cancel().catch(() => {});
          return;
        }
        done = true;
        cancel();
        resolve(res);
      },
      (err: unknown) => {
        if (done) return;
        done = true;
        cancel();
        reject(err);
      },
    );
  });
}

/**
 * The filter, for requests with a deadline (filters/request-deadline.ts): what the handlers below
 * throw is answered here already, so that an answer — error or not — that comes too late is dropped.
 */
export function withTimeout(clock: Clock, logger: Logger): Filter {
  const respond = errorResponder(logger);
  return (next) => (r) =>
    r.info.longRunning || r.deadlineMs === undefined
      ? next(r)
      : withDeadline(next(r).catch(respond), r.deadlineMs, clock, respond);
}
