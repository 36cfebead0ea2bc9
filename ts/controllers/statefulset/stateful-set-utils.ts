/**
 * What the StatefulSet controller knows of a set's pods and claims
 * (pkg/controller/statefulset/stateful_set_utils.go at v1.32): the stable identity — pod
 * `<set>-<ordinal>` from spec.ordinals.start, hostname and subdomain, the pod-name and pod-index
 * labels (PodIndexLabel, beta and on in 1.32) — the claims `<template>-<set>-<ordinal>` with the
 * selector's labels, the volumes pointing at them, the PersistentVolumeClaimRetentionPolicy's
 * ownerReferences (StatefulSetAutoDeletePVC, beta and on in 1.32), the revision label, the
 * versioned pod of a partitioned update, and the status helpers.
 *
 *   const pod = newVersionedStatefulSetPod(currentSet, updateSet, current.name, update.name, 2);
 *   if (!identityMatches(set, pod)) updateIdentity(set, pod);
 */
import type { OwnerReference } from '../../api/meta.js';
import type { ControllerRevision, StatefulSet, StatefulSetStatus } from '../../api/types/apps/v1.js';
import type { PersistentVolumeClaim, Pod, Volume } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { isPodAvailable, isPodReady } from '../framework/active-pods.js';
import type { GroupVersionKind, ObjectWithMeta } from '../framework/controller-ref-manager.js';
import { getPodFromTemplate } from '../framework/pod-control.js';
import { newControllerRef, newControllerRevision } from '../history/controller-history.js';
import { applyTemplatePatch, templatePatch } from '../history/template-patch.js';

type RSet = DeepReadonly<StatefulSet>;
type RPod = DeepReadonly<Pod>;
type RClaim = DeepReadonly<PersistentVolumeClaim>;

// k8s.io/api/apps/v1/types.go: the labels a StatefulSet puts on its pods.
export const STATEFUL_SET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
export const STATEFUL_SET_REVISION_LABEL = 'controller-revision-hash';

// stateful_set.go controllerKind and podKind.
export const STATEFUL_SET_KIND: GroupVersionKind = { group: 'apps', version: 'v1', kind: 'StatefulSet' };
export const POD_KIND: GroupVersionKind = { group: '', version: 'v1', kind: 'Pod' };

// stateful_set_utils.go statefulPodRegex: the parent's name and the ordinal of a pod's name.
const STATEFUL_POD_REGEX = /^(.*)-([0-9]+)$/;
const MAX_INT32 = 2 ** 31 - 1;

/** getParentNameAndOrdinal: ['', -1] for a name that is not `<parent>-<digits>` (or past int32). */
export function getParentNameAndOrdinal(pod: ObjectWithMeta): [string, number] {
  const m = STATEFUL_POD_REGEX.exec(pod.metadata?.name ?? '');
  if (m === null) return ['', -1];
  const n = Number(m[2]);
  return [m[1] ?? '', n <= MAX_INT32 ? n : -1];
}

export const getParentName = (pod: ObjectWithMeta): string => getParentNameAndOrdinal(pod)[0];
export const getOrdinal = (pod: ObjectWithMeta): number => getParentNameAndOrdinal(pod)[1];

/** getStartOrdinal: spec.ordinals.start, 0 without it. */
export const getStartOrdinal = (set: RSet): number => set.spec?.ordinals?.start ?? 0;

/** getEndOrdinal: the last ordinal (inclusive). */
export const getEndOrdinal = (set: RSet): number => getStartOrdinal(set) + replicasOf(set) - 1;

export const replicasOf = (set: RSet): number => set.spec?.replicas ?? 1;

/** podInOrdinalRange: the pod's ordinal lies in [start, end]. */
export function podInOrdinalRange(pod: ObjectWithMeta, set: RSet): boolean {
  const ordinal = getOrdinal(pod);
  return ordinal >= getStartOrdinal(set) && ordinal <= getEndOrdinal(set);
}

/** getPodName: `<set>-<ordinal>`. */
export const getPodName = (set: RSet, ordinal: number): string => `${set.metadata?.name ?? ''}-${ordinal}`;

