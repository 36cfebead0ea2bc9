/**
 * The pod failure back-off (pkg/controller/job/backoff_utils.go at v1.32): how long the Job
 * controller waits before it replaces failed pods — DefaultJobPodFailureBackOff (10 s) doubled per
 * failure since the last success, capped at MaxJobPodFailureBackOff (10 min), counted from the
 * last failure's finish time. Records live in memory, per job key, as in Kubernetes (lost on a
 * restart).
 *
 *   const record = store.newBackoffRecord(key, newSucceededPods, newFailedPods);
 *   const wait = getRemainingTime(record, clock.now());   // 0: create pods now
 *   store.updateBackoffRecord(record);                     // once the status is written
 */
import type { ContainerStatus } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { JOB_FEATURE_GATES, type ReadonlyPod, timeMs } from './job-util.js';

// job_controller.go DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff.
export const DEFAULT_JOB_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_JOB_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

/** backoffRecord: failures since the last success, and when the last one happened (ms). */
export interface BackoffRecord {
  key: string;
  failuresAfterLastSuccess: number;
  lastFailureTime: number | undefined;
}

/** backoffStore: job key → its record. */
export class BackoffStore {
  private readonly store = new Map<string, BackoffRecord>();

  get(key: string): BackoffRecord | undefined {
    const r = this.store.get(key);
    return r === undefined ? undefined : { ...r };
  }

  updateBackoffRecord(record: BackoffRecord): void {
    this.store.set(record.key, { ...record });
  }

  removeBackoffRecord(key: string): void {
    this.store.delete(key);
  }

  /**
   * newBackoffRecord: the record after the newly finished pods — failures added when nothing
   * succeeded; after a success, only the failures that finished later than it.
   */
  newBackoffRecord(
    key: string,
    newSucceededPods: readonly ReadonlyPod[],
    newFailedPods: readonly ReadonlyPod[],
  ): BackoffRecord {
    const old = this.store.get(key);
    const backoff: BackoffRecord =
      old === undefined ? { key, failuresAfterLastSuccess: 0, lastFailureTime: undefined } : { ...old };
    const succeeded = sortByFinishedTime(newSucceededPods);
    const failed = sortByFinishedTime(newFailedPods);
    if (succeeded.length === 0) {
      const last = failed.at(-1);
      if (last === undefined) return backoff;
      backoff.failuresAfterLastSuccess += failed.length;
      backoff.lastFailureTime = getFinishedTime(last);
      return backoff;
    }
    backoff.failuresAfterLastSuccess = 0;
    backoff.lastFailureTime = undefined;
    if (failed.length === 0) return backoff;
    const lastSuccessTime = getFinishedTime(succeeded.at(-1) as ReadonlyPod);
    for (let i = failed.length - 1; i >= 0; i--) {
      const failedTime = getFinishedTime(failed[i] as ReadonlyPod);
      if (!(failedTime > lastSuccessTime)) break;
      backoff.lastFailureTime ??= failedTime;
      backoff.failuresAfterLastSuccess += 1;
    }
    return backoff;
  }
}

/** sortByFinishedTime: a sorted copy, earliest finish first. */
export function sortByFinishedTime(pods: readonly ReadonlyPod[]): ReadonlyPod[] {
  return [...pods].sort((a, b) => getFinishedTime(a) - getFinishedTime(b));
}

/**
 * getFinishedTime (ms): the containers' latest finishedAt when all have terminated, else the
 * Ready=False condition's transition, else deletionTimestamp minus the grace period, else the
 * creation time.
 */
export function getFinishedTime(p: ReadonlyPod): number {
  return (
    finishTimeFromContainers(p) ??
    finishTimeFromPodReadyFalseCondition(p) ??
    finishTimeFromDeletionTimestamp(p) ??
    timeMs(p.metadata?.creationTimestamp) ??
    0
  );
}

/** getFinishTimeFromContainers: regular containers, and sidecars (restartPolicy Always init containers). */
function finishTimeFromContainers(p: ReadonlyPod): number | undefined {
  let finish = latestFinishTime(undefined, p.status?.containerStatuses ?? []);
  if (JOB_FEATURE_GATES.SidecarContainers) {
    const sidecars = new Set(
      (p.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
    );
    finish = latestFinishTime(finish, p.status?.initContainerStatuses ?? [], (s) => sidecars.has(s.name));
  }
  return finish;
}

/** latestFinishTime: undefined as soon as one checked container has not terminated with a time. */
function latestFinishTime(
  prev: number | undefined,
  statuses: readonly DeepReadonly<ContainerStatus>[],
  check?: (s: DeepReadonly<ContainerStatus>) => boolean,
): number | undefined {
  let finish = prev;
  for (const s of statuses) {
    if (check !== undefined && !check(s)) continue;
    const at = timeMs(s.state?.terminated?.finishedAt);
    if (at === undefined) return undefined;
    if (finish === undefined || finish < at) finish = at;
  }
  return finish;
}

function finishTimeFromPodReadyFalseCondition(p: ReadonlyPod): number | undefined {
  const ready = (p.status?.conditions ?? []).find((c) => c.type === 'Ready');
  if (ready === undefined || ready.status !== 'False') return undefined;
  return timeMs(ready.lastTransitionTime);
}

function finishTimeFromDeletionTimestamp(p: ReadonlyPod): number | undefined {
  const deleted = timeMs(p.metadata?.deletionTimestamp);
  if (deleted === undefined) return undefined;
  return deleted - (p.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
}

/** backoffRecord.getRemainingTime: the wait left (ms) before pods may be created again. */
export function getRemainingTime(
  record: BackoffRecord,
  now: number,
  defaultBackoffMs = DEFAULT_JOB_POD_FAILURE_BACKOFF_MS,
  maxBackoffMs = MAX_JOB_POD_FAILURE_BACKOFF_MS,
): number {
  return getRemainingTimeForFailuresCount(
    now,
    defaultBackoffMs,
    maxBackoffMs,
    record.failuresAfterLastSuccess,
    record.lastFailureTime,
  );
}

/**
 * getRemainingTimePerIndex: the back-off of an index from the last failed pod of it (its failure
 * count annotations plus this failure); 0 without one.
 */
export function getRemainingTimePerIndex(
  now: number,
  defaultBackoffMs: number,
  maxBackoffMs: number,
  lastFailedPod: ReadonlyPod | undefined,
  absoluteFailureCount: (p: ReadonlyPod) => number,
): number {
  if (lastFailedPod === undefined) return 0;
  const failures = absoluteFailureCount(lastFailedPod) + 1;
  return getRemainingTimeForFailuresCount(
    now,
    defaultBackoffMs,
    maxBackoffMs,
    failures,
    getFinishedTime(lastFailedPod),
  );
}

/** getRemainingTimeForFailuresCount: default·2^(failures−1), capped, less the time since the last failure. */
export function getRemainingTimeForFailuresCount(
  now: number,
  defaultBackoffMs: number,
  maxBackoffMs: number,
  failuresCount: number,
  lastFailureTime: number | undefined,
): number {
  if (failuresCount === 0) return 0;
  let backoff = defaultBackoffMs;
  for (let i = 1; i < failuresCount; i++) {
    backoff *= 2;
    if (backoff >= maxBackoffMs) {
      backoff = maxBackoffMs;
      break;
    }
  }
  // Go dereferences lastFailureTime; a record with failures always has one.
  const elapsed = now - (lastFailureTime ?? now);
  if (backoff < elapsed) return 0;
  return backoff - elapsed;
}
