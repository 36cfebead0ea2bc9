/**
 * RBAC escalation prevention, as the policy-based RBAC storages do it
 * (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased/storage.go,
 * pkg/registry/rbac/escalation_check.go, pkg/registry/rbac/validation/rule.go ConfirmNoEscalation,
 * k8s.io/component-helpers/auth/rbac/validation/policy_comparator.go Covers): a user may write a
 * role only with rules they hold (or with `escalate` on it), and a binding only to a role whose
 * rules they hold (or with `bind` on it). system:masters is exempt.
 */

import { compareGo, goQuote } from '../../api/go-format.js';
import { newForbidden } from '../../api/status.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, RoleBinding } from '../../api/types/rbac/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { UserInfo } from './attributes.js';
import { type Authorizer, SYSTEM_PRIVILEGED_GROUP } from './authorizer.js';
import type { RbacIndex } from './rbac-index.js';
import { roleReferenceRules, visitRulesFor } from './rule-resolver.js';

// rbacv1.VerbAll / APIGroupAll / ResourceAll (k8s.io/api rbac/v1 types.go).
const ALL = '*';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** BreakdownRule: one verb, one resource, one resource name (or one URL and verb) per rule. */
export function breakdownRule(rule: DeepReadonly<PolicyRule>): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if ((rule.resourceNames ?? []).length > 0) {
          for (const n of rule.resourceNames ?? []) {
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [n] });
          }
        } else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const hasAll = (set: readonly string[], contains: readonly string[]): boolean => contains.every((c) => set.includes(c));

function resourceCoversAll(set: readonly string[], covers: readonly string[]): boolean {
  if (set.includes(ALL) || hasAll(set, covers)) return true;
  for (const path of covers) {
    if (set.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!set.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));
}

/** ruleCovers: whether `owner` covers the broken-down `sub`. */
function ruleCovers(owner: DeepReadonly<PolicyRule>, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups ?? [], sub.apiGroups ?? []);
  const resources = resourceCoversAll(owner.resources ?? [], sub.resources ?? []);
  const urls = (sub.nonResourceURLs ?? []).every((p) =>
    (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, p)),
  );
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names =
    subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/** Covers: whether the owner's rules cover every servant rule, and the uncovered pieces. */
export function covers(
  owner: readonly DeepReadonly<PolicyRule>[],
  servant: readonly DeepReadonly<PolicyRule>[],
): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const sub of servant.flatMap(breakdownRule)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  return { covered: missing.length === 0, missing };
}

/** CompactRules (validation/policy_compact.go): simple one-group one-resource rules merged, verbs appended. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const names = rule.resourceNames ?? [];
    const isSimple =
      names.length <= 1 &&
      (rule.nonResourceURLs ?? []).length === 0 &&
      (rule.apiGroups ?? []).length === 1 &&
      (rule.resources ?? []).length === 1;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups?.[0], rule.resources?.[0], names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing !== undefined) existing.verbs.push(...rule.verbs);
    else simple.set(key, { ...rule, verbs: [...rule.verbs] });
  }
  return [...out, ...simple.values()];
}

/** Go's %q of a []string: `["a" "b"]`. */
const goQuoteList = (xs: readonly string[]): string => `[${xs.map(goQuote).join(' ')}]`;

/** CompactString (pkg/apis/rbac/v1/evaluation_helpers.go): `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactString(r: DeepReadonly<PolicyRule>): string {
  const parts: string[] = [];
  if ((r.apiGroups ?? []).length > 0) parts.push(`APIGroups:${goQuoteList(r.apiGroups ?? [])}`);
  if ((r.resources ?? []).length > 0) parts.push(`Resources:${goQuoteList(r.resources ?? [])}`);
  if ((r.nonResourceURLs ?? []).length > 0) parts.push(`NonResourceURLs:${goQuoteList(r.nonResourceURLs ?? [])}`);
  if ((r.resourceNames ?? []).length > 0) parts.push(`ResourceNames:${goQuoteList(r.resourceNames ?? [])}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${goQuoteList(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * ConfirmNoEscalation: undefined when the user's rules in `namespace` cover `rules`, else the message
 * `user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n…`.
 */
export function confirmNoEscalation(
  index: RbacIndex,
  user: UserInfo,
  namespace: string,
  rules: readonly DeepReadonly<PolicyRule>[],
): string | undefined {
  const owner: DeepReadonly<PolicyRule>[] = [];
  const errors: string[] = [];
  visitRulesFor(
    index,
    user,
    namespace,
    (_s, rule, err) => {
      if (rule !== undefined) owner.push(rule);
      if (err !== undefined) errors.push(err);
      return true;
    },
    'registry',
  );
  const { covered, missing } = covers(owner, rules);
  if (covered) return undefined;
  // sets.NewString(...).List(): unique, sorted.
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort(compareGo);
  let msg = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  // %v of the []error: `[e1 e2]`.
  if (errors.length > 0) msg += `; resolution errors: [${errors.join(' ')}]`;
  return msg;
}

