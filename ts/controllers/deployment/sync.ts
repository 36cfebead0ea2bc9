/**
 * The Deployment controller's scaling and status (pkg/controller/deployment/sync.go at v1.32):
 * finding or creating the new ReplicaSet (pod-template-hash label, `<name>-<hash>`, revision
 * annotations, hash collisions bumping status.collisionCount), proportional scaling of every
 * active set when the Deployment is resized mid-rollout, the paused conditions, the cleanup of old
 * sets beyond revisionHistoryLimit, and the status computed from the sets.
 *
 *   const [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, true);
 *   await scale(dc, d, newRS, oldRSs);
 *   await syncDeploymentStatus(dc, [...oldRSs, newRS], newRS, d);
 *
 * Each function takes the controller's SyncContext (its writes, its ReplicaSet cache, its
 * recorder and clock) and `d`, a writable copy of the cached Deployment that it changes as Go's
 * do — and, as Go, writes without refreshing `d`, so a later status write of the same sync may
 * meet a Conflict and the key is retried.
 */

import type { LabelSelector } from '../../api/meta.js';
import { hasStatusCause, isAlreadyExists, isNotFound, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type { Deployment, DeploymentStatus, ReplicaSet } from '../../api/types/apps/v1.js';
import type { Client } from '../../client/client.js';
import type { EventType } from '../../client/event-recorder.js';
import { RESOURCES } from '../../client/resources.js';
import type { Clock } from '../../sim/clock.js';
import type { Logger } from '../../sim/logger.js';
import { getControllerOf, type ObjectWithMeta } from '../framework/controller-ref-manager.js';
import {
  DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY,
  DEPLOYMENT_AVAILABLE,
  DEPLOYMENT_PROGRESSING,
  equalIgnoreHash,
  FAILED_RS_CREATE_REASON,
  FOUND_NEW_RS_REASON,
  filterActiveReplicaSets,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  getActualReplicaCountForReplicaSets,
  getAvailableReplicaCountForReplicaSets,
  getDeploymentCondition,
  getDesiredReplicasAnnotation,
  getReadyReplicaCountForReplicaSets,
  getReplicaCountForReplicaSets,
  getReplicaSetProportion,
  getRollbackTo,
  hasProgressDeadline,
  hasRevisionHistoryLimit,
  isRollingUpdate,
  isSaturated,
  MINIMUM_REPLICAS_AVAILABLE,
  MINIMUM_REPLICAS_UNAVAILABLE,
  maxRevision,
  maxSurge,
  maxUnavailable,
  NEW_REPLICA_SET_REASON,
  newDeploymentCondition,
  newRSNewReplicas,
  PAUSED_DEPLOY_REASON,
  RESUMED_DEPLOY_REASON,
  REVISION_ANNOTATION,
  type RO,
  replicasAnnotationsNeedUpdate,
  setDeploymentCondition,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  sortByRevision,
  sortBySizeNewer,
  sortBySizeOlder,
  specReplicas,
  TIMED_OUT_REASON,
} from './util/deployment-util.js';
import { computeHash } from './util/hash.js';

// sync.go: maxRevHistoryLengthInChars, the longest revision-history annotation kept.
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

/** The writes the controller makes (clientset calls, and RSControl's patch). */
export interface DeploymentApi {
  createReplicaSet(namespace: string, rs: ReplicaSet): Promise<ReplicaSet>;
  updateReplicaSet(rs: ReplicaSet): Promise<ReplicaSet>;
  deleteReplicaSet(namespace: string, name: string): Promise<void>;
  /** RSControlInterface.PatchReplicaSet: a strategic-merge patch. */
  patchReplicaSet(namespace: string, name: string, data: string): Promise<void>;
  getDeployment(namespace: string, name: string): Promise<Deployment>;
  updateDeployment(d: Deployment): Promise<Deployment>;
  updateDeploymentStatus(d: Deployment): Promise<Deployment>;
}

/** The DeploymentApi of a client. */
export function deploymentApi(client: Client): DeploymentApi {
  return {
    createReplicaSet: (namespace, rs) => client.create(RESOURCES.replicasets, namespace, rs),
    updateReplicaSet: (rs) => client.update(RESOURCES.replicasets, rs.metadata?.namespace, rs),
    async deleteReplicaSet(namespace, name) {
      await client.delete(RESOURCES.replicasets, namespace, name);
    },
    async patchReplicaSet(namespace, name, data) {
      // The client serializes the body itself.
      await client.patch(RESOURCES.replicasets, namespace, name, 'strategic', JSON.parse(data) as unknown);
    },
    getDeployment: (namespace, name) => client.get(RESOURCES.deployments, namespace, name),
    updateDeployment: (d) => client.update(RESOURCES.deployments, d.metadata?.namespace, d),
    updateDeploymentStatus: (d) => client.updateStatus(RESOURCES.deployments, d.metadata?.namespace, d),
  };
}

/** What the sync functions use of the controller. */
export interface SyncContext {
  api: DeploymentApi;
  /** The ReplicaSet lister's Get: the read after a create met AlreadyExists. */
  getReplicaSet(namespace: string, name: string): RO<ReplicaSet> | undefined;
  /** The event recorder (Eventf on the Deployment). */
  recorder: { record(obj: ObjectWithMeta, type: EventType, reason: string, message: string): void };
  clock: Clock;
  logger: Logger;
  /** The progress check's requeues (progress.go requeueStuckDeployment). */
  enqueueAfter(d: RO<Deployment>, ms: number): void;
  enqueueRateLimited(d: RO<Deployment>): void;
}

export type MaybeRS = RO<ReplicaSet> | undefined;

/** An event on the Deployment, with its kind so the involvedObject names it. */
export function eventf(dc: SyncContext, d: RO<Deployment>, type: EventType, reason: string, message: string): void {
  dc.recorder.record({ ...d, kind: 'Deployment', apiVersion: 'apps/v1' } as ObjectWithMeta, type, reason, message);
}

/** syncStatusOnly: a Deployment being deleted only has its status kept up. */
export async function syncStatusOnly(dc: SyncContext, d: Deployment, rsList: RO<ReplicaSet>[]): Promise<void> {
  const [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  await syncDeploymentStatus(dc, [...oldRSs, newRS], newRS, d);
}

/** sync: scaling (paused Deployments, or a resize), no rollout; paused ones are cleaned up too. */
export async function sync(dc: SyncContext, d: Deployment, rsList: RO<ReplicaSet>[]): Promise<void> {
  const [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  await scale(dc, d, newRS, oldRSs);
  if (d.spec?.paused === true && getRollbackTo(d) === undefined) await cleanupDeployment(dc, oldRSs, d);
  await syncDeploymentStatus(dc, [...oldRSs, newRS], newRS, d);
}

/**
 * checkPausedConditions: a Progressing condition of Unknown DeploymentPaused when paused, and
 * DeploymentResumed once resumed (not over a ProgressDeadlineExceeded one).
 */
export async function checkPausedConditions(dc: SyncContext, d: Deployment): Promise<void> {
  if (!hasProgressDeadline(d)) return;
  const cond = getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING);
  if (cond !== undefined && cond.reason === TIMED_OUT_REASON) return;
  const pausedCondExists = cond !== undefined && cond.reason === PAUSED_DEPLOY_REASON;
  const paused = d.spec?.paused === true;
  const now = dc.clock.now();
  d.status ??= {};
  if (paused && !pausedCondExists) {
    setDeploymentCondition(
      d.status,
      newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'Unknown', PAUSED_DEPLOY_REASON, 'Deployment is paused', now),
    );
  } else if (!paused && pausedCondExists) {
    setDeploymentCondition(
      d.status,
      newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'Unknown', RESUMED_DEPLOY_REASON, 'Deployment is resumed', now),
    );
  } else {
    return;
  }
  await dc.api.updateDeploymentStatus(d);
}

