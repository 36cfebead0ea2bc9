import { describe, expect, it } from 'vitest';
import { FieldPath, invalid, required } from './field-errors.js';
import type { Status } from './meta.js';
import {
  forbiddenStatusError,
  hasStatusCause,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInternalError,
  isInvalid,
  isMethodNotSupported,
  isNotAcceptable,
  isNotFound,
  isRequestEntityTooLarge,
  isResourceExpired,
  isServerTimeout,
  isServiceUnavailable,
  isStatusError,
  isTimeout,
  isTooManyRequests,
  isUnauthorized,
  isUnsupportedMediaType,
  NAMESPACE_TERMINATING_CAUSE,
  newAlreadyExists,
  newApplyConflict,
  newBadRequest,
  newConflict,
  newForbidden,
  newGenerateNameConflict,
  newGone,
  newInternalError,
  newInvalid,
  newMethodNotSupported,
  newNotAcceptable,
  newNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newServerTimeout,
  newServiceUnavailable,
  newTimeoutError,
  newTooLargeResourceVersion,
  newTooManyRequests,
  newTooManyRequestsError,
  newUnauthorized,
  newUnsupportedMediaType,
  reasonForError,
  StatusError,
  statusCode,
  toStatus,
} from './status.js';
import fixtures from './status.k8s.json' with { type: 'json' };

// status.k8s.json: the Status of each k8s.io/apimachinery v0.32.4 errors.New* call with the same
// arguments (and storage.NewTooLargeResourceVersionError from k8s.io/apiserver v0.32.4), marshalled
// by Go, so key order is checked too.
const pods = { group: '', resource: 'pods' };
const deploys = { group: 'apps', resource: 'deployments' };
const errs = [
  required(FieldPath.root('spec', 'containers').index(0).child('image'), ''),
  invalid(FieldPath.root('metadata', 'name'), 'Bad', 'bad name'),
  required(FieldPath.root('spec', 'containers').index(0).child('image'), ''),
];

const built: Record<keyof typeof fixtures, StatusError> = {
  notFound: newNotFound(pods, 'x'),
  notFoundGroup: newNotFound(deploys, 'web'),
  notFoundNoName: newNotFound(pods, ''),
  alreadyExists: newAlreadyExists(pods, 'x'),
  generateNameConflict: newGenerateNameConflict(pods, 'web-abcde', 1),
  unauthorized: newUnauthorized('Unauthorized'),
  unauthorizedEmpty: newUnauthorized(''),
  forbidden: newForbidden(
    pods,
    'x',
    new Error('User "jane" cannot get resource "pods" in API group "" in the namespace "default"'),
  ),
  forbiddenNoName: newForbidden(deploys, '', 'nope'),
  forbiddenNoResource: newForbidden({ group: '', resource: '' }, '', 'nope'),
  conflict: newConflict(deploys, 'web'),
  gone: newGone('gone away'),
  expired: newResourceExpired('too old resource version: 5 (100)'),
  invalid: newInvalid({ group: '', kind: 'Pod' }, 'bad', errs),
  invalidOne: newInvalid({ group: '', kind: 'Pod' }, 'bad', errs.slice(0, 1)),
  invalidGroup: newInvalid({ group: 'apps', kind: 'Deployment' }, 'web', errs.slice(1, 2)),
  invalidNone: newInvalid({ group: '', kind: 'Pod' }, 'bad', []),
  badRequest: newBadRequest('the server rejected our request'),
  tooManyRequests: newTooManyRequests('slow down', 3),
  tooManyRequestsZero: newTooManyRequests('slow down', 0),
  tooManyRequestsError: newTooManyRequestsError('the server has received too many requests'),
  serviceUnavailable: newServiceUnavailable('down'),
  methodNotSupported: newMethodNotSupported(deploys, 'deletecollection'),
  serverTimeout: newServerTimeout(pods, 'list', 2),
  internalError: newInternalError(new Error('boom')),
  timeout: newTimeoutError('request did not complete within requested timeout', 0),
  timeoutRetry: newTimeoutError('x', 5),
  requestEntityTooLarge: newRequestEntityTooLarge('limit is 3145728'),
  tooLargeResourceVersion: newTooLargeResourceVersion(200n, 100n),
  applyConflict: newApplyConflict(
    [
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "kubectl-client-side-apply" using apps/v1',
        field: '.spec.replicas',
      },
    ],
    'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
  ),
};

