/**
 * Indexed Jobs (pkg/controller/job/indexed_job_utils.go at v1.32): each pod carries its completion
 * index in the `batch.kubernetes.io/job-completion-index` annotation (and label, PodIndexLabel
 * being GA), and the Job's status keeps the succeeded (and, with backoffLimitPerIndex, failed)
 * indexes as ordered intervals written "1,3-5" (two neighbours as "1,2").
 *
 *   const done = parseIndexesFromString('0,2-4', completions);   // [{first:0,last:0},{first:2,last:4}]
 *   intervalsString(withOrderedIndexes(done, [1, 5]));             // "0-5"
 *   firstPendingIndexes(ctx, 2, completions);                      // the lowest indexes to create
 */
import type { Container, PodTemplateSpec } from '../../api/types/core/v1.js';
import { sortActivePods } from '../framework/active-pods.js';
import { getFinishedTime } from './backoff-utils.js';
import {
  isPodFailed,
  isPodTerminating,
  JOB_FEATURE_GATES,
  onlyReplaceFailedPods,
  type ReadonlyJob,
  type ReadonlyPod,
} from './job-util.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import { hasJobTrackingFinalizer } from './tracking-utils.js';

// k8s.io/api/batch/v1/types.go: the index annotations (the first one is also the label).
export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const JOB_INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';

// indexed_job_utils.go.
export const COMPLETION_INDEX_ENV_NAME = 'JOB_COMPLETION_INDEX';
export const UNKNOWN_COMPLETION_INDEX = -1;
// k8s.io/apiserver/pkg/storage/names: maxNameLength 63 less randomLength 5.
export const MAX_GENERATED_NAME_LENGTH = 58;
const MAX_INT32 = 2147483647;

export interface Interval {
  first: number;
  last: number;
}
/** orderedIntervals: sorted, disjoint, not adjacent once merged. */
export type OrderedIntervals = readonly Interval[];

/** isIndexedJob. */
export function isIndexedJob(job: ReadonlyJob): boolean {
  return job.spec?.completionMode === 'Indexed';
}

/** hasBackoffLimitPerIndex (the gate is on in 1.32). */
export function hasBackoffLimitPerIndex(job: ReadonlyJob): boolean {
  return JOB_FEATURE_GATES.JobBackoffLimitPerIndex && job.spec?.backoffLimitPerIndex !== undefined;
}

/** The completions as an int (an Indexed Job always has them). */
const completionsOf = (job: ReadonlyJob): number => job.spec?.completions ?? 0;

/** What the index helpers read of a sync. */
export interface IndexedSyncCtx {
  job: ReadonlyJob;
  pods: readonly ReadonlyPod[];
  activePods: readonly ReadonlyPod[];
  succeededIndexes: OrderedIntervals;
  failedIndexes: OrderedIntervals | undefined;
  /** The pods whose finalizer removal is still expected. */
  expectedRmFinalizers: ReadonlySet<string> | undefined;
}

/**
 * calculateSucceededIndexes: the previous succeeded indexes (status.completedIndexes), and those
 * merged with the indexes of succeeded pods still carrying the tracking finalizer.
 */
export function calculateSucceededIndexes(
  job: ReadonlyJob,
  pods: readonly ReadonlyPod[],
): [OrderedIntervals, OrderedIntervals] {
  const completions = completionsOf(job);
  const prev = parseIndexesFromString(job.status?.completedIndexes ?? '', completions);
  const newSucceeded = new Set<number>();
  for (const p of pods) {
    const ix = getCompletionIndex(p.metadata?.annotations);
    if (
      p.status?.phase === 'Succeeded' &&
      ix !== UNKNOWN_COMPLETION_INDEX &&
      ix < completions &&
      hasJobTrackingFinalizer(p)
    ) {
      newSucceeded.add(ix);
    }
  }
  return [prev, withOrderedIndexes(prev, sortedList(newSucceeded))];
}

