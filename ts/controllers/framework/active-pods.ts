/**
 * Which pods count, and which go first (pkg/controller/controller_utils.go at v1.32): IsPodActive
 * and FilterActivePods; the ActivePods order (the pods a controller would rather delete first);
 * ActivePodsWithRanks, the order the ReplicaSet controller's getPodsToDelete sorts by, with the
 * pod-deletion-cost annotation and logarithmic scale-down (both on by default in 1.32).
 *
 *   const pods = filterActivePods(lister.byNamespace(ns).list(selector));
 *   sortActivePodsWithRanks(pods, ranks, clock.now());   // the first ones are deleted first
 */

import type { Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';

type ReadonlyPod = DeepReadonly<Pod>;

// pkg/apis/core/annotation_key_constants.go PodDeletionCost.
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

/** IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && (pod.metadata?.deletionTimestamp ?? null) === null;
}

/** FilterActivePods: the pods that have not terminated. */
export function filterActivePods<T extends ReadonlyPod>(pods: readonly T[]): T[] {
  return pods.filter(isPodActive);
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: ReadonlyPod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * podutil.IsPodAvailable (pkg/api/v1/pod/util.go): ready, and for at least `minReadySeconds`
 * before `now` (ms) — strictly before, as Go's Time.Before — by the Ready condition's
 * lastTransitionTime; with minReadySeconds 0, ready is enough.
 */
export function isPodAvailable(pod: ReadonlyPod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const since = millis(ready?.lastTransitionTime);
  return since !== 0 && since + minReadySeconds * 1000 < now;
}

// controller_utils.go podPhaseToOrdinal: Pending < Unknown < Running (others: 0).
const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };
const phaseOrdinal = (pod: ReadonlyPod): number => PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0;

/** A metav1.Time in ms; 0 for the zero time. */
const millis = (t: string | null | undefined): number =>
  t === undefined || t === null || t === '' ? 0 : Date.parse(t);

/** podReadyTime: when the Ready condition became True, for a ready pod (else the zero time). */
function podReadyTime(pod: ReadonlyPod): number {
  if (!isPodReady(pod)) return 0;
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'True');
  return millis(ready?.lastTransitionTime);
}

/** afterOrZero: t1 after t2, the zero time after any other. */
function afterOrZero(t1: number, t2: number): boolean {
  if (t1 === 0 || t2 === 0) return t1 === 0;
  return t1 > t2;
}

