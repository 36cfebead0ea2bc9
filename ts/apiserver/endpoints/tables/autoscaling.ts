/**
 * printHorizontalPodAutoscaler and formatHPAMetrics (pkg/printers/internalversion/printers.go,
 * v1.32). Kubernetes prints the internal object, so an autoscaling/v1 HPA prints as its v2 form.
 */
import { hpaV1ToV2 } from '../../registry/autoscaling/horizontalpodautoscalers/conversion.js';
import { AGE, arr, col, type Layout, type Obj, obj, str } from './column.js';

/** resource.Quantity String() of a possibly missing quantity (nil prints `<nil>`). */
const q = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '<nil>');

/** One metric as `current/target`, as formatHPAMetrics prints it. */
function formatMetric(spec: Obj, status: Obj | undefined): string {
  const kind = str(spec.type);
  const unknown = '<unknown>';
  switch (kind) {
    case 'External':
    case 'Object': {
      const key = kind === 'External' ? 'external' : 'object';
      const target = obj(obj(spec[key]).target);
      const current = status?.[key] === undefined ? undefined : obj(obj(status[key]).current);
      if (target.averageValue !== undefined) {
        const c = current?.averageValue !== undefined ? q(current.averageValue) : unknown;
        return `${c}/${q(target.averageValue)} (avg)`;
      }
      return `${current ? q(current.value) : unknown}/${q(target.value)}`;
    }
    case 'Pods': {
      const current = status?.pods === undefined ? unknown : q(obj(obj(status.pods).current).averageValue);
      return `${current}/${q(obj(obj(spec.pods).target).averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = kind === 'Resource' ? 'resource' : 'containerResource';
      const source = obj(spec[key]);
      const target = obj(source.target);
      const current = status?.[key] === undefined ? undefined : obj(obj(status[key]).current);
      if (target.averageValue !== undefined) {
        return `${str(source.name)}: ${current ? q(current.averageValue) : unknown}/${q(target.averageValue)}`;
      }
      const c = typeof current?.averageUtilization === 'number' ? `${current.averageUtilization}%` : unknown;
      const t = typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>';
      return `${str(source.name)}: ${c}/${t}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: at most 2 metrics, then `+ N more...`; `<none>` without metrics. */
export function formatHPAMetrics(hpa: Obj): string {
  const specs = arr(obj(hpa.spec).metrics).map(obj);
  if (specs.length === 0) return '<none>';
  const statuses = arr(obj(hpa.status).currentMetrics).map(obj);
  const list = specs.map((s, i) => formatMetric(s, statuses[i]));
  const max = 2;
  if (list.length > max) return `${list.slice(0, max).join(', ')} + ${list.length - max} more...`;
  return list.join(', ');
}

const v2 = (o: Obj): Obj => (o.apiVersion === 'autoscaling/v1' ? hpaV1ToV2(o) : o);

export const AUTOSCALING_LAYOUTS: Record<string, Layout> = {
  'autoscaling/HorizontalPodAutoscaler': [
    col(
      'Reference',
      'string',
      'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.',
      (o) => {
        const ref = obj(obj(o.spec).scaleTargetRef);
        return `${str(ref.kind)}/${str(ref.name)}`;
      },
    ),
    col(
      'Targets',
      'string',
      'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).',
      (o) => formatHPAMetrics(v2(o)),
    ),
    col(
      'MinPods',
      'string',
      'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.',
      (o) => {
        const min = obj(o.spec).minReplicas;
        return typeof min === 'number' ? String(min) : '<unset>';
      },
    ),
    col(
      'MaxPods',
      'string',
      'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.',
      (o) => {
        const max = obj(o.spec).maxReplicas;
        return typeof max === 'number' ? max : 0;
      },
    ),
    col(
      'Replicas',
      'string',
      'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
      (o) => {
        const r = obj(o.status).currentReplicas;
        return typeof r === 'number' ? r : 0;
      },
    ),
    AGE,
  ],
};
