/**
 * The Recreate strategy (pkg/controller/deployment/recreate.go at v1.32): every old ReplicaSet
 * scaled to 0, and only once none of their pods is left running (Failed and Succeeded ones
 * aside) the new set is created at full size.
 *
 *   await rolloutRecreate(dc, d, rsList, podMap);   // podMap: RS uid → its pods
 */
import type { Deployment, ReplicaSet } from '../../api/types/apps/v1.js';
import type { Pod } from '../../api/types/core/v1.js';
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
  getActualReplicaCountForReplicaSets,
  type RO,
  specReplicas,
} from './util/deployment-util.js';

/** The pods of each ReplicaSet by its uid (getPodMapForDeployment). */
export type PodMap = ReadonlyMap<string, readonly RO<Pod>[]>;

/** rolloutRecreate: old sets down, wait for their pods to go, then the new set up. */
export async function rolloutRecreate(
  dc: SyncContext,
  d: Deployment,
  rsList: RO<ReplicaSet>[],
  podMap: PodMap,
): Promise<void> {
  let [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  let allRSs: MaybeRS[] = [...oldRSs, newRS];
  const activeOldRSs = filterActiveReplicaSets(oldRSs);

  if (await scaleDownOldReplicaSetsForRecreate(dc, activeOldRSs, d)) {
    await syncRolloutStatus(dc, allRSs, newRS, d);
    return;
  }
  if (oldPodsRunning(newRS, oldRSs, podMap)) {
    await syncRolloutStatus(dc, allRSs, newRS, d);
    return;
  }
  if (newRS === undefined) {
    [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, true);
    allRSs = [...oldRSs, newRS];
  }
  if (newRS !== undefined) await scaleReplicaSetAndRecordEvent(dc, newRS, specReplicas(d), d);
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(dc, oldRSs, d);
  await syncRolloutStatus(dc, allRSs, newRS, d);
}

/** scaleDownOldReplicaSetsForRecreate: every old set to 0; true when any was scaled. */
export async function scaleDownOldReplicaSetsForRecreate(
  dc: SyncContext,
  oldRSs: RO<ReplicaSet>[],
  d: RO<Deployment>,
): Promise<boolean> {
  let scaled = false;
  for (const [i, rs] of oldRSs.entries()) {
    if (specReplicas(rs) === 0) continue;
    const [didScale, updated] = await scaleReplicaSetAndRecordEvent(dc, rs, 0, d);
    if (didScale) {
      oldRSs[i] = updated;
      scaled = true;
    }
  }
  return scaled;
}

/**
 * oldPodsRunning: an old set still reports replicas, or has a pod not yet Failed or Succeeded
 * (Unknown counts as running: it may still be).
 */
export function oldPodsRunning(newRS: MaybeRS, oldRSs: readonly MaybeRS[], podMap: PodMap): boolean {
  if (getActualReplicaCountForReplicaSets(oldRSs) > 0) return true;
  for (const [uid, pods] of podMap) {
    if (newRS !== undefined && newRS.metadata?.uid === uid) continue;
    for (const pod of pods) {
      const phase = pod.status?.phase;
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}
