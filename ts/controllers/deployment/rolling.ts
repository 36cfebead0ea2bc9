/**
 * The RollingUpdate strategy (pkg/controller/deployment/rolling.go at v1.32): each sync either
 * scales the new ReplicaSet up (within replicas + maxSurge) or scales old ones down (keeping
 * replicas − maxUnavailable available: unhealthy old replicas first, then the oldest sets), never
 * both, then writes the rollout status.
 *
 *   await rolloutRolling(dc, d, rsList);   // from syncDeployment, for strategy.type RollingUpdate
 */
import type { Deployment, ReplicaSet } from '../../api/types/apps/v1.js';
import { syncRolloutStatus } from './progress.js';
import {
  cleanupDeployment,
  getAllReplicaSetsAndSyncRevision,
  type MaybeRS,
  type SyncContext,
  scaleReplicaSetAndRecordEvent,
} from './sync.js';
import {
  deploymentComplete,
  filterActiveReplicaSets,
  getAvailableReplicaCountForReplicaSets,
  getReplicaCountForReplicaSets,
  maxUnavailable,
  newRSNewReplicas,
  type RO,
  sortByCreationTimestamp,
  specReplicas,
} from './util/deployment-util.js';

/** rolloutRolling: one step of the rolling update. */
export async function rolloutRolling(dc: SyncContext, d: Deployment, rsList: RO<ReplicaSet>[]): Promise<void> {
  const [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, true);
  const allRSs: MaybeRS[] = [...oldRSs, newRS];
  if (newRS === undefined) throw new Error('no new replica set');

  if (await reconcileNewReplicaSet(dc, allRSs, newRS, d)) {
    await syncRolloutStatus(dc, allRSs, newRS, d);
    return;
  }
  if (await reconcileOldReplicaSets(dc, allRSs, filterActiveReplicaSets(oldRSs), newRS, d)) {
    await syncRolloutStatus(dc, allRSs, newRS, d);
    return;
  }
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(dc, oldRSs, d);
  await syncRolloutStatus(dc, allRSs, newRS, d);
}

/** reconcileNewReplicaSet: the new set scaled toward the desired size; true when it was scaled. */
export async function reconcileNewReplicaSet(
  dc: SyncContext,
  allRSs: readonly MaybeRS[],
  newRS: RO<ReplicaSet>,
  d: RO<Deployment>,
): Promise<boolean> {
  const replicas = specReplicas(d);
  const current = specReplicas(newRS);
  if (current === replicas) return false;
  if (current > replicas) {
    const [scaled] = await scaleReplicaSetAndRecordEvent(dc, newRS, replicas, d);
    return scaled;
  }
  const [scaled] = await scaleReplicaSetAndRecordEvent(dc, newRS, newRSNewReplicas(d, allRSs, newRS), d);
  return scaled;
}

/**
 * reconcileOldReplicaSets: old sets scaled down as far as availability allows; true when any
 * was. A failed scale-down is not an error here (Go drops it): the next sync tries again.
 */
export async function reconcileOldReplicaSets(
  dc: SyncContext,
  allRSs: readonly MaybeRS[],
  oldRSs: RO<ReplicaSet>[],
  newRS: RO<ReplicaSet>,
  d: RO<Deployment>,
): Promise<boolean> {
  const oldPodsCount = getReplicaCountForReplicaSets(oldRSs);
  if (oldPodsCount === 0) return false;
  const allPodsCount = getReplicaCountForReplicaSets(allRSs);
  const minAvailable = specReplicas(d) - maxUnavailable(d);
  const newRSUnavailablePodCount = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = allPodsCount - minAvailable - newRSUnavailablePodCount;
  if (maxScaledDown <= 0) return false;

  let cleaned: [RO<ReplicaSet>[], number];
  try {
    cleaned = await cleanupUnhealthyReplicas(dc, oldRSs, d, maxScaledDown);
  } catch {
    return false;
  }
  const [remaining, cleanupCount] = cleaned;
  let scaledDownCount: number;
  try {
    scaledDownCount = await scaleDownOldReplicaSetsForRollingUpdate(dc, [...remaining, newRS], remaining, d);
  } catch {
    return false;
  }
  return cleanupCount + scaledDownCount > 0;
}

/**
 * cleanupUnhealthyReplicas: old sets' unavailable replicas removed first (oldest sets first), at
 * most `maxCleanupCount`; [the sets, as updated, and how many were removed].
 */
export async function cleanupUnhealthyReplicas(
  dc: SyncContext,
  oldRSs: RO<ReplicaSet>[],
  d: RO<Deployment>,
  maxCleanupCount: number,
): Promise<[RO<ReplicaSet>[], number]> {
  sortByCreationTimestamp(oldRSs);
  let total = 0;
  for (const [i, target] of oldRSs.entries()) {
    if (total >= maxCleanupCount) break;
    const replicas = specReplicas(target);
    const available = target.status?.availableReplicas ?? 0;
    if (replicas === 0 || replicas === available) continue;
    const count = Math.min(maxCleanupCount - total, replicas - available);
    const next = replicas - count;
    if (next > replicas) {
      throw new Error(
        `when cleaning up unhealthy replicas, got invalid request to scale down ${target.metadata?.namespace ?? ''}/${target.metadata?.name ?? ''} ${replicas} -> ${next}`,
      );
    }
    const [, updated] = await scaleReplicaSetAndRecordEvent(dc, target, next, d);
    total += count;
    oldRSs[i] = updated;
  }
  return [oldRSs, total];
}

/**
 * scaleDownOldReplicaSetsForRollingUpdate: what is available above replicas − maxUnavailable
 * scaled off the oldest sets first; how many replicas it removed.
 */
export async function scaleDownOldReplicaSetsForRollingUpdate(
  dc: SyncContext,
  allRSs: readonly MaybeRS[],
  oldRSs: RO<ReplicaSet>[],
  d: RO<Deployment>,
): Promise<number> {
  const minAvailable = specReplicas(d) - maxUnavailable(d);
  const availablePodCount = getAvailableReplicaCountForReplicaSets(allRSs);
  if (availablePodCount <= minAvailable) return 0;
  sortByCreationTimestamp(oldRSs);
  let total = 0;
  const totalScaleDownCount = availablePodCount - minAvailable;
  for (const target of oldRSs) {
    if (total >= totalScaleDownCount) break;
    const replicas = specReplicas(target);
    if (replicas === 0) continue;
    const count = Math.min(replicas, totalScaleDownCount - total);
    const next = replicas - count;
    if (next > replicas) {
      throw new Error(
        `when scaling down old RS, got invalid request to scale down ${target.metadata?.namespace ?? ''}/${target.metadata?.name ?? ''} ${replicas} -> ${next}`,
      );
    }
    await scaleReplicaSetAndRecordEvent(dc, target, next, d);
    total += count;
  }
  return total;
}