/** getPersistentVolumeClaimName: `<template>-<set>-<ordinal>`. */
export const getPersistentVolumeClaimName = (set: RSet, claim: RClaim, ordinal: number): string =>
  `${claim.metadata?.name ?? ''}-${set.metadata?.name ?? ''}-${ordinal}`;

/** isMemberOf: the pod's name says it is the set's. */
export const isMemberOf = (set: RSet, pod: ObjectWithMeta): boolean => getParentName(pod) === set.metadata?.name;

/** identityMatches: name, namespace and pod-name label are the set's for the pod's ordinal. */
export function identityMatches(set: RSet, pod: RPod): boolean {
  const [parent, ordinal] = getParentNameAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    set.metadata?.name === parent &&
    pod.metadata?.name === getPodName(set, ordinal) &&
    (pod.metadata?.namespace ?? '') === (set.metadata?.namespace ?? '') &&
    pod.metadata?.labels?.[STATEFUL_SET_POD_NAME_LABEL] === pod.metadata?.name
  );
}

/** storageMatches: every claim template has its volume pointing at the pod's claim. */
export function storageMatches(set: RSet, pod: RPod): boolean {
  const ordinal = getOrdinal(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  for (const claim of set.spec?.volumeClaimTemplates ?? []) {
    const volume = volumes.get(claim.metadata?.name ?? '');
    const source = volume?.persistentVolumeClaim;
    if (
      source === undefined ||
      source === null ||
      source.claimName !== getPersistentVolumeClaimName(set, claim, ordinal)
    ) {
      return false;
    }
  }
  return true;
}

export interface RetentionPolicy {
  whenDeleted: string;
  whenScaled: string;
}

// apps/v1 types.go: the PersistentVolumeClaimRetentionPolicyTypes.
export const RETAIN = 'Retain';
export const DELETE = 'Delete';

/** getPersistentVolumeClaimRetentionPolicy: the set's, Retain/Retain without one. */
export function getPersistentVolumeClaimRetentionPolicy(set: RSet): RetentionPolicy {
  const policy = set.spec?.persistentVolumeClaimRetentionPolicy;
  if (policy === undefined || policy === null) return { whenDeleted: RETAIN, whenScaled: RETAIN };
  return { whenDeleted: policy.whenDeleted ?? '', whenScaled: policy.whenScaled ?? '' };
}

const apiVersionOf = (gvk: GroupVersionKind): string =>
  gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;

/** matchesRef: the reference names `obj` by kind and name (the UID aside). */
export function matchesRef(ref: DeepReadonly<OwnerReference>, obj: ObjectWithMeta, gvk: GroupVersionKind): boolean {
  return apiVersionOf(gvk) === ref.apiVersion && gvk.kind === ref.kind && ref.name === (obj.metadata?.name ?? '');
}

/**
 * hasUnexpectedController: with a non-Retain policy, a controller of the claim that is neither the
 * set nor the pod — or a reference to them with another UID (they were orphaned wrongly).
 */
export function hasUnexpectedController(claim: RClaim, set: RSet, pod: RPod): boolean {
  const policy = getPersistentVolumeClaimRetentionPolicy(set);
  if (policy.whenScaled === RETAIN && policy.whenDeleted === RETAIN) return false;
  for (const ref of claim.metadata?.ownerReferences ?? []) {
    if (matchesRef(ref, set, STATEFUL_SET_KIND)) {
      if (ref.uid !== set.metadata?.uid) return true;
      continue;
    }
    if (matchesRef(ref, pod, POD_KIND)) {
      if (ref.uid !== pod.metadata?.uid) return true;
      continue;
    }
    if (ref.controller === true) return true;
  }
  return false;
}

/** hasNonControllerOwner: the set or the pod owns the claim without being its controller. */
export function hasNonControllerOwner(claim: RClaim, set: RSet, pod: RPod): boolean {
  return (claim.metadata?.ownerReferences ?? []).some(
    (ref) => (ref.uid === set.metadata?.uid || ref.uid === pod.metadata?.uid) && ref.controller !== true,
  );
}

/** hasOwnerRef: `target` references `owner`'s UID. */
export function hasOwnerRef(target: ObjectWithMeta, owner: ObjectWithMeta): boolean {
  const uid = owner.metadata?.uid;
  return (target.metadata?.ownerReferences ?? []).some((ref) => ref.uid === uid);
}

/** hasStaleOwnerRef: the first reference naming `obj` carries another UID. */
export function hasStaleOwnerRef(target: RClaim, obj: ObjectWithMeta, gvk: GroupVersionKind): boolean {
  const ref = (target.metadata?.ownerReferences ?? []).find((r) => matchesRef(r, obj, gvk));
  return ref !== undefined && ref.uid !== obj.metadata?.uid;
}

/**
 * isClaimOwnerUpToDate: the claim's references agree with the policy — Retain/Retain none;
 * whenDeleted=Delete the set's; whenScaled=Delete the pod's once it is scaled down (and, with
 * both Delete, the set's until then). Stale references, or a foreign controller alone, are left.
 */
export function isClaimOwnerUpToDate(claim: RClaim, set: RSet, pod: RPod): boolean {
  if (hasStaleOwnerRef(claim, set, STATEFUL_SET_KIND) || hasStaleOwnerRef(claim, pod, POD_KIND)) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const policy = getPersistentVolumeClaimRetentionPolicy(set);
  const setRef = hasOwnerRef(claim, set);
  const podRef = hasOwnerRef(claim, pod);
  const scaledDown = !podInOrdinalRange(pod, set);
  if (policy.whenScaled === RETAIN && policy.whenDeleted === DELETE) return setRef && !podRef;
  if (policy.whenScaled === DELETE && policy.whenDeleted === RETAIN) return !setRef && scaledDown === podRef;
  if (policy.whenScaled === DELETE && policy.whenDeleted === DELETE)
    return scaledDown !== setRef && scaledDown === podRef;
  // Retain/Retain, and an unknown policy treated as Retain.
  return !setRef && !podRef;
}

/** updateClaimOwnerRefForSetAndPod: the set's and pod's references scrubbed, then added as the policy says. */
export function updateClaimOwnerRefForSetAndPod(claim: PersistentVolumeClaim, set: RSet, pod: RPod): void {
  const unexpected = hasUnexpectedController(claim, set, pod);
  let refs = (claim.metadata?.ownerReferences ?? []).filter(
    (ref) => !(matchesRef(ref, set, STATEFUL_SET_KIND) || matchesRef(ref, pod, POD_KIND)),
  );
  if (!unexpected) {
    const policy = getPersistentVolumeClaimRetentionPolicy(set);
    const scaledDown = !podInOrdinalRange(pod, set);
    if (policy.whenScaled === RETAIN && policy.whenDeleted === DELETE) {
      refs = addControllerRef(refs, set, STATEFUL_SET_KIND);
    } else if (policy.whenScaled === DELETE && policy.whenDeleted === RETAIN) {
      if (scaledDown) refs = addControllerRef(refs, pod, POD_KIND);
    } else if (policy.whenScaled === DELETE && policy.whenDeleted === DELETE) {
      refs = scaledDown ? addControllerRef(refs, pod, POD_KIND) : addControllerRef(refs, set, STATEFUL_SET_KIND);
    }
  }
  claim.metadata ??= {};
  claim.metadata.ownerReferences = refs;
}

/** addControllerRef: `owner` appended as controller unless some reference has its UID already. */
function addControllerRef(refs: OwnerReference[], owner: ObjectWithMeta, gvk: GroupVersionKind): OwnerReference[] {
  if (refs.some((ref) => ref.uid === owner.metadata?.uid)) return refs;
  return [...refs, newControllerRef(owner, gvk)];
}

/**
 * getPersistentVolumeClaims: the pod's claim of each template (by template name), in the set's
 * namespace, with the template's labels plus the selector's matchLabels.
 */
export function getPersistentVolumeClaims(set: RSet, pod: ObjectWithMeta): Map<string, PersistentVolumeClaim> {
  const ordinal = getOrdinal(pod);
  const claims = new Map<string, PersistentVolumeClaim>();
  for (const template of set.spec?.volumeClaimTemplates ?? []) {
    const claim = structuredClone(template) as PersistentVolumeClaim;
    claim.metadata = {
      ...(claim.metadata ?? {}),
      name: getPersistentVolumeClaimName(set, template, ordinal),
      namespace: set.metadata?.namespace ?? '',
      labels: { ...(claim.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) },
    };
    claims.set(template.metadata?.name ?? '', claim);
  }
  return claims;
}

/** updateStorage: a claim volume per template (replacing same-named volumes), then the pod's others. */
export function updateStorage(set: RSet, pod: Pod): void {
  const claims = getPersistentVolumeClaims(set, pod);
  const volumes: Volume[] = [];
  for (const [name, claim] of claims) {
    volumes.push({ name, persistentVolumeClaim: { claimName: claim.metadata?.name ?? '' } });
  }
  for (const volume of pod.spec?.volumes ?? []) if (!claims.has(volume.name)) volumes.push(volume);
  pod.spec ??= { containers: [] };
  pod.spec.volumes = volumes;
}

/** initIdentity: updateIdentity, and the hostname and subdomain, set only at creation. */
export function initIdentity(set: RSet, pod: Pod): void {
  updateIdentity(set, pod);
  pod.spec ??= { containers: [] };
  pod.spec.hostname = pod.metadata?.name ?? '';
  pod.spec.subdomain = set.spec?.serviceName ?? '';
}

/** updateIdentity: the name, namespace, pod-name and pod-index labels of the pod's ordinal. */
export function updateIdentity(set: RSet, pod: Pod): void {
  const ordinal = getOrdinal(pod);
  pod.metadata ??= {};
  pod.metadata.name = getPodName(set, ordinal);
  pod.metadata.namespace = set.metadata?.namespace ?? '';
  pod.metadata.labels = {
    ...(pod.metadata.labels ?? {}),
    [STATEFUL_SET_POD_NAME_LABEL]: pod.metadata.name,
    // PodIndexLabel: beta, on in 1.32.
    [POD_INDEX_LABEL]: String(ordinal),
  };
}

/** isRunningAndReady: Running with the Ready condition True. */
export const isRunningAndReady = (pod: RPod): boolean => pod.status?.phase === 'Running' && isPodReady(pod);
/** isRunningAndAvailable: podutil.IsPodAvailable at `now`. */
export const isRunningAndAvailable = (pod: RPod, minReadySeconds: number, now: number): boolean =>
  isPodAvailable(pod, minReadySeconds, now);
/** isCreated: the apiserver has given it a phase. */
export const isCreated = (pod: RPod): boolean => (pod.status?.phase ?? '') !== '';
export const isPending = (pod: RPod): boolean => pod.status?.phase === 'Pending';
export const isFailed = (pod: RPod): boolean => pod.status?.phase === 'Failed';
export const isSucceeded = (pod: RPod): boolean => pod.status?.phase === 'Succeeded';
export const isTerminating = (pod: ObjectWithMeta): boolean => (pod.metadata?.deletionTimestamp ?? null) !== null;
/** isHealthy: running, ready, not being deleted. */
export const isHealthy = (pod: RPod): boolean => isRunningAndReady(pod) && !isTerminating(pod);
/** allowsBurst: podManagementPolicy Parallel. */
export const allowsBurst = (set: RSet): boolean => set.spec?.podManagementPolicy === 'Parallel';

/** setPodRevision: the revision label. */
export function setPodRevision(pod: Pod, revision: string): void {
  pod.metadata ??= {};
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [STATEFUL_SET_REVISION_LABEL]: revision };
}

