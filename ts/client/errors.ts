/**
 * The one error the client throws for an apiserver refusal: every non-2xx response (and every watch
 * ERROR event) becomes an ApiError carrying the Status. Callers branch on `reason` or `code`,
 * never on the message text.
 *
 *   try { await client.create(RESOURCES.pods, 'default', pod) }
 *   catch (err) { if (isApiError(err, 'AlreadyExists')) … }
 */
import type { Status, StatusDetails, StatusReason } from '../api/meta.js';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: Status;

  constructor(status: Status) {
    super(status.message ?? `HTTP ${status.code ?? 0}`);
    this.status = status;
  }

  /** HTTP status code (the Status's `code`). */
  get code(): number {
    return this.status.code ?? 0;
  }

  get reason(): StatusReason {
    return this.status.reason ?? '';
  }

  get details(): StatusDetails | undefined {
    return this.status.details;
  }
}

/** True when `err` is an ApiError, with the given reason when one is named. */
export function isApiError(err: unknown, reason?: StatusReason): err is ApiError {
  return err instanceof ApiError && (reason === undefined || err.reason === reason);
}

/** A 410 (Expired or Gone): the asked resourceVersion was compacted; re-list. */
export function isExpired(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 410 || err.reason === 'Expired' || err.reason === 'Gone');
}

/** A create refused because its namespace is terminating (a cause with reason v1.NamespaceTerminatingCause). */
export function isNamespaceTerminating(err: unknown): boolean {
  return err instanceof ApiError && (err.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}

function isStatus(v: unknown): v is Status {
  return v !== null && typeof v === 'object' && (v as { kind?: unknown }).kind === 'Status';
}

/**
 * The ApiError for a non-2xx response: its Status body when it has one, else a Status built from
 * the HTTP code (as client-go's newUnstructuredResponseError does for a body that is not a Status).
 */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const body: unknown = JSON.parse(text);
    if (isStatus(body)) return new ApiError({ ...body, code: body.code ?? res.status });
  } catch {
    // not JSON: fall through
  }
  return new ApiError({
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
