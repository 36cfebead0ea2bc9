// NodeResourcesBalancedAllocation (plugins/noderesources/balanced_allocation.go): prefer nodes
// whose resource fractions (requested/allocatable, capped at 1) are close to each other:
// score = int((1 − std) × 100), std = |f1 − f2| / 2 for two resources, the population standard
// deviation for more. Uses actual requests (useRequested); best-effort pods skip at PreScore.

import { MAX_NODE_SCORE, type ScorePlugin } from '../framework.js';
import { allocationLists, DEFAULT_RESOURCES, podRequestList, type ResourceSpec } from './resource-allocation.js';

/** config.NodeResourcesBalancedAllocationArgs. */
export interface BalancedAllocationArgs {
  readonly resources?: readonly ResourceSpec[];
}

/** balancedResourceScorer. */
export function balancedResourceScore(requested: readonly number[], allocatable: readonly number[]): number {
  const fractions: number[] = [];
  let total = 0;
  requested.forEach((req, i) => {
    const alloc = allocatable[i] ?? 0;
    if (alloc === 0) return;
    const fraction = Math.min(req / alloc, 1);
    total += fraction;
    fractions.push(fraction);
  });
  let std = 0;
  const [f0 = 0, f1 = 0] = fractions;
  if (fractions.length === 2) {
    std = Math.abs((f0 - f1) / 2);
  } else if (fractions.length > 2) {
    const mean = total / fractions.length;
    let sum = 0;
    for (const f of fractions) sum = sum + (f - mean) * (f - mean);
    std = Math.sqrt(sum / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

export function balancedAllocationScore(args: BalancedAllocationArgs = {}): ScorePlugin {
  const resources = args.resources ?? DEFAULT_RESOURCES;
  return {
    name: 'NodeResourcesBalancedAllocation',
    preScore(pod) {
      const podList = podRequestList(pod, resources, true);
      if (podList.every((r) => r === 0)) return { kind: 'skip' };
      return {
        kind: 'score',
        score: (node) => {
          const { requested, allocatable } = allocationLists(node, resources, podList, true);
          return balancedResourceScore(requested, allocatable);
        },
      };
    },
  };
}