/** getPodRevision: the revision label, '' without it. */
export const getPodRevision = (pod: ObjectWithMeta): string =>
  pod.metadata?.labels?.[STATEFUL_SET_REVISION_LABEL] ?? '';

/** newStatefulSetPod: the template's pod with the ordinal's identity and storage. */
export function newStatefulSetPod(set: RSet, ordinal: number): Pod {
  const pod = getPodFromTemplate(set.spec?.template ?? {}, set, newControllerRef(set, STATEFUL_SET_KIND));
  pod.metadata ??= {};
  delete pod.metadata.generateName;
  pod.metadata.name = getPodName(set, ordinal);
  initIdentity(set, pod);
  updateStorage(set, pod);
  return pod;
}

/**
 * newVersionedStatefulSetPod: below the partition (or, with RollingUpdate and no rollingUpdate,
 * below the current replicas) the pod of the current revision, else of the update revision —
 * Go's condition, its operator precedence included.
 */
export function newVersionedStatefulSetPod(
  currentSet: RSet,
  updateSet: RSet,
  currentRevision: string,
  updateRevision: string,
  ordinal: number,
): Pod {
  const strategy = currentSet.spec?.updateStrategy;
  const rollingUpdate = strategy?.rollingUpdate ?? undefined;
  const start = getStartOrdinal(currentSet);
  if (
    (strategy?.type === 'RollingUpdate' &&
      rollingUpdate === undefined &&
      ordinal < start + (currentSet.status?.currentReplicas ?? 0)) ||
    (rollingUpdate !== undefined && ordinal < start + (rollingUpdate.partition ?? 0))
  ) {
    const pod = newStatefulSetPod(currentSet, ordinal);
    setPodRevision(pod, currentRevision);
    return pod;
  }
  const pod = newStatefulSetPod(updateSet, ordinal);
  setPodRevision(pod, updateRevision);
  return pod;
}

