// Label and node selectors with k8s.io/apimachinery/pkg/labels semantics:
// - a nil LabelSelector selects nothing, an empty one ({}) selects everything
//   (metav1.LabelSelectorAsSelector);
// - NotIn and DoesNotExist match objects that lack the key;
// - a node selector term with no expressions and no fields matches nothing, and a term that does
//   not parse matches nothing while the other terms still count (nodeaffinity.LazyErrorNodeSelector).

import type {
  LabelSelector,
  Node,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodAffinityTerm,
} from './types.js';

export type Labels = Readonly<Record<string, string>>;

/** Thrown for a LabelSelector that metav1.LabelSelectorAsSelector would reject. */
export class SelectorError extends Error {
  readonly code = 'E_SELECTOR';
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
}

export type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: readonly string[];
}

/** A parsed selector. `nothing` matches no object; an empty requirement list matches all. */
export type Selector =
  | { readonly nothing: true }
  | { readonly nothing: false; readonly requirements: readonly Requirement[] };

export const EVERYTHING: Selector = { nothing: false, requirements: [] };
export const NOTHING: Selector = { nothing: true };

const INTEGER = /^[+-]?[0-9]+$/;

function hasOwn(labels: Labels, key: string): boolean {
  return Object.hasOwn(labels, key);
}

/** labels.NewRequirement's validation; throws SelectorError. */
function newRequirement(key: string, operator: Operator, values: readonly string[]): Requirement {
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) throw new SelectorError(`for '${operator}' operator, values set can't be empty`);
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) throw new SelectorError(`values set must be empty for exists and does not exist`);
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1 || !INTEGER.test(values[0] ?? '')) {
        throw new SelectorError(`for 'Gt', 'Lt' operators, exactly one integer value is required`);
      }
      break;
    default:
      throw new SelectorError(`operator '${String(operator)}' is not recognized`);
  }
  return { key, operator, values };
}

/** labels.Requirement.Matches. */
export function requirementMatches(r: Requirement, labels: Labels): boolean {
  const has = hasOwn(labels, r.key);
  const value = labels[r.key];
  switch (r.operator) {
    case 'In':
      return has && r.values.includes(value ?? '');
    case 'NotIn':
      return !has || !r.values.includes(value ?? '');
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || value === undefined || !INTEGER.test(value)) return false;
      const left = BigInt(value);
      const right = BigInt(r.values[0] ?? '0');
      return r.operator === 'Gt' ? left > right : left < right;
    }
  }
}

export function selectorMatches(s: Selector, labels: Labels | undefined): boolean {
  if (s.nothing) return false;
  const l = labels ?? {};
  return s.requirements.every((r) => requirementMatches(r, l));
}

export function isEverything(s: Selector): boolean {
  return !s.nothing && s.requirements.length === 0;
}

/** metav1.LabelSelectorAsSelector. `null`/`undefined` → nothing, `{}` → everything. */
export function labelSelectorAsSelector(ls: LabelSelector | null | undefined): Selector {
  if (ls === null || ls === undefined) return NOTHING;
  const matchLabels = ls.matchLabels ?? {};
  const expressions = ls.matchExpressions ?? [];
  if (Object.keys(matchLabels).length + expressions.length === 0) return EVERYTHING;
  const requirements: Requirement[] = [];
  for (const [k, v] of Object.entries(matchLabels)) requirements.push(newRequirement(k, 'In', [v]));
  for (const e of expressions) requirements.push(newRequirement(e.key, e.operator, e.values ?? []));
  return { nothing: false, requirements };
}

/** labels.SelectorFromSet: every key equal to its value. */
export function selectorFromSet(set: Labels): Selector {
  return {
    nothing: false,
    requirements: Object.entries(set).map(([k, v]) => ({ key: k, operator: 'In', values: [v] })),
  };
}

/** Selector.Add: the conjunction of a selector with more requirements. */
export function addRequirements(s: Selector, more: readonly Requirement[]): Selector {
  if (s.nothing) return s;
  return { nothing: false, requirements: [...s.requirements, ...more] };
}

export function requirementsOf(s: Selector): readonly Requirement[] {
  return s.nothing ? [] : s.requirements;
}

// --- node selectors -------------------------------------------------------------------------------

/** The one field a node selector term may match on. */
export const NODE_NAME_FIELD = 'metadata.name';