/** maxContainerRestarts: the most restarts of a regular container, and of a sidecar (restartPolicy Always init container). */
function maxContainerRestarts(pod: ReadonlyPod): { regular: number; sidecar: number } {
  let regular = 0;
  for (const c of pod.status?.containerStatuses ?? []) regular = Math.max(regular, c.restartCount);
  const sidecars = new Set(
    (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  );
  let sidecar = 0;
  for (const c of pod.status?.initContainerStatuses ?? []) {
    if (sidecars.has(c.name)) sidecar = Math.max(sidecar, c.restartCount);
  }
  return { regular, sidecar };
}

/** compareMaxContainerRestarts: true when pi restarted more, false when pj did, undefined when even. */
function compareMaxContainerRestarts(pi: ReadonlyPod, pj: ReadonlyPod): boolean | undefined {
  const i = maxContainerRestarts(pi);
  const j = maxContainerRestarts(pj);
  if (i.regular !== j.regular) return i.regular > j.regular;
  if (i.sidecar !== j.sidecar) return i.sidecar > j.sidecar;
  return undefined;
}

/**
 * ActivePods.Less: unassigned < assigned; Pending < Unknown < Running; not ready < ready; ready
 * for less time < more; more restarts < fewer; newer < older (no creation time first).
 */
export function activePodsLess(pi: ReadonlyPod, pj: ReadonlyPod): boolean {
  // 1. Unassigned < assigned.
  const ni = pi.spec?.nodeName ?? '';
  const nj = pj.spec?.nodeName ?? '';
  if (ni !== nj && (ni === '' || nj === '')) return ni === '';
  // 2. PodPending < PodUnknown < PodRunning.
  if (phaseOrdinal(pi) !== phaseOrdinal(pj)) return phaseOrdinal(pi) < phaseOrdinal(pj);
  // 3. Not ready < ready.
  if (isPodReady(pi) !== isPodReady(pj)) return !isPodReady(pi);
  // 4. Been ready for empty time < less time < more time.
  if (isPodReady(pi) && isPodReady(pj)) {
    const ri = podReadyTime(pi);
    const rj = podReadyTime(pj);
    if (ri !== rj) return afterOrZero(ri, rj);
  }
  // 5. Pods with containers with higher restart counts < lower restart counts.
  const restarts = compareMaxContainerRestarts(pi, pj);
  if (restarts !== undefined) return restarts;
  // 6. Empty creation time pods < newer pods < older pods.
  const ci = millis(pi.metadata?.creationTimestamp);
  const cj = millis(pj.metadata?.creationTimestamp);
  if (ci !== cj) return afterOrZero(ci, cj);
  return false;
}

/**
 * GetDeletionCostFromPodAnnotations: the pod-deletion-cost annotation as an int32; 0 when absent
 * or invalid (a leading `+` or zero, or out of range).
 */
export function deletionCost(pod: ReadonlyPod): number {
  const value = pod.metadata?.annotations?.[POD_DELETION_COST_ANNOTATION];
  if (value === undefined) return 0;
  // validFirstDigit: '-', a lone '0', or 1-9.
  const first = value[0];
  if (first === undefined || !(first === '-' || value === '0' || (first >= '1' && first <= '9'))) return 0;
  if (!/^-?\d+$/.test(value)) return 0;
  const n = Number(value);
  return n < -2147483648 || n > 2147483647 ? 0 : n;
}

/** logarithmicRankDiff: the difference of the base-2 log ranks of two times' ages in nanoseconds. */
function logarithmicRankDiff(t1: number, t2: number, now: number): number {
  const rank = (t: number) => {
    const d = (now - t) * 1e6;
    return d > 0 ? Math.floor(Math.log2(d)) : -1;
  };
  return rank(t1) - rank(t2);
}

/**
 * ActivePodsWithRanks.Less: as ActivePods, with — after readiness — a lower deletion cost first and
 * a higher rank (more related pods on the same node) first, and the ready and creation times
 * compared on a logarithmic scale (pods of about the same age tie, broken by UID).
 */
export function activePodsWithRanksLess(
  pi: ReadonlyPod,
  pj: ReadonlyPod,
  rankI: number,
  rankJ: number,
  now: number,
): boolean {
  // 1. Unassigned < assigned.
  const ni = pi.spec?.nodeName ?? '';
  const nj = pj.spec?.nodeName ?? '';
  if (ni !== nj && (ni === '' || nj === '')) return ni === '';
  // 2. PodPending < PodUnknown < PodRunning.
  if (phaseOrdinal(pi) !== phaseOrdinal(pj)) return phaseOrdinal(pi) < phaseOrdinal(pj);
  // 3. Not ready < ready.
  if (isPodReady(pi) !== isPodReady(pj)) return !isPodReady(pi);
  // 4. Lower pod-deletion-cost < higher pod-deletion cost.
  const costI = deletionCost(pi);
  const costJ = deletionCost(pj);
  if (costI !== costJ) return costI < costJ;
  // 5. Doubled up < not doubled up: more colocated ready pods of the same controller first.
  if (rankI !== rankJ) return rankI > rankJ;
  const uidLess = () => (pi.metadata?.uid ?? '') < (pj.metadata?.uid ?? '');
  // 6. Been ready for empty time < less time < more time.
  if (isPodReady(pi) && isPodReady(pj)) {
    const ri = podReadyTime(pi);
    const rj = podReadyTime(pj);
    if (ri !== rj) {
      if (now === 0 || ri === 0 || rj === 0) return afterOrZero(ri, rj);
      const diff = logarithmicRankDiff(ri, rj, now);
      return diff === 0 ? uidLess() : diff < 0;
    }
  }
  // 7. Pods with containers with higher restart counts < lower restart counts.
  const restarts = compareMaxContainerRestarts(pi, pj);
  if (restarts !== undefined) return restarts;
  // 8. Empty creation time pods < newer pods < older pods.
  const ci = millis(pi.metadata?.creationTimestamp);
  const cj = millis(pj.metadata?.creationTimestamp);
  if (ci !== cj) {
    if (now === 0 || ci === 0 || cj === 0) return afterOrZero(ci, cj);
    const diff = logarithmicRankDiff(ci, cj, now);
    return diff === 0 ? uidLess() : diff < 0;
  }
  return false;
}

/** A Less as a sort comparator. */
const comparator =
  <T>(less: (a: T, b: T) => boolean) =>
  (a: T, b: T): number =>
    less(a, b) ? -1 : less(b, a) ? 1 : 0;

/** sort.Sort(ActivePods(pods)), in place. */
export function sortActivePods<T extends ReadonlyPod>(pods: T[]): T[] {
  return pods.sort(comparator(activePodsLess));
}

/** sort.Sort(ActivePodsWithRanks{Pods, Rank, Now}): the pods reordered in place with their ranks; `now` in ms. */
export function sortActivePodsWithRanks<T extends ReadonlyPod>(pods: T[], ranks: number[], now: number): void {
  const order = pods.map((pod, i) => ({ pod, rank: ranks[i] ?? 0 }));
  order.sort(comparator((a, b) => activePodsWithRanksLess(a.pod, b.pod, a.rank, b.rank, now)));
  order.forEach(({ pod, rank }, i) => {
    pods[i] = pod;
    ranks[i] = rank;
  });
}
