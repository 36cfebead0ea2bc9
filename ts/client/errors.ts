/**
 * The one error the client throws for an apiserver refusal: every non-2xx response (and every watch
 * ERROR event) becomes the apiserver's own StatusError (ts/api/status.ts, apimachinery's
 * errors.StatusError) carrying the Status, as client-go's rest.Request does. Callers branch with
 * errors.go's predicates (`isNotFound`, `isAlreadyExists`, `isConflict`, `hasStatusCause` …),
 * never on the message text.
 */

import type { Status, StatusReason } from '../api/meta.js';
import { StatusError } from '../api/status.js';

function isStatus(v: unknown): v is Status {
  return v !== null && typeof v === 'object' && (v as { kind?: unknown }).kind === 'Status';
}

/**
 * The StatusError of a non-2xx response: its Status body when it has one, else a Status built from
 * the HTTP code (as client-go's newUnstructuredResponseError does for a body that is not a Status).
 */
export async function errorFromResponse(res: Response): Promise<StatusError> {
  const text = await res.text();
  try {
    const body: unknown = JSON.parse(text);
    if (isStatus(body)) return new StatusError({ ...body, code: body.code ?? res.status });
  } catch {
    // not JSON: fall through
  }
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    code: res.status,
    reason: reasonForCode(res.status),
    message: text === '' ? `the server responded with HTTP ${res.status}` : text,
  });
}

/** The reason client-go infers from a bare HTTP code (errors.NewGenericServerResponse). */
function reasonForCode(code: number): StatusReason {
  switch (code) {
    case 400:
      return 'BadRequest';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'NotFound';
    case 405:
      return 'MethodNotAllowed';
    case 409:
      return 'Conflict';
    case 410:
      return 'Expired';
    case 422:
      return 'Invalid';
    case 429:
      return 'TooManyRequests';
    case 500:
      return 'InternalError';
    case 503:
      return 'ServiceUnavailable';
    case 504:
      return 'Timeout';
    default:
      return '';
  }
}
