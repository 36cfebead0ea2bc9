/**
 * A ReplicationController read as a ReplicaSet (pkg/controller/replication/conversion.go at v1.32,
 * through pkg/apis/core/v1/conversion.go Convert_v1_ReplicationController_To_apps_ReplicaSet): the
 * same metadata and status, the selector map as `matchLabels`, an absent template an empty one.
 * Nothing converts back: the controller writes pods, Events and the status against the stored
 * ReplicationController, whose status has the ReplicaSet's fields and condition types.
 *
 *   new ReplicaSetController({ …, kind: REPLICATION_CONTROLLER_KIND });   // replication-controller.ts
 */
import type { LabelSelector } from '../../api/meta.js';
import type { ReplicaSet, ReplicaSetSpec, ReplicaSetStatus } from '../../api/types/apps/v1.js';
import type { ReplicationController } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { RESOURCES } from '../../client/resources.js';
import { REPLICATION_CONTROLLER_CONTROLLER } from '../framework/names.js';
import type { ReplicaSetKind } from '../replicaset/kind.js';

/** Convert_v1_ReplicationController_To_apps_ReplicaSet, then to apps/v1. */
export function replicaSetFromReplicationController(rc: DeepReadonly<ReplicationController>): DeepReadonly<ReplicaSet> {
  const spec = rc.spec ?? {};
  const rsSpec: DeepReadonly<ReplicaSetSpec> = {
    ...(spec.replicas === undefined ? {} : { replicas: spec.replicas }),
    ...(spec.minReadySeconds === undefined ? {} : { minReadySeconds: spec.minReadySeconds }),
    // A nil selector stays nil (LabelSelectorAsSelector: Nothing), which matches no pod.
    selector: (spec.selector === undefined ? undefined : { matchLabels: spec.selector }) as DeepReadonly<LabelSelector>,
    template: spec.template ?? {},
  };
  const rs: DeepReadonly<ReplicaSet> = { apiVersion: 'apps/v1', kind: 'ReplicaSet', spec: rsSpec };
  return {
    ...rs,
    ...(rc.metadata === undefined ? {} : { metadata: rc.metadata }),
    ...(rc.status === undefined ? {} : { status: rc.status as DeepReadonly<ReplicaSetStatus> }),
  };
}

// core.go startReplicationController: replicationcontroller-controller; NewReplicationManager's
// events come from "replication-controller", and its pods' controller is v1 ReplicationController.
export const REPLICATION_CONTROLLER_KIND: ReplicaSetKind<ReplicationController> = {
  gvk: { group: '', version: 'v1', kind: 'ReplicationController' },
  resource: RESOURCES.replicationcontrollers,
  controllerName: REPLICATION_CONTROLLER_CONTROLLER,
  component: 'replication-controller',
  asReplicaSet: replicaSetFromReplicationController,
};
