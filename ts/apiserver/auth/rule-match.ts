/**
 * Whether one PolicyRule allows a request: RuleAllows (plugin/pkg/auth/authorizer/rbac/rbac.go) over
 * the helpers of pkg/apis/rbac/v1/evaluation_helpers.go (VerbMatches, APIGroupMatches,
 * ResourceMatches with `*` and `* /subresource`, ResourceNameMatches, NonResourceURLMatches with a
 * trailing `*`).
 */
import type { PolicyRule } from '../../api/types/rbac/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Attributes } from './attributes.js';

// rbacv1.VerbAll, APIGroupAll, ResourceAll, NonResourceAll (k8s.io/api rbac/v1 types.go).
const ALL = '*';

export function verbMatches(rule: DeepReadonly<PolicyRule>, verb: string): boolean {
  return rule.verbs.some((v) => v === ALL || v === verb);
}

export function apiGroupMatches(rule: DeepReadonly<PolicyRule>, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/** `combined` is `resource` or `resource/subresource`. */
export function resourceMatches(rule: DeepReadonly<PolicyRule>, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource === '') continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: DeepReadonly<PolicyRule>, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: DeepReadonly<PolicyRule>, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** RuleAllows: the rule covers the request's verb and its resource (or non-resource path). */
export function ruleAllows(a: Attributes, rule: DeepReadonly<PolicyRule>): boolean {
  if (a.resourceRequest) {
    const combined = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
    return (
      verbMatches(rule, a.verb) &&
      apiGroupMatches(rule, a.apiGroup) &&
      resourceMatches(rule, combined, a.subresource) &&
      resourceNameMatches(rule, a.name)
    );
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
}
