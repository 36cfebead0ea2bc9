/**
 * k8s.io/apimachinery/pkg/api/errors (errors.go, v0.32) for server and client alike: StatusError,
 * the Status errors kube-apiserver returns built as Go builds them (same code, reason, message and
 * details; names quoted with Go's %q), and the predicates callers branch on (`isNotFound`,
 * `isAlreadyExists`, `isConflict`, `reasonForError`, `hasStatusCause` …), never on message text.
 * The apiserver throws StatusErrors and `toStatus` turns any thrown value into the body to send;
 * the client (ts/client/errors.ts) rebuilds them from responses and watch ERROR events.
 *
 *   try { await client.create(RESOURCES.pods, 'default', pod) }
 *   catch (err) { if (!isAlreadyExists(err)) throw err }
 */
import { type ErrorList, errorListMessage } from './field-errors.js';
import { goQuote } from './go-format.js';
import type { Status, StatusCause, StatusDetails, StatusReason } from './meta.js';

/** A group and resource (`deployments.apps`); group '' for the core group. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A group and kind (`Deployment.apps`); group '' for the core group. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** GroupResource.String(): `pods`, `deployments.apps`. */
export function groupResourceString(gr: GroupResource): string {
  return gr.group.length === 0 ? gr.resource : `${gr.resource}.${gr.group}`;
}

/** GroupKind.String(): `Pod`, `Deployment.apps`. */
export function groupKindString(gk: GroupKind): string {
  return gk.group.length === 0 ? gk.kind : `${gk.kind}.${gk.group}`;
}

/** A Status to build a StatusError from: a whole one (a response body), or without its TypeMeta. */
export type StatusInit = Omit<Status, 'kind' | 'apiVersion' | 'metadata'> &
  Partial<Pick<Status, 'kind' | 'apiVersion' | 'metadata'>>;

/**
 * An error that is a Status (errors.StatusError): on the server `status` is the exact body to
 * send, on the client the body the server sent. Its message is the Status's, as Error() is.
 */
export class StatusError extends Error {
  override readonly name = 'StatusError';
  readonly status: Status;
  constructor(status: StatusInit) {
    super(status.message ?? '');
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, ...status };
  }

  /** The HTTP status code; 500 when the Status has none (as toStatus answers). */
  get code(): number {
    return this.status.code ?? 500;
  }

  get reason(): StatusReason {
    return this.status.reason ?? '';
  }

  get details(): StatusDetails | undefined {
    return this.status.details;
  }
}

function failure(code: number, reason: StatusReason, message: string, details?: StatusDetails): StatusError {
  return new StatusError({
    status: 'Failure',
    message,
    reason,
    ...(details === undefined ? {} : { details: compact(details) }),
    code,
  });
}

/** Drops the detail fields Go would omit (empty strings, zero retryAfterSeconds, no causes). */
function compact(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes !== undefined && d.causes.length > 0) out.causes = d.causes;
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

/** A StatusCause without the empty fields Go omits. */
function compactCause(c: StatusCause): StatusCause {
  const out: StatusCause = {};
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  if (c.field) out.field = c.field;
  return out;
}

/** 404 NotFound: `pods "x" not found`, `deployments.apps "x" not found`. */
export function newNotFound(gr: GroupResource, name: string): StatusError {
  return failure(404, 'NotFound', `${groupResourceString(gr)} ${goQuote(name)} not found`, {
    group: gr.group,
    kind: gr.resource,
    name,
  });
}

/** 409 AlreadyExists: `pods "x" already exists`. */
export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return failure(409, 'AlreadyExists', `${groupResourceString(gr)} ${goQuote(name)} already exists`, {
    group: gr.group,
    kind: gr.resource,
    name,
  });
}

/** 409 AlreadyExists when generateName produced a taken name. */
export function newGenerateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): StatusError {
  return failure(
    409,
    'AlreadyExists',
    `${groupResourceString(gr)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`,
    { group: gr.group, kind: gr.resource, name, retryAfterSeconds },
  );
}

/** 401 Unauthorized; Kubernetes' authenticator failure message is "Unauthorized". */
export function newUnauthorized(reason: string): StatusError {
  return failure(401, 'Unauthorized', reason.length === 0 ? 'not authorized' : reason);
}

/**
 * 403 Forbidden: `pods "x" is forbidden: <reason>`, `pods is forbidden: <reason>` without a name,
 * `forbidden: <reason>` without a resource.
 */
export function newForbidden(gr: GroupResource, name: string, reason: Error | string): StatusError {
  const err = typeof reason === 'string' ? reason : reason.message;
  let message: string;
  if (gr.group.length === 0 && gr.resource.length === 0) message = `forbidden: ${err}`;
  else if (name === '') message = `${groupResourceString(gr)} is forbidden: ${err}`;
  else message = `${groupResourceString(gr)} ${goQuote(name)} is forbidden: ${err}`;
  return failure(403, 'Forbidden', message, { group: gr.group, kind: gr.resource, name });
}

