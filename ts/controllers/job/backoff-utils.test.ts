import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/types/core/v1.js';
import {
  BackoffStore,
  DEFAULT_JOB_POD_FAILURE_BACKOFF_MS,
  getFinishedTime,
  getRemainingTime,
  getRemainingTimeForFailuresCount,
  getRemainingTimePerIndex,
  MAX_JOB_POD_FAILURE_BACKOFF_MS,
} from './backoff-utils.js';
import {
  getIndexAbsoluteFailureCount,
  JOB_INDEX_FAILURE_COUNT_ANNOTATION,
  JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
} from './indexed-job-utils.js';

// backoff_utils_test.go defaultTestTime: 2009-11-10T23:00:00Z.
const T0 = Date.parse('2009-11-10T23:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A pod whose only container terminated at `ms`. */
const finishedAt = (ms: number): Pod => ({
  metadata: { creationTimestamp: iso(T0 - 3600_000) },
  status: {
    containerStatuses: [
      {
        name: 'c',
        image: '',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: { terminated: { exitCode: 0, finishedAt: iso(ms) } },
      },
    ],
  },
});

describe('constants', () => {
  it('are job_controller.go 1.32 ones: 10 s doubling, capped at 10 min', () => {
    expect(DEFAULT_JOB_POD_FAILURE_BACKOFF_MS).toBe(10_000);
    expect(MAX_JOB_POD_FAILURE_BACKOFF_MS).toBe(600_000);
  });
});

describe('newBackoffRecord (TestNewBackoffRecord)', () => {
  const cases: Array<{
    name: string;
    init?: { failures: number };
    succeeded: number[];
    failed: number[];
    want: { failures: number; last?: number };
  }> = [
    { name: 'Empty backoff store and one new failure', succeeded: [], failed: [T0], want: { failures: 1, last: T0 } },
    {
      name: 'Empty backoff store and two new failures',
      succeeded: [],
      failed: [T0, T0 - 1],
      want: { failures: 2, last: T0 },
    },
    {
      name: 'Empty backoff store, two failures followed by success',
      succeeded: [T0],
      failed: [T0 - 2, T0 - 1],
      want: { failures: 0 },
    },
    {
      name: 'Empty backoff store, two failures, one success and two more failures',
      succeeded: [T0 - 2],
      failed: [T0, T0 - 4, T0 - 3, T0 - 1],
      want: { failures: 2, last: T0 },
    },
    {
      name: 'Backoff store having failure count 2 and one new failure',
      init: { failures: 2 },
      succeeded: [],
      failed: [T0],
      want: { failures: 3, last: T0 },
    },
    {
      name: 'Empty backoff store with success and failure at same timestamp',
      succeeded: [T0],
      failed: [T0],
      want: { failures: 0 },
    },
    { name: 'Empty backoff store with no success/failure', succeeded: [], failed: [], want: { failures: 0 } },
    { name: 'Empty backoff store with one success', succeeded: [T0], failed: [], want: { failures: 0 } },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const store = new BackoffStore();
      if (tc.init !== undefined)
        store.updateBackoffRecord({
          key: 'key',
          failuresAfterLastSuccess: tc.init.failures,
          lastFailureTime: undefined,
        });
      const record = store.newBackoffRecord('key', tc.succeeded.map(finishedAt), tc.failed.map(finishedAt));
      expect(record).toEqual({ key: 'key', failuresAfterLastSuccess: tc.want.failures, lastFailureTime: tc.want.last });
    });
  }
  it('is not stored until updateBackoffRecord; removeBackoffRecord drops it', () => {
    const store = new BackoffStore();
    const r = store.newBackoffRecord('key', [], [finishedAt(T0)]);
    expect(store.get('key')).toBeUndefined();
    store.updateBackoffRecord(r);
    expect(store.get('key')?.failuresAfterLastSuccess).toBe(1);
    store.removeBackoffRecord('key');
    expect(store.get('key')).toBeUndefined();
  });
});

