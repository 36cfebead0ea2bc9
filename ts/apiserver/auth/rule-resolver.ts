/**
 * Which rules apply to a user in a namespace: DefaultRuleResolver.VisitRulesFor and
 * GetRoleReferenceRules (pkg/registry/rbac/validation/rule.go) — the cluster role bindings, then
 * (with a namespace) that namespace's role bindings; a RoleBinding to a ClusterRole grants its rules
 * in the binding's namespace only, because role bindings are read for the request's namespace.
 */
import { goQuote } from '../../api/go-format.js';
import type { PolicyRule, RoleRef, Subject } from '../../api/types/rbac/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { UserInfo } from './attributes.js';
import { type RbacBinding, type RbacIndex, SERVICE_ACCOUNT_USERNAME_PREFIX } from './rbac-index.js';

/** Where a rule came from (the describers of rule.go). */
export interface RuleSource {
  describe(): string;
}

/** The visitor: a rule with its source, or a resolution error; return false to stop. */
export type RuleVisitor = (
  source: RuleSource | undefined,
  rule: DeepReadonly<PolicyRule> | undefined,
  err: string | undefined,
) => boolean;

/** appliesToUser (rule.go). */
export function appliesToUser(user: UserInfo, subject: DeepReadonly<Subject>, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace !== undefined && subject.namespace !== '' ? subject.namespace : namespace;
      if (ns === '') return false;
      // serviceaccount.MatchesUsername
      return user.name === `${SERVICE_ACCOUNT_USERNAME_PREFIX}${ns}:${subject.name}`;
    }
    default:
      return false;
  }
}

/** appliesTo: the index of the first subject naming the user, or -1. */
export function appliesTo(user: UserInfo, subjects: readonly DeepReadonly<Subject>[], namespace: string): number {
  return subjects.findIndex((s) => appliesToUser(user, s, namespace));
}

/** describeSubject (rule.go). */
function describeSubject(s: DeepReadonly<Subject>, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') {
    const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : bindingNamespace;
    return `${s.kind} ${goQuote(`${s.name}/${ns}`)}`;
  }
  return `${s.kind} ${goQuote(s.name)}`;
}

function describer(binding: RbacBinding, subject: DeepReadonly<Subject>, namespace: string): RuleSource {
  const name = binding.metadata?.name ?? '';
  return {
    describe: () =>
      namespace === ''
        ? `ClusterRoleBinding ${goQuote(name)} of ${binding.roleRef.kind} ${goQuote(binding.roleRef.name)} to ${describeSubject(subject, '')}`
        : `RoleBinding ${goQuote(`${name}/${namespace}`)} of ${binding.roleRef.kind} ${goQuote(binding.roleRef.name)} to ${describeSubject(subject, namespace)}`,
  };
}

/**
 * GetRoleReferenceRules: the rules a roleRef names, or the lister's error
 * (`clusterrole.rbac.authorization.k8s.io "x" not found`, NewNotFound of rbac.Resource("clusterrole")).
 */
export function roleReferenceRules(
  index: RbacIndex,
  roleRef: DeepReadonly<RoleRef>,
  bindingNamespace: string,
  lookup: RoleLookup = 'lister',
): { rules: readonly DeepReadonly<PolicyRule>[] } | { error: string } {
  // The informer listers name the singular resource; the registries (storage_rbac.go's
  // AuthorizerAdapters, which escalation checks use) the store's plural one.
  const plural = lookup === 'registry' ? 's' : '';
  switch (roleRef.kind) {
    case 'Role': {
      const role = index.role(bindingNamespace, roleRef.name);
      if (role === undefined) {
        return { error: `role${plural}.rbac.authorization.k8s.io ${goQuote(roleRef.name)} not found` };
      }
      return { rules: role.rules ?? [] };
    }
    case 'ClusterRole': {
      const role = index.clusterRole(roleRef.name);
      if (role === undefined) {
        return { error: `clusterrole${plural}.rbac.authorization.k8s.io ${goQuote(roleRef.name)} not found` };
      }
      return { rules: role.rules ?? [] };
    }
    default:
      return { error: `unsupported role reference kind: ${goQuote(roleRef.kind)}` };
  }
}

/** Whose getters resolve role references: the authorizer's listers or the RBAC registries. */
export type RoleLookup = 'lister' | 'registry';

/** VisitRulesFor (rule.go), over the index's candidate bindings. */
export function visitRulesFor(
  index: RbacIndex,
  user: UserInfo,
  namespace: string,
  visitor: RuleVisitor,
  lookup: RoleLookup = 'lister',
): void {
  const scopes: [string, readonly RbacBinding[]][] = [['', index.clusterRoleBindingsFor(user)]];
  if (namespace !== '') scopes.push([namespace, index.roleBindingsFor(user, namespace)]);
  for (const [ns, bindings] of scopes) {
    for (const binding of bindings) {
      const subjects = binding.subjects ?? [];
      const i = appliesTo(user, subjects, ns);
      if (i < 0) continue;
      const resolved = roleReferenceRules(index, binding.roleRef, ns, lookup);
      if ('error' in resolved) {
        if (!visitor(undefined, undefined, resolved.error)) return;
        continue;
      }
      const source = describer(binding, subjects[i] as DeepReadonly<Subject>, ns);
      for (const rule of resolved.rules) if (!visitor(source, rule, undefined)) return;
    }
  }
}
