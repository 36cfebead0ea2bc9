/**
 * The DaemonSet controller's helpers (pkg/controller/daemon/util/daemonset_util.go and the
 * predicates of daemon_controller.go at v1.32): the daemon pod's template — the tolerations every
 * daemon pod gets, the template-generation and controller-revision-hash labels, the node affinity
 * on `metadata.name` that places it on one node (the scheduler binds it) — and whether a node
 * should run (or keep running) a DaemonSet's pod.
 *
 *   const [shouldRun, shouldContinueRunning] = nodeShouldRunDaemonPod(node, ds);
 *   const template = createPodTemplate(ds.spec.template, templateGeneration(ds), hash);
 *   template.spec.affinity = replaceDaemonSetPodNodeNameNodeAffinity(template.spec.affinity, 'node-1');
 *   getTargetNodeName(pod)   // spec.nodeName, or the node the affinity names
 */
import {
  addOrUpdateTolerationInPodSpec,
  OBJECT_NAME_FIELD,
  requiredNodeAffinityMatches,
} from '../../api/node-affinity.js';
import { findMatchingUntoleratedTaint } from '../../api/taints.js';
import type { DaemonSet } from '../../api/types/apps/v1.js';
import type { Affinity, Node, NodeSelectorTerm, Pod, PodSpec, PodTemplateSpec } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';

// k8s.io/api/apps/v1/types.go DefaultDaemonSetUniqueLabelKey (= ControllerRevisionHashLabelKey).
export const DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY = 'controller-revision-hash';
// k8s.io/api/apps/v1/types.go DeprecatedTemplateGeneration: the annotation the apiserver keeps.
export const DEPRECATED_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';
// k8s.io/api/extensions/v1beta1/types.go DaemonSetTemplateGenerationKey: the pod label.
export const DAEMON_SET_TEMPLATE_GENERATION_KEY = 'pod-template-generation';

// k8s.io/api/core/v1/well_known_taints.go.
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_NODE_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_NODE_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';

type RDaemonSet = DeepReadonly<DaemonSet>;
type RPod = DeepReadonly<Pod>;

/** GetTemplateGeneration: the deprecated annotation as an integer; undefined when absent or not a number. */
export function templateGeneration(ds: RDaemonSet): number | undefined {
  const value = ds.metadata?.annotations?.[DEPRECATED_TEMPLATE_GENERATION];
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return undefined;
  return Number.parseInt(value, 10);
}

/**
 * AddOrUpdateDaemonPodTolerations: not-ready and unreachable NoExecute (no tolerationSeconds:
 * never evicted), disk-, memory-, pid-pressure and unschedulable NoSchedule, and
 * network-unavailable NoSchedule for a hostNetwork pod.
 */
