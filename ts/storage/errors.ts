/**
 * Storage errors, with the codes of Kubernetes' storage layer
 * (k8s.io/apiserver/pkg/storage/errors.go) plus the two the apiserver derives from etcd's
 * revision errors (Expired ← ErrCompacted, TooLargeResourceVersion ← a revision not yet reached).
 */
export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'ResourceVersionConflicts'
  | 'InvalidObj'
  | 'Unreachable'
  | 'Timeout'
  | 'Expired'
  | 'TooLargeResourceVersion'
  | 'InvalidRequest'
  | 'WatchTooSlow';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    /** The key concerned, when there is one. */
    readonly key?: string,
    /** For Expired: the revision history now starts after; for TooLargeResourceVersion: the current one. */
    readonly revision?: bigint,
  ) {
    super(message);
  }

  static keyNotFound(key: string): StorageError {
    return new StorageError('KeyNotFound', `key not found: ${key}`, key);
  }

  static keyExists(key: string): StorageError {
    return new StorageError('KeyExists', `key exists: ${key}`, key);
  }

  static conflict(key: string, expected: bigint, actual: bigint): StorageError {
    return new StorageError(
      'ResourceVersionConflicts',
      `Precondition failed: ResourceVersion: expected ${expected}, actual ${actual}`,
      key,
    );
  }

  static expired(revision?: bigint): StorageError {
    return new StorageError('Expired', 'mvcc: required revision has been compacted', undefined, revision);
  }

  static tooLarge(requested: bigint, current: bigint): StorageError {
    return new StorageError(
      'TooLargeResourceVersion',
      `Too large resource version: ${requested}, current: ${current}`,
      undefined,
      current,
    );
  }
}
