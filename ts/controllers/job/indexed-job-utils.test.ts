import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/types/core/v1.js';
import {
  addCompletionIndexEnvVariables,
  appendDuplicatedIndexPodsForRemoval,
  calculateFailedIndexes,
  calculateSucceededIndexes,
  firstPendingIndexes,
  getCompletionIndex,
  getIndexFailureCount,
  getNewIndexFailureCounts,
  hasIndex,
  type Interval,
  intervalsString,
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_INDEX_FAILURE_COUNT_ANNOTATION,
  JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
  mergeIntervals,
  parseIndexesFromString,
  podGenerateNameWithIndex,
  totalIndexes,
  withOrderedIndexes,
} from './indexed-job-utils.js';
import { hollowPodsWithIndexPhase, type IndexPhase, NO_INDEX, newJob } from './test-pods.js';

const iv = (...pairs: Array<[number, number]>): Interval[] => pairs.map(([first, last]) => ({ first, last }));

describe('calculateSucceededIndexes (TestCalculateSucceededIndexes)', () => {
  const cases: Array<{
    name: string;
    prev?: string;
    pods?: IndexPhase[];
    completions: number;
    wantStatus?: Interval[];
    want: Interval[];
  }> = [
    { name: 'one index', pods: [['1', 'Succeeded']], completions: 2, want: iv([1, 1]) },
    {
      name: 'two separate',
      pods: [
        ['2', 'Failed'],
        ['5', 'Succeeded'],
        ['5', 'Succeeded'],
        ['10', 'Failed'],
        ['10', 'Succeeded'],
      ],
      completions: 11,
      want: iv([5, 5], [10, 10]),
    },
    {
      name: 'two intervals',
      pods: [
        ['0', 'Running'],
        ['1', 'Pending'],
        ['2', 'Succeeded'],
        ['3', 'Succeeded'],
        ['5', 'Succeeded'],
        ['6', 'Succeeded'],
        ['7', 'Succeeded'],
      ],
      completions: 8,
      want: iv([2, 3], [5, 7]),
    },
    {
      name: 'one index and one interval',
      pods: [
        ['0', 'Succeeded'],
        ['1', 'Failed'],
        ['2', 'Succeeded'],
        ['3', 'Succeeded'],
        ['4', 'Succeeded'],
        ['5', 'Succeeded'],
        [NO_INDEX, 'Succeeded'],
        ['-2', 'Succeeded'],
      ],
      completions: 6,
      want: iv([0, 0], [2, 5]),
    },
    {
      name: 'out of range',
      pods: [
        ['0', 'Succeeded'],
        ['1', 'Succeeded'],
        ['2', 'Succeeded'],
        ['3', 'Failed'],
        ['4', 'Succeeded'],
        ['5', 'Succeeded'],
        [NO_INDEX, 'Succeeded'],
        ['-2', 'Succeeded'],
      ],
      completions: 5,
      want: iv([0, 2], [4, 4]),
    },
    { name: 'prev interval out of range', prev: '0-5,8-10', completions: 8, wantStatus: iv([0, 5]), want: iv([0, 5]) },
    {
      name: 'prev interval partially out of range',
      prev: '0-5,8-10',
      completions: 10,
      wantStatus: iv([0, 5], [8, 9]),
      want: iv([0, 5], [8, 9]),
    },
    {
      name: 'prev and new separate',
      prev: '0,4,5,10-12',
      pods: [
        ['2', 'Succeeded'],
        ['7', 'Succeeded'],
        ['8', 'Succeeded'],
      ],
      completions: 13,
      wantStatus: iv([0, 0], [4, 5], [10, 12]),
      want: iv([0, 0], [2, 2], [4, 5], [7, 8], [10, 12]),
    },
    {
      name: 'prev between new',
      prev: '3,4,6',
      pods: [
        ['2', 'Succeeded'],
        ['7', 'Succeeded'],
        ['8', 'Succeeded'],
      ],
      completions: 9,
      wantStatus: iv([3, 4], [6, 6]),
      want: iv([2, 4], [6, 8]),
    },
    {
      name: 'new between prev',
      prev: '2,7,8',
      pods: [
        ['3', 'Succeeded'],
        ['4', 'Succeeded'],
        ['6', 'Succeeded'],
      ],
      completions: 9,
      wantStatus: iv([2, 2], [7, 8]),
      want: iv([2, 4], [6, 8]),
    },
    {
      name: 'new within prev',
      prev: '2-7',
      pods: [
        ['0', 'Succeeded'],
        ['3', 'Succeeded'],
        ['5', 'Succeeded'],
        ['9', 'Succeeded'],
      ],
      completions: 10,
      wantStatus: iv([2, 7]),
      want: iv([0, 0], [2, 7], [9, 9]),
    },
    {
      name: 'corrupted interval',
      prev: '0,1-foo,bar',
      pods: [['3', 'Succeeded']],
      completions: 4,
      wantStatus: iv([0, 0]),
      want: iv([0, 0], [3, 3]),
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const job = newJob(1, tc.completions, 6, 'Indexed');
      job.status = { completedIndexes: tc.prev ?? '' };
      const [status, got] = calculateSucceededIndexes(job, hollowPodsWithIndexPhase(tc.pods ?? []));
      expect(status).toEqual(tc.wantStatus ?? []);
      expect(got).toEqual(tc.want);
    });
  }

  it('ignores succeeded pods without the tracking finalizer (already counted)', () => {
    const job = newJob(1, 3, 6, 'Indexed');
    const [, got] = calculateSucceededIndexes(job, hollowPodsWithIndexPhase([['1', 'Succeeded']], false));
    expect(got).toEqual([]);
  });
});