/** calculateFailedIndexes: status.failedIndexes merged with the indexes failed now. */
export function calculateFailedIndexes(job: ReadonlyJob, pods: readonly ReadonlyPod[]): OrderedIntervals {
  const completions = completionsOf(job);
  const failedIndexes = job.status?.failedIndexes;
  const prev = failedIndexes === undefined ? [] : parseIndexesFromString(failedIndexes, completions);
  const newFailed = new Set<number>();
  for (const p of pods) {
    const ix = getCompletionIndex(p.metadata?.annotations);
    if (ix !== UNKNOWN_COMPLETION_INDEX && ix < completions && hasJobTrackingFinalizer(p) && isIndexFailed(job, p)) {
      newFailed.add(ix);
    }
  }
  return withOrderedIndexes(prev, sortedList(newFailed));
}

/** isIndexFailed: a FailIndex rule matched, or a counted failure reached backoffLimitPerIndex. */
export function isIndexFailed(job: ReadonlyJob, pod: ReadonlyPod): boolean {
  let counted = false;
  if (isPodFailed(pod, job)) {
    if (job.spec?.podFailurePolicy !== undefined) {
      const { countFailed, action } = matchPodFailurePolicy(job.spec.podFailurePolicy, pod);
      if (action === 'FailIndex') return true;
      counted = countFailed;
    } else {
      counted = true;
    }
  }
  return counted && getIndexFailureCount(pod) >= (job.spec?.backoffLimitPerIndex ?? 0);
}

const sortedList = (s: ReadonlySet<number>): number[] => [...s].sort((a, b) => a - b);

/** withOrderedIndexes: `oi` with the sorted `newIndexes` merged in. */
export function withOrderedIndexes(oi: OrderedIntervals, newIndexes: readonly number[]): Interval[] {
  return mergeIntervals(
    oi,
    newIndexes.map((i) => ({ first: i, last: i })),
  );
}

/** orderedIntervals.merge: the union, adjacent intervals joined. */
export function mergeIntervals(oi: OrderedIntervals, other: OrderedIntervals): Interval[] {
  const result: Interval[] = [];
  let last: Interval | undefined;
  const append = (iv: Interval) => {
    if (last === undefined || iv.first > last.last + 1) {
      last = { ...iv };
      result.push(last);
    } else if (last.last < iv.last) {
      last.last = iv.last;
    }
  };
  let i = 0;
  let j = 0;
  while (i < oi.length && j < other.length) {
    const a = oi[i] as Interval;
    const b = other[j] as Interval;
    if (a.first < b.first) {
      append(a);
      i++;
    } else {
      append(b);
      j++;
    }
  }
  for (; i < oi.length; i++) append(oi[i] as Interval);
  for (; j < other.length; j++) append(other[j] as Interval);
  return result;
}

/** orderedIntervals.total: how many indexes. */
export function totalIndexes(oi: OrderedIntervals | undefined): number {
  let count = 0;
  for (const iv of oi ?? []) count += iv.last - iv.first + 1;
  return count;
}

/** orderedIntervals.String: "0,2-4,6,7". */
export function intervalsString(oi: OrderedIntervals): string {
  const parts: string[] = [];
  for (const v of oi) {
    if (v.last > v.first) parts.push(`${v.first}${v.last === v.first + 1 ? ',' : '-'}${v.last}`);
    else parts.push(`${v.first}`);
  }
  return parts.join(',');
}

/** orderedIntervals.has: binary search. */
export function hasIndex(oi: OrderedIntervals | undefined, ix: number): boolean {
  if (oi === undefined) return false;
  let lo = 0;
  let hi = oi.length;
  while (hi > lo) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if ((oi[mid] as Interval).last >= ix) hi = mid;
    else lo = mid + 1;
  }
  if (hi === oi.length) return false;
  return (oi[hi] as Interval).first <= ix;
}

/** strconv.Atoi: a decimal int with an optional sign, or undefined. */
function atoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * parseIndexesFromString: corrupt intervals are skipped; parsing stops at the first index at or
 * past `completions`, and a last index past it is cut to completions−1.
 */
