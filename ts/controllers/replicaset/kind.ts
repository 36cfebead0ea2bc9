/**
 * Which kind a ReplicaSetController runs for. Kubernetes runs the same controller for
 * ReplicaSets and ReplicationControllers (replica_set.go's "ATTENTION": the RC is converted on the
 * way in and out, as if it were an older version of ReplicaSet — pkg/controller/replication/),
 * each with its own informer, storage, queue and event source. Here that conversion is one
 * function: the stored object read as a ReplicaSet; the status written back is the same in both
 * kinds, field for field.
 *
 *   new ReplicaSetController({ factory, client, kind: REPLICA_SET_KIND, … });
 */
import type { KubeObject } from '../../api/meta.js';
import type { ReplicaSet } from '../../api/types/apps/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { type GroupVersionResource, RESOURCES } from '../../client/resources.js';
import type { GroupVersionKind } from '../framework/controller-ref-manager.js';
import { REPLICA_SET_CONTROLLER } from '../framework/names.js';

export interface ReplicaSetKind<T extends KubeObject = KubeObject> {
  /** The controller's GroupVersionKind: its pods' controller references. */
  gvk: GroupVersionKind;
  /** Where the objects are stored (their informer, their status writes). */
  resource: GroupVersionResource;
  /** The controller's name (names.ts), also the source of its Events. */
  controllerName: string;
  /** The event source component (replicaset-controller, replication-controller). */
  component: string;
  /** The stored object read as a ReplicaSet (the same object for ReplicaSets). */
  asReplicaSet(obj: DeepReadonly<T>): DeepReadonly<ReplicaSet>;
}

// apps.go startReplicaSetController: replicaset-controller, its events' component the same.
export const REPLICA_SET_KIND: ReplicaSetKind<ReplicaSet> = {
  gvk: { group: 'apps', version: 'v1', kind: 'ReplicaSet' },
  resource: RESOURCES.replicasets,
  controllerName: REPLICA_SET_CONTROLLER,
  component: 'replicaset-controller',
  asReplicaSet: (rs) => rs,
};
