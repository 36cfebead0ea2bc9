/**
 * The replication manager (pkg/controller/replication/replication_controller.go at v1.32): the
 * ReplicaSet controller run for ReplicationControllers — "a wrapper around ReplicaSetController,
 * with a conversion layer that effectively treats ReplicationController as if it were an older API
 * version of ReplicaSet" (conversion.ts) — with its own informer, queue, expectations and Events
 * (source `replication-controller`), and its pods' ControllerRef naming `v1 ReplicationController`.
 *
 *   const rm = new ReplicationManager({ factory, client, clock, onError });
 *   factory.start();
 *   await rm.run(5);  …  await rm.stop();
 */
import { ReplicaSetController, type ReplicaSetControllerOptions } from '../replicaset/replica-set-controller.js';
import { REPLICATION_CONTROLLER_KIND } from './conversion.js';

// replication_controller.go BurstReplicas = replicaset.BurstReplicas.
export { BURST_REPLICAS } from '../replicaset/replica-set-controller.js';
// replication/config/v1alpha1/defaults.go: --concurrent-rc-syncs 5.
export const DEFAULT_WORKERS = 5;

/** The ReplicaSet controller's options, but the kind (workers: --concurrent-rc-syncs). */
export type ReplicationManagerOptions = Omit<ReplicaSetControllerOptions, 'kind'>;

export class ReplicationManager extends ReplicaSetController {
  constructor(options: ReplicationManagerOptions) {
    super({ workers: DEFAULT_WORKERS, ...options, kind: REPLICATION_CONTROLLER_KIND });
  }
}