export function parseIndexesFromString(indexesStr: string, completions: number): Interval[] {
  if (indexesStr === '') return [];
  const result: Interval[] = [];
  let last: Interval | undefined;
  for (const intervalStr of indexesStr.split(',')) {
    const limits = intervalStr.split('-');
    const first = atoi(limits[0] ?? '');
    if (first === undefined) continue;
    if (first >= completions) break;
    let lastIx = first;
    if (limits.length > 1) {
      const l = atoi(limits[1] ?? '');
      if (l === undefined) continue;
      lastIx = l >= completions ? completions - 1 : l;
    }
    if (last !== undefined && last.last === first - 1) {
      last.last = lastIx;
    } else {
      last = { first, last: lastIx };
      result.push(last);
    }
  }
  return result;
}

/**
 * firstPendingIndexes: up to `count` of the lowest indexes below `completions` that are neither
 * succeeded, active, failed nor — when only failed pods are replaced — held by a terminating pod.
 */
export function firstPendingIndexes(ctx: IndexedSyncCtx, count: number, completions: number): number[] {
  if (count === 0) return [];
  const result: number[] = [];
  let nonPending: OrderedIntervals = withOrderedIndexes(ctx.succeededIndexes, sortedList(getIndexes(ctx.activePods)));
  if (onlyReplaceFailedPods(ctx.job)) {
    nonPending = withOrderedIndexes(nonPending, sortedList(getIndexes(ctx.pods.filter(isPodTerminating))));
  }
  if (ctx.failedIndexes !== undefined) nonPending = mergeIntervals(nonPending, ctx.failedIndexes);
  let candidate = 0;
  for (const iv of nonPending) {
    for (; candidate < completions && result.length < count && candidate < iv.first; candidate++)
      result.push(candidate);
    if (candidate < iv.last + 1) candidate = iv.last + 1;
  }
  for (; candidate < completions && result.length < count; candidate++) result.push(candidate);
  return result;
}

/** getIndexes: the valid completion indexes of `pods`. */
export function getIndexes(pods: readonly ReadonlyPod[]): Set<number> {
  const result = new Set<number>();
  for (const p of pods) {
    const ix = getCompletionIndex(p.metadata?.annotations);
    if (ix !== UNKNOWN_COMPLETION_INDEX) result.add(ix);
  }
  return result;
}

/** byCompletionIndex: a sorted copy (unknown indexes first). */
export function sortByCompletionIndex<T extends ReadonlyPod>(pods: readonly T[]): T[] {
  return [...pods].sort(
    (a, b) => getCompletionIndex(a.metadata?.annotations) - getCompletionIndex(b.metadata?.annotations),
  );
}

/**
 * appendDuplicatedIndexPodsForRemoval: the pods to remove — every pod without a valid index or
 * with one at or past `completions`, and of each repeated index all but the one ActivePods sorts
 * last (the one to keep) — and the ones left.
 */
export function appendDuplicatedIndexPodsForRemoval<T extends ReadonlyPod>(
  rm: T[],
  left: T[],
  pods: readonly T[],
  completions: number,
): [T[], T[]] {
  const sorted = sortByCompletionIndex(pods);
  let lastIndex = UNKNOWN_COMPLETION_INDEX;
  let firstRepeatPos = 0;
  let countLooped = 0;
  for (const [i, p] of sorted.entries()) {
    const ix = getCompletionIndex(p.metadata?.annotations);
    if (ix >= completions) {
      rm.push(...sorted.slice(i));
      break;
    }
    if (ix !== lastIndex) {
      appendPodsWithSameIndex(rm, left, sorted.slice(firstRepeatPos, i), lastIndex);
      firstRepeatPos = i;
      lastIndex = ix;
    }
    countLooped += 1;
  }
  appendPodsWithSameIndex(rm, left, sorted.slice(firstRepeatPos, countLooped), lastIndex);
  return [rm, left];
}

