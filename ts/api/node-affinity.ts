/**
 * Which nodes a pod may run on, as pure functions of the objects: the pod's required node
 * affinity (k8s.io/component-helpers/scheduling/corev1/nodeaffinity at v0.32:
 * GetRequiredNodeAffinity(pod).Match(node) — spec.nodeSelector AND the required node selector
 * terms, ORed, each term's matchExpressions on the labels and matchFields on `metadata.name`), and
 * the tolerations a pod spec carries (k8s.io/api/core/v1 toleration.go MatchToleration,
 * pkg/apis/core/v1/helper AddOrUpdateTolerationInPodSpec). Taints against tolerations are taints.ts.
 *
 *   requiredNodeAffinityMatches(pod, node)                                   // true / false
 *   addOrUpdateTolerationInPodSpec(spec, { key: 'k', operator: 'Exists', effect: 'NoSchedule' })
 */
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, PodSpec, Toleration } from './types/core/v1.js';
import type { DeepReadonly } from './types/readonly.js';

// k8s.io/apimachinery/pkg/apis/meta/v1/types.go ObjectNameField: the one field node selectors match.
export const OBJECT_NAME_FIELD = 'metadata.name';

type RNode = DeepReadonly<Node>;

/** Go's strconv.ParseInt(s, 10, 64) for Gt/Lt; undefined when it is not an integer. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return n;
}

/**
 * One label requirement (nodeSelectorRequirementsAsSelector's labels.NewRequirement): undefined
 * when it is invalid (its term then matches nothing), else whether `labels` satisfy it.
 */
function labelRequirementMatches(
  req: DeepReadonly<NodeSelectorRequirement>,
  labels: Readonly<Record<string, string>>,
): boolean | undefined {
  const values = req.values ?? [];
  const has = Object.hasOwn(labels, req.key);
  const value = labels[req.key];
  switch (req.operator) {
    case 'In':
      if (values.length === 0) return undefined;
      return has && values.includes(value as string);
    case 'NotIn':
      if (values.length === 0) return undefined;
      return !has || !values.includes(value as string);
    case 'Exists':
      if (values.length > 0) return undefined;
      return has;
    case 'DoesNotExist':
      if (values.length > 0) return undefined;
      return !has;
    case 'Gt':
    case 'Lt': {
      if (values.length !== 1) return undefined;
      const bound = parseInt64(values[0] as string);
      if (bound === undefined) return undefined;
      if (!has) return false;
      const n = parseInt64(value as string);
      if (n === undefined) return false;
      return req.operator === 'Gt' ? n > bound : n < bound;
    }
    default:
      return undefined;
  }
}

/** One field requirement (nodeSelectorRequirementsAsFieldSelector): only metadata.name, In or NotIn, one value. */
function fieldRequirementMatches(req: DeepReadonly<NodeSelectorRequirement>, node: RNode): boolean | undefined {
  const values = req.values ?? [];
  if (req.key !== OBJECT_NAME_FIELD || values.length !== 1) return undefined;
  const name = node.metadata?.name ?? '';
  if (req.operator === 'In') return name === values[0];
  if (req.operator === 'NotIn') return name !== values[0];
  return undefined;
}

/**
 * nodeSelectorTerm match: a term with neither expressions nor fields matches nothing, an invalid
 * one matches nothing; otherwise every requirement must hold.
 */
export function nodeSelectorTermMatches(term: DeepReadonly<NodeSelectorTerm>, node: RNode): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  for (const req of exprs) if (labelRequirementMatches(req, labels) !== true) return false;
  for (const req of fields) if (fieldRequirementMatches(req, node) !== true) return false;
  return true;
}

/** nodeaffinity.NodeSelector.Match: any term matches (terms ORed). */
export function nodeSelectorTermsMatch(terms: readonly DeepReadonly<NodeSelectorTerm>[], node: RNode): boolean {
  return terms.some((t) => nodeSelectorTermMatches(t, node));
}

/**
 * GetRequiredNodeAffinity(pod).Match(node): spec.nodeSelector's labels all on the node, and —
 * when the pod has a required node affinity — one of its terms matching.
 */
export function requiredNodeAffinityMatches(pod: DeepReadonly<Pod>, node: RNode): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) {
    if (!Object.hasOwn(labels, k) || labels[k] !== v) return false;
  }
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined || required === null) return true;
  return nodeSelectorTermsMatch(required.nodeSelectorTerms ?? [], node);
}

/** Toleration.MatchToleration: the same key, operator, value and effect (tolerationSeconds aside). */
export function matchToleration(a: DeepReadonly<Toleration>, b: DeepReadonly<Toleration>): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.effect ?? '') === (b.effect ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '')
  );
}

/**
 * AddOrUpdateTolerationInPodSpec: `toleration` appended, or put in place of the one it matches
 * when that one differs (its tolerationSeconds); false when an equal one is there already.
 */
export function addOrUpdateTolerationInPodSpec(spec: PodSpec, toleration: Toleration): boolean {
  const old = spec.tolerations ?? [];
  const next: Toleration[] = [];
  let updated = false;
  for (const t of old) {
    if (matchToleration(t, toleration)) {
      if ((t.tolerationSeconds ?? null) === (toleration.tolerationSeconds ?? null)) return false;
      next.push(toleration);
      updated = true;
      continue;
    }
    next.push(t);
  }
  if (!updated) next.push(toleration);
  spec.tolerations = next;
  return true;
}
