import { describe, expect, it } from 'vitest';
import { StatusError, toStatus } from './status.js';
import { interpretStorageError, LIST_EXPIRED_MESSAGE, WATCH_EXPIRED_MESSAGE } from './storage-errors.js';

/** Shaped like ts/storage's StorageError. */
class FakeStorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: string,
    message: string,
    readonly revision?: bigint,
  ) {
    super(message);
  }
}

const deploys = { group: 'apps', resource: 'deployments' };

function statusOf(op: Parameters<typeof interpretStorageError>[0], err: Error, opts = {}) {
  return toStatus(interpretStorageError(op, err, deploys, 'web', opts));
}

describe('interpretStorageError', () => {
  it.each([
    ['get', 'KeyNotFound', 404, 'NotFound', 'deployments.apps "web" not found'],
    ['list', 'KeyNotFound', 404, 'NotFound', 'deployments.apps "" not found'],
    ['create', 'KeyExists', 409, 'AlreadyExists', 'deployments.apps "web" already exists'],
    [
      'update',
      'ResourceVersionConflicts',
      409,
      'Conflict',
      'Operation cannot be fulfilled on deployments.apps "web": Precondition failed',
    ],
    ['delete', 'KeyNotFound', 404, 'NotFound', 'deployments.apps "web" not found'],
    [
      'get',
      'Unreachable',
      500,
      'ServerTimeout',
      'The get operation against deployments.apps could not be completed at this time, please try again.',
    ],
    ['list', 'Expired', 410, 'Expired', LIST_EXPIRED_MESSAGE],
    ['watch', 'Expired', 410, 'Expired', WATCH_EXPIRED_MESSAGE],
    ['create', 'InvalidObj', 500, undefined, 'Precondition failed'],
  ] as const)('%s %s', (op, code, status, reason, message) => {
    const s = statusOf(op, new FakeStorageError(code, 'Precondition failed'));
    expect(s.code).toBe(status);
    expect(s.reason).toBe(reason);
    expect(s.message).toBe(message);
  });

  it('says which revisions when the request named one', () => {
    const s = statusOf('watch', new FakeStorageError('Expired', 'compacted', 100n), { requestedResourceVersion: '5' });
    expect(s.message).toBe('too old resource version: 5 (100)');
  });

  it('asks clients to come back in a second for a future resourceVersion', () => {
    const s = statusOf(
      'list',
      new FakeStorageError('TooLargeResourceVersion', 'Too large resource version: 200, current: 100'),
    );
    expect(s).toMatchObject({
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: Too large resource version: 200, current: 100',
      details: {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      },
    });
  });

  it('leaves other errors alone', () => {
    const plain = new Error('x');
    expect(interpretStorageError('get', plain, deploys, 'web')).toBe(plain);
    expect(interpretStorageError('get', new FakeStorageError('KeyNotFound', 'k'), deploys, 'web')).toBeInstanceOf(
      StatusError,
    );
  });
});
