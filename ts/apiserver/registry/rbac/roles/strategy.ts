/** The Role defaults (pkg/apis/rbac/v1): `rules` has no omitempty, so an empty one serializes as null. */
import type { ResourceStrategy } from '../../strategy.js';

export const roleStrategy: ResourceStrategy = {
  defaults(o) {
    o.rules ??= null;
  },
};