/** newRevision: the set's template patch as a revision, the set's annotations on it. */
export function newRevision(set: RSet, revision: number, collisionCount: number): ControllerRevision {
  const cr = newControllerRevision(
    set,
    STATEFUL_SET_KIND,
    set.spec?.template?.metadata?.labels,
    JSON.parse(templatePatch(set.spec?.template)) as unknown,
    revision,
    collisionCount,
  );
  cr.metadata ??= {};
  cr.metadata.annotations = { ...(cr.metadata.annotations ?? {}), ...(set.metadata?.annotations ?? {}) };
  return cr;
}

/** ApplyRevision: the set with the revision's template. */
export function applyRevision(set: RSet, revision: DeepReadonly<ControllerRevision>): StatefulSet {
  return applyTemplatePatch<StatefulSet>(set, revision.data);
}

/** nextRevision: one past the last of the sorted revisions, 1 for none. */
export function nextRevision(revisions: readonly DeepReadonly<ControllerRevision>[]): number {
  const last = revisions[revisions.length - 1];
  return last === undefined ? 1 : (last.revision ?? 0) + 1;
}

/** inconsistentStatus: a newer observedGeneration, or any count or revision differing. */
export function inconsistentStatus(set: RSet, status: StatefulSetStatus): boolean {
  const cur = set.status;
  return (
    (status.observedGeneration ?? 0) > (cur?.observedGeneration ?? 0) ||
    status.replicas !== (cur?.replicas ?? 0) ||
    (status.currentReplicas ?? 0) !== (cur?.currentReplicas ?? 0) ||
    (status.readyReplicas ?? 0) !== (cur?.readyReplicas ?? 0) ||
    (status.updatedReplicas ?? 0) !== (cur?.updatedReplicas ?? 0) ||
    (status.currentRevision ?? '') !== (cur?.currentRevision ?? '') ||
    (status.availableReplicas ?? 0) !== (cur?.availableReplicas ?? 0) ||
    (status.updateRevision ?? '') !== (cur?.updateRevision ?? '')
  );
}

/** completeRollingUpdate: every replica updated and ready — the update revision becomes current. */
export function completeRollingUpdate(set: RSet, status: StatefulSetStatus): void {
  const replicas = replicasOf(set);
  if (
    set.spec?.updateStrategy?.type === 'RollingUpdate' &&
    status.updatedReplicas === replicas &&
    status.readyReplicas === replicas &&
    status.replicas === replicas
  ) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision ?? '';
  }
}

/** ascendingOrdinal: by ordinal, pods without one (-1) first. Stable. */
export const sortAscendingOrdinal = <T extends ObjectWithMeta>(pods: T[]): T[] =>
  pods.sort((a, b) => getOrdinal(a) - getOrdinal(b));

/** descendingOrdinal: by ordinal, highest first. Stable. */
export const sortDescendingOrdinal = <T extends ObjectWithMeta>(pods: T[]): T[] =>
  pods.sort((a, b) => getOrdinal(b) - getOrdinal(a));

/** overlappingStatefulSets: oldest first, then by name. */
export function sortOverlappingStatefulSets<T extends RSet>(sets: T[]): T[] {
  return sets.sort((a, b) => {
    const ta = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
    const tb = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
    if (ta === tb) return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
    return ta - tb;
  });
}
