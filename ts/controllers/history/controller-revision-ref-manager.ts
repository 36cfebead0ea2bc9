/**
 * ControllerRevisionControllerRefManager (pkg/controller/controller_ref_manager.go at v1.32):
 * claims a namespace's ControllerRevisions for a controller — orphans its selector matches
 * adopted (after one canAdopt check), owned ones that stopped matching released — as the
 * DaemonSet controller's controlledHistories does.
 *
 *   const claimed = await claimControllerRevisions(client, ds, DAEMON_SET_KIND, selector, canAdopt, revisions);
 */
import type { Selector } from '../../api/labels/selector.js';
import { isInvalid, isNotFound } from '../../api/status.js';
import type { ControllerRevision } from '../../api/types/apps/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { RESOURCES } from '../../client/resources.js';
import { aggregateErrors } from '../framework/aggregate-errors.js';
import {
  BaseControllerRefManager,
  deleteOwnerRefStrategicMergePatch,
  type GroupVersionKind,
  type ObjectWithMeta,
  ownerRefControllerPatch,
} from '../framework/controller-ref-manager.js';

type RRevision = DeepReadonly<ControllerRevision>;

/**
 * ClaimControllerRevisions: the revisions `controller` owns once matching orphans are adopted and
 * owned non-matching ones released; the failures thrown together after every revision was tried.
 */
export async function claimControllerRevisions(
  client: Client,
  controller: ObjectWithMeta,
  controllerKind: GroupVersionKind,
  selector: Selector,
  canAdopt: () => Promise<void>,
  revisions: readonly RRevision[],
): Promise<RRevision[]> {
  const manager = new BaseControllerRefManager(controller, selector, canAdopt);
  const patch = (h: RRevision, data: string) =>
    client.patch(
      RESOURCES.controllerrevisions,
      h.metadata?.namespace,
      h.metadata?.name ?? '',
      'strategic',
      JSON.parse(data),
    );
  const adopt = async (h: RRevision): Promise<void> => {
    const { namespace = '', name = '', uid = '' } = h.metadata ?? {};
    try {
      await manager.canAdopt();
    } catch (err) {
      throw new Error(`can't adopt ControllerRevision ${namespace}/${name} (${uid}): ${errText(err)}`, { cause: err });
    }
    await patch(h, ownerRefControllerPatch(controller, controllerKind, uid));
  };
  const release = async (h: RRevision): Promise<void> => {
    try {
      await patch(h, deleteOwnerRefStrategicMergePatch(h.metadata?.uid ?? '', [controller.metadata?.uid ?? '']));
    } catch (err) {
      // Gone, or no longer ours (another object under the name): nothing to release.
      if (isNotFound(err) || isInvalid(err)) return;
      throw err;
    }
  };
  const claimed: RRevision[] = [];
  const errors: unknown[] = [];
  for (const h of revisions) {
    try {
      if (await manager.claimObject(h, (r) => selector.matches(r.metadata?.labels ?? {}), adopt, release))
        claimed.push(h);
    } catch (err) {
      errors.push(err);
    }
  }
  const error = aggregateErrors(errors);
  if (error !== undefined) throw error;
  return claimed;
}

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