describe('interval strings (orderedIntervals.String, parseIndexesFromString)', () => {
  it('writes single indexes, pairs with a comma, longer runs with a dash', () => {
    expect(intervalsString(iv([1, 1], [3, 5]))).toBe('1,3-5');
    expect(intervalsString(iv([0, 1]))).toBe('0,1');
    expect(intervalsString(iv([0, 0], [2, 2], [4, 5], [7, 8], [10, 12]))).toBe('0,2,4,5,7,8,10-12');
    expect(intervalsString([])).toBe('');
  });
  it('parses, joining adjacent intervals, and counts', () => {
    expect(parseIndexesFromString('0,1,2,5-7', 10)).toEqual(iv([0, 2], [5, 7]));
    expect(totalIndexes(parseIndexesFromString('0,1,2,5-7', 10))).toBe(6);
    expect(parseIndexesFromString('', 10)).toEqual([]);
    expect(parseIndexesFromString('3-100', 10)).toEqual(iv([3, 9]));
  });
  it('merges and adds indexes', () => {
    expect(withOrderedIndexes(iv([0, 2]), [3, 5])).toEqual(iv([0, 3], [5, 5]));
    expect(mergeIntervals(iv([1, 1], [5, 5], [9, 9]), iv([2, 2], [6, 7]))).toEqual(iv([1, 2], [5, 7], [9, 9]));
  });
});

describe('orderedIntervals.has (TestIntervalsHaveIndex)', () => {
  const cases: Array<[string, Interval[], number, boolean]> = [
    ['empty', [], 4, false],
    ['before all', iv([2, 4], [5, 7]), 1, false],
    ['after all', iv([2, 4], [6, 8]), 9, false],
    ['in between', iv([2, 4], [6, 8]), 5, false],
    ['in first', iv([2, 4], [6, 8]), 2, true],
    ['in second', iv([2, 4], [6, 8]), 8, true],
  ];
  for (const [name, intervals, index, want] of cases) it(name, () => expect(hasIndex(intervals, index)).toBe(want));
});