describe('getFinishedTime (TestGetFinishedTime)', () => {
  const cs = (name: string, finished?: number) => ({
    name,
    image: '',
    imageID: '',
    ready: false,
    restartCount: 0,
    state: finished === undefined ? { running: {} } : { terminated: { exitCode: 0, finishedAt: iso(finished) } },
  });
  it('Pod with multiple containers and all containers terminated: the latest', () => {
    const pod: Pod = { status: { containerStatuses: [cs('a', T0 + 1000), cs('b', T0 + 2000), cs('c', T0 + 3000)] } };
    expect(getFinishedTime(pod)).toBe(T0 + 3000);
  });
  it('one container still running: fallback to deletionTimestamp', () => {
    const pod: Pod = {
      metadata: { deletionTimestamp: iso(T0) },
      status: { containerStatuses: [cs('a', T0 - 1000), cs('b')] },
    };
    expect(getFinishedTime(pod)).toBe(T0);
  });
  it('fallback to deletionTimestamp, decremented by grace period', () => {
    const pod: Pod = { metadata: { deletionTimestamp: iso(T0), deletionGracePeriodSeconds: 30 } };
    expect(getFinishedTime(pod)).toBe(T0 - 30_000);
  });
  it('fallback to the Ready=False transition before the deletion timestamp', () => {
    const pod: Pod = {
      metadata: { deletionTimestamp: iso(T0) },
      status: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: iso(T0 - 5000) }] },
    };
    expect(getFinishedTime(pod)).toBe(T0 - 5000);
  });
  it('fallback to creationTimestamp', () => {
    expect(getFinishedTime({ metadata: { creationTimestamp: iso(T0) } })).toBe(T0);
  });
  it('Pod with sidecar container and all containers terminated: the sidecar counts', () => {
    const pod: Pod = {
      spec: {
        containers: [{ name: 'main' }],
        initContainers: [{ name: 'sidecar', restartPolicy: 'Always' }, { name: 'init' }],
      },
      status: {
        containerStatuses: [cs('main', T0 + 1000)],
        initContainerStatuses: [cs('sidecar', T0 + 2000), cs('init', T0 + 9000)],
      },
    };
    expect(getFinishedTime(pod)).toBe(T0 + 2000);
  });
});

describe('getRemainingTime (TestGetRemainingBackoffTime)', () => {
  const d = 5000;
  const max = 700_000;
  const cases: Array<[string, number, number | undefined, number, number]> = [
    ['no failures', 0, undefined, T0, 0],
    ['one failure; current time and failure time are same', 1, T0, T0, 5000],
    ['one failure; current time == 1 second + failure time', 1, T0, T0 + 1000, 4000],
    ['one failure; current time == expected backoff time', 1, T0, T0 + 5000, 0],
    ['one failure; current time == expected backoff time + 1 Second', 1, T0, T0 + 6000, 0],
    ['three failures; current time and failure time are same', 3, T0, T0, 20_000],
    ['eight failures; backoff not exceeding maxBackoff', 8, T0, T0, 640_000],
    ['nine failures; backoff exceeding maxBackoff', 9, T0, T0, 700_000],
  ];
  for (const [name, failures, last, now, want] of cases) {
    it(name, () =>
      expect(
        getRemainingTime({ key: 'k', failuresAfterLastSuccess: failures, lastFailureTime: last }, now, d, max),
      ).toBe(want),
    );
  }
  it('with the 1.32 defaults: 10 s, 20 s, … up to 10 min', () => {
    expect(getRemainingTimeForFailuresCount(T0, 10_000, 600_000, 1, T0)).toBe(10_000);
    expect(getRemainingTimeForFailuresCount(T0, 10_000, 600_000, 2, T0)).toBe(20_000);
    expect(getRemainingTimeForFailuresCount(T0, 10_000, 600_000, 7, T0)).toBe(600_000);
  });
});

describe('getRemainingTimePerIndex (TestGetRemainingBackoffTimePerIndex)', () => {
  const failedPod = (failures: string, ignored?: string): Pod => ({
    metadata: {
      deletionTimestamp: iso(T0),
      annotations: {
        [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: failures,
        ...(ignored === undefined ? {} : { [JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION]: ignored }),
      },
    },
    status: { phase: 'Failed' },
  });
  it('no failures', () =>
    expect(getRemainingTimePerIndex(T0, 5000, 700_000, undefined, getIndexAbsoluteFailureCount)).toBe(0));
  it('two prev failures; current time and failure time are same', () =>
    expect(getRemainingTimePerIndex(T0, 5000, 700_000, failedPod('2'), getIndexAbsoluteFailureCount)).toBe(20_000));
  it('one prev failure counted and one ignored; current time and failure time are same', () =>
    expect(getRemainingTimePerIndex(T0, 5000, 700_000, failedPod('1', '1'), getIndexAbsoluteFailureCount)).toBe(
      20_000,
    ));
  it('past the back-off', () =>
    expect(getRemainingTimePerIndex(T0 + 30_000, 5000, 700_000, failedPod('2'), getIndexAbsoluteFailureCount)).toBe(0));
});
