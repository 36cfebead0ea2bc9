/**
 * The rollout's progress (pkg/controller/deployment/progress.go at v1.32): the Progressing
 * condition (NewReplicaSetAvailable once complete, ReplicaSetUpdated while replicas move,
 * ProgressDeadlineExceeded once progressDeadlineSeconds pass without that), the ReplicaFailure
 * condition copied from the ReplicaSets, and the requeue that checks the deadline when it falls.
 *
 *   await syncRolloutStatus(dc, allRSs, newRS, d);
 *
 * Time is the injected clock's (Go's nowFn).
 */
import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet } from '../../api/types/apps/v1.js';
import { calculateStatus, type MaybeRS, type SyncContext, statusEqual } from './sync.js';
import {
  DEPLOYMENT_PROGRESSING,
  DEPLOYMENT_REPLICA_FAILURE,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  getDeploymentCondition,
  hasProgressDeadline,
  NEW_RS_AVAILABLE_REASON,
  newDeploymentCondition,
  REPLICA_SET_REPLICA_FAILURE,
  REPLICA_SET_UPDATED_REASON,
  type RO,
  removeDeploymentCondition,
  replicaSetToDeploymentCondition,
  setDeploymentCondition,
  TIMED_OUT_REASON,
  timeMs,
} from './util/deployment-util.js';

/** syncRolloutStatus: the status with its Progressing and ReplicaFailure conditions, written when changed. */
export async function syncRolloutStatus(
  dc: SyncContext,
  allRSs: readonly MaybeRS[],
  newRS: MaybeRS,
  d: Deployment,
): Promise<void> {
  const now = dc.clock.now();
  const newStatus = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) removeDeploymentCondition(newStatus, DEPLOYMENT_PROGRESSING);

  const currentCond = getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING);
  const isCompleteDeployment =
    (newStatus.replicas ?? 0) === (newStatus.updatedReplicas ?? 0) &&
    currentCond !== undefined &&
    currentCond.reason === NEW_RS_AVAILABLE_REASON;
  const name = JSON.stringify(d.metadata?.name ?? '');
  const rsName = newRS === undefined ? undefined : JSON.stringify(newRS.metadata?.name ?? '');
  if (hasProgressDeadline(d) && !isCompleteDeployment) {
    if (deploymentComplete(d, newStatus)) {
      const msg =
        rsName === undefined
          ? `Deployment ${name} has successfully progressed.`
          : `ReplicaSet ${rsName} has successfully progressed.`;
      setDeploymentCondition(
        newStatus,
        newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'True', NEW_RS_AVAILABLE_REASON, msg, now),
      );
    } else if (deploymentProgressing(d, newStatus)) {
      const msg = rsName === undefined ? `Deployment ${name} is progressing.` : `ReplicaSet ${rsName} is progressing.`;
      const condition = newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'True', REPLICA_SET_UPDATED_REASON, msg, now);
      // Progress refreshes lastUpdateTime; a True condition keeps its transition time.
      if (currentCond !== undefined) {
        if (currentCond.status === 'True') {
          if (currentCond.lastTransitionTime === undefined) delete condition.lastTransitionTime;
          else condition.lastTransitionTime = currentCond.lastTransitionTime;
        }
        removeDeploymentCondition(newStatus, DEPLOYMENT_PROGRESSING);
      }
      setDeploymentCondition(newStatus, condition);
    } else if (deploymentTimedOut(d, newStatus, now)) {
      const msg =
        rsName === undefined
          ? `Deployment ${name} has timed out progressing.`
          : `ReplicaSet ${rsName} has timed out progressing.`;
      setDeploymentCondition(
        newStatus,
        newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'False', TIMED_OUT_REASON, msg, now),
      );
    }
  }

  const failures = getReplicaFailures(allRSs, newRS);
  const first = failures[0];
  if (first !== undefined) setDeploymentCondition(newStatus, first);
  else removeDeploymentCondition(newStatus, DEPLOYMENT_REPLICA_FAILURE);

  if (statusEqual(d.status, newStatus)) {
    requeueStuckDeployment(dc, d, newStatus);
    return;
  }
  d.status = newStatus;
  await dc.api.updateDeploymentStatus(d);
}

/** getReplicaFailures: the new set's ReplicaFailure conditions, or else every set's. */
export function getReplicaFailures(allRSs: readonly MaybeRS[], newRS: MaybeRS): DeploymentCondition[] {
  const of = (rs: RO<ReplicaSet>) =>
    (rs.status?.conditions ?? [])
      .filter((c) => c.type === REPLICA_SET_REPLICA_FAILURE)
      .map((c) => replicaSetToDeploymentCondition(c));
  if (newRS !== undefined) {
    const own = of(newRS);
    if (own.length > 0) return own;
  }
  return allRSs.flatMap((rs) => (rs === undefined ? [] : of(rs)));
}

/**
 * requeueStuckDeployment: a Deployment still progressing is queued again for when its deadline
 * passes (a second after), or rate-limited now when that is under a second away; answers the
 * wait in ms (-1: no requeue, 0: now).
 */
export function requeueStuckDeployment(dc: SyncContext, d: RO<Deployment>, newStatus: RO<DeploymentStatus>): number {
  const currentCond = getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING);
  if (!hasProgressDeadline(d) || currentCond === undefined) return -1;
  if (deploymentComplete(d, newStatus) || currentCond.reason === TIMED_OUT_REASON) return -1;
  const after = timeMs(currentCond.lastUpdateTime) + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 - dc.clock.now();
  if (after < 1000) {
    dc.enqueueRateLimited(d);
    return 0;
  }
  dc.enqueueAfter(d, after + 1000);
  return after;
}
