/**
 * Storage errors as API Status errors, the way k8s.io/apiserver v0.32 turns them into responses
 * (pkg/storage/errors/storage.go Interpret*Error, pkg/storage/etcd3/errors.go, the watch cache).
 *
 * The storage layer is matched by shape (`name === 'StorageError'` and a `code`), so this module
 * does not depend on ts/storage.
 */
import {
  type GroupResource,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newNotFound,
  newResourceExpired,
  newServerTimeout,
  newTooLargeResourceVersion,
  RESOURCE_VERSION_TOO_HIGH_RETRY_SECONDS,
  type StatusError,
  tooOldResourceVersionMessage,
} from './status.js';

/** The operation that failed, as Interpret*Error distinguishes them. */
export type StorageOperation = 'get' | 'list' | 'create' | 'update' | 'delete' | 'watch';

/** What this module needs of a storage error (ts/storage's StorageError fits). */
export interface StorageErrorLike {
  name: string;
  code: string;
  message: string;
  revision?: bigint;
}

function isStorageError(err: unknown): err is StorageErrorLike {
  return err instanceof Error && err.name === 'StorageError' && typeof (err as { code?: unknown }).code === 'string';
}

// etcd3/errors.go.
/** A list at a compacted resourceVersion. */
export const LIST_EXPIRED_MESSAGE = 'The resourceVersion for the provided list is too old.';
/** A watch from a compacted resourceVersion (when not served by the watch cache). */
export const WATCH_EXPIRED_MESSAGE = 'The resourceVersion for the provided watch is too old.';
/** A continue token whose revision was compacted. */
export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';

export interface InterpretOptions {
  /** The resourceVersion the request asked for, for the watch cache's 410 text. */
  requestedResourceVersion?: bigint | string;
  /** The list continued from a token (its 410 text differs). */
  paging?: boolean;
}

/**
 * Interpret*Error: NotFound, AlreadyExists, Conflict, ServerTimeout, 410 Expired or 504
 * TooLargeResourceVersion for the storage error codes; anything else is returned unchanged (and
 * becomes a reason-less 500 through toStatus).
 */
export function interpretStorageError(
  op: StorageOperation,
  err: unknown,
  gr: GroupResource,
  name: string,
  opts: InterpretOptions = {},
): unknown {
  if (!isStorageError(err)) return err;
  switch (err.code) {
    case 'KeyNotFound':
      if (op === 'get' || op === 'update' || op === 'delete') return newNotFound(gr, name);
      if (op === 'list') return newNotFound(gr, '');
      return err;
    case 'KeyExists':
      if (op === 'create') return newAlreadyExists(gr, name);
      if (op === 'update' || op === 'delete') return newConflict(gr, name, err.message);
      return err;
    case 'ResourceVersionConflicts':
    case 'InvalidObj':
      return op === 'update' || op === 'delete' ? newConflict(gr, name, err.message) : err;
    case 'Unreachable':
      return op === 'watch' ? err : newServerTimeout(gr, op, 2);
    case 'Timeout':
      return op === 'list' ? newServerTimeout(gr, op, 2) : err;
    case 'Expired':
      return expired(op, err, opts);
    case 'InvalidRequest':
      // storage.ValidateListOptions: a continue token that does not decode is the client's error.
      return op === 'list' && opts.paging ? newBadRequest(`invalid continue token: ${err.message}`) : err;
    case 'TooLargeResourceVersion':
      return tooLarge(err, opts);
    default:
      return err;
  }
}

function expired(op: StorageOperation, err: StorageErrorLike, opts: InterpretOptions): StatusError {
  // The watch cache answers with both revisions when it knows them.
  if (opts.requestedResourceVersion !== undefined && err.revision !== undefined) {
    return newResourceExpired(tooOldResourceVersionMessage(opts.requestedResourceVersion, err.revision));
  }
  if (op === 'watch') return newResourceExpired(WATCH_EXPIRED_MESSAGE);
  return newResourceExpired(opts.paging ? CONTINUE_EXPIRED_MESSAGE : LIST_EXPIRED_MESSAGE);
}

function tooLarge(err: StorageErrorLike, opts: InterpretOptions): StatusError {
  const m = /Too large resource version: (\d+), current: (\d+)/.exec(err.message);
  const requested = m?.[1] ?? String(opts.requestedResourceVersion ?? '');
  const current = m?.[2] ?? (err.revision === undefined ? '' : String(err.revision));
  return newTooLargeResourceVersion(requested, current, RESOURCE_VERSION_TOO_HIGH_RETRY_SECONDS);
}