/** What a request asked to do, as the authorizer saw it (authorizer.Attributes). */
export interface RequestAttributes {
  user: string;
  verb: string;
  /** false for non-resource URLs such as /healthz. */
  resourceRequest: boolean;
  path?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** responsewriters.forbiddenMessage: `User "jane" cannot get resource "pods" in API group "" in the namespace "default"`. */
export function forbiddenMessage(a: RequestAttributes): string {
  if (!a.resourceRequest) return `User ${goQuote(a.user)} cannot ${a.verb} path ${goQuote(a.path ?? '')}`;
  const resource = a.subresource ? `${a.resource ?? ''}/${a.subresource}` : (a.resource ?? '');
  const head = `User ${goQuote(a.user)} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.group ?? '')}`;
  return a.namespace ? `${head} in the namespace ${goQuote(a.namespace)}` : `${head} at the cluster scope`;
}

/** responsewriters.ForbiddenStatusError: the 403 an authorization denial answers with. */
export function forbiddenStatusError(a: RequestAttributes, reason = ''): StatusError {
  // Kubernetes escapes &, < and > so the text can never look like HTML.
  const msg = forbiddenMessage(a).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return newForbidden(
    { group: a.group ?? '', resource: a.resource ?? '' },
    a.name ?? '',
    reason.length === 0 ? msg : `${msg}: ${reason}`,
  );
}

/** The message of the storage precondition failure that a stale resourceVersion causes. */
export const OPTIMISTIC_LOCK_ERROR_MSG =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 409 Conflict: `Operation cannot be fulfilled on pods "x": <reason>`. */
export function newConflict(
  gr: GroupResource,
  name: string,
  reason: Error | string = OPTIMISTIC_LOCK_ERROR_MSG,
): StatusError {
  const err = typeof reason === 'string' ? reason : reason.message;
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${groupResourceString(gr)} ${goQuote(name)}: ${err}`,
    {
      group: gr.group,
      kind: gr.resource,
      name,
    },
  );
}

/** 409 Conflict for server-side apply, with FieldManagerConflict causes. */
export function newApplyConflict(causes: StatusCause[], message: string): StatusError {
  return new StatusError({ status: 'Failure', message, reason: 'Conflict', details: { causes }, code: 409 });
}

/** 410 Gone (deprecated in favour of newResourceExpired). */
export function newGone(message: string): StatusError {
  return failure(410, 'Gone', message);
}

/** 410 Expired: `too old resource version: 5 (100)` for a compacted watch/list start. */
export function newResourceExpired(message: string): StatusError {
  return failure(410, 'Expired', message);
}

/** The text of a compacted-revision 410: `too old resource version: <asked> (<oldest>)`. */
export function tooOldResourceVersionMessage(
  requested: bigint | number | string,
  oldest: bigint | number | string,
): string {
  return `too old resource version: ${requested} (${oldest})`;
}

/**
 * 422 Invalid: `Pod "x" is invalid: spec.containers[0].image: Required value` (one error),
 * `Pod "x" is invalid: [a: …, b: …]` (several, duplicates dropped), with every error as a cause.
 * details.kind is the Kind, not the resource.
 */
export function newInvalid(gk: GroupKind, name: string, errs: ErrorList): StatusError {
  const causes: StatusCause[] = errs.map((e) =>
    compactCause({ reason: e.type, message: e.errorBody(), field: e.field }),
  );
  const agg = errorListMessage(errs);
  const qualified = `${groupKindString(gk)} ${goQuote(name)}`;
  const message = agg === undefined ? `${qualified} is invalid` : `${qualified} is invalid: ${agg}`;
  return new StatusError({
    status: 'Failure',
    message,
    reason: 'Invalid',
    details: compact({ name, group: gk.group, kind: gk.kind, causes }),
    code: 422,
  });
}

/** 404 for a path no route serves: a NotFound Status with an empty name (handler.go NotFoundHandler). */
export function newPathNotFound(): StatusError {
  return new StatusError({
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });
}

/**
 * 405 for a method a path has no route for (a GET of a create-only resource such as
 * subjectaccessreviews): go-restful's service error, answered by serviceErrorHandler
 * (k8s.io/apiserver pkg/server/handler.go) as NewGenericServerResponse(405).
 */
export function newMethodNotAllowed(): StatusError {
  return new StatusError({
    status: 'Failure',
    message: 'the server does not allow this method on the requested resource',
    reason: 'MethodNotAllowed',
    details: {},
    code: 405,
  });
}

/** 400 BadRequest with a free-text message. */
export function newBadRequest(reason: string): StatusError {
  return failure(400, 'BadRequest', reason);
}

/** 429 TooManyRequests with details.retryAfterSeconds (always present, as Go builds it). */
export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError({
    status: 'Failure',
    message,
    reason: 'TooManyRequests',
    details: compact({ retryAfterSeconds }),
    code: 429,
  });
}

/** 429 `Too many requests: <message>` without retry details (max-in-flight style). */
export function newTooManyRequestsError(message: string): StatusError {
  return failure(429, 'TooManyRequests', `Too many requests: ${message}`);
}

/** 503 ServiceUnavailable. */
export function newServiceUnavailable(reason: string): StatusError {
  return failure(503, 'ServiceUnavailable', reason);
}

/** 405 MethodNotAllowed: `<action> is not supported on resources of kind "<resource>"`. */
export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  return failure(
    405,
    'MethodNotAllowed',
    `${action} is not supported on resources of kind ${goQuote(groupResourceString(gr))}`,
    { group: gr.group, kind: gr.resource },
  );
}

/** 500 ServerTimeout: `The <op> operation against <resource> could not be completed at this time, please try again.` */
export function newServerTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  return failure(
    500,
    'ServerTimeout',
    `The ${operation} operation against ${groupResourceString(gr)} could not be completed at this time, please try again.`,
    { group: gr.group, kind: gr.resource, name: operation, retryAfterSeconds },
  );
}

/** 500 InternalError: `Internal error occurred: <err>`, the error also as the one cause. */
export function newInternalError(err: Error | string): StatusError {
  const text = typeof err === 'string' ? err : err.message;
  return failure(500, 'InternalError', `Internal error occurred: ${text}`, { causes: [{ message: text }] });
}

/** 504 Timeout: `Timeout: <message>`; details.retryAfterSeconds when > 0. */
export function newTimeoutError(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError({
    status: 'Failure',
    message: `Timeout: ${message}`,
    reason: 'Timeout',
    details: compact({ retryAfterSeconds }),
    code: 504,
  });
}

/** 413 RequestEntityTooLarge: `Request entity too large: <message>`. */
export function newRequestEntityTooLarge(message: string): StatusError {
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

/** 406 NotAcceptable from content negotiation: `only the following media types are accepted: a, b`. */
export function newNotAcceptable(accepted: readonly string[]): StatusError {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** 406 NotAcceptable when a conversion target (e.g. Table) cannot be served in the asked type. */
export function newNotAcceptableConversion(target: string, accepted: readonly string[]): StatusError {
  return failure(
    406,
    'NotAcceptable',
    `only the following media types are accepted when converting to ${target}: ${accepted.join(', ')}`,
  );
}

/** 415 UnsupportedMediaType: `the body of the request was in an unknown format - accepted media types include: a, b`. */
export function newUnsupportedMediaType(accepted: readonly string[]): StatusError {
  return failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** The cacher's retry hint for a resourceVersion it has not reached yet (watch_cache.go). */
export const RESOURCE_VERSION_TOO_HIGH_RETRY_SECONDS = 1;

/**
 * 504 Timeout `Timeout: Too large resource version: <asked>, current: <current>` with the cause
 * ResourceVersionTooLarge (storage.NewTooLargeResourceVersionError); the watch cache asks clients
 * to retry after 1 second.
 */
export function newTooLargeResourceVersion(
  requested: bigint | number | string,
  current: bigint | number | string,
  retryAfterSeconds: number = RESOURCE_VERSION_TOO_HIGH_RETRY_SECONDS,
): StatusError {
  const err = newTimeoutError(`Too large resource version: ${requested}, current: ${current}`, retryAfterSeconds);
  err.status.details = compact({
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds,
  });
  return err;
}

/** A Success Status (`{"status":"Success"}`), as some DELETEs return. */
export function successStatus(details?: StatusDetails): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    ...(details === undefined ? {} : { details: compact(details) }),
  };
}

/**
 * responsewriters.ErrorToAPIStatus: a StatusError's own Status (status defaulted to Failure, code
 * to 500); anything else becomes 500 with the error's message and no reason, as kube-apiserver
 * answers errors that were never given a Status.
 */
export function toStatus(err: unknown): Status {
  if (err instanceof StatusError) {
    const s: Status = { ...err.status, kind: 'Status', apiVersion: 'v1' };
    if (s.status === undefined) s.status = 'Failure';
    if (s.code === undefined || s.code === 0) s.code = s.status === 'Success' ? 200 : 500;
    return s;
  }
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 };
}

/** The HTTP status code to answer with for any thrown value. */
export function statusCode(err: unknown): number {
  return toStatus(err).code ?? 500;
}

// ---------------------------------------------------------------------------------------------
// The predicates of errors.go: a StatusError's reason, or for a reason Go does not know, its code.

/** errors.go knownReasons: every StatusReason constant but StatusReasonUnknown (''). */
const KNOWN_REASONS: ReadonlySet<string> = new Set<StatusReason>([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'StorageReadError',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
]);

/** `err` carries a Status (errors.APIStatus): a StatusError from the apiserver or the client. */
export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

/** ReasonForError: the Status's reason, '' (StatusReasonUnknown) for an error that has no Status. */
export function reasonForError(err: unknown): StatusReason {
  return err instanceof StatusError ? err.reason : '';
}

/** The reason, or for an error of no known reason its code (reasonAndCodeForError + knownReasons). */
function hasReasonOrCode(err: unknown, reason: StatusReason, code: number): boolean {
  if (!(err instanceof StatusError)) return false;
  const r = err.reason;
  return r === reason || (!KNOWN_REASONS.has(r) && err.status.code === code);
}

/** IsNotFound: 404 NotFound (newNotFound, newPathNotFound). */
export function isNotFound(err: unknown): boolean {
  return hasReasonOrCode(err, 'NotFound', 404);
}

/** IsAlreadyExists: 409 AlreadyExists (a create of a taken name). */
export function isAlreadyExists(err: unknown): boolean {
  return reasonForError(err) === 'AlreadyExists';
}

/** IsConflict: 409 Conflict (a stale resourceVersion or a failed precondition). */
export function isConflict(err: unknown): boolean {
  return hasReasonOrCode(err, 'Conflict', 409);
}

/** IsInvalid: 422 Invalid. */
export function isInvalid(err: unknown): boolean {
  return hasReasonOrCode(err, 'Invalid', 422);
}

/** IsGone: 410 Gone. */
export function isGone(err: unknown): boolean {
  return hasReasonOrCode(err, 'Gone', 410);
}

/** IsResourceExpired: 410 Expired (a compacted resourceVersion). */
export function isResourceExpired(err: unknown): boolean {
  return reasonForError(err) === 'Expired';
}

/** IsNotAcceptable: 406. */
export function isNotAcceptable(err: unknown): boolean {
  return hasReasonOrCode(err, 'NotAcceptable', 406);
}

/** IsUnsupportedMediaType: 415 (e.g. a strategic merge patch of a custom resource). */
export function isUnsupportedMediaType(err: unknown): boolean {
  return hasReasonOrCode(err, 'UnsupportedMediaType', 415);
}

/** IsMethodNotSupported: 405. */
export function isMethodNotSupported(err: unknown): boolean {
  return hasReasonOrCode(err, 'MethodNotAllowed', 405);
}

/** IsServiceUnavailable: 503. */
export function isServiceUnavailable(err: unknown): boolean {
  return hasReasonOrCode(err, 'ServiceUnavailable', 503);
}

/** IsBadRequest: 400. */
export function isBadRequest(err: unknown): boolean {
  return hasReasonOrCode(err, 'BadRequest', 400);
}

/** IsUnauthorized: 401. */
export function isUnauthorized(err: unknown): boolean {
  return hasReasonOrCode(err, 'Unauthorized', 401);
}

/** IsForbidden: 403. */
export function isForbidden(err: unknown): boolean {
  return hasReasonOrCode(err, 'Forbidden', 403);
}

/** IsTimeout: 504 Timeout. */
export function isTimeout(err: unknown): boolean {
  return hasReasonOrCode(err, 'Timeout', 504);
}

/** IsServerTimeout: reason ServerTimeout only (no code is scoped to retryable timeouts). */
export function isServerTimeout(err: unknown): boolean {
  return reasonForError(err) === 'ServerTimeout';
}

/** IsInternalError: 500 InternalError. */
export function isInternalError(err: unknown): boolean {
  return hasReasonOrCode(err, 'InternalError', 500);
}

/** IsTooManyRequests: reason TooManyRequests or code 429, whatever the reason (as Go keeps it). */
export function isTooManyRequests(err: unknown): boolean {
  return err instanceof StatusError && (err.reason === 'TooManyRequests' || err.status.code === 429);
}

/** IsRequestEntityTooLargeError: reason RequestEntityTooLarge or code 413, whatever the reason. */
export function isRequestEntityTooLarge(err: unknown): boolean {
  return err instanceof StatusError && (err.reason === 'RequestEntityTooLarge' || err.status.code === 413);
}

/** v1.NamespaceTerminatingCause (k8s.io/api core/v1 types.go): a create refused by a terminating namespace. */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

/** HasStatusCause: the Status's details have a cause of type `name` (StatusCause's `reason` on the wire). */
export function hasStatusCause(err: unknown, name: string): boolean {
  return err instanceof StatusError && (err.details?.causes ?? []).some((c) => c.reason === name);
}
