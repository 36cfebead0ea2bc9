/**
 * The rbac.authorization.k8s.io/v1 shapes the authorizer reads (k8s.io/api rbac/v1 types.go),
 * as stored JSON.
 */

/** rbacv1.PolicyRule. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** rbacv1.Subject: kind User, Group or ServiceAccount. */
export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

/** rbacv1.RoleRef. */
export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

interface Meta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Role or ClusterRole (aggregationRule kept as stored; the aggregation controller fills rules). */
export interface RoleObject {
  metadata: Meta;
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: unknown[] };
}

/** RoleBinding or ClusterRoleBinding. */
export interface BindingObject {
  metadata: Meta;
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}
