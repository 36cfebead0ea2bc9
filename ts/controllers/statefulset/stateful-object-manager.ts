/**
 * realStatefulPodControlObjectManager (pkg/controller/statefulset/stateful_pod_control.go at
 * v1.32): pods and PersistentVolumeClaims read from their listers and written with the
 * controller's client.
 *
 *   const om = new StatefulObjectManager(client, podInformer, clientClaimStore(client, claimInformer));
 */

import type { PersistentVolumeClaim, Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import type { Registrations } from '../framework/workers.js';
import { listerGet, type StatefulPodControlObjectManager } from './stateful-pod-control.js';

type RClaim = DeepReadonly<PersistentVolumeClaim>;

/** The claims as the controller reaches them: the lister's Get, the client's create and update. */
export interface ClaimStore {
  get(namespace: string, name: string): RClaim | undefined;
  create(claim: PersistentVolumeClaim): Promise<void>;
  update(claim: PersistentVolumeClaim): Promise<void>;
  /** The claim informer registered for WaitForCacheSync (pvcListerSynced). */
  register?(handlers: Registrations): void;
}

/** The claims through the controller's client, read from `informer` (the pvcLister). */
export function clientClaimStore(client: Client, informer: SharedIndexInformer<PersistentVolumeClaim>): ClaimStore {
  return {
    get: (namespace, name) => informer.get(namespace, name),
    create: async (claim) => {
      await client.create(RESOURCES.persistentvolumeclaims, claim.metadata?.namespace, claim);
    },
    update: async (claim) => {
      await client.update(RESOURCES.persistentvolumeclaims, claim.metadata?.namespace, claim);
    },
    register: (handlers: Registrations) => void handlers.add(informer, {}),
  };
}

export class StatefulObjectManager implements StatefulPodControlObjectManager {
  constructor(
    private readonly client: Client,
    private readonly pods: SharedIndexInformer<Pod>,
    private readonly claims: ClaimStore,
  ) {}

  async createPod(pod: Pod): Promise<void> {
    await this.client.create(RESOURCES.pods, pod.metadata?.namespace, pod);
  }

  getPod(namespace: string, name: string): DeepReadonly<Pod> {
    return listerGet(this.pods.get(namespace, name), 'pods', name);
  }

  async updatePod(pod: Pod): Promise<void> {
    await this.client.update(RESOURCES.pods, pod.metadata?.namespace, pod);
  }

  async deletePod(pod: DeepReadonly<Pod>): Promise<void> {
    await this.client.delete(RESOURCES.pods, pod.metadata?.namespace, pod.metadata?.name ?? '');
  }

  createClaim(claim: PersistentVolumeClaim): Promise<void> {
    return this.claims.create(claim);
  }

  getClaim(namespace: string, name: string): RClaim {
    return listerGet(this.claims.get(namespace, name), 'persistentvolumeclaims', name);
  }

  updateClaim(claim: PersistentVolumeClaim): Promise<void> {
    return this.claims.update(claim);
  }
}
