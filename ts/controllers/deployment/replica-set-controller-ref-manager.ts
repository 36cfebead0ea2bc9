/**
 * ReplicaSetControllerRefManager (pkg/controller/controller_ref_manager.go at v1.32): a
 * Deployment claims the ReplicaSets its selector matches — adopting orphans with a
 * strategic-merge patch adding its controller reference, releasing owned sets that stopped
 * matching — on the framework's BaseControllerRefManager rules.
 *
 *   const cm = new ReplicaSetControllerRefManager(api, d, selector, DEPLOYMENT_KIND, canAdopt);
 *   const owned = await cm.claimReplicaSets(rsList);
 */
import type { Selector } from '../../api/labels/selector.js';
import { isInvalid, isNotFound } from '../../api/status.js';
import type { ReplicaSet } from '../../api/types/apps/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { aggregateErrors } from '../framework/aggregate-errors.js';
import {
  BaseControllerRefManager,
  deleteOwnerRefStrategicMergePatch,
  type GroupVersionKind,
  type ObjectWithMeta,
  ownerRefControllerPatch,
} from '../framework/controller-ref-manager.js';

/** RSControlInterface: the patch adoption and release use. */
export interface RSControl {
  patchReplicaSet(namespace: string, name: string, data: string): Promise<void>;
}

export class ReplicaSetControllerRefManager extends BaseControllerRefManager {
  constructor(
    private readonly rsControl: RSControl,
    controller: ObjectWithMeta,
    selector: Selector,
    readonly controllerKind: GroupVersionKind,
    canAdopt?: () => Promise<void>,
  ) {
    super(controller, selector, canAdopt);
  }

  /** ClaimReplicaSets: the sets owned after adoption and release; failures thrown together at the end. */
  async claimReplicaSets<T extends DeepReadonly<ReplicaSet>>(sets: readonly T[]): Promise<T[]> {
    const claimed: T[] = [];
    const errors: unknown[] = [];
    const match = (rs: T) => this.selector.matches(rs.metadata?.labels ?? {});
    for (const rs of sets) {
      try {
        const ok = await this.claimObject(
          rs,
          match,
          (o) => this.adoptReplicaSet(o),
          (o) => this.releaseReplicaSet(o),
        );
        if (ok) claimed.push(rs);
      } catch (err) {
        errors.push(err);
      }
    }
    const error = aggregateErrors(errors);
    if (error !== undefined) throw error;
    return claimed;
  }

  /** AdoptReplicaSet: canAdopt first, then the controller reference patched in. */
  async adoptReplicaSet(rs: DeepReadonly<ReplicaSet>): Promise<void> {
    const { namespace = '', name = '', uid = '' } = rs.metadata ?? {};
    try {
      await this.canAdopt();
    } catch (err) {
      throw new Error(
        `can't adopt ReplicaSet ${namespace}/${name} (${uid}): ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    await this.rsControl.patchReplicaSet(
      namespace,
      name,
      ownerRefControllerPatch(this.controller, this.controllerKind, uid),
    );
  }

  /** ReleaseReplicaSet: the reference patched out; 404 and 422 are no errors. */
  async releaseReplicaSet(rs: DeepReadonly<ReplicaSet>): Promise<void> {
    const { namespace = '', name = '', uid = '' } = rs.metadata ?? {};
    const patch = deleteOwnerRefStrategicMergePatch(uid, [this.controller.metadata?.uid ?? '']);
    try {
      await this.rsControl.patchReplicaSet(namespace, name, patch);
    } catch (err) {
      if (isNotFound(err) || isInvalid(err)) return;
      throw err;
    }
  }
}
