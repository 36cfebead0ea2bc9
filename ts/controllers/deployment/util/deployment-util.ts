/**
 * The Deployment controller's helpers (pkg/controller/deployment/util/deployment_util.go at
 * v1.32, with the ReplicaSet sorts and filters of pkg/controller/controller_utils.go and
 * intstr.GetScaledValueFromIntOrPercent): revisions and their annotations, the rolling-update
 * fenceposts, proportional-scaling fractions, conditions, and the counts a status is made of.
 *
 *   const [surge, unavailable] = resolveFenceposts('25%', '25%', 10);   // [3, 2]
 *   const newRS = findNewReplicaSet(d, rsList);                          // template equal but for the hash label
 *   setDeploymentCondition(status, newDeploymentCondition('Available', 'True', MINIMUM_REPLICAS_AVAILABLE, msg, now));
 *
 * Objects are read as the apiserver hands them out (defaulted): a missing spec.replicas reads as
 * the API default 1, missing status counts as 0. Functions that change an object say so and take
 * a writable copy.
 */

import { getScaledValueFromIntOrPercent } from '../../../api/intstr.js';
import { labelSelectorAsSelector } from '../../../api/labels/label-selector.js';
import type { Selector } from '../../../api/labels/selector.js';
import type { LabelSelector } from '../../../api/meta.js';
import { rfc3339 } from '../../../api/time.js';
import type {
  Deployment,
  DeploymentCondition,
  DeploymentStatus,
  ReplicaSet,
  ReplicaSetCondition,
} from '../../../api/types/apps/v1.js';
import type { PodTemplateSpec } from '../../../api/types/core/v1.js';
import type { IntOrString } from '../../../api/types/intstr.js';
import type { DeepReadonly } from '../../../api/types/readonly.js';

export type RO<T> = DeepReadonly<T>;

// deployment_util.go: the annotations the controller keeps on Deployments and ReplicaSets.
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
// k8s.io/api apps/v1 types.go: DeprecatedRollbackTo and DefaultDeploymentUniqueLabelKey.
export const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';
export const DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY = 'pod-template-hash';
// k8s.io/api core/v1 annotation_key_constants.go: LastAppliedConfigAnnotation.
export const LAST_APPLIED_CONFIG_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

// deployment_util.go: event and condition reasons.
export const ROLLBACK_REVISION_NOT_FOUND = 'DeploymentRollbackRevisionNotFound';
export const ROLLBACK_TEMPLATE_UNCHANGED = 'DeploymentRollbackTemplateUnchanged';
export const ROLLBACK_DONE = 'DeploymentRollback';
export const REPLICA_SET_UPDATED_REASON = 'ReplicaSetUpdated';
export const FAILED_RS_CREATE_REASON = 'ReplicaSetCreateError';
export const NEW_REPLICA_SET_REASON = 'NewReplicaSetCreated';
export const FOUND_NEW_RS_REASON = 'FoundNewReplicaSet';
export const NEW_RS_AVAILABLE_REASON = 'NewReplicaSetAvailable';
export const TIMED_OUT_REASON = 'ProgressDeadlineExceeded';
export const PAUSED_DEPLOY_REASON = 'DeploymentPaused';
export const RESUMED_DEPLOY_REASON = 'DeploymentResumed';
export const MINIMUM_REPLICAS_AVAILABLE = 'MinimumReplicasAvailable';
export const MINIMUM_REPLICAS_UNAVAILABLE = 'MinimumReplicasUnavailable';

// k8s.io/api apps/v1 types.go: DeploymentConditionType and ReplicaSetConditionType values.
export const DEPLOYMENT_AVAILABLE = 'Available';
export const DEPLOYMENT_PROGRESSING = 'Progressing';
export const DEPLOYMENT_REPLICA_FAILURE = 'ReplicaFailure';
export const REPLICA_SET_REPLICA_FAILURE = 'ReplicaFailure';

// math.MaxInt32: the "no deadline" / "no limit" value of progressDeadlineSeconds and revisionHistoryLimit.
const MAX_INT32 = 2147483647;

