/**
 * The StatefulSet status write (pkg/controller/statefulset/stateful_set_status_updater.go at
 * v1.32): status replaced on the set through `statefulsets/status`, retried on conflict
 * (retry.DefaultRetry) from the lister's copy.
 *
 *   await updateStatefulSetStatus(client, sets, clock, set, status);
 */
import type { StatefulSet, StatefulSetStatus } from '../../api/types/apps/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import type { Clock } from '../../sim/clock.js';
import { DEFAULT_RETRY, retryOnConflict } from '../framework/retry.js';

/** UpdateStatefulSetStatus: `status` written on `set`; conflicts retried on the cached set. */
export async function updateStatefulSetStatus(
  client: Client,
  sets: SharedIndexInformer<StatefulSet>,
  clock: Clock,
  setIn: DeepReadonly<StatefulSet>,
  status: DeepReadonly<StatefulSetStatus>,
): Promise<void> {
  let set = structuredClone(setIn) as StatefulSet;
  await retryOnConflict(
    clock,
    async () => {
      set.status = structuredClone(status) as StatefulSetStatus;
      try {
        await client.updateStatus(RESOURCES.statefulsets, set.metadata?.namespace, set);
      } catch (err) {
        const cached = sets.get(set.metadata?.namespace ?? '', set.metadata?.name ?? '');
        if (cached !== undefined) set = structuredClone(cached) as StatefulSet;
        throw err;
      }
    },
    DEFAULT_RETRY,
  );
}
