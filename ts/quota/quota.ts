/** A ResourceQuota as quota admission and the quota controller read it from its JSON. */
import type { QuotaSpecView, ScopeSelector } from './evaluator.js';
import { isObj, objAt } from './pod-resources.js';
import { parseResourceList, type ResourceList } from './resource-list.js';

type Obj = Record<string, unknown>;

export interface Quota extends QuotaSpecView {
  namespace: string;
  /** The stored revision the quota was read at (its resourceVersion). */
  revision: bigint;
  /** spec.hard. */
  specHard: ResourceList;
  /** status.hard, absent before the controller's first sync. */
  hard: ResourceList;
  /** status.used. */
  used: ResourceList;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The quota in `obj` (a v1 ResourceQuota) stored at `revision`. */
export function quotaFrom(obj: Obj, revision: bigint): Quota {
  const meta = objAt(obj, 'metadata');
  const spec = objAt(obj, 'spec');
  const status = objAt(obj, 'status');
  const selector = objAt(spec, 'scopeSelector');
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isObj) : [];
  const scopeSelector: ScopeSelector[] = expressions.map((e) => ({
    scopeName: typeof e.scopeName === 'string' ? e.scopeName : '',
    operator: typeof e.operator === 'string' ? e.operator : '',
    values: strings(e.values),
  }));
  return {
    name: typeof meta.name === 'string' ? meta.name : '',
    namespace: typeof meta.namespace === 'string' ? meta.namespace : '',
    revision,
    scopes: strings(spec.scopes),
    scopeSelector,
    specHard: parseResourceList(spec.hard),
    hard: parseResourceList(status.hard),
    used: parseResourceList(status.used),
  };
}
