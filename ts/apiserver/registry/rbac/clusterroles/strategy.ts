/** The ClusterRole defaults (pkg/apis/rbac/v1): as a Role's, `rules: null` when empty. */
import { roleStrategy } from '../roles/strategy.js';

export const clusterRoleStrategy = roleStrategy;