describe('firstPendingIndexes (TestFirstPendingIndexes)', () => {
  const cases: Array<{
    name: string;
    cnt: number;
    completions: number;
    active?: IndexPhase[];
    succeeded?: Interval[];
    failed?: Interval[];
    want: number[];
  }> = [
    { name: 'cnt greater than completions', cnt: 5, completions: 3, want: [0, 1, 2] },
    { name: 'cnt less than completions', cnt: 2, completions: 5, want: [0, 1] },
    {
      name: 'first pods active',
      active: [
        ['0', 'Running'],
        ['1', 'Pending'],
      ],
      cnt: 3,
      completions: 10,
      want: [2, 3, 4],
    },
    {
      name: 'last pods active or succeeded',
      active: [['6', 'Pending']],
      succeeded: iv([4, 5]),
      cnt: 6,
      completions: 6,
      want: [0, 1, 2, 3],
    },
    {
      name: 'mixed',
      active: [
        ['3', 'Pending'],
        ['5', 'Running'],
        ['8', 'Pending'],
        [NO_INDEX, 'Running'],
        ['-3', 'Running'],
      ],
      succeeded: iv([2, 4], [9, 9]),
      cnt: 5,
      completions: 20,
      want: [0, 1, 6, 7, 10],
    },
    {
      name: 'with failed indexes',
      active: [
        ['3', 'Pending'],
        ['9', 'Pending'],
      ],
      succeeded: iv([1, 1], [5, 5], [9, 9]),
      failed: iv([2, 2], [6, 7]),
      cnt: 5,
      completions: 20,
      want: [0, 4, 8, 10, 11],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const activePods = hollowPodsWithIndexPhase(tc.active ?? []);
      const ctx = {
        job: newJob(1, 1, 1, 'Indexed'),
        pods: activePods,
        activePods,
        succeededIndexes: tc.succeeded ?? [],
        failedIndexes: tc.failed,
        expectedRmFinalizers: undefined,
      };
      expect(firstPendingIndexes(ctx, tc.cnt, tc.completions)).toEqual(tc.want);
    });
  }

  it('with podReplacementPolicy Failed, indexes of terminating pods are not pending', () => {
    const job = newJob(2, 3, 6, 'Indexed');
    job.spec = { ...job.spec, template: job.spec?.template ?? {}, podReplacementPolicy: 'Failed' };
    const pods = hollowPodsWithIndexPhase([['0', 'Running']]);
    (pods[0] as Pod).metadata = { ...pods[0]?.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' };
    const ctx = {
      job,
      pods,
      activePods: [],
      succeededIndexes: [],
      failedIndexes: undefined,
      expectedRmFinalizers: undefined,
    };
    expect(firstPendingIndexes(ctx, 2, 3)).toEqual([1, 2]);
  });
});

describe('podGenerateNameWithIndex (TestPodGenerateNameWithIndex)', () => {
  it('short job name', () => expect(podGenerateNameWithIndex('indexed-job', 1)).toBe('indexed-job-1-'));
  it('job name exceeds MaxGeneratedNameLength', () =>
    expect(podGenerateNameWithIndex('hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooo', 1)).toBe(
      'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-',
    ));
  it('job name with index suffix exceeds MaxGeneratedNameLength', () =>
    expect(podGenerateNameWithIndex('hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhoo', 1)).toBe(
      'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-',
    ));
});

