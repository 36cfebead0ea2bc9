/**
 * The LimitRange defaults (pkg/apis/core/v1/defaults.go SetDefaults_LimitRangeItem, v1.32):
 * Container limits default from max, requests from default then min.
 */
import { child, children, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

export const limitRangeStrategy: ResourceStrategy = {
  defaults(o) {
    for (const item of children(child(o, 'spec'), 'limits')) {
      if (item.type !== 'Container') continue;
      const def: Obj = isObj(item.default) ? item.default : {};
      const defRequest: Obj = isObj(item.defaultRequest) ? item.defaultRequest : {};
      for (const [k, v] of Object.entries(isObj(item.max) ? item.max : {})) def[k] ??= v;
      for (const [k, v] of Object.entries(def)) defRequest[k] ??= v;
      for (const [k, v] of Object.entries(isObj(item.min) ? item.min : {})) defRequest[k] ??= v;
      // Empty maps are omitted (omitempty).
      if (Object.keys(def).length > 0) item.default = def;
      if (Object.keys(defRequest).length > 0) item.defaultRequest = defRequest;
    }
  },
};
