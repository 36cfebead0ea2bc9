import { describe, expect, it } from 'vitest';
import type { SuccessPolicy } from '../../api/types/batch/v1.js';
import { type Interval, parseIndexesFromString } from './indexed-job-utils.js';
import {
  hasSuccessCriteriaMetCondition,
  isSuccessCriteriaMetCondition,
  matchSucceededIndexesRule,
  matchSuccessPolicy,
} from './success-policy.js';
import { newJob } from './test-pods.js';

const iv = (...pairs: Array<[number, number]>): Interval[] => pairs.map(([first, last]) => ({ first, last }));

describe('matchSuccessPolicy (TestMatchSuccessPolicy)', () => {
  const cases: Array<{
    name: string;
    policy?: SuccessPolicy;
    completions: number;
    succeeded: string;
    met: boolean;
    message?: string;
  }> = [
    { name: 'successPolicy is null', completions: 10, succeeded: '0-2', met: false },
    {
      name: 'any succeededIndexes are not matched',
      policy: { rules: [{ succeededIndexes: '0-2' }] },
      completions: 10,
      succeeded: '',
      met: false,
    },
    {
      name: 'rules.succeededIndexes is matched',
      policy: { rules: [{ succeededIndexes: '1-3' }] },
      completions: 10,
      succeeded: '1-3',
      met: true,
      message: 'Matched rules at index 0',
    },
    {
      name: 'rules.succeededIndexes is not matched',
      policy: { rules: [{ succeededIndexes: '1-3' }] },
      completions: 10,
      succeeded: '1,3',
      met: false,
    },
    {
      name: 'rules.succeededCount is matched',
      policy: { rules: [{ succeededCount: 2 }] },
      completions: 10,
      succeeded: '0,9',
      met: true,
      message: 'Matched rules at index 0',
    },
    {
      name: 'rules.succeededCount is not matched',
      policy: { rules: [{ succeededCount: 3 }] },
      completions: 10,
      succeeded: '0,9',
      met: false,
    },
    {
      name: 'multiple rules; the second is matched',
      policy: {
        rules: [
          { succeededIndexes: '0-5', succeededCount: 6 },
          { succeededIndexes: '6-9', succeededCount: 3 },
        ],
      },
      completions: 10,
      succeeded: '0,3,6-8',
      met: true,
      message: 'Matched rules at index 1',
    },
    {
      name: 'rules.succeededIndexes beyond completions: skipped',
      policy: { rules: [{ succeededIndexes: '10-12' }, { succeededCount: 1 }] },
      completions: 10,
      succeeded: '0',
      met: true,
      message: 'Matched rules at index 1',
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const got = matchSuccessPolicy(tc.policy, tc.completions, parseIndexesFromString(tc.succeeded, tc.completions));
      expect(got).toEqual({ met: tc.met, message: tc.message ?? '' });
    });
  }
});

describe('matchSucceededIndexesRule (TestMatchSucceededIndexesRule)', () => {
  it('all rule indexes, or enough of them', () => {
    expect(matchSucceededIndexesRule(iv([1, 3], [6, 9]), iv([0, 3], [6, 9]), undefined)).toBe(true);
    expect(matchSucceededIndexesRule(iv([1, 3], [6, 9]), iv([0, 2], [6, 9]), undefined)).toBe(false);
    expect(matchSucceededIndexesRule(iv([1, 3], [6, 9]), iv([0, 2], [6, 9]), 6)).toBe(true);
    expect(matchSucceededIndexesRule(iv([2, 4]), iv([0, 1], [5, 6]), 1)).toBe(false);
  });
});

describe('SuccessCriteriaMet conditions', () => {
  it('only a True condition counts', () => {
    const job = newJob(1, 1, 6);
    job.status = { conditions: [{ type: 'SuccessCriteriaMet', status: 'False' }] };
    expect(hasSuccessCriteriaMetCondition(job)).toBeUndefined();
    job.status = { conditions: [{ type: 'SuccessCriteriaMet', status: 'True', reason: 'SuccessPolicy' }] };
    expect(hasSuccessCriteriaMetCondition(job)?.reason).toBe('SuccessPolicy');
    expect(isSuccessCriteriaMetCondition({ type: 'SuccessCriteriaMet', status: 'True' })).toBe(true);
    expect(isSuccessCriteriaMetCondition({ type: 'Complete', status: 'True' })).toBe(false);
    expect(isSuccessCriteriaMetCondition(undefined)).toBe(false);
  });
});