describe('completion index and failure count annotations', () => {
  it('getCompletionIndex: non-negative ints only', () => {
    expect(getCompletionIndex({ [JOB_COMPLETION_INDEX_ANNOTATION]: '3' })).toBe(3);
    expect(getCompletionIndex({ [JOB_COMPLETION_INDEX_ANNOTATION]: '-2' })).toBe(-1);
    expect(getCompletionIndex({ [JOB_COMPLETION_INDEX_ANNOTATION]: 'invalid' })).toBe(-1);
    expect(getCompletionIndex(undefined)).toBe(-1);
  });
  it('getIndexFailureCount (TestGetIndexFailureCount): invalid or out-of-range values are 0', () => {
    const pod = (v?: string): Pod => ({
      metadata: v === undefined ? {} : { annotations: { [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: v } },
    });
    expect(getIndexFailureCount(pod())).toBe(0);
    expect(getIndexFailureCount(pod('3'))).toBe(3);
    expect(getIndexFailureCount(pod('2147483647'))).toBe(2147483647);
    expect(getIndexFailureCount(pod('2147483648'))).toBe(0);
    expect(getIndexFailureCount(pod('-1'))).toBe(0);
    expect(getIndexFailureCount(pod('invalid'))).toBe(0);
  });
  it('getNewIndexFailureCounts (TestGetNewIndexFailureCountValue)', () => {
    const job = newJob(1, 3, 6, 'Indexed');
    expect(getNewIndexFailureCounts(job, undefined)).toEqual([0, 0]);
    const failed: Pod = {
      metadata: {
        annotations: { [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: '1', [JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION]: '2' },
      },
      status: {
        phase: 'Failed',
        containerStatuses: [
          { name: 'c', image: '', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 42 } } },
        ],
      },
    };
    expect(getNewIndexFailureCounts(job, failed)).toEqual([2, 2]);
    const ignoring = newJob(1, 3, 6, 'Indexed');
    ignoring.spec = {
      ...ignoring.spec,
      template: ignoring.spec?.template ?? {},
      podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [42] } }] },
    };
    expect(getNewIndexFailureCounts(ignoring, failed)).toEqual([1, 3]);
  });
  it('calculateFailedIndexes (TestCalculateFailedIndexes): failures at backoffLimitPerIndex fail the index', () => {
    const job = newJob(2, 5, 6, 'Indexed');
    job.spec = { ...job.spec, template: job.spec?.template ?? {}, backoffLimitPerIndex: 1 };
    job.status = { failedIndexes: '4' };
    const pods = hollowPodsWithIndexPhase([
      ['0', 'Failed'],
      ['1', 'Failed'],
      ['2', 'Running'],
    ]);
    (pods[1] as Pod).metadata = {
      ...pods[1]?.metadata,
      annotations: { ...pods[1]?.metadata?.annotations, [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: '1' },
    };
    expect(calculateFailedIndexes(job, pods)).toEqual(iv([1, 1], [4, 4]));
  });
  it('addCompletionIndexEnvVariables: JOB_COMPLETION_INDEX from the label, once', () => {
    const template = {
      spec: { containers: [{ name: 'c', env: [{ name: 'A', value: 'a' }] }], initContainers: [{ name: 'i' }] },
    };
    addCompletionIndexEnvVariables(template);
    addCompletionIndexEnvVariables(template);
    const env = {
      name: 'JOB_COMPLETION_INDEX',
      valueFrom: { fieldRef: { fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } },
    };
    expect(template.spec.containers[0]?.env).toEqual([{ name: 'A', value: 'a' }, env]);
    expect((template.spec.initContainers[0] as { env?: unknown }).env).toEqual([env]);
  });
});

describe('appendDuplicatedIndexPodsForRemoval (TestAppendDuplicatedIndexPodsForRemoval)', () => {
  it('removes pods without index, out of range, and all but one of each repeated index', () => {
    const pods = hollowPodsWithIndexPhase([
      [NO_INDEX, 'Running'],
      ['0', 'Running'],
      ['1', 'Pending'],
      ['1', 'Running'],
      ['2', 'Running'],
      ['5', 'Running'],
    ]);
    const [rm, left] = appendDuplicatedIndexPodsForRemoval([], [], pods, 3);
    const names = (ps: readonly Pod[]) => ps.map((p) => p.metadata?.name).sort();
    // Of index 1 the Pending pod goes (ActivePods: Pending before Running).
    expect(names(rm)).toEqual(['pod-0', 'pod-2', 'pod-5']);
    expect(names(left)).toEqual(['pod-1', 'pod-3', 'pod-4']);
  });
});