// policybased/storage.go fullAuthority: what an aggregationRule may gather.
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** equality.Semantic.DeepEqual for JSON values: null, missing, [] and {} alike. */
function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown): boolean =>
    v === undefined ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (
    typeof a === 'object' &&
    a !== null &&
    typeof b === 'object' &&
    b !== null &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    return [...keys].every((k) => semanticEqual(ra[k], rb[k]));
  }
  return a === b;
}

/** IsOnlyMutatingGCFields (pkg/registry/rbac/helpers.go): only ownerReferences, finalizers or selfLink changed. */
export function isOnlyMutatingGCFields(obj: Record<string, unknown>, old: Record<string, unknown>): boolean {
  const meta = { ...((obj.metadata as Record<string, unknown> | undefined) ?? {}) };
  const oldMeta = (old.metadata as Record<string, unknown> | undefined) ?? {};
  meta.ownerReferences = oldMeta.ownerReferences;
  meta.finalizers = oldMeta.finalizers;
  meta.selfLink = oldMeta.selfLink;
  return semanticEqual({ ...obj, metadata: meta }, old);
}

/** The RBAC resource a write goes to, with the request's namespace and name. */
export interface RbacWrite {
  resource: string;
  namespace: string;
  /** The name in the URL ('' for a create). */
  name: string;
}

/**
 * The escalation check of one RBAC write; throws 403 Forbidden as policybased/storage.go words it.
 * `authz` (the whole chain) decides `escalate` and `bind`; the rules held come from `index`, as the
 * storages resolve them through the RBAC registries whatever the authorization mode.
 */
export async function checkRbacWrite(
  authz: Authorizer,
  index: RbacIndex,
  user: UserInfo,
  write: RbacWrite,
  obj: Record<string, unknown>,
  old: Record<string, unknown> | undefined,
): Promise<void> {
  const { resource, namespace } = write;
  if (!['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'].includes(resource)) return;
  // EscalationAllowed: system:masters may write anything.
  if (user.groups.includes(SYSTEM_PRIVILEGED_GROUP)) return;
  // Updates that only touch garbage collection fields skip the check.
  if (old !== undefined && isOnlyMutatingGCFields(obj, old)) return;
  await index.start();
  const gr = { group: RBAC_GROUP, resource };
  const name = ((obj.metadata as { name?: unknown } | undefined)?.name as string | undefined) ?? '';

  if (resource === 'roles' || resource === 'clusterroles') {
    // A role's rules, and a cluster role's aggregationRule.
    const role = obj as Pick<ClusterRole, 'rules' | 'aggregationRule'>;
    // RoleEscalationAuthorized: `escalate` on the role resource.
    const escalate = await authz.authorize({
      user,
      verb: 'escalate',
      resourceRequest: true,
      path: '',
      namespace,
      apiGroup: RBAC_GROUP,
      apiVersion: '*',
      resource,
      subresource: '',
      name: write.name,
    });
    if (escalate.decision === 'allow') return;
    const problem = confirmNoEscalation(index, user, namespace, role.rules ?? []);
    if (problem !== undefined) throw newForbidden(gr, name, problem);
    // To set an aggregationRule (it can gather anything) requires * on *.*.
    if (resource === 'clusterroles' && (role.aggregationRule?.clusterRoleSelectors ?? []).length > 0) {
      if (confirmNoEscalation(index, user, namespace, FULL_AUTHORITY) !== undefined) {
        throw newForbidden(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
    return;
  }

  const binding = obj as Partial<RoleBinding | ClusterRoleBinding>;
  const roleRef = binding.roleRef ?? { apiGroup: '', kind: '', name: '' };
  // BindingAuthorized: `bind` on the referenced role, in the binding's namespace.
  if (roleRef.kind === 'ClusterRole' || roleRef.kind === 'Role') {
    const bind = await authz.authorize({
      user,
      verb: 'bind',
      resourceRequest: true,
      path: '',
      namespace,
      apiGroup: roleRef.apiGroup,
      apiVersion: '',
      resource: roleRef.kind === 'ClusterRole' ? 'clusterroles' : 'roles',
      subresource: '',
      name: roleRef.name,
    });
    if (bind.decision === 'allow') return;
  }
  const resolved = roleReferenceRules(index, roleRef, namespace, 'registry');
  if ('error' in resolved) throw newForbidden(gr, name, resolved.error);
  const problem = confirmNoEscalation(index, user, namespace, resolved.rules);
  if (problem !== undefined) throw newForbidden(gr, name, problem);
}
