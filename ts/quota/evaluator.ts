/**
 * quota.Evaluator (staging/src/k8s.io/apiserver/pkg/quota/v1/interfaces.go) and the generic object
 * count evaluator (quota/v1/generic/evaluator.go, v1.32): what a resource charges to a quota, which
 * quota resource names it answers for, and which quota scopes an object falls in.
 */
import { decimal, intersection, type ResourceList } from './resource-list.js';

type Obj = Record<string, unknown>;

/** admission.Operation (k8s.io/apiserver pkg/admission/interfaces.go), as an evaluator's Handles reads it. */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** v1.ScopedResourceSelectorRequirement. */
export interface ScopeSelector {
  scopeName: string;
  operator: string;
  values?: string[];
}

/** The quota as the evaluators read it: its name, scopes and status.hard. */
export interface QuotaSpecView {
  name: string;
  scopes: readonly string[];
  scopeSelector: readonly ScopeSelector[];
  /** status.hard (what the controller has synced), not spec.hard. */
  hard: ResourceList;
}

/** The parts of admission.Attributes an evaluator's Handles reads. */
export interface HandlesAttributes {
  operation: Operation;
  subresource: string;
  object: Obj | undefined;
  oldObject: Obj | undefined;
}

export interface Evaluator {
  readonly group: string;
  readonly resource: string;
  /** Constraints: an error text when the object lacks what the quota's resources require. */
  constraints(required: readonly string[], obj: Obj): string | undefined;
  /** Handles: whether the operation can change usage. */
  handles(a: HandlesAttributes): boolean;
  /** Matches: the quota tracks a resource of this evaluator and every scope selector matches. */
  matches(quota: QuotaSpecView, obj: Obj): boolean;
  /** MatchingResources: the names of `input` this evaluator charges. */
  matchingResources(input: Iterable<string>): string[];
  /** Whether `obj` is inside one scope selector (false for evaluators without scopes). */
  matchesScope(selector: ScopeSelector, obj: Obj): boolean;
  /** Usage: what `obj` charges; `now` is the clock's time in ms. */
  usage(obj: Obj, now: number): ResourceList;
}

/** getScopeSelectorsFromQuota: spec.scopes as Exists selectors, then spec.scopeSelector's expressions. */
export function scopeSelectorsOf(quota: Pick<QuotaSpecView, 'scopes' | 'scopeSelector'>): ScopeSelector[] {
  return [...quota.scopes.map((scopeName) => ({ scopeName, operator: 'Exists' })), ...quota.scopeSelector];
}

/** generic.Matches. */
export function genericMatches(evaluator: Evaluator, quota: QuotaSpecView, obj: Obj): boolean {
  if (evaluator.matchingResources(quota.hard.keys()).length === 0) return false;
  return scopeSelectorsOf(quota).every((s) => evaluator.matchesScope(s, obj));
}

/** ObjectCountQuotaResourceNameFor: `count/pods`, `count/deployments.apps`. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** NewObjectCountEvaluator: one object of the resource is one `count/<resource>[.<group>]` (and its legacy alias). */
export function objectCountEvaluator(group: string, resource: string, alias?: string): Evaluator {
  const names = [objectCountName(group, resource), ...(alias === undefined ? [] : [alias])];
  const evaluator: Evaluator = {
    group,
    resource,
    constraints: () => undefined,
    handles: (a) => a.operation === 'CREATE',
    matches: (quota, obj) => genericMatches(evaluator, quota, obj),
    matchingResources: (input) => intersection(input, names),
    matchesScope: () => false,
    usage: () => new Map(names.map((n) => [n, decimal(1)])),
  };
  return evaluator;
}
