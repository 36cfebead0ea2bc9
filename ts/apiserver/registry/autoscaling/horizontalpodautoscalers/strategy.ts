/**
 * The horizontal pod autoscaler strategy (pkg/registry/autoscaling/horizontalpodautoscaler/
 * strategy.go, v1.32): SetDefaults_HorizontalPodAutoscaler of v1 (minReplicas) and v2 (minReplicas,
 * a cpu metric, behavior) — pkg/apis/autoscaling/v{1,2}/defaults.go —, each version's zero status,
 * and v1 served through the v2 storage (conversion.ts).
 */
import { startStatus } from '../../generic/default-strategy.js';
import { child, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';
import { hpaV1ToV2, hpaV2ToV1 } from './conversion.js';

/** autoscaling.DefaultCPUUtilization. */
const DEFAULT_CPU_UTILIZATION = 80;

/** defaultHPAScaleUpRules: no stabilization, the larger of 4 pods or 100% per 15 s. */
const scaleUpRules = (): Obj => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});

/** defaultHPAScaleDownRules: 100% per 15 s; the stabilization window stays the controller's flag. */
const scaleDownRules = (): Obj => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** copyHPAScalingRules: the set fields of `from` over the defaults. */
function scalingRules(from: unknown, defaults: Obj): Obj {
  if (!isObj(from)) return defaults;
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) {
    if (from[key] !== undefined && from[key] !== null) defaults[key] = from[key];
  }
  return defaults;
}

function defaultHpaV1(o: Obj): void {
  child(o, 'spec').minReplicas ??= 1;
}

function defaultHpaV2(o: Obj): void {
  const spec = child(o, 'spec');
  spec.minReplicas ??= 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
      },
    ];
  }
  // SetDefaults_HorizontalPodAutoscalerBehavior: only a behavior that is set gets filled in.
  if (isObj(spec.behavior)) {
    spec.behavior.scaleUp = scalingRules(spec.behavior.scaleUp, scaleUpRules());
    spec.behavior.scaleDown = scalingRules(spec.behavior.scaleDown, scaleDownRules());
  }
}

export const horizontalPodAutoscalerStrategy: ResourceStrategy = {
  defaults: (o, version) => (version === 'v1' ? defaultHpaV1(o) : defaultHpaV2(o)),
  conversions: {
    v1: {
      out: hpaV2ToV1,
      in(served, stored) {
        const v2 = hpaV1ToV2(served, stored);
        // Decoding into the storage version defaults it.
        defaultHpaV2(v2);
        return v2;
      },
    },
  },
  // The zero status as Go serializes each version's (fields without omitempty show as 0 or null).
  prepareForCreate: (obj, info) =>
    startStatus(
      info,
      obj,
      info.version === 'v1' ? { currentReplicas: 0, desiredReplicas: 0 } : { currentMetrics: null, desiredReplicas: 0 },
    ),
};