/** *(d.Spec.Replicas), the API default 1 when absent. */
export function specReplicas(o: RO<Deployment> | RO<ReplicaSet> | undefined): number {
  return o?.spec?.replicas ?? 1;
}

/**
 * metav1.LabelSelectorAsSelector of spec.selector: nothing for none, everything for an empty one;
 * throws LabelSelectorError for a bad one.
 */
export function deploymentSelector(d: RO<Deployment>): Selector {
  // Read only: the conversion does not change its argument.
  return labelSelectorAsSelector(d.spec?.selector as LabelSelector | undefined);
}

/** Go's int32 arithmetic wraps; counts this large never happen, but the rounding helpers use it. */
function int32(n: number): number {
  return n | 0;
}

// --- conditions -------------------------------------------------------------------------------

/** NewDeploymentCondition: both times are `now` (ms on the injected clock), at whole seconds. */
export function newDeploymentCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): DeploymentCondition {
  const t = rfc3339(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/** GetDeploymentCondition: a copy of the condition of `type`, if any. */
export function getDeploymentCondition(
  status: RO<DeploymentStatus> | undefined,
  type: string,
): DeploymentCondition | undefined {
  const c = (status?.conditions ?? []).find((x) => x.type === type);
  return c === undefined ? undefined : { ...c };
}

/**
 * SetDeploymentCondition: replaces the condition of its type; nothing when status and reason are
 * unchanged; the old lastTransitionTime kept when only the reason changed.
 */
export function setDeploymentCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getDeploymentCondition(status, condition.type);
  if (current !== undefined && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current !== undefined && current.status === condition.status) {
    if (current.lastTransitionTime === undefined) delete next.lastTransitionTime;
    else next.lastTransitionTime = current.lastTransitionTime;
  }
  status.conditions = [...filterOutCondition(status.conditions, condition.type), next];
}

/** RemoveDeploymentCondition. */
export function removeDeploymentCondition(status: DeploymentStatus, type: string): void {
  const rest = filterOutCondition(status.conditions, type);
  if (rest.length > 0) status.conditions = rest;
  else delete status.conditions;
}

function filterOutCondition(
  conditions: readonly DeploymentCondition[] | undefined,
  type: string,
): DeploymentCondition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** ReplicaSetToDeploymentCondition: lastUpdateTime is the RS condition's lastTransitionTime. */
export function replicaSetToDeploymentCondition(cond: RO<ReplicaSetCondition>): DeploymentCondition {
  const out: DeploymentCondition = { type: cond.type, status: cond.status };
  if (cond.lastTransitionTime !== undefined) {
    out.lastUpdateTime = cond.lastTransitionTime;
    out.lastTransitionTime = cond.lastTransitionTime;
  }
  if (cond.reason !== undefined) out.reason = cond.reason;
  if (cond.message !== undefined) out.message = cond.message;
  return out;
}

// --- revisions and annotations ----------------------------------------------------------------

/** strconv.ParseInt(s, 10, 64) for the safe-integer range: undefined where Go reports an error. */
export function parseGoInt(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** SetDeploymentRevision: true when the revision annotation changed. */
export function setDeploymentRevision(d: Deployment, revision: string): boolean {
  d.metadata ??= {};
  d.metadata.annotations ??= {};
  if (d.metadata.annotations[REVISION_ANNOTATION] === revision) return false;
  d.metadata.annotations[REVISION_ANNOTATION] = revision;
  return true;
}

/** Revision: the revision annotation as a number (0 when absent); throws when it is not an integer. */
export function revision(obj: RO<{ metadata?: { annotations?: Record<string, string> } }> | undefined): number {
  const v = obj?.metadata?.annotations?.[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  const n = parseGoInt(v);
  if (n === undefined) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return n;
}

function revisionOrUndefined(rs: RO<ReplicaSet> | undefined): number | undefined {
  try {
    return revision(rs);
  } catch {
    return undefined;
  }
}

/** MaxRevision: the highest revision among the sets (unparseable ones skipped). */
export function maxRevision(allRSs: readonly (RO<ReplicaSet> | undefined)[]): number {
  let max = 0;
  for (const rs of allRSs) {
    const v = revisionOrUndefined(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

/** LastRevision: the second highest revision. */
export function lastRevision(allRSs: readonly (RO<ReplicaSet> | undefined)[]): number {
  let max = 0;
  let secMax = 0;
  for (const rs of allRSs) {
    const v = revisionOrUndefined(rs);
    if (v === undefined) continue;
    if (v >= max) {
      secMax = max;
      max = v;
    } else if (v > secMax) {
      secMax = v;
    }
  }
  return secMax;
}

/**
 * SetNewReplicaSetAnnotations: copies the Deployment's annotations, raises the revision (the old
 * one appended to revision-history within `revHistoryLimitInChars`), and for a set not yet
 * created the desired/max replicas. Changes `newRS`; true when its annotations changed.
 */
export function setNewReplicaSetAnnotations(
  d: RO<Deployment>,
  newRS: ReplicaSet,
  newRevision: string,
  exists: boolean,
  revHistoryLimitInChars: number,
): boolean {
  let changed = copyDeploymentAnnotationsToReplicaSet(d, newRS);
  newRS.metadata ??= {};
  newRS.metadata.annotations ??= {};
  const annotations = newRS.metadata.annotations;
  const had = Object.hasOwn(annotations, REVISION_ANNOTATION);
  const oldRevision = annotations[REVISION_ANNOTATION] ?? '';
  let oldRevisionInt = parseGoInt(oldRevision);
  if (oldRevisionInt === undefined) {
    if (oldRevision !== '') return false;
    oldRevisionInt = 0;
  }
  const newRevisionInt = parseGoInt(newRevision);
  if (newRevisionInt === undefined) return false;
  if (oldRevisionInt < newRevisionInt) {
    annotations[REVISION_ANNOTATION] = newRevision;
    changed = true;
  }
  if (had && oldRevisionInt < newRevisionInt) {
    const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
    let oldRevisions = history.split(',');
    if ((oldRevisions[0] ?? '').length === 0) {
      annotations[REVISION_HISTORY_ANNOTATION] = oldRevision;
    } else {
      let totalLen = history.length + oldRevision.length + 1;
      let start = 0;
      while (totalLen > revHistoryLimitInChars && start < oldRevisions.length) {
        totalLen = totalLen - (oldRevisions[start] ?? '').length - 1;
        start++;
      }
      if (totalLen <= revHistoryLimitInChars) {
        oldRevisions = [...oldRevisions.slice(start), oldRevision];
        annotations[REVISION_HISTORY_ANNOTATION] = oldRevisions.join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(newRS, specReplicas(d), specReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

// deployment_util.go annotationsToSkip: what is never copied between a Deployment and its sets.
const ANNOTATIONS_TO_SKIP: ReadonlySet<string> = new Set([
  LAST_APPLIED_CONFIG_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  DEPRECATED_ROLLBACK_TO,
]);

export function skipCopyAnnotation(key: string): boolean {
  return ANNOTATIONS_TO_SKIP.has(key);
}

/** copyDeploymentAnnotationsToReplicaSet: changes `rs`; true when an annotation was added or changed. */
export function copyDeploymentAnnotationsToReplicaSet(d: RO<Deployment>, rs: ReplicaSet): boolean {
  let changed = false;
  rs.metadata ??= {};
  rs.metadata.annotations ??= {};
  const annotations = rs.metadata.annotations;
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (skipCopyAnnotation(k) || (Object.hasOwn(annotations, k) && annotations[k] === v)) continue;
    annotations[k] = v;
    changed = true;
  }
  return changed;
}

/** SetDeploymentAnnotationsTo: the Deployment's annotations become the set's, but for the skipped ones it keeps. */
export function setDeploymentAnnotationsTo(d: Deployment, rollbackToRS: RO<ReplicaSet>): void {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) if (skipCopyAnnotation(k)) kept[k] = v;
  for (const [k, v] of Object.entries(rollbackToRS.metadata?.annotations ?? {}))
    if (!skipCopyAnnotation(k)) kept[k] = v;
  d.metadata ??= {};
  d.metadata.annotations = kept;
}

/** getNonNegativeInt32FromAnnotation: [value, ok]; ok false when absent, not a uint, or above MaxInt32. */
export function getNonNegativeInt32FromAnnotation(rs: RO<ReplicaSet>, key: string): [number, boolean] {
  const annotations = rs.metadata?.annotations ?? {};
  if (!Object.hasOwn(annotations, key)) return [0, false];
  const v = annotations[key] ?? '';
  // strconv.ParseUint: digits only, no sign.
  if (!/^\d+$/.test(v)) return [0, false];
  const n = Number(v);
  if (n > MAX_INT32) return [0, false];
  return [n, true];
}

/** GetDesiredReplicasAnnotation. */
export function getDesiredReplicasAnnotation(rs: RO<ReplicaSet>): [number, boolean] {
  return getNonNegativeInt32FromAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
}

function getMaxReplicasAnnotation(rs: RO<ReplicaSet>): [number, boolean] {
  return getNonNegativeInt32FromAnnotation(rs, MAX_REPLICAS_ANNOTATION);
}

/** SetReplicasAnnotations: changes `rs`; true when either annotation changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desiredReplicas: number, maxReplicas: number): boolean {
  let updated = false;
  rs.metadata ??= {};
  rs.metadata.annotations ??= {};
  const annotations = rs.metadata.annotations;
  const desired = String(desiredReplicas);
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== desired) {
    annotations[DESIRED_REPLICAS_ANNOTATION] = desired;
    updated = true;
  }
  const max = String(maxReplicas);
  if (annotations[MAX_REPLICAS_ANNOTATION] !== max) {
    annotations[MAX_REPLICAS_ANNOTATION] = max;
    updated = true;
  }
  return updated;
}

/** ReplicasAnnotationsNeedUpdate. */
export function replicasAnnotationsNeedUpdate(
  rs: RO<ReplicaSet>,
  desiredReplicas: number,
  maxReplicas: number,
): boolean {
  const annotations = rs.metadata?.annotations;
  if (annotations === undefined) return true;
  return (
    annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desiredReplicas) ||
    annotations[MAX_REPLICAS_ANNOTATION] !== String(maxReplicas)
  );
}

// --- rolling-update arithmetic ----------------------------------------------------------------

/**
 * ResolveFenceposts: [surge, unavailable] for `desired` replicas — surge rounded up,
 * unavailable rounded down, and 1 unavailable when both come to 0. Absent values are 0.
 */
export function resolveFenceposts(
  maxSurgeValue: IntOrString | null | undefined,
  maxUnavailableValue: IntOrString | null | undefined,
  desired: number,
): [number, number] {
  const surge = getScaledValueFromIntOrPercent(maxSurgeValue ?? 0, desired, true);
  let unavailable = getScaledValueFromIntOrPercent(maxUnavailableValue ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [int32(surge), int32(unavailable)];
}

/** IsRollingUpdate. */
export function isRollingUpdate(d: RO<Deployment>): boolean {
  return d.spec?.strategy?.type === 'RollingUpdate';
}

/** MaxUnavailable: 0 unless rolling with replicas; never more than the replicas. */
export function maxUnavailable(d: RO<Deployment>): number {
  const replicas = specReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const [, unavailable] = fencepostsOrZero(d, replicas);
  return Math.min(unavailable, replicas);
}

/** MinAvailable: replicas less maxUnavailable (0 for Recreate). */
export function minAvailable(d: RO<Deployment>): number {
  if (!isRollingUpdate(d)) return 0;
  return specReplicas(d) - maxUnavailable(d);
}

/** MaxSurge: 0 unless rolling. */
export function maxSurge(d: RO<Deployment>): number {
  if (!isRollingUpdate(d)) return 0;
  const [surge] = fencepostsOrZero(d, specReplicas(d));
  return surge;
}

/** MaxSurge's and MaxUnavailable's call: Go drops ResolveFenceposts' error, whose values are then 0. */
function fencepostsOrZero(d: RO<Deployment>, replicas: number): [number, number] {
  const ru = d.spec?.strategy?.rollingUpdate;
  try {
    return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicas);
  } catch {
    return [0, 0];
  }
}

/** Go's math.Round: half away from zero (JS Math.round goes half up). */
function goRound(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * GetReplicaSetProportion: how many of `toAdd` (negative: to remove) this set takes in a
 * proportional scale, bounded by what is left after `added`.
 */
export function getReplicaSetProportion(
  rs: RO<ReplicaSet> | undefined,
  d: RO<Deployment>,
  toAdd: number,
  added: number,
): number {
  if (rs === undefined || specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = getReplicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/**
 * getReplicaSetFraction: the set's share of the new maximum, from the max-replicas annotation
 * (the maximum before this scale; the status' replicas when absent or 0), rounded.
 */
export function getReplicaSetFraction(rs: RO<ReplicaSet>, d: RO<Deployment>): number {
  const replicas = specReplicas(d);
  if (replicas === 0) return -specReplicas(rs);
  const deploymentMaxReplicas = replicas + maxSurge(d);
  let [before, ok] = getMaxReplicasAnnotation(rs);
  if (!ok || before === 0) {
    before = d.status?.replicas ?? 0;
    if (before === 0) return 0;
  }
  const scaleBase = specReplicas(rs);
  const newSize = int32(scaleBase * deploymentMaxReplicas) / before;
  return int32(goRound(newSize)) - specReplicas(rs);
}

/**
 * NewRSNewReplicas: the new set's size for the next rolling step (bounded by maxSurge over all
 * sets and by the desired replicas), or the desired replicas for Recreate.
 */
export function newRSNewReplicas(
  d: RO<Deployment>,
  allRSs: readonly (RO<ReplicaSet> | undefined)[],
  newRS: RO<ReplicaSet>,
): number {
  const replicas = specReplicas(d);
  switch (d.spec?.strategy?.type) {
    case 'RollingUpdate': {
      const surge = getScaledValueFromIntOrPercent(d.spec.strategy.rollingUpdate?.maxSurge, replicas, true);
      const currentPodCount = getReplicaCountForReplicaSets(allRSs);
      const maxTotalPods = replicas + int32(surge);
      if (currentPodCount >= maxTotalPods) return specReplicas(newRS);
      const scaleUpCount = Math.min(maxTotalPods - currentPodCount, replicas - specReplicas(newRS));
      return specReplicas(newRS) + scaleUpCount;
    }
    case 'Recreate':
      return replicas;
    default:
      throw new Error(`deployment type ${d.spec?.strategy?.type ?? ''} isn't supported`);
  }
}

/** IsSaturated: the set has, wants and has available exactly the Deployment's replicas. */
export function isSaturated(d: RO<Deployment>, rs: RO<ReplicaSet> | undefined): boolean {
  if (rs === undefined) return false;
  // strconv.Atoi of the desired-replicas annotation.
  const desired = parseGoInt(rs.metadata?.annotations?.[DESIRED_REPLICAS_ANNOTATION] ?? '');
  if (desired === undefined) return false;
  const replicas = specReplicas(d);
  return (
    specReplicas(rs) === replicas && int32(desired) === replicas && (rs.status?.availableReplicas ?? 0) === replicas
  );
}

// --- finding sets -----------------------------------------------------------------------------

/** Deep equality as apiequality.Semantic.DeepEqual reads JSON: null, absent, [] and {} are alike. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) =>
    v === undefined ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => semanticEqual(v, b[i]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
    for (const k of keys) if (!semanticEqual(ao[k], bo[k])) return false;
    return true;
  }
  return a === b;
}

/** EqualIgnoreHash: the templates are equal once the pod-template-hash label is left out. */
export function equalIgnoreHash(t1: RO<PodTemplateSpec> | undefined, t2: RO<PodTemplateSpec> | undefined): boolean {
  const strip = (t: RO<PodTemplateSpec> | undefined) => {
    if (t === undefined) return undefined;
    const labels = { ...(t.metadata?.labels ?? {}) };
    delete labels[DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY];
    return { ...t, metadata: { ...(t.metadata ?? {}), labels } };
  };
  return semanticEqual(strip(t1), strip(t2));
}

/** metav1.Time in ms; the zero time (earliest) when absent. */
function creationMs(rs: RO<ReplicaSet>): number {
  const t = rs.metadata?.creationTimestamp;
  if (t === undefined || t === null) return Number.NEGATIVE_INFINITY;
  return Math.floor(Date.parse(t) / 1000) * 1000;
}

/** ReplicaSetsByCreationTimestamp's Less: older first, then by name. */
export function rsOlder(a: RO<ReplicaSet>, b: RO<ReplicaSet>): boolean {
  const ta = creationMs(a);
  const tb = creationMs(b);
  if (ta === tb) return (a.metadata?.name ?? '') < (b.metadata?.name ?? '');
  return ta < tb;
}

/** A sort comparator from a Go Less. */
function byLess<T>(less: (a: T, b: T) => boolean): (a: T, b: T) => number {
  return (a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0);
}

/** sort.Sort(ReplicaSetsByCreationTimestamp(rss)), in place as Go sorts. */
export function sortByCreationTimestamp<T extends RO<ReplicaSet>>(rss: T[]): T[] {
  return rss.sort(byLess(rsOlder));
}

/** ReplicaSetsBySizeOlder: larger first, then older first. */
export function sortBySizeOlder<T extends RO<ReplicaSet>>(rss: T[]): T[] {
  return rss.sort(
    byLess((a, b) => (specReplicas(a) === specReplicas(b) ? rsOlder(a, b) : specReplicas(a) > specReplicas(b))),
  );
}

/** ReplicaSetsBySizeNewer: larger first, then newer first. */
export function sortBySizeNewer<T extends RO<ReplicaSet>>(rss: T[]): T[] {
  return rss.sort(
    byLess((a, b) => (specReplicas(a) === specReplicas(b) ? rsOlder(b, a) : specReplicas(a) > specReplicas(b))),
  );
}

/** ReplicaSetsByRevision: lower revision first; by creation when either is unparseable or they tie. */
export function sortByRevision<T extends RO<ReplicaSet>>(rss: T[]): T[] {
  return rss.sort(
    byLess((a, b) => {
      const r1 = revisionOrUndefined(a);
      const r2 = revisionOrUndefined(b);
      if (r1 === undefined || r2 === undefined || r1 === r2) return rsOlder(a, b);
      return r1 < r2;
    }),
  );
}

/** FilterActiveReplicaSets: the sets with replicas wanted (nil ones dropped). */
export function filterActiveReplicaSets<T extends RO<ReplicaSet>>(rss: readonly (T | undefined)[]): T[] {
  return rss.filter((rs): rs is T => rs !== undefined && specReplicas(rs) > 0);
}

/** FindNewReplicaSet: the oldest set whose template equals the Deployment's (sorts `rsList`). */
export function findNewReplicaSet<T extends RO<ReplicaSet>>(d: RO<Deployment>, rsList: T[]): T | undefined {
  sortByCreationTimestamp(rsList);
  return rsList.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/** FindOldReplicaSets: [the old sets with replicas, every old set]. */
export function findOldReplicaSets<T extends RO<ReplicaSet>>(d: RO<Deployment>, rsList: T[]): [T[], T[]] {
  const newRS = findNewReplicaSet(d, rsList);
  const required: T[] = [];
  const all: T[] = [];
  for (const rs of rsList) {
    if (newRS !== undefined && rs.metadata?.uid === newRS.metadata?.uid) continue;
    all.push(rs);
    if (specReplicas(rs) !== 0) required.push(rs);
  }
  return [required, all];
}

/**
 * FindActiveOrLatest: the one set with replicas, or when none has any the new set or the newest
 * old one; undefined when several have replicas. Sorts `oldRSs` newest first, as Go does.
 */
export function findActiveOrLatest<T extends RO<ReplicaSet>>(newRS: T | undefined, oldRSs: T[]): T | undefined {
  if (newRS === undefined && oldRSs.length === 0) return undefined;
  oldRSs.sort(byLess((a, b) => rsOlder(b, a)));
  const active = filterActiveReplicaSets([...oldRSs, newRS]);
  if (active.length === 0) return newRS ?? oldRSs[0];
  if (active.length === 1) return active[0];
  return undefined;
}

/** SetFromReplicaSetTemplate: the Deployment's template becomes the set's, without the hash label. */
export function setFromReplicaSetTemplate(d: Deployment, template: RO<PodTemplateSpec>): Deployment {
  const copy = structuredClone(template) as PodTemplateSpec;
  if (copy.metadata?.labels !== undefined) delete copy.metadata.labels[DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY];
  if (d.spec === undefined) d.spec = { selector: {}, template: copy };
  else d.spec.template = copy;
  return d;
}

/** GetDeploymentsForReplicaSet: the Deployments whose non-empty selector matches the set's labels. */
export function getDeploymentsForReplicaSet<T extends RO<Deployment>>(
  deployments: readonly T[],
  rs: RO<ReplicaSet>,
): T[] {
  const labels = rs.metadata?.labels ?? {};
  if (Object.keys(labels).length === 0) return [];
  return deployments.filter((d) => {
    if ((d.metadata?.namespace ?? '') !== (rs.metadata?.namespace ?? '')) return false;
    try {
      const selector = deploymentSelector(d);
      return !selector.empty() && selector.matches(labels);
    } catch {
      return false;
    }
  });
}

// --- counts and progress ----------------------------------------------------------------------

type MaybeRS = RO<ReplicaSet> | undefined;

/** GetReplicaCountForReplicaSets: the sum of spec.replicas. */
export function getReplicaCountForReplicaSets(rss: readonly MaybeRS[]): number {
  return rss.reduce((n, rs) => (rs === undefined ? n : n + specReplicas(rs)), 0);
}

/** GetActualReplicaCountForReplicaSets: the sum of status.replicas. */
export function getActualReplicaCountForReplicaSets(rss: readonly MaybeRS[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.replicas ?? 0), 0);
}

/** GetReadyReplicaCountForReplicaSets. */
export function getReadyReplicaCountForReplicaSets(rss: readonly MaybeRS[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.readyReplicas ?? 0), 0);
}

/** GetAvailableReplicaCountForReplicaSets. */
export function getAvailableReplicaCountForReplicaSets(rss: readonly MaybeRS[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);
}

/** DeploymentComplete: every replica updated and available, and the generation observed. */
export function deploymentComplete(d: RO<Deployment>, status: RO<DeploymentStatus>): boolean {
  const replicas = specReplicas(d);
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** DeploymentProgressing: more updated, ready or available replicas, or fewer old ones, than before. */
export function deploymentProgressing(d: RO<Deployment>, status: RO<DeploymentStatus>): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  return (
    (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** A metav1.Time in ms (the zero time when absent). */
export function timeMs(t: string | null | undefined): number {
  if (t === undefined || t === null) return Number.NEGATIVE_INFINITY;
  return Date.parse(t);
}

/**
 * DeploymentTimedOut: the Progressing condition's lastUpdateTime plus the deadline is before
 * `now`; always true once timed out, never once complete.
 */
export function deploymentTimedOut(d: RO<Deployment>, status: RO<DeploymentStatus>, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const condition = getDeploymentCondition(status, DEPLOYMENT_PROGRESSING);
  if (condition === undefined) return false;
  if (condition.reason === NEW_RS_AVAILABLE_REASON) return false;
  if (condition.reason === TIMED_OUT_REASON) return true;
  const deadlineMs = (d.spec?.progressDeadlineSeconds ?? 0) * 1000;
  return timeMs(condition.lastUpdateTime) + deadlineMs < now;
}

/** HasProgressDeadline: set and not MaxInt32. */
export function hasProgressDeadline(d: RO<Deployment>): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== MAX_INT32;
}

/** HasRevisionHistoryLimit: set and not MaxInt32. */
export function hasRevisionHistoryLimit(d: RO<Deployment>): boolean {
  const l = d.spec?.revisionHistoryLimit;
  return l !== undefined && l !== MAX_INT32;
}

/**
 * getRollbackTo (rollback.go): the revision the deprecated rollback annotation asks for, or
 * undefined when there is none or it is not a number.
 */
export function getRollbackTo(d: RO<Deployment>): number | undefined {
  const v = d.metadata?.annotations?.[DEPRECATED_ROLLBACK_TO] ?? '';
  if (v === '') return undefined;
  return parseGoInt(v);
}
