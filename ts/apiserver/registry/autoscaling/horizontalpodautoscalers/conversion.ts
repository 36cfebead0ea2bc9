/**
 * autoscaling/v1 HorizontalPodAutoscalers are stored as autoscaling/v2: the conversions between the
 * two (pkg/apis/autoscaling/v1/conversion.go, v1.32), which registry/generic/versioned-storage.ts
 * runs on every value on its way out of and into the store.
 *
 * Simplified against Kubernetes: v1 carries v2's other metrics, behavior and conditions in the
 * annotations autoscaling.alpha.kubernetes.io/{metrics,current-metrics,behavior,conditions};
 * here v1 reads drop them, and a v1 write keeps them from the stored v2 object instead (so a v1
 * client's update never loses them, but it cannot see or change them either).
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});

/** The v2 metric that v1's targetCPUUtilizationPercentage stands for. */
const isCpuUtilization = (m: unknown): boolean => {
  const metric = obj(m);
  const resource = obj(metric.resource);
  return (
    metric.type === 'Resource' && resource.name === 'cpu' && typeof obj(resource.target).averageUtilization === 'number'
  );
};

/**
 * autoscaling/v1 → autoscaling/v2: targetCPUUtilizationPercentage becomes a cpu Resource metric
 * (Utilization), currentCPUUtilizationPercentage a cpu current metric. `stored` (the v2 object
 * this replaces, if any) supplies what v1 cannot say: other metrics, behavior, conditions.
 */
export function hpaV1ToV2(v1: Obj, stored?: Obj): Obj {
  const { spec: v1Spec, status: v1Status, ...rest } = v1;
  const spec = obj(v1Spec);
  const status = obj(v1Status);
  const old = obj(stored);
  const oldSpec = obj(old.spec);
  const oldStatus = obj(old.status);
  const out: Obj = { ...rest, apiVersion: 'autoscaling/v2' };

  const spec2: Obj = {};
  if (spec.scaleTargetRef !== undefined) spec2.scaleTargetRef = spec.scaleTargetRef;
  if (spec.minReplicas !== undefined) spec2.minReplicas = spec.minReplicas;
  if (spec.maxReplicas !== undefined) spec2.maxReplicas = spec.maxReplicas;
  const metrics: unknown[] = [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({
      type: 'Resource',
      resource: {
        name: 'cpu',
        target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage },
      },
    });
  }
  if (Array.isArray(oldSpec.metrics)) metrics.push(...oldSpec.metrics.filter((m) => !isCpuUtilization(m)));
  if (metrics.length > 0) spec2.metrics = metrics;
  if (oldSpec.behavior !== undefined) spec2.behavior = oldSpec.behavior;
  if (v1Spec !== undefined) out.spec = spec2;

  if (v1Status !== undefined) {
    const status2: Obj = {};
    for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas']) {
      if (status[k] !== undefined) status2[k] = status[k];
    }
    const current: unknown[] = [];
    if (typeof status.currentCPUUtilizationPercentage === 'number') {
      current.push({
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } },
      });
    }
    if (Array.isArray(oldStatus.currentMetrics)) {
      current.push(
        ...oldStatus.currentMetrics.filter((m) => {
          const r = obj(obj(m).resource);
          return !(
            obj(m).type === 'Resource' &&
            r.name === 'cpu' &&
            typeof obj(r.current).averageUtilization === 'number'
          );
        }),
      );
    }
    if (current.length > 0) status2.currentMetrics = current;
    if (oldStatus.conditions !== undefined) status2.conditions = oldStatus.conditions;
    // v2: currentReplicas is omitempty, desiredReplicas and currentMetrics are not.
    if (status2.currentReplicas === 0) delete status2.currentReplicas;
    status2.desiredReplicas ??= 0;
    status2.currentMetrics ??= null;
    out.status = status2;
  }
  return out;
}

/** autoscaling/v2 → autoscaling/v1: the first cpu Utilization metric is all v1 can say. */
export function hpaV2ToV1(v2: Obj): Obj {
  const { spec: v2Spec, status: v2Status, ...rest } = v2;
  const spec = obj(v2Spec);
  const status = obj(v2Status);
  const out: Obj = { ...rest, apiVersion: 'autoscaling/v1' };
  if (v2Spec !== undefined) {
    const spec1: Obj = {};
    if (spec.scaleTargetRef !== undefined) spec1.scaleTargetRef = spec.scaleTargetRef;
    if (spec.minReplicas !== undefined) spec1.minReplicas = spec.minReplicas;
    if (spec.maxReplicas !== undefined) spec1.maxReplicas = spec.maxReplicas;
    const cpu = Array.isArray(spec.metrics) ? spec.metrics.find(isCpuUtilization) : undefined;
    if (cpu !== undefined) spec1.targetCPUUtilizationPercentage = obj(obj(obj(cpu).resource).target).averageUtilization;
    out.spec = spec1;
  }
  if (v2Status !== undefined) {
    const status1: Obj = {};
    if (status.observedGeneration !== undefined) status1.observedGeneration = status.observedGeneration;
    if (status.lastScaleTime !== undefined) status1.lastScaleTime = status.lastScaleTime;
    // currentReplicas and desiredReplicas have no omitempty in v1.
    status1.currentReplicas = typeof status.currentReplicas === 'number' ? status.currentReplicas : 0;
    status1.desiredReplicas = typeof status.desiredReplicas === 'number' ? status.desiredReplicas : 0;
    const current = Array.isArray(status.currentMetrics)
      ? status.currentMetrics.find((m) => obj(m).type === 'Resource' && obj(obj(m).resource).name === 'cpu')
      : undefined;
    const utilization = obj(obj(obj(current).resource).current).averageUtilization;
    if (typeof utilization === 'number') status1.currentCPUUtilizationPercentage = utilization;
    out.status = status1;
  }
  return out;
}