/** appendPodsWithSameIndexForRemovalAndRemaining. */
function appendPodsWithSameIndex<T extends ReadonlyPod>(rm: T[], left: T[], pods: T[], ix: number): void {
  if (ix === UNKNOWN_COMPLETION_INDEX) {
    rm.push(...pods);
    return;
  }
  if (pods.length === 1) {
    left.push(pods[0] as T);
    return;
  }
  sortActivePods(pods);
  rm.push(...pods.slice(0, -1));
  const keep = pods.at(-1);
  if (keep !== undefined) left.push(keep);
}

/**
 * getValidPodsWithFilter (job_controller.go): the pods with the tracking finalizer, not in
 * `uncounted`, not expected to lose their finalizer, with a valid index for an Indexed Job, that
 * `filter` accepts.
 */
export function getValidPodsWithFilter(
  ctx: Pick<IndexedSyncCtx, 'job' | 'pods' | 'expectedRmFinalizers'>,
  uncounted: ReadonlySet<string> | undefined,
  filter: (p: ReadonlyPod) => boolean,
): ReadonlyPod[] {
  const result: ReadonlyPod[] = [];
  const indexed = isIndexedJob(ctx.job);
  const completions = completionsOf(ctx.job);
  for (const p of ctx.pods) {
    const uid = p.metadata?.uid ?? '';
    if (!hasJobTrackingFinalizer(p) || uncounted?.has(uid) || ctx.expectedRmFinalizers?.has(uid)) continue;
    if (indexed) {
      const idx = getCompletionIndex(p.metadata?.annotations);
      if (idx === UNKNOWN_COMPLETION_INDEX || idx >= completions) continue;
    }
    if (filter(p)) result.push(p);
  }
  return result;
}

/**
 * getPodsWithDelayedDeletionPerIndex: per index with no succeeded, failed or active pod, the
 * failed pod kept (its finalizer too) until the index is replaced — the one with the highest
 * failure count that finished last — so its counts pass to the replacement.
 */
export function getPodsWithDelayedDeletionPerIndex(ctx: IndexedSyncCtx): Map<number, ReadonlyPod> {
  const activeIndexes = getIndexes(ctx.activePods);
  const result = new Map<number, ReadonlyPod>();
  const completions = completionsOf(ctx.job);
  getValidPodsWithFilter(ctx, undefined, (p) => {
    if (!isPodFailed(p, ctx.job)) return false;
    const ix = getCompletionIndex(p.metadata?.annotations);
    if (ix === UNKNOWN_COMPLETION_INDEX || ix >= completions) return false;
    if (hasIndex(ctx.succeededIndexes, ix) || hasIndex(ctx.failedIndexes, ix) || activeIndexes.has(ix)) return false;
    const last = result.get(ix);
    if (last === undefined) {
      result.set(ix, p);
    } else if (
      getIndexAbsoluteFailureCount(last) <= getIndexAbsoluteFailureCount(p) &&
      !(getFinishedTime(p) < getFinishedTime(last))
    ) {
      result.set(ix, p);
    }
    return false;
  });
  return result;
}

/** addIndexFailureCountAnnotation: the counts the replacement of `podBeingReplaced` starts from. */
export function addIndexFailureCountAnnotation(
  template: PodTemplateSpec,
  job: ReadonlyJob,
  podBeingReplaced: ReadonlyPod | undefined,
): void {
  const [failures, ignored] = getNewIndexFailureCounts(job, podBeingReplaced);
  template.metadata ??= {};
  template.metadata.annotations ??= {};
  template.metadata.annotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = String(failures);
  if (ignored > 0) template.metadata.annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = String(ignored);
}

/** getNewIndexFailureCounts: the replaced pod's counts plus its own failure (counted or ignored). */
export function getNewIndexFailureCounts(
  job: ReadonlyJob,
  podBeingReplaced: ReadonlyPod | undefined,
): [number, number] {
  if (podBeingReplaced === undefined) return [0, 0];
  let failures = parseIndexFailureCountAnnotation(podBeingReplaced);
  let ignored = parseIndexFailureIgnoreCountAnnotation(podBeingReplaced);
  if (job.spec?.podFailurePolicy !== undefined) {
    if (matchPodFailurePolicy(job.spec.podFailurePolicy, podBeingReplaced).countFailed) failures++;
    else ignored++;
  } else {
    failures++;
  }
  return [failures, ignored];
}

