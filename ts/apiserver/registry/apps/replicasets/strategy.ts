/**
 * The replica set strategy (pkg/registry/apps/replicaset/strategy.go, v1.32): SetDefaults_ReplicaSet
 * (pkg/apis/apps/v1/defaults.go) with the pod template's defaults; the status starts at 0 replicas.
 */
import { applyTemplateDefaults } from '../../core/pods/defaults.js';
import { startStatus } from '../../generic/default-strategy.js';
import { child, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

function defaultReplicaSet(o: Obj): void {
  const spec = child(o, 'spec');
  applyTemplateDefaults(spec);
  spec.replicas ??= 1;
}

export const replicaSetStrategy: ResourceStrategy = {
  defaults: defaultReplicaSet,
  // The zero ReplicaSetStatus as Go serializes it: replicas has no omitempty.
  prepareForCreate: (obj, info) => startStatus(info, obj, { replicas: 0 }),
};
