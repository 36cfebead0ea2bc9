/** The ClusterRoleBinding defaults (SetDefaults_ClusterRoleBinding, pkg/apis/rbac/v1/defaults.go): as a RoleBinding's. */
import { roleBindingStrategy } from '../rolebindings/strategy.js';

export const clusterRoleBindingStrategy = roleBindingStrategy;
