/**
 * The RoleBinding defaults (pkg/apis/rbac/v1/defaults.go SetDefaults_RoleBinding, _Subject,
 * v1.32): roleRef and User/Group subjects get the rbac apiGroup, ServiceAccounts none.
 */
import { child, children } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

export const roleBindingStrategy: ResourceStrategy = {
  defaults(o) {
    const ref = child(o, 'roleRef');
    if (ref.apiGroup === undefined || ref.apiGroup === '') ref.apiGroup = RBAC_GROUP;
    for (const s of children(o, 'subjects')) {
      if (s.apiGroup !== undefined && s.apiGroup !== '') continue;
      if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBAC_GROUP;
    }
  },
};