/**
 * getAllReplicaSetsAndSyncRevision: [the new set (created when asked and missing), every old
 * set], the revision annotations brought up to date.
 */
export async function getAllReplicaSetsAndSyncRevision(
  dc: SyncContext,
  d: Deployment,
  rsList: RO<ReplicaSet>[],
  createIfNotExisted: boolean,
): Promise<[MaybeRS, RO<ReplicaSet>[]]> {
  const [, allOldRSs] = findOldReplicaSets(d, rsList);
  const newRS = await getNewReplicaSet(dc, d, rsList, allOldRSs, createIfNotExisted);
  return [newRS, allOldRSs];
}

/** labelsutil.CloneAndAddLabel: a copy with the label added (the same map when the value is empty). */
function cloneAndAddLabel(labels: RO<Record<string, string>> | undefined, key: string, value: string) {
  if (value === '') return labels === undefined ? undefined : { ...labels };
  return { ...(labels ?? {}), [key]: value };
}

/** labelsutil.CloneSelectorAndAddLabel: a copy of the selector with the label in matchLabels. */
function cloneSelectorAndAddLabel(selector: RO<LabelSelector> | undefined, key: string, value: string): LabelSelector {
  const copy = structuredClone(selector ?? {}) as LabelSelector;
  if (value === '') return copy;
  copy.matchLabels = { ...(copy.matchLabels ?? {}), [key]: value };
  return copy;
}

