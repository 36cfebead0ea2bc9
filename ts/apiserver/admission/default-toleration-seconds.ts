/**
 * The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds/
 * admission.go, v1.32): on every pod CREATE and UPDATE (not subresources), a pod that does not
 * already tolerate the `node.kubernetes.io/not-ready` and `node.kubernetes.io/unreachable` NoExecute
 * taints gets a toleration for each, for 300 seconds — so its pods are evicted five minutes after
 * a node stops answering.
 */
import type { AdmissionPlugin } from './types.js';

// defaulttolerationseconds.PluginName.
export const DEFAULT_TOLERATION_SECONDS = 'DefaultTolerationSeconds';
// --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds defaults.
export const DEFAULT_NOT_READY_TOLERATION_SECONDS = 300;
export const DEFAULT_UNREACHABLE_TOLERATION_SECONDS = 300;
// v1.TaintNodeNotReady and v1.TaintNodeUnreachable (staging/src/k8s.io/api/core/v1/well_known_taints.go).
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `t` tolerates the NoExecute taint `key`: an empty key or effect matches any. */
function tolerates(t: Obj, key: string): boolean {
  const k = typeof t.key === 'string' ? t.key : '';
  const effect = typeof t.effect === 'string' ? t.effect : '';
  return (k === key || k === '') && (effect === 'NoExecute' || effect === '');
}

export function defaultTolerationSecondsPlugin(
  options: { notReadySeconds?: number; unreachableSeconds?: number } = {},
): AdmissionPlugin {
  const notReady = options.notReadySeconds ?? DEFAULT_NOT_READY_TOLERATION_SECONDS;
  const unreachable = options.unreachableSeconds ?? DEFAULT_UNREACHABLE_TOLERATION_SECONDS;
  return {
    name: DEFAULT_TOLERATION_SECONDS,
    handles: (a) =>
      (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
      a.info.group === '' &&
      a.info.resource === 'pods' &&
      a.subresource === '',
    async admit(a) {
      const pod = a.object;
      if (pod === undefined) return;
      if (!isObj(pod.spec)) pod.spec = {};
      const spec = pod.spec as Obj;
      const list = Array.isArray(spec.tolerations) ? spec.tolerations.filter(isObj) : [];
      const add: Obj[] = [];
      // Go's field order: key, operator, value, effect, tolerationSeconds.
      if (!list.some((t) => tolerates(t, TAINT_NODE_NOT_READY))) {
        add.push({ key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReady });
      }
      if (!list.some((t) => tolerates(t, TAINT_NODE_UNREACHABLE))) {
        add.push({
          key: TAINT_NODE_UNREACHABLE,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: unreachable,
        });
      }
      if (add.length > 0) spec.tolerations = [...(Array.isArray(spec.tolerations) ? spec.tolerations : []), ...add];
    },
  };
}