describe('Status errors', () => {
  it.each(Object.keys(fixtures) as (keyof typeof fixtures)[])('%s', (name) => {
    const want = fixtures[name];
    const err = built[name];
    // Byte for byte, key order included: this is the body kube-apiserver sends.
    expect(JSON.stringify(toStatus(err))).toBe(JSON.stringify(want));
    expect(err.message).toBe(want.message);
    expect(err.code).toBe(want.code);
    expect(statusCode(err)).toBe(want.code);
  });
});

describe('toStatus', () => {
  it('answers 500 with the message for errors that are not a Status, as ErrorToAPIStatus does', () => {
    expect(toStatus(new Error('disk on fire'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'disk on fire',
      code: 500,
    } satisfies Status);
    expect(toStatus('plain string').message).toBe('plain string');
  });

  it('defaults a StatusError without status or code to Failure and 500', () => {
    expect(toStatus(new StatusError({ message: 'x' }))).toMatchObject({ status: 'Failure', code: 500 });
  });
});

describe('request-level errors', () => {
  it('renders authorization denials as kube-apiserver does', () => {
    const ns = forbiddenStatusError({
      user: 'jane',
      verb: 'get',
      resourceRequest: true,
      group: '',
      resource: 'pods',
      namespace: 'default',
      name: 'x',
    });
    expect(ns.message).toBe(
      'pods "x" is forbidden: User "jane" cannot get resource "pods" in API group "" in the namespace "default"',
    );
    const cluster = forbiddenStatusError({
      user: 'system:serviceaccount:default:sa',
      verb: 'list',
      resourceRequest: true,
      group: 'apps',
      resource: 'deployments',
      subresource: 'scale',
    });
    expect(cluster.message).toBe(
      'deployments.apps is forbidden: User "system:serviceaccount:default:sa" cannot list resource "deployments/scale" in API group "apps" at the cluster scope',
    );
    const path = forbiddenStatusError(
      { user: 'a<b>', verb: 'get', resourceRequest: false, path: '/healthz' },
      'no RBAC',
    );
    expect(path.message).toBe('forbidden: User "a&lt;b&gt;" cannot get path "/healthz": no RBAC');
  });

  it('answers content negotiation failures', () => {
    expect(toStatus(newNotAcceptable(['application/json', 'application/yaml']))).toMatchObject({
      code: 406,
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json, application/yaml',
    });
    expect(toStatus(newUnsupportedMediaType(['application/json']))).toMatchObject({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json',
    });
  });
});

// errors_test.go TestErrorNew and the Is* functions' reason-or-code rule (knownReasons).
describe('the errors.go predicates', () => {
  const predicates = {
    isAlreadyExists,
    isBadRequest,
    isConflict,
    isForbidden,
    isGone,
    isInternalError,
    isInvalid,
    isMethodNotSupported,
    isNotAcceptable,
    isNotFound,
    isRequestEntityTooLarge,
    isResourceExpired,
    isServerTimeout,
    isServiceUnavailable,
    isTimeout,
    isTooManyRequests,
    isUnauthorized,
    isUnsupportedMediaType,
  };
  const tests = { group: '', resource: 'tests' };
  it.each([
    ['NewAlreadyExists', newAlreadyExists(tests, '1'), ['isAlreadyExists']],
    ['NewGenerateNameConflict', newGenerateNameConflict(tests, '1', 1), ['isAlreadyExists']],
    ['NewConflict', newConflict(tests, '2', 'message'), ['isConflict']],
    ['NewNotFound', newNotFound(tests, '3'), ['isNotFound']],
    ['NewInvalid', newInvalid({ group: '', kind: 'Test' }, '2', []), ['isInvalid']],
    ['NewBadRequest', newBadRequest('reason'), ['isBadRequest']],
    ['NewForbidden', newForbidden(tests, '2', 'reason'), ['isForbidden']],
    ['NewUnauthorized', newUnauthorized('reason'), ['isUnauthorized']],
    ['NewServerTimeout', newServerTimeout(tests, 'reason', 0), ['isServerTimeout']],
    ['NewTimeoutError', newTimeoutError('reason', 0), ['isTimeout']],
    [
      'NewMethodNotSupported',
      newMethodNotSupported({ group: '', resource: 'foos' }, 'delete'),
      ['isMethodNotSupported'],
    ],
    ['NewTooManyRequests', newTooManyRequests('reason', 10), ['isTooManyRequests']],
    ['NewTooManyRequestsError', newTooManyRequestsError('reason'), ['isTooManyRequests']],
    ['NewRequestEntityTooLargeError', newRequestEntityTooLarge('reason'), ['isRequestEntityTooLarge']],
    ['NewServiceUnavailable', newServiceUnavailable('reason'), ['isServiceUnavailable']],
    ['NewInternalError', newInternalError('reason'), ['isInternalError']],
    ['NewGone', newGone('reason'), ['isGone']],
    ['NewResourceExpired', newResourceExpired('reason'), ['isResourceExpired']],
    ['NewUnsupportedMediaType', newUnsupportedMediaType(['a']), ['isUnsupportedMediaType']],
    ['NewNotAcceptable', newNotAcceptable(['a']), ['isNotAcceptable']],
  ] as const)('%s is only what it says', (_, err, expected) => {
    const matched = Object.entries(predicates)
      .filter(([, is]) => is(err))
      .map(([name]) => name);
    expect(matched).toEqual(expected);
  });

  it('takes the code only when the reason is not one Go knows', () => {
    const unknown = (code: number) => new StatusError({ status: 'Failure', code });
    expect(isNotFound(unknown(404))).toBe(true);
    expect(isConflict(unknown(409))).toBe(true);
    expect(isAlreadyExists(unknown(409))).toBe(false);
    expect(isInvalid(unknown(422))).toBe(true);
    expect(isGone(unknown(410))).toBe(true);
    expect(isResourceExpired(unknown(410))).toBe(false);
    expect(isServerTimeout(unknown(500))).toBe(false);
    expect(isInternalError(unknown(500))).toBe(true);
    // A known reason wins over the code…
    expect(isNotFound(new StatusError({ status: 'Failure', reason: 'Conflict', code: 404 }))).toBe(false);
    // …except for TooManyRequests and RequestEntityTooLarge, which have always looked at the code.
    expect(isTooManyRequests(new StatusError({ status: 'Failure', reason: 'Conflict', code: 429 }))).toBe(true);
    expect(isRequestEntityTooLarge(new StatusError({ status: 'Failure', reason: 'Conflict', code: 413 }))).toBe(true);
  });

  it('answers false and the unknown reason for errors without a Status', () => {
    for (const err of [new Error('x'), undefined, null, 'NotFound', { reason: 'NotFound', code: 404 }]) {
      expect(isStatusError(err)).toBe(false);
      expect(isNotFound(err)).toBe(false);
      expect(reasonForError(err)).toBe('');
      expect(hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)).toBe(false);
    }
    expect(reasonForError(newNotFound(tests, 'x'))).toBe('NotFound');
  });

  it('finds a cause by its type (HasStatusCause)', () => {
    const terminating = new StatusError({
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      details: {
        causes: [
          { reason: 'NamespaceTerminating', message: 'namespace x is being terminated', field: 'metadata.namespace' },
        ],
      },
    });
    expect(hasStatusCause(terminating, NAMESPACE_TERMINATING_CAUSE)).toBe(true);
    expect(hasStatusCause(terminating, 'FieldValueInvalid')).toBe(false);
    expect(hasStatusCause(newNotFound(tests, 'x'), NAMESPACE_TERMINATING_CAUSE)).toBe(false);
  });

  it('keeps a whole Status as it came (a client-side StatusError from a response body)', () => {
    const body: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'pods' },
      code: 404,
    };
    const err = new StatusError(body);
    expect(err.status).toEqual(body);
    expect(err.message).toBe('pods "x" not found');
    expect(err).toMatchObject({ code: 404, reason: 'NotFound', details: { name: 'x', kind: 'pods' } });
  });
});