/**
 * getNewReplicaSet: the existing new set with its annotations and minReadySeconds brought up to
 * date (and the Deployment's revision and FoundNewReplicaSet condition), or — when asked — a new
 * one created, sized by the strategy; a name taken by a set with another template bumps
 * collisionCount and fails the sync, so the next one hashes differently.
 */
export async function getNewReplicaSet(
  dc: SyncContext,
  d: Deployment,
  rsList: RO<ReplicaSet>[],
  oldRSs: RO<ReplicaSet>[],
  createIfNotExisted: boolean,
): Promise<MaybeRS> {
  const existing = findNewReplicaSet(d, rsList);
  const newRevision = String(maxRevision(oldRSs) + 1);
  const namespace = d.metadata?.namespace ?? '';
  d.status ??= {};

  if (existing !== undefined) {
    const rsCopy = structuredClone(existing) as ReplicaSet;
    const annotationsUpdated = setNewReplicaSetAnnotations(
      d,
      rsCopy,
      newRevision,
      true,
      MAX_REV_HISTORY_LENGTH_IN_CHARS,
    );
    const minReadySeconds = d.spec?.minReadySeconds ?? 0;
    if (annotationsUpdated || (rsCopy.spec?.minReadySeconds ?? 0) !== minReadySeconds) {
      rsCopy.spec = { ...(rsCopy.spec ?? { selector: {} }), minReadySeconds };
      return dc.api.updateReplicaSet(rsCopy);
    }
    let needsUpdate = setDeploymentRevision(d, rsCopy.metadata?.annotations?.[REVISION_ANNOTATION] ?? '');
    const cond = getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING);
    if (hasProgressDeadline(d) && cond === undefined) {
      const msg = `Found new replica set ${JSON.stringify(rsCopy.metadata?.name ?? '')}`;
      setDeploymentCondition(
        d.status,
        newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'True', FOUND_NEW_RS_REASON, msg, dc.clock.now()),
      );
      needsUpdate = true;
    }
    if (needsUpdate) await dc.api.updateDeploymentStatus(d);
    return rsCopy;
  }

  if (!createIfNotExisted) return undefined;

  const template = structuredClone(d.spec?.template ?? {});
  const hash = computeHash(template, d.status.collisionCount);
  const labels = cloneAndAddLabel(d.spec?.template?.metadata?.labels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, hash);
  template.metadata = { ...(template.metadata ?? {}) };
  if (labels === undefined) delete template.metadata.labels;
  else template.metadata.labels = labels;
  const name = `${d.metadata?.name ?? ''}-${hash}`;
  const newRS: ReplicaSet = {
    metadata: {
      name,
      namespace,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: d.metadata?.name ?? '',
          uid: d.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      ...(labels === undefined ? {} : { labels: { ...labels } }),
    },
    spec: {
      replicas: 0,
      minReadySeconds: d.spec?.minReadySeconds ?? 0,
      selector: cloneSelectorAndAddLabel(d.spec?.selector, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, hash),
      template,
    },
  };
  const newReplicasCount = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
  if (newRS.spec !== undefined) newRS.spec.replicas = newReplicasCount;
  setNewReplicaSetAnnotations(d, newRS, newRevision, false, MAX_REV_HISTORY_LENGTH_IN_CHARS);

  let alreadyExists = false;
  let createdRS: RO<ReplicaSet>;
  try {
    createdRS = await dc.api.createReplicaSet(namespace, newRS);
  } catch (err) {
    if (isAlreadyExists(err)) {
      alreadyExists = true;
      const rs = dc.getReplicaSet(namespace, name);
      if (rs === undefined) throw new Error(`replicaset.apps ${JSON.stringify(name)} not found`, { cause: err });
      const ref = getControllerOf(rs);
      if (ref !== undefined && ref.uid === d.metadata?.uid && equalIgnoreHash(d.spec?.template, rs.spec?.template)) {
        // Ours, and the template we want: a stale cache let us try again.
        createdRS = rs;
      } else {
        // Another template under our name: change the hash's salt and try again next sync.
        const pre = d.status.collisionCount ?? 0;
        d.status.collisionCount = pre + 1;
        try {
          await dc.api.updateDeploymentStatus(d);
          dc.logger.info('Found a hash collision for deployment - bumping collisionCount to resolve it', {
            deployment: `${namespace}/${d.metadata?.name ?? ''}`,
            oldCollisionCount: pre,
            newCollisionCount: pre + 1,
          });
        } catch {
          // The next sync sees the collision again.
        }
        throw err;
      }
    } else if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) {
      throw err;
    } else {
      const msg = `Failed to create new replica set ${JSON.stringify(name)}: ${err instanceof Error ? err.message : String(err)}`;
      if (hasProgressDeadline(d)) {
        setDeploymentCondition(
          d.status,
          newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'False', FAILED_RS_CREATE_REASON, msg, dc.clock.now()),
        );
        await dc.api.updateDeploymentStatus(d).catch(() => {});
      }
      eventf(dc, d, 'Warning', FAILED_RS_CREATE_REASON, msg);
      throw err;
    }
  }
  if (!alreadyExists && newReplicasCount > 0) {
    eventf(
      dc,
      d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled up replica set ${createdRS.metadata?.name ?? ''} from 0 to ${newReplicasCount}`,
    );
  }
  let needsUpdate = setDeploymentRevision(d, newRevision);
  if (!alreadyExists && hasProgressDeadline(d)) {
    const msg = `Created new replica set ${JSON.stringify(createdRS.metadata?.name ?? '')}`;
    setDeploymentCondition(
      d.status,
      newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'True', NEW_REPLICA_SET_REASON, msg, dc.clock.now()),
    );
    needsUpdate = true;
  }
  if (needsUpdate) await dc.api.updateDeploymentStatus(d);
  return createdRS;
}

/**
 * scale: the one active (or latest) set to the Deployment's size; old sets to 0 once the new
 * one is saturated; otherwise, rolling, every active set scaled in proportion to its share of
 * the old maximum (replicas + maxSurge), the rounding leftover going to the largest.
 */
export async function scale(dc: SyncContext, d: Deployment, newRS: MaybeRS, oldRSs: RO<ReplicaSet>[]): Promise<void> {
  const replicas = specReplicas(d);
  const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
  if (activeOrLatest !== undefined) {
    if (specReplicas(activeOrLatest) === replicas) return;
    await scaleReplicaSetAndRecordEvent(dc, activeOrLatest, replicas, d);
    return;
  }
  if (isSaturated(d, newRS)) {
    for (const old of filterActiveReplicaSets(oldRSs)) await scaleReplicaSetAndRecordEvent(dc, old, 0, d);
    return;
  }
  if (!isRollingUpdate(d)) return;
  const allRSs = filterActiveReplicaSets([...oldRSs, newRS]);
  const allRSsReplicas = getReplicaCountForReplicaSets(allRSs);
  const allowedSize = replicas > 0 ? replicas + maxSurge(d) : 0;
  const toAdd = allowedSize - allRSsReplicas;
  // Scaling up: the newest of the largest first; down: the oldest.
  if (toAdd > 0) sortBySizeNewer(allRSs);
  else if (toAdd < 0) sortBySizeOlder(allRSs);

  let added = 0;
  const nameToSize = new Map<string, number>();
  for (const rs of allRSs) {
    const name = rs.metadata?.name ?? '';
    if (toAdd !== 0) {
      const proportion = getReplicaSetProportion(rs, d, toAdd, added);
      nameToSize.set(name, specReplicas(rs) + proportion);
      added += proportion;
    } else {
      nameToSize.set(name, specReplicas(rs));
    }
  }
  for (const [i, rs] of allRSs.entries()) {
    const name = rs.metadata?.name ?? '';
    if (i === 0 && toAdd !== 0) {
      const leftover = toAdd - added;
      nameToSize.set(name, Math.max(0, (nameToSize.get(name) ?? 0) + leftover));
    }
    await scaleReplicaSet(dc, rs, nameToSize.get(name) ?? 0, d);
  }
}

/** scaleReplicaSetAndRecordEvent: nothing when the size is already right. */
export async function scaleReplicaSetAndRecordEvent(
  dc: SyncContext,
  rs: RO<ReplicaSet>,
  newScale: number,
  d: RO<Deployment>,
): Promise<[boolean, RO<ReplicaSet>]> {
  if (specReplicas(rs) === newScale) return [false, rs];
  return scaleReplicaSet(dc, rs, newScale, d);
}

/**
 * scaleReplicaSet: the set's size and its desired/max-replicas annotations written when either
 * changed; a ScalingReplicaSet event when the size did.
 */
export async function scaleReplicaSet(
  dc: SyncContext,
  rs: RO<ReplicaSet>,
  newScale: number,
  d: RO<Deployment>,
): Promise<[boolean, RO<ReplicaSet>]> {
  const oldScale = specReplicas(rs);
  const sizeNeedsUpdate = oldScale !== newScale;
  const desired = specReplicas(d);
  const max = desired + maxSurge(d);
  if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, desired, max)) return [false, rs];
  const rsCopy = structuredClone(rs) as ReplicaSet;
  rsCopy.spec = { ...(rsCopy.spec ?? { selector: {} }), replicas: newScale };
  setReplicasAnnotations(rsCopy, desired, max);
  const updated = await dc.api.updateReplicaSet(rsCopy);
  if (!sizeNeedsUpdate) return [false, updated];
  const op = oldScale < newScale ? 'up' : 'down';
  eventf(
    dc,
    d,
    'Normal',
    'ScalingReplicaSet',
    `Scaled ${op} replica set ${updated.metadata?.name ?? ''} from ${oldScale} to ${newScale}`,
  );
  return [true, updated];
}

/**
 * cleanupDeployment: the oldest old sets beyond revisionHistoryLimit deleted — only those scaled
 * to 0, with no replicas left, their generation observed, and not being deleted.
 */
export async function cleanupDeployment(
  dc: SyncContext,
  oldRSs: readonly RO<ReplicaSet>[],
  d: RO<Deployment>,
): Promise<void> {
  if (!hasRevisionHistoryLimit(d)) return;
  const cleanable = oldRSs.filter(
    (rs) => rs.metadata?.deletionTimestamp === undefined || rs.metadata.deletionTimestamp === null,
  );
  const diff = cleanable.length - (d.spec?.revisionHistoryLimit ?? 0);
  if (diff <= 0) return;
  sortByRevision(cleanable);
  for (const rs of cleanable.slice(0, diff)) {
    if (
      (rs.status?.replicas ?? 0) !== 0 ||
      specReplicas(rs) !== 0 ||
      (rs.metadata?.generation ?? 0) > (rs.status?.observedGeneration ?? 0) ||
      (rs.metadata?.deletionTimestamp ?? null) !== null
    ) {
      continue;
    }
    try {
      await dc.api.deleteReplicaSet(rs.metadata?.namespace ?? '', rs.metadata?.name ?? '');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** syncDeploymentStatus: the status recalculated, written when it changed. */
export async function syncDeploymentStatus(
  dc: SyncContext,
  allRSs: readonly MaybeRS[],
  newRS: MaybeRS,
  d: Deployment,
): Promise<void> {
  const newStatus = calculateStatus(allRSs, newRS, d, dc.clock.now());
  if (statusEqual(d.status, newStatus)) return;
  d.status = newStatus;
  await dc.api.updateDeploymentStatus(d);
}

/**
 * calculateStatus: the counts summed over the sets, the Deployment's conditions with Available
 * set from availability against replicas − maxUnavailable. Zero counts are left out, as Go's
 * omitempty leaves them out of the JSON.
 */
export function calculateStatus(
  allRSs: readonly MaybeRS[],
  newRS: MaybeRS,
  d: RO<Deployment>,
  now: number,
): DeploymentStatus {
  const available = getAvailableReplicaCountForReplicaSets(allRSs);
  const total = getReplicaCountForReplicaSets(allRSs);
  const unavailable = Math.max(0, total - available);
  const status: DeploymentStatus = {};
  const put = (
    k:
      | 'observedGeneration'
      | 'replicas'
      | 'updatedReplicas'
      | 'readyReplicas'
      | 'availableReplicas'
      | 'unavailableReplicas',
    v: number,
  ) => {
    if (v !== 0) status[k] = v;
  };
  put('observedGeneration', d.metadata?.generation ?? 0);
  put('replicas', getActualReplicaCountForReplicaSets(allRSs));
  put('updatedReplicas', getActualReplicaCountForReplicaSets([newRS]));
  put('readyReplicas', getReadyReplicaCountForReplicaSets(allRSs));
  put('availableReplicas', available);
  put('unavailableReplicas', unavailable);
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  const conditions = (d.status?.conditions ?? []).map((c) => ({ ...c }));
  if (conditions.length > 0) status.conditions = conditions;
  if (available >= specReplicas(d) - maxUnavailable(d)) {
    setDeploymentCondition(
      status,
      newDeploymentCondition(
        DEPLOYMENT_AVAILABLE,
        'True',
        MINIMUM_REPLICAS_AVAILABLE,
        'Deployment has minimum availability.',
        now,
      ),
    );
  } else {
    setDeploymentCondition(
      status,
      newDeploymentCondition(
        DEPLOYMENT_AVAILABLE,
        'False',
        MINIMUM_REPLICAS_UNAVAILABLE,
        'Deployment does not have minimum availability.',
        now,
      ),
    );
  }
  return status;
}

/** reflect.DeepEqual of two statuses as Go decodes them: an absent count is 0, an absent string ''. */
export function statusEqual(a: RO<DeploymentStatus> | undefined, b: RO<DeploymentStatus> | undefined): boolean {
  const norm = (s: RO<DeploymentStatus> | undefined) => ({
    observedGeneration: s?.observedGeneration ?? 0,
    replicas: s?.replicas ?? 0,
    updatedReplicas: s?.updatedReplicas ?? 0,
    readyReplicas: s?.readyReplicas ?? 0,
    availableReplicas: s?.availableReplicas ?? 0,
    unavailableReplicas: s?.unavailableReplicas ?? 0,
    collisionCount: s?.collisionCount ?? null,
    conditions: (s?.conditions ?? []).map((c) => [
      c.type,
      c.status,
      c.lastUpdateTime ?? null,
      c.lastTransitionTime ?? null,
      c.reason ?? '',
      c.message ?? '',
    ]),
  });
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/** isScalingEvent: an active set's desired-replicas annotation differs from the Deployment's replicas. */
export async function isScalingEvent(dc: SyncContext, d: Deployment, rsList: RO<ReplicaSet>[]): Promise<boolean> {
  const [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  for (const rs of filterActiveReplicaSets([...oldRSs, newRS])) {
    const [desired, ok] = getDesiredReplicasAnnotation(rs);
    if (ok && desired !== specReplicas(d)) return true;
  }
  return false;
}