export function addOrUpdateDaemonPodTolerations(spec: PodSpec): void {
  addOrUpdateTolerationInPodSpec(spec, { key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute' });
  addOrUpdateTolerationInPodSpec(spec, { key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' });
  addOrUpdateTolerationInPodSpec(spec, { key: TAINT_NODE_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' });
  addOrUpdateTolerationInPodSpec(spec, { key: TAINT_NODE_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' });
  addOrUpdateTolerationInPodSpec(spec, { key: TAINT_NODE_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' });
  addOrUpdateTolerationInPodSpec(spec, { key: TAINT_NODE_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' });
  if (spec.hostNetwork === true) {
    addOrUpdateTolerationInPodSpec(spec, {
      key: TAINT_NODE_NETWORK_UNAVAILABLE,
      operator: 'Exists',
      effect: 'NoSchedule',
    });
  }
}

/** CreatePodTemplate: a copy with the daemon tolerations and the generation and hash labels. */
export function createPodTemplate(
  template: DeepReadonly<PodTemplateSpec> | undefined,
  generation: number | undefined,
  hash: string,
): PodTemplateSpec {
  const t = structuredClone((template ?? {}) as PodTemplateSpec);
  t.spec ??= { containers: [] };
  addOrUpdateDaemonPodTolerations(t.spec);
  t.metadata ??= {};
  t.metadata.labels ??= {};
  if (generation !== undefined) t.metadata.labels[DAEMON_SET_TEMPLATE_GENERATION_KEY] = String(generation);
  if (hash !== '') t.metadata.labels[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] = hash;
  return t;
}

/** intstr.GetScaledValueFromIntOrPercent(v, total, roundUp=true). */
export function scaledValue(v: number | string | undefined | null, total: number): number {
  if (v === undefined || v === null) throw new Error('nil value for IntOrString');
  if (typeof v === 'number') return v;
  const m = /^(-?\d+)%$/.exec(v);
  if (m === null) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  return Math.ceil((Number(m[1]) * total) / 100);
}

/** SurgeCount: maxSurge scaled (rounded up) for a RollingUpdate; 0 otherwise. */
export function surgeCount(ds: RDaemonSet, numberToSchedule: number): number {
  const strategy = ds.spec?.updateStrategy;
  if (strategy?.type !== 'RollingUpdate') return 0;
  const r = strategy.rollingUpdate;
  if (r === undefined || r.maxSurge === undefined || r.maxSurge === null) return 0;
  return scaledValue(r.maxSurge, numberToSchedule);
}

/** UnavailableCount: maxUnavailable scaled (rounded up) for a RollingUpdate; 0 otherwise. */
export function unavailableCount(ds: RDaemonSet, numberToSchedule: number): number {
  const strategy = ds.spec?.updateStrategy;
  if (strategy?.type !== 'RollingUpdate') return 0;
  const r = strategy.rollingUpdate;
  if (r === undefined) return 0;
  return scaledValue(r.maxUnavailable, numberToSchedule);
}

/** AllowsSurge: a maxSurge above 0. */
export function allowsSurge(ds: RDaemonSet): boolean {
  try {
    return surgeCount(ds, 1) > 0;
  } catch {
    return false;
  }
}

/** IsPodUpdated: the pod's hash label is the current hash, or its generation label the template's. */
export function isPodUpdated(pod: RPod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata?.labels ?? {};
  const templateMatches = generation !== undefined && labels[DAEMON_SET_TEMPLATE_GENERATION_KEY] === String(generation);
  const hashMatches = hash !== '' && labels[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] === hash;
  return hashMatches || templateMatches;
}

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes one term matching
 * `metadata.name In [nodename]`, the preferred terms and other affinities kept.
 */
export function replaceDaemonSetPodNodeNameNodeAffinity(affinity: Affinity | undefined, nodename: string): Affinity {
  const term: NodeSelectorTerm = { matchFields: [{ key: OBJECT_NAME_FIELD, operator: 'In', values: [nodename] }] };
  if (affinity === undefined) {
    return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } } };
  }
  if (affinity.nodeAffinity === undefined) {
    affinity.nodeAffinity = { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } };
    return affinity;
  }
  const nodeAffinity = affinity.nodeAffinity;
  if (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution === undefined) {
    nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: [term] };
    return affinity;
  }
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms = [term];
  return affinity;
}

/** GetTargetNodeName: spec.nodeName, or the one `metadata.name In` value of the required node affinity. */
export function getTargetNodeName(pod: RPod): string {
  const { namespace = '', name = '' } = pod.metadata ?? {};
  if ((pod.spec?.nodeName ?? '') !== '') return pod.spec?.nodeName ?? '';
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined) {
    throw new Error(
      `no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod ${namespace}/${name}`,
    );
  }
  const terms = required.nodeSelectorTerms ?? [];
  if (terms.length < 1) {
    throw new Error(
      `no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod ${namespace}/${name}`,
    );
  }
  for (const term of terms) {
    for (const exp of term.matchFields ?? []) {
      if (exp.key === OBJECT_NAME_FIELD && exp.operator === 'In') {
        const values = exp.values ?? [];
        if (values.length !== 1) {
          throw new Error(`the matchFields value of '${OBJECT_NAME_FIELD}' is not unique for pod ${namespace}/${name}`);
        }
        return values[0] as string;
      }
    }
  }
  throw new Error(`no node name found for pod ${namespace}/${name}`);
}

/** NewPod: the DaemonSet's pod for `nodeName` as the predicates see it (with the daemon tolerations). */
export function newPod(ds: RDaemonSet, nodeName: string): Pod {
  const template = structuredClone((ds.spec?.template ?? {}) as PodTemplateSpec);
  const spec: PodSpec = template.spec ?? { containers: [] };
  spec.nodeName = nodeName;
  addOrUpdateDaemonPodTolerations(spec);
  return { metadata: { ...(template.metadata ?? {}), namespace: ds.metadata?.namespace ?? '' }, spec };
}

const noScheduleOrExecute = (t: { effect?: string }): boolean => t.effect === 'NoExecute' || t.effect === 'NoSchedule';

/**
 * NodeShouldRunDaemonPod: [shouldRun, shouldContinueRunning]. A node the template's nodeName,
 * nodeSelector or node affinity rule out runs nothing; a node with an untolerated NoSchedule taint
 * gets no new pod but keeps one, unless an untolerated NoExecute taint is there too.
 */
export function nodeShouldRunDaemonPod(node: DeepReadonly<Node>, ds: RDaemonSet): [boolean, boolean] {
  const pod = newPod(ds, node.metadata?.name ?? '');
  const templateNodeName = ds.spec?.template?.spec?.nodeName ?? '';
  if (!(templateNodeName === '' || templateNodeName === node.metadata?.name)) return [false, false];
  const taints = node.spec?.taints;
  // predicates: the node name, the node affinity, the taints.
  const fitsNodeName = (pod.spec?.nodeName ?? '') === '' || pod.spec?.nodeName === node.metadata?.name;
  const fitsNodeAffinity = requiredNodeAffinityMatches(pod, node);
  const fitsTaints = findMatchingUntoleratedTaint(taints, pod.spec?.tolerations, noScheduleOrExecute) === undefined;
  if (!fitsNodeName || !fitsNodeAffinity) return [false, false];
  if (!fitsTaints) {
    const untoleratedNoExecute = findMatchingUntoleratedTaint(
      taints,
      pod.spec?.tolerations,
      (t) => t.effect === 'NoExecute',
    );
    return [false, untoleratedNoExecute === undefined];
  }
  return [true, true];
}

/**
 * podByCreationTimestampAndPhase: scheduled pods first, then the oldest, then by name.
 */
export function podByCreationTimestampAndPhaseLess(a: RPod, b: RPod): boolean {
  const an = (a.spec?.nodeName ?? '') !== '';
  const bn = (b.spec?.nodeName ?? '') !== '';
  if (an && !bn) return true;
  if (!an && bn) return false;
  const at = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const bt = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  if (at === bt) return (a.metadata?.name ?? '') < (b.metadata?.name ?? '');
  return at < bt;
}

/** sort.Sort(podByCreationTimestampAndPhase(pods)), in place. */
export function sortPodsByCreationTimestampAndPhase<T extends RPod>(pods: T[]): T[] {
  return pods.sort((a, b) =>
    podByCreationTimestampAndPhaseLess(a, b) ? -1 : podByCreationTimestampAndPhaseLess(b, a) ? 1 : 0,
  );
}
