/**
 * What the Job controller's files share (pkg/controller/job/util/utils.go and the small helpers of
 * job_controller.go at v1.32, the batch/v1 constants of k8s.io/api/batch/v1/types.go): the feature
 * gates as a default 1.32 kube-controller-manager has them, whether a Job has finished, and which
 * pods count as failed.
 *
 *   if (isJobFinished(job)) return;
 *   const failed = pods.filter((p) => isPodFailed(p, job));
 */
import type { Job, JobCondition } from '../../api/types/batch/v1.js';
import type { Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';

export type ReadonlyJob = DeepReadonly<Job>;
export type ReadonlyPod = DeepReadonly<Pod>;

/**
 * pkg/features/versioned_kube_features.go at v1.32.4: the defaults this port models (the code
 * takes the "enabled" path of each; they are not switchable).
 */
export const JOB_FEATURE_GATES = {
  JobPodFailurePolicy: true, // GA in 1.31, locked on
  JobBackoffLimitPerIndex: true, // beta in 1.29
  JobSuccessPolicy: true, // beta in 1.31
  JobManagedBy: true, // beta in 1.32
  JobPodReplacementPolicy: true, // beta in 1.29
  PodDisruptionConditions: true, // GA in 1.31, locked on
  PodIndexLabel: true, // GA in 1.32, locked on
  SidecarContainers: true, // beta in 1.29
} as const;

// k8s.io/api/batch/v1/types.go: the condition types.
export const JOB_SUSPENDED = 'Suspended';
export const JOB_COMPLETE = 'Complete';
export const JOB_FAILED = 'Failed';
export const JOB_FAILURE_TARGET = 'FailureTarget';
export const JOB_SUCCESS_CRITERIA_MET = 'SuccessCriteriaMet';

// k8s.io/api/batch/v1/types.go: the condition reasons.
export const JOB_REASON_POD_FAILURE_POLICY = 'PodFailurePolicy';
export const JOB_REASON_BACKOFF_LIMIT_EXCEEDED = 'BackoffLimitExceeded';
export const JOB_REASON_DEADLINE_EXCEEDED = 'DeadlineExceeded';
export const JOB_REASON_MAX_FAILED_INDEXES_EXCEEDED = 'MaxFailedIndexesExceeded';
export const JOB_REASON_FAILED_INDEXES = 'FailedIndexes';
export const JOB_REASON_SUCCESS_POLICY = 'SuccessPolicy';
export const JOB_REASON_COMPLETIONS_REACHED = 'CompletionsReached';

// k8s.io/api/batch/v1/types.go JobControllerName: spec.managedBy of the built-in controller.
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';

/** util.FinishedCondition: the type of the Complete or Failed condition that is True, if any. */
export function finishedCondition(job: ReadonlyJob): string | undefined {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === JOB_COMPLETE || c.type === JOB_FAILED) && c.status === 'True') return c.type;
  }
  return undefined;
}

/** util.IsJobFinished: Complete or Failed is True. */
export function isJobFinished(job: ReadonlyJob): boolean {
  return finishedCondition(job) !== undefined;
}

/** util.IsJobSucceeded: Complete is True. */
export function isJobSucceeded(job: ReadonlyJob): boolean {
  return (job.status?.conditions ?? []).some((c) => c.type === JOB_COMPLETE && c.status === 'True');
}

/** jobSuspended: spec.suspend is true. */
export function jobSuspended(job: ReadonlyJob): boolean {
  return job.spec?.suspend === true;
}

/**
 * onlyReplaceFailedPods: podReplacementPolicy Failed (the default with a podFailurePolicy) — pods
 * are replaced only once they have failed, not while they terminate.
 */
export function onlyReplaceFailedPods(job: ReadonlyJob): boolean {
  if (job.spec?.podReplacementPolicy === 'Failed') return true;
  return job.spec?.podFailurePolicy !== undefined;
}

/**
 * isPodFailed: phase Failed, or — when terminating pods are replaced — being deleted without
 * having succeeded.
 */
export function isPodFailed(pod: ReadonlyPod, job: ReadonlyJob): boolean {
  if (pod.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return isDeleting(pod) && pod.status?.phase !== 'Succeeded';
}

/** A deletionTimestamp is set. */
export function isDeleting(obj: { readonly metadata?: { readonly deletionTimestamp?: string | null } }): boolean {
  const ts = obj.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null;
}

/** controller.IsPodTerminating: not terminal, and being deleted. */
export function isPodTerminating(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && isDeleting(pod);
}

/** controller.CountTerminatingPods. */
export function countTerminatingPods(pods: readonly ReadonlyPod[]): number {
  return pods.filter(isPodTerminating).length;
}

/** findConditionByType: the first condition of `type`. */
export function findConditionByType<C extends DeepReadonly<JobCondition> | JobCondition>(
  list: readonly C[] | undefined,
  type: string,
): C | undefined {
  return (list ?? []).find((c) => c.type === type);
}

/** A metav1.Time (RFC 3339) in ms; undefined for none. */
export function timeMs(t: string | null | undefined): number | undefined {
  if (t === undefined || t === null || t === '') return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}
