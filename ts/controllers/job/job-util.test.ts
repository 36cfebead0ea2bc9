import { describe, expect, it } from 'vitest';
import type { Job } from '../../api/types/batch/v1.js';
import type { Pod, PodPhase } from '../../api/types/core/v1.js';
import {
  countTerminatingPods,
  finishedCondition,
  isJobFinished,
  isJobSucceeded,
  isPodFailed,
  JOB_FEATURE_GATES,
  onlyReplaceFailedPods,
  timeMs,
} from './job-util.js';

const job = (
  spec: Partial<NonNullable<Job['spec']>> = {},
  conditions: Array<{ type: string; status: 'True' | 'False' }> = [],
): Job => ({
  spec: { template: {}, ...spec },
  status: { conditions },
});
const pod = (phase: PodPhase, deleting = false): Pod => ({
  metadata: deleting ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {},
  status: { phase },
});

describe('feature gates (1.32 defaults)', () => {
  it('are all on', () => {
    expect(Object.values(JOB_FEATURE_GATES).every(Boolean)).toBe(true);
  });
});

describe('finished jobs (util.FinishedCondition, TestFinishedCondition)', () => {
  it('Complete or Failed True finishes a job; False or other types do not', () => {
    expect(finishedCondition(job({}, [{ type: 'Complete', status: 'True' }]))).toBe('Complete');
    expect(finishedCondition(job({}, [{ type: 'Failed', status: 'True' }]))).toBe('Failed');
    expect(isJobFinished(job({}, [{ type: 'Complete', status: 'False' }]))).toBe(false);
    expect(isJobFinished(job({}, [{ type: 'SuccessCriteriaMet', status: 'True' }]))).toBe(false);
    expect(isJobFinished(job({}, [{ type: 'FailureTarget', status: 'True' }]))).toBe(false);
    expect(isJobSucceeded(job({}, [{ type: 'Failed', status: 'True' }]))).toBe(false);
    expect(isJobSucceeded(job({}, [{ type: 'Complete', status: 'True' }]))).toBe(true);
  });
});

describe('isPodFailed and onlyReplaceFailedPods', () => {
  it('a terminating pod is failed unless only failed pods are replaced', () => {
    expect(onlyReplaceFailedPods(job())).toBe(false);
    expect(onlyReplaceFailedPods(job({ podReplacementPolicy: 'Failed' }))).toBe(true);
    expect(onlyReplaceFailedPods(job({ podFailurePolicy: { rules: [] } }))).toBe(true);
    expect(isPodFailed(pod('Failed'), job())).toBe(true);
    expect(isPodFailed(pod('Running', true), job())).toBe(true);
    expect(isPodFailed(pod('Succeeded', true), job())).toBe(false);
    expect(isPodFailed(pod('Running', true), job({ podReplacementPolicy: 'Failed' }))).toBe(false);
    expect(isPodFailed(pod('Running'), job())).toBe(false);
  });
  it('countTerminatingPods: not terminal and being deleted', () => {
    expect(
      countTerminatingPods([pod('Running', true), pod('Pending', true), pod('Failed', true), pod('Running')]),
    ).toBe(2);
  });
  it('timeMs: RFC 3339 to ms, nothing for none', () => {
    expect(timeMs('2025-01-01T00:00:01Z')).toBe(Date.parse('2025-01-01T00:00:01Z'));
    expect(timeMs(undefined)).toBeUndefined();
    expect(timeMs('')).toBeUndefined();
    expect(timeMs('garbage')).toBeUndefined();
  });
});
