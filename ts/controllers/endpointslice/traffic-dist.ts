/**
 * Endpoint hints when topology-aware hints are not asked for (k8s.io/endpointslice trafficdist/
 * trafficdist.go and topologycache/utils.go RemoveHintsFromSlices, v0.32): with
 * spec.trafficDistribution PreferClose (ServiceTrafficDistribution, beta and on in 1.32) each ready
 * endpoint is hinted for its own zone; otherwise every hint is removed. Slices that would stay
 * unchanged but carry the wrong hints are updated too.
 *
 *   ({ toCreate, toUpdate } = reconcileHints(service.spec?.trafficDistribution, toCreate, toUpdate, unchanged));
 */
import type { EndpointSlice } from '../../api/types/discovery/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';

// core/v1 types.go ServiceTrafficDistributionPreferClose.
export const TRAFFIC_DISTRIBUTION_PREFER_CLOSE = 'PreferClose';

interface Heuristic {
  needsUpdate(slice: DeepReadonly<EndpointSlice>): boolean;
  update(slice: EndpointSlice): void;
}

/** defaultHeuristic: no hints at all. */
const defaultHeuristic: Heuristic = {
  needsUpdate: (slice) => slice.endpoints.some((ep) => ep.hints !== undefined),
  update: (slice) => {
    for (const ep of slice.endpoints) delete ep.hints;
  },
};

/** preferCloseHeuristic: each ready endpoint hinted for exactly its own zone ('' without one). */
const preferCloseHeuristic: Heuristic = {
  needsUpdate: (slice) =>
    slice.endpoints.some((ep) => {
      if (ep.conditions?.ready !== true) return false;
      const zone = ep.zone ?? '';
      const forZones = ep.hints?.forZones ?? [];
      return ep.hints === undefined || forZones.length !== 1 || forZones[0]?.name !== zone;
    }),
  update: (slice) => {
    for (const ep of slice.endpoints) {
      if (ep.conditions?.ready !== true) continue;
      ep.hints = { forZones: [{ name: ep.zone ?? '' }] };
    }
  },
};

/**
 * ReconcileHints: the heuristic of `trafficDistribution` applied to the slices to create and to
 * update, and to copies of the unchanged slices that need it (moved to the updates).
 */
export function reconcileHints(
  trafficDistribution: string | undefined,
  toCreate: EndpointSlice[],
  toUpdate: EndpointSlice[],
  unchanged: readonly DeepReadonly<EndpointSlice>[],
): { toCreate: EndpointSlice[]; toUpdate: EndpointSlice[] } {
  const h = trafficDistribution === TRAFFIC_DISTRIBUTION_PREFER_CLOSE ? preferCloseHeuristic : defaultHeuristic;
  const updates = [...toUpdate];
  for (const slice of unchanged) {
    if (h.needsUpdate(slice)) updates.push(structuredClone(slice) as EndpointSlice);
  }
  for (const slice of toCreate) h.update(slice);
  for (const slice of updates) h.update(slice);
  return { toCreate, toUpdate: updates };
}

/**
 * RemoveHintsFromSlices: no hints on the slices to create or update; unchanged slices that had
 * some are copied, cleared and updated. (For a Service whose annotation asks for topology-aware
 * hints, which kubewasm does not compute.)
 */
export function removeHintsFromSlices(
  toCreate: EndpointSlice[],
  toUpdate: EndpointSlice[],
  unchanged: readonly DeepReadonly<EndpointSlice>[],
): { toCreate: EndpointSlice[]; toUpdate: EndpointSlice[] } {
  for (const slice of [...toCreate, ...toUpdate]) defaultHeuristic.update(slice);
  const updates = [...toUpdate];
  for (const slice of unchanged) {
    if (!defaultHeuristic.needsUpdate(slice)) continue;
    const copy = structuredClone(slice) as EndpointSlice;
    defaultHeuristic.update(copy);
    updates.push(copy);
  }
  return { toCreate, toUpdate: updates };
}
