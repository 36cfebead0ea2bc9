import { describe, expect, it } from 'vitest';
import type { Pod, PodPhase } from '../../api/types/core/v1.js';
import {
  appendJobCompletionFinalizerIfNotFound,
  hasJobTrackingFinalizer,
  isFinishedPodWithTrackingFinalizer,
  JOB_TRACKING_FINALIZER,
  removeTrackingFinalizerPatch,
  UIDTrackingExpectations,
} from './tracking-utils.js';

describe('UIDTrackingExpectations (TestUIDTrackingExpectations)', () => {
  it('tracks expected finalizer removals per job', () => {
    const exp = new UIDTrackingExpectations();
    expect(exp.getExpectedUIDs('ns/a')).toBeUndefined();
    exp.expectFinalizersRemoved('ns/a', ['u1', 'u2']);
    exp.expectFinalizersRemoved('ns/a', ['u3']);
    exp.expectFinalizersRemoved('ns/b', ['u4']);
    expect([...(exp.getExpectedUIDs('ns/a') ?? [])].sort()).toEqual(['u1', 'u2', 'u3']);
    exp.finalizerRemovalObserved('ns/a', 'u2');
    exp.finalizerRemovalObserved('ns/a', 'unknown');
    expect([...(exp.getExpectedUIDs('ns/a') ?? [])].sort()).toEqual(['u1', 'u3']);
    // A copy: changing it changes nothing.
    exp.getExpectedUIDs('ns/a')?.clear();
    expect(exp.getExpectedUIDs('ns/a')?.size).toBe(2);
    exp.deleteExpectations('ns/a');
    expect(exp.getExpectedUIDs('ns/a')).toBeUndefined();
    expect(exp.getExpectedUIDs('ns/b')?.has('u4')).toBe(true);
  });
});

describe('the tracking finalizer', () => {
  const pod = (finalizers: string[], phase?: PodPhase): Pod => ({
    metadata: { finalizers },
    status: phase === undefined ? {} : { phase },
  });
  it('is batch.kubernetes.io/job-tracking', () =>
    expect(JOB_TRACKING_FINALIZER).toBe('batch.kubernetes.io/job-tracking'));
  it('hasJobTrackingFinalizer / isFinishedPodWithTrackingFinalizer', () => {
    expect(hasJobTrackingFinalizer(pod(['x', JOB_TRACKING_FINALIZER]))).toBe(true);
    expect(hasJobTrackingFinalizer(pod(['x']))).toBe(false);
    expect(isFinishedPodWithTrackingFinalizer(pod([JOB_TRACKING_FINALIZER], 'Failed'))).toBe(true);
    expect(isFinishedPodWithTrackingFinalizer(pod([JOB_TRACKING_FINALIZER], 'Running'))).toBe(false);
    expect(isFinishedPodWithTrackingFinalizer(undefined)).toBe(false);
  });
  it('removeTrackingFinalizerPatch: $deleteFromPrimitiveList, none without the finalizer', () => {
    expect(removeTrackingFinalizerPatch(pod([JOB_TRACKING_FINALIZER]))).toBe(
      '{"metadata":{"$deleteFromPrimitiveList/finalizers":["batch.kubernetes.io/job-tracking"]}}',
    );
    expect(removeTrackingFinalizerPatch(pod([]))).toBeUndefined();
  });
  it('appendJobCompletionFinalizerIfNotFound: once', () => {
    expect(appendJobCompletionFinalizerIfNotFound(undefined)).toEqual([JOB_TRACKING_FINALIZER]);
    expect(appendJobCompletionFinalizerIfNotFound(['a', JOB_TRACKING_FINALIZER])).toEqual([
      'a',
      JOB_TRACKING_FINALIZER,
    ]);
  });
});