/** getCompletionIndex: the annotation as a non-negative int, or UNKNOWN_COMPLETION_INDEX. */
export function getCompletionIndex(annotations: Readonly<Record<string, string>> | undefined): number {
  const v = annotations?.[JOB_COMPLETION_INDEX_ANNOTATION];
  if (v === undefined) return UNKNOWN_COMPLETION_INDEX;
  const i = atoi(v);
  if (i === undefined || i < 0) return UNKNOWN_COMPLETION_INDEX;
  return i;
}

/** getIndexFailureCount. */
export function getIndexFailureCount(pod: ReadonlyPod): number {
  return parseIndexFailureCountAnnotation(pod);
}

/** getIndexAbsoluteFailureCount: counted and ignored failures. */
export function getIndexAbsoluteFailureCount(pod: ReadonlyPod): number {
  return parseIndexFailureCountAnnotation(pod) + parseIndexFailureIgnoreCountAnnotation(pod);
}

function parseIndexFailureCountAnnotation(pod: ReadonlyPod): number {
  const v = pod.metadata?.annotations?.[JOB_INDEX_FAILURE_COUNT_ANNOTATION];
  return v === undefined ? 0 : parseInt32(v);
}

function parseIndexFailureIgnoreCountAnnotation(pod: ReadonlyPod): number {
  const v = pod.metadata?.annotations?.[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION];
  return v === undefined ? 0 : parseInt32(v);
}

/** parseInt32: 0 for what is not an int in [0, MaxInt32]. */
function parseInt32(v: string): number {
  const n = atoi(v);
  if (n === undefined || n < 0 || n > MAX_INT32) return 0;
  return n;
}

/** addCompletionIndexEnvVariables: JOB_COMPLETION_INDEX from the index label (PodIndexLabel is GA). */
export function addCompletionIndexEnvVariables(template: PodTemplateSpec): void {
  for (const c of template.spec?.initContainers ?? []) addCompletionIndexEnvVariable(c);
  for (const c of template.spec?.containers ?? []) addCompletionIndexEnvVariable(c);
}

function addCompletionIndexEnvVariable(container: Container): void {
  if ((container.env ?? []).some((v) => v.name === COMPLETION_INDEX_ENV_NAME)) return;
  const fieldPath = JOB_FEATURE_GATES.PodIndexLabel
    ? `metadata.labels['${JOB_COMPLETION_INDEX_ANNOTATION}']`
    : `metadata.annotations['${JOB_COMPLETION_INDEX_ANNOTATION}']`;
  container.env = [
    ...(container.env ?? []),
    { name: COMPLETION_INDEX_ENV_NAME, valueFrom: { fieldRef: { fieldPath } } },
  ];
}

/** addCompletionIndexAnnotation. */
export function addCompletionIndexAnnotation(template: PodTemplateSpec, index: number): void {
  template.metadata ??= {};
  template.metadata.annotations = {
    ...(template.metadata.annotations ?? {}),
    [JOB_COMPLETION_INDEX_ANNOTATION]: String(index),
  };
}

/** addCompletionIndexLabel. */
export function addCompletionIndexLabel(template: PodTemplateSpec, index: number): void {
  template.metadata ??= {};
  template.metadata.labels = { ...(template.metadata.labels ?? {}), [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) };
}

/** podGenerateNameWithIndex: `<job>-<index>-`, the job name cut so the prefix fits 58 characters. */
export function podGenerateNameWithIndex(jobName: string, index: number): string {
  const appendIndex = `-${index}-`;
  let prefix = jobName + appendIndex;
  if (prefix.length > MAX_GENERATED_NAME_LENGTH) {
    prefix = prefix.slice(0, MAX_GENERATED_NAME_LENGTH - appendIndex.length) + appendIndex;
  }
  return prefix;
}
