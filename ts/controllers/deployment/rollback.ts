/**
 * The deprecated rollback (pkg/controller/deployment/rollback.go at v1.32): a Deployment carrying
 * the `deprecated.deployment.rollback.to` annotation (extensions/v1beta1's rollbackTo) gets the
 * template of that revision (0: the previous one) and the annotation removed. apps/v1's
 * `kubectl rollout undo` patches the template itself and never comes here.
 *
 *   if (getRollbackTo(d) !== undefined) await rollback(dc, d, rsList);
 */
import type { Deployment, ReplicaSet } from '../../api/types/apps/v1.js';
import { eventf, getAllReplicaSetsAndSyncRevision, type SyncContext } from './sync.js';
import {
  DEPRECATED_ROLLBACK_TO,
  equalIgnoreHash,
  getRollbackTo,
  lastRevision,
  type RO,
  ROLLBACK_DONE,
  ROLLBACK_REVISION_NOT_FOUND,
  ROLLBACK_TEMPLATE_UNCHANGED,
  revision,
  setDeploymentAnnotationsTo,
  setFromReplicaSetTemplate,
} from './util/deployment-util.js';

/** rollback: to the annotation's revision, or a warning event when there is no such revision. */
export async function rollback(dc: SyncContext, d: Deployment, rsList: RO<ReplicaSet>[]): Promise<void> {
  const [newRS, allOldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, true);
  const allRSs = [...allOldRSs, ...(newRS === undefined ? [] : [newRS])];
  let to = getRollbackTo(d) ?? 0;
  if (to === 0) {
    to = lastRevision(allRSs);
    if (to === 0) {
      eventf(dc, d, 'Warning', ROLLBACK_REVISION_NOT_FOUND, 'Unable to find last revision.');
      await updateDeploymentAndClearRollbackTo(dc, d);
      return;
    }
  }
  for (const rs of allRSs) {
    let v: number;
    try {
      v = revision(rs);
    } catch {
      continue;
    }
    if (v !== to) continue;
    const performed = await rollbackToTemplate(dc, d, rs);
    if (performed)
      eventf(
        dc,
        d,
        'Normal',
        ROLLBACK_DONE,
        `Rolled back deployment ${JSON.stringify(d.metadata?.name ?? '')} to revision ${to}`,
      );
    return;
  }
  eventf(dc, d, 'Warning', ROLLBACK_REVISION_NOT_FOUND, 'Unable to find the revision to rollback to.');
  await updateDeploymentAndClearRollbackTo(dc, d);
}

/** rollbackToTemplate: the set's template and annotations onto the Deployment, unless the same. */
async function rollbackToTemplate(dc: SyncContext, d: Deployment, rs: RO<ReplicaSet>): Promise<boolean> {
  let performed = false;
  if (!equalIgnoreHash(d.spec?.template, rs.spec?.template)) {
    if (rs.spec?.template !== undefined) setFromReplicaSetTemplate(d, rs.spec.template);
    setDeploymentAnnotationsTo(d, rs);
    performed = true;
  } else {
    eventf(
      dc,
      d,
      'Warning',
      ROLLBACK_TEMPLATE_UNCHANGED,
      `The rollback revision contains the same template as current deployment ${JSON.stringify(d.metadata?.name ?? '')}`,
    );
  }
  await updateDeploymentAndClearRollbackTo(dc, d);
  return performed;
}

/** updateDeploymentAndClearRollbackTo: the annotation removed, the Deployment updated. */
async function updateDeploymentAndClearRollbackTo(dc: SyncContext, d: Deployment): Promise<void> {
  if (d.metadata?.annotations !== undefined) delete d.metadata.annotations[DEPRECATED_ROLLBACK_TO];
  await dc.api.updateDeployment(d);
}

// Go has it here; it lives in util so that sync.ts can read it without an import cycle.
export { getRollbackTo };
