/**
 * The stateful set strategy (pkg/registry/apps/statefulset/strategy.go, v1.32):
 * SetDefaults_StatefulSet (pkg/apis/apps/v1/defaults.go, with the feature gates of a default 1.32
 * cluster: StatefulSetAutoDeletePVC on, MaxUnavailableStatefulSet off) with the pod and claim
 * templates' defaults; the zero status.
 */
import { applyClaimTemplateDefaults, applyTemplateDefaults } from '../../core/pods/defaults.js';
import { startStatus } from '../../generic/default-strategy.js';
import { child, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

function defaultStatefulSet(o: Obj): void {
  const spec = child(o, 'spec');
  applyTemplateDefaults(spec);
  applyClaimTemplateDefaults(spec);
  if (spec.podManagementPolicy === undefined || spec.podManagementPolicy === '') {
    spec.podManagementPolicy = 'OrderedReady';
  }
  const strategy = child(spec, 'updateStrategy');
  if (strategy.type === undefined || strategy.type === '') {
    strategy.type = 'RollingUpdate';
    child(strategy, 'rollingUpdate');
  }
  if (strategy.type === 'RollingUpdate' && isObj(strategy.rollingUpdate)) strategy.rollingUpdate.partition ??= 0;
  const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
  if (retention.whenDeleted === undefined || retention.whenDeleted === '') retention.whenDeleted = 'Retain';
  if (retention.whenScaled === undefined || retention.whenScaled === '') retention.whenScaled = 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
}

export const statefulSetStrategy: ResourceStrategy = {
  defaults: defaultStatefulSet,
  // The zero StatefulSetStatus as Go serializes it (replicas and availableReplicas have no omitempty).
  prepareForCreate: (obj, info) => startStatus(info, obj, { replicas: 0, availableReplicas: 0 }),
};
