/**
 * The deployment strategy (pkg/registry/apps/deployment/strategy.go, v1.32): SetDefaults_Deployment
 * (pkg/apis/apps/v1/defaults.go) with the pod template's defaults, and the status strategy, which
 * keeps the stored labels too.
 */
import { applyTemplateDefaults } from '../../core/pods/defaults.js';
import { DEFAULT_STRATEGY, keepStoredMetadata } from '../../generic/default-strategy.js';
import { child, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

function defaultDeployment(o: Obj): void {
  const spec = child(o, 'spec');
  applyTemplateDefaults(spec);
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  const strategy = child(spec, 'strategy');
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = child(strategy, 'rollingUpdate');
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
}

export const deploymentStrategy: ResourceStrategy = {
  defaults: defaultDeployment,
  status: {
    prepareForUpdate(obj, old, info, now) {
      DEFAULT_STRATEGY.status.prepareForUpdate(obj, old, info, now);
      keepStoredMetadata(obj, old, 'labels');
    },
  },
};
