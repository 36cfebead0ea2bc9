/**
 * The EndpointSlice defaults (pkg/apis/discovery/v1/defaults.go SetDefaults_EndpointPort, v1.32):
 * ports get an empty name and TCP. Its generation counts changes of endpoints, ports and
 * addressType, the fields outside metadata (endpointSliceStrategy.PrepareForUpdate), as the store
 * counts them for every kind with a generation.
 */
import { children } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

export const endpointSliceStrategy: ResourceStrategy = {
  defaults(o) {
    for (const port of children(o, 'ports')) {
      port.name ??= '';
      port.protocol ??= 'TCP';
    }
  },
};
