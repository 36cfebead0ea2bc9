/** The Endpoints defaults (pkg/apis/core/v1/defaults.go SetDefaults_Endpoints, v1.32): TCP ports. */
import { children } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

export const endpointsStrategy: ResourceStrategy = {
  defaults(o) {
    for (const subset of children(o, 'subsets')) for (const port of children(subset, 'ports')) port.protocol ??= 'TCP';
  },
};
