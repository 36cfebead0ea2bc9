/**
 * Pod tracking with the job-tracking finalizer (pkg/controller/job/tracking_utils.go at v1.32):
 * every pod a Job creates carries `batch.kubernetes.io/job-tracking` until the controller has
 * counted it in the Job's status; uidTrackingExpectations remembers the pods whose finalizer it
 * asked to remove and has not yet seen removed, so they are not counted twice.
 *
 *   const expectations = new UIDTrackingExpectations();
 *   expectations.expectFinalizersRemoved(jobKey, [pod.metadata.uid]);
 *   onUpdate: expectations.finalizerRemovalObserved(jobKey, pod.metadata.uid);
 *   expectations.getExpectedUIDs(jobKey)?.has(uid);   // still expected: skip it in this sync
 */
import type { ReadonlyPod } from './job-util.js';

// k8s.io/api/batch/v1/types.go JobTrackingFinalizer.
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

/** uidTrackingExpectations: job key → the pod UIDs whose finalizer removal is still expected. */
export class UIDTrackingExpectations {
  private readonly store = new Map<string, Set<string>>();

  /** getExpectedUIDs: a copy of the expected UIDs, or undefined when none were recorded. */
  getExpectedUIDs(jobKey: string): Set<string> | undefined {
    const uids = this.store.get(jobKey);
    return uids === undefined ? undefined : new Set(uids);
  }

  /** expectFinalizersRemoved: adds to what the job expects. */
  expectFinalizersRemoved(jobKey: string, uids: readonly string[]): void {
    let set = this.store.get(jobKey);
    if (set === undefined) {
      set = new Set();
      this.store.set(jobKey, set);
    }
    for (const uid of uids) set.add(uid);
  }

  /** finalizerRemovalObserved: the finalizer of `uid` is gone (or its removal failed). */
  finalizerRemovalObserved(jobKey: string, uid: string): void {
    this.store.get(jobKey)?.delete(uid);
  }

  /** deleteExpectations: the job is gone. */
  deleteExpectations(jobKey: string): void {
    this.store.delete(jobKey);
  }
}

/** hasJobTrackingFinalizer. */
export function hasJobTrackingFinalizer(pod: ReadonlyPod): boolean {
  return (pod.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

/** isFinishedPodWithTrackingFinalizer: terminal and not yet counted (the metric's predicate). */
export function isFinishedPodWithTrackingFinalizer(pod: ReadonlyPod | undefined): boolean {
  if (pod === undefined) return false;
  const phase = pod.status?.phase;
  return (phase === 'Failed' || phase === 'Succeeded') && hasJobTrackingFinalizer(pod);
}

/**
 * removeTrackingFinalizerPatch: the strategic-merge patch taking the finalizer off, or undefined
 * when the pod has none.
 */
export function removeTrackingFinalizerPatch(pod: ReadonlyPod): string | undefined {
  if (!hasJobTrackingFinalizer(pod)) return undefined;
  return JSON.stringify({ metadata: { '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER] } });
}

/** appendJobCompletionFinalizerIfNotFound. */
export function appendJobCompletionFinalizerIfNotFound(finalizers: readonly string[] | undefined): string[] {
  const list = [...(finalizers ?? [])];
  if (!list.includes(JOB_TRACKING_FINALIZER)) list.push(JOB_TRACKING_FINALIZER);
  return list;
}
