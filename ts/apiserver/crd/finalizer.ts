/**
 * The finalizer controller's deleteInstances (k8s.io/apiextensions-apiserver pkg/controller/finalizer/
 * crd_finalizer.go, v1.32): every instance of a deleted CRD deleted as a DELETE would (instances with
 * finalizers of their own stay, marked, until those are removed), then a check that none remain.
 * Kubernetes polls for up to a minute inside one sync; here a sync that still sees instances asks
 * to be run again a second later, leaving the Terminating condition as InstanceDeletionInProgress.
 */
import type { DeleteOptions } from '../../api/meta.js';
import { isNotFound } from '../../api/status.js';
import type { CustomResourceDefinitionCondition } from '../../api/types/apiextensions/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Clock } from '../../sim/clock.js';
import type { Storage } from '../../storage/storage.js';
import { decodeStored } from '../decode/codec.js';
import type { RestContext } from '../registry/generic/context.js';
import { storeDelete } from '../registry/generic/delete.js';
import { collectionPrefix, type ResourceInfo } from '../registry/resources.js';
import { customResourceStorage } from './cr-storage.js';
import { servedResourcesOf } from './served.js';
import type { Crd } from './types.js';

export interface DeleteInstancesResult {
  condition: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;
  /** Instances remain (or a delete failed): run again later. */
  retry: boolean;
}

/** The resource the instances are reached through: the storage version's, else any served one. */
function instancesInfo(crd: DeepReadonly<Crd>): ResourceInfo | undefined {
  const served = servedResourcesOf(crd);
  return served.find((r) => r.version === r.custom?.storageVersion) ?? served[0];
}

export async function deleteInstances(
  storage: Storage,
  crd: DeepReadonly<Crd>,
  clock: Clock,
): Promise<DeleteInstancesResult> {
  const info = instancesInfo(crd);
  const plural = crd.status?.acceptedNames?.plural ?? '';
  const group = crd.spec?.group ?? '';
  if (info === undefined) {
    const message = `could not list instances: unable to find a custom resource client for ${plural}.${group}: no served version`;
    return {
      condition: { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message },
      retry: true,
    };
  }
  const ctx: RestContext = { storage: customResourceStorage(storage, info), clock };
  const page = await ctx.storage.list(collectionPrefix(info, ''));
  const errors: string[] = [];
  for (const stored of page.items) {
    const obj = decodeStored(stored);
    const meta = obj.metadata ?? {};
    if (meta.deletionTimestamp) continue;
    const options: DeleteOptions = {};
    try {
      await storeDelete(
        ctx,
        {
          info,
          namespace: info.namespaced ? (meta.namespace ?? '') : '',
          name: meta.name ?? '',
          query: new URLSearchParams(),
          accept: null,
        },
        options,
      );
    } catch (err) {
      if (!isNotFound(err)) errors.push((err as Error).message);
    }
  }
  if (errors.length > 0) {
    const agg = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    return {
      condition: {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionFailed',
        message: `could not issue all deletes: ${agg}`,
      },
      retry: true,
    };
  }
  const left = await ctx.storage.count(collectionPrefix(info, ''));
  if (left > 0) {
    return {
      condition: {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionInProgress',
        message: 'CustomResource deletion is in progress',
      },
      retry: true,
    };
  }
  return {
    condition: {
      type: 'Terminating',
      status: 'False',
      reason: 'InstanceDeletionCompleted',
      message: 'removed all instances',
    },
    retry: false,
  };
}
