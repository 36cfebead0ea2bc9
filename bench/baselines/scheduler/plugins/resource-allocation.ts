// The shared scorer of NodeResourcesFit and NodeResourcesBalancedAllocation
// (plugins/noderesources/resource_allocation.go): per configured resource, the node's allocatable
// and the node's requested amount plus the pod's request, then a strategy function over the lists.

import { amount, isScalarResourceName, podRequests } from '../resources.js';
import type { NodeInfo } from '../snapshot.js';
import type { Pod } from '../types.js';

/** config.ResourceSpec. */
export interface ResourceSpec {
  readonly name: string;
  readonly weight: number;
}

/** The default resources of both plugins: cpu and memory, weight 1 (config/v1 defaults.go). */
export const DEFAULT_RESOURCES: readonly ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

/**
 * calculatePodResourceRequestList: the pod's request of each resource. `useRequested` false
 * applies the non-zero defaults (100m cpu / 200Mi memory per container lacking one).
 */
export function podRequestList(pod: Pod, resources: readonly ResourceSpec[], useRequested: boolean): number[] {
  const reqs = podRequests(pod, { nonMissingDefaults: !useRequested });
  return resources.map((r) => amount(reqs, r.name));
}

/**
 * resourceAllocationScorer.score's inputs: [requested, allocatable] per resource. A resource the
 * node does not have, or a scalar resource the pod does not request, is (0, 0) and skipped.
 */
export function allocationLists(
  node: NodeInfo,
  resources: readonly ResourceSpec[],
  podRequestsList: readonly number[],
  useRequested: boolean,
): { requested: number[]; allocatable: number[] } {
  const requested: number[] = [];
  const allocatable: number[] = [];
  resources.forEach((r, i) => {
    const podRequest = podRequestsList[i] ?? 0;
    const [alloc, req] = allocatableAndRequested(node, r.name, podRequest, useRequested);
    allocatable.push(alloc);
    requested.push(alloc === 0 ? 0 : req);
  });
  return { requested, allocatable };
}

function allocatableAndRequested(
  node: NodeInfo,
  name: string,
  podRequest: number,
  useRequested: boolean,
): [number, number] {
  if (podRequest === 0 && isScalarResourceName(name)) return [0, 0];
  const nodeRequested = useRequested ? node.requested : node.nonZeroRequested;
  switch (name) {
    case 'cpu':
    case 'memory':
      return [amount(node.allocatable, name), amount(nodeRequested, name) + podRequest];
    case 'ephemeral-storage':
      return [amount(node.allocatable, name), amount(node.requested, name) + podRequest];
    default:
      if (node.allocatable.has(name))
        return [amount(node.allocatable, name), amount(node.requested, name) + podRequest];
      return [0, 0];
  }
}
