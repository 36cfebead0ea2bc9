/**
 * The replication controller strategy (pkg/registry/core/replicationcontroller/strategy.go, v1.32):
 * SetDefaults_ReplicationController (pkg/apis/core/v1/defaults.go) with the pod template's
 * defaults; the status starts at 0 replicas; a v1 delete orphans the pods unless told otherwise.
 * Validation is ts/api/validation/kinds/replication-controller.ts; the scale subresource scale.ts.
 */
import { applyTemplateDefaults } from '../../core/pods/defaults.js';
import { startStatus } from '../../generic/default-strategy.js';
import { child, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

/**
 * SetDefaults_ReplicationController: with template labels (even empty ones), an empty selector
 * and empty object labels become the template's; replicas 1.
 */
function defaultReplicationController(o: Obj): void {
  const spec = child(o, 'spec');
  const template = spec.template;
  const labels = isObj(template) && isObj(template.metadata) ? template.metadata.labels : undefined;
  if (isObj(labels)) {
    if (!isObj(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    const meta = child(o, 'metadata');
    if (!isObj(meta.labels) || Object.keys(meta.labels).length === 0) meta.labels = { ...labels };
  }
  spec.replicas ??= 1;
  applyTemplateDefaults(spec);
}

export const replicationControllerStrategy: ResourceStrategy = {
  defaults: defaultReplicationController,
  // The zero ReplicationControllerStatus as Go serializes it: replicas has no omitempty.
  prepareForCreate: (obj, info) => startStatus(info, obj, { replicas: 0 }),
  // rcStrategy.DefaultGarbageCollectionPolicy: OrphanDependents for v1, "for back compatibility".
  defaultGarbageCollectionPolicy: (info) => (info.version === 'v1' ? 'OrphanDependents' : 'DeleteDependents'),
};