/** Whether one node selector term matches; a term that fails to parse matches nothing. */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Node): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  let labelReqs: Requirement[];
  let fieldReqs: Requirement[];
  try {
    labelReqs = expressions.map((e) => newRequirement(e.key, e.operator, e.values ?? []));
    fieldReqs = fields.map(fieldRequirement);
  } catch (e) {
    if (e instanceof SelectorError) return false;
    throw e;
  }
  const labels = node.metadata.labels ?? {};
  const fieldSet: Labels = { [NODE_NAME_FIELD]: node.metadata.name };
  return (
    labelReqs.every((r) => requirementMatches(r, labels)) && fieldReqs.every((r) => requirementMatches(r, fieldSet))
  );
}

/** nodeSelectorRequirementsAsFieldSelector: only metadata.name, In/NotIn with exactly one value. */
function fieldRequirement(r: NodeSelectorRequirement): Requirement {
  if (r.key !== NODE_NAME_FIELD) throw new SelectorError(`field selector key ${r.key} is not supported`);
  if ((r.operator !== 'In' && r.operator !== 'NotIn') || (r.values ?? []).length !== 1) {
    throw new SelectorError(`unexpected field selector ${r.operator} with ${(r.values ?? []).length} values`);
  }
  return { key: r.key, operator: r.operator, values: r.values ?? [] };
}

/** A v1.NodeSelector matches when any of its terms does (terms are ORed). */
export function nodeSelectorMatches(ns: NodeSelector, node: Node): boolean {
  return ns.nodeSelectorTerms.some((t) => nodeSelectorTermMatches(t, node));
}

// --- pod affinity terms ---------------------------------------------------------------------------

/**
 * A processed v1.PodAffinityTerm (framework.AffinityTerm): the namespaces it names (defaulting to
 * the owning pod's namespace when neither namespaces nor namespaceSelector is set), its parsed
 * namespace selector and label selector. matchLabelKeys/mismatchLabelKeys are merged into the
 * label selector from the owning pod's labels, as the apiserver does on pod creation.
 */
export interface AffinityTerm {
  readonly namespaces: ReadonlySet<string>;
  readonly namespaceSelector: Selector;
  readonly selector: Selector;
  readonly topologyKey: string;
}

export function newAffinityTerm(ownerNamespace: string, ownerLabels: Labels, term: PodAffinityTerm): AffinityTerm {
  let selector = labelSelectorAsSelector(term.labelSelector);
  if (term.labelSelector !== null && term.labelSelector !== undefined) {
    const extra: Requirement[] = [];
    for (const key of term.matchLabelKeys ?? []) {
      const v = ownerLabels[key];
      if (v !== undefined) extra.push({ key, operator: 'In', values: [v] });
    }
    for (const key of term.mismatchLabelKeys ?? []) {
      const v = ownerLabels[key];
      if (v !== undefined) extra.push({ key, operator: 'NotIn', values: [v] });
    }
    if (extra.length > 0) selector = addRequirements(selector, extra);
  }
  const names = term.namespaces ?? [];
  const nsSelectorUnset = term.namespaceSelector === null || term.namespaceSelector === undefined;
  const namespaces = new Set<string>(names.length === 0 && nsSelectorUnset ? [ownerNamespace] : names);
  return {
    namespaces,
    namespaceSelector: labelSelectorAsSelector(term.namespaceSelector),
    selector,
    topologyKey: term.topologyKey,
  };
}

/**
 * AffinityTerm.Matches: the pod is in one of the term's namespaces (by name, or by the namespace
 * selector over the pod's namespace labels) and its labels match the selector.
 */
export function affinityTermMatches(
  term: AffinityTerm,
  podNamespace: string,
  podLabels: Labels | undefined,
  namespaceLabels: Labels | undefined,
): boolean {
  // A namespace missing from the snapshot is matched only by the match-all selector: the scheduler
  // resolves selectors against the namespaces it knows (mergeAffinityTermNamespacesIfNotEmpty).
  const bySelector =
    namespaceLabels === undefined
      ? isEverything(term.namespaceSelector)
      : selectorMatches(term.namespaceSelector, namespaceLabels);
  const inNamespace = term.namespaces.has(podNamespace) || bySelector;
  return inNamespace && selectorMatches(term.selector, podLabels);
}
