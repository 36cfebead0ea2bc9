// NodeResourcesFit (plugins/noderesources/fit.go and the scoring strategies).
// Filter: pod count, then cpu, memory, ephemeral-storage and scalar resources against
// allocatable − requested. Score: LeastAllocated (default), MostAllocated or
// RequestedToCapacityRatio over the configured resources, using non-zero requests.

import {
  type FilterPlugin,
  goDiv,
  goMulDiv,
  goRound,
  MAX_NODE_SCORE,
  type ScorePlugin,
  SUCCESS,
  unschedulable,
} from '../framework.js';
import { type Amounts, amount, isScalarResourceName, podRequests } from '../resources.js';
import type { NodeInfo } from '../snapshot.js';
import { allocationLists, DEFAULT_RESOURCES, podRequestList, type ResourceSpec } from './resource-allocation.js';

/** config.UtilizationShapePoint: utilization 0..100 → score 0..10. */
export interface UtilizationShapePoint {
  readonly utilization: number;
  readonly score: number;
}

/** config.ScoringStrategy. */
export type ScoringStrategy =
  | { readonly type: 'LeastAllocated'; readonly resources?: readonly ResourceSpec[] }
  | { readonly type: 'MostAllocated'; readonly resources?: readonly ResourceSpec[] }
  | {
      readonly type: 'RequestedToCapacityRatio';
      readonly resources?: readonly ResourceSpec[];
      readonly shape: readonly UtilizationShapePoint[];
    };

/** config.NodeResourcesFitArgs. */
export interface NodeResourcesFitArgs {
  readonly scoringStrategy?: ScoringStrategy;
  /** Extended resources the Filter ignores. */
  readonly ignoredResources?: readonly string[];
  /** Extended-resource groups (the part before "/") the Filter ignores. */
  readonly ignoredResourceGroups?: readonly string[];
}

/** config.MaxCustomPriorityScore: shape scores are 0..10, scaled ×10 to MaxNodeScore. */
export const MAX_CUSTOM_PRIORITY_SCORE = 10;

/** fitsRequest: the insufficient-resource reasons, in Kubernetes' order. */
export function insufficientResources(pod: Amounts, node: NodeInfo, args: NodeResourcesFitArgs = {}): string[] {
  const reasons: string[] = [];
  if (node.pods.length + 1 > amount(node.allocatable, 'pods')) reasons.push('Too many pods');

  const scalarNames = [...pod.keys()].filter(isScalarResourceName).sort();
  const cpu = amount(pod, 'cpu');
  const memory = amount(pod, 'memory');
  const storage = amount(pod, 'ephemeral-storage');
  if (cpu === 0 && memory === 0 && storage === 0 && scalarNames.length === 0) return reasons;

  const free = (name: string) => amount(node.allocatable, name) - amount(node.requested, name);
  if (cpu > 0 && cpu > free('cpu')) reasons.push('Insufficient cpu');
  if (memory > 0 && memory > free('memory')) reasons.push('Insufficient memory');
  if (storage > 0 && storage > free('ephemeral-storage')) reasons.push('Insufficient ephemeral-storage');

  const ignored = new Set(args.ignoredResources ?? []);
  const ignoredGroups = new Set(args.ignoredResourceGroups ?? []);
  for (const name of scalarNames) {
    const want = amount(pod, name);
    if (want === 0) continue;
    // Only extended resources (not kubernetes.io/, hugepages or attachable volumes) can be ignored.
    const extended = name.includes('/') && !name.includes('kubernetes.io/');
    if (extended && (ignored.has(name) || ignoredGroups.has(name.split('/')[0] ?? ''))) continue;
    if (want > free(name)) reasons.push(`Insufficient ${name}`);
  }
  return reasons;
}

export function nodeResourcesFitFilter(args: NodeResourcesFitArgs = {}): FilterPlugin {
  return {
    name: 'NodeResourcesFit',
    preFilter(pod) {
      const requests = podRequests(pod);
      return {
        kind: 'filter',
        filter: (node) => {
          const reasons = insufficientResources(requests, node, args);
          return reasons.length === 0 ? SUCCESS : unschedulable(...reasons);
        },
      };
    },
  };
}

/** leastRequestedScore: free fraction × 100, 0 when over capacity. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return goMulDiv(capacity - requested, MAX_NODE_SCORE, capacity);
}

/** mostRequestedScore: used fraction × 100, capped at capacity. */
export function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  return goMulDiv(Math.min(requested, capacity), MAX_NODE_SCORE, capacity);
}

/** Weighted mean of per-resource scores over resources the node has (integer division). */
function weightedScorer(
  perResource: (requested: number, capacity: number) => number,
  resources: readonly ResourceSpec[],
) {
  return (requested: readonly number[], allocatable: readonly number[]): number => {
    let nodeScore = 0;
    let weightSum = 0;
    resources.forEach((r, i) => {
      const alloc = allocatable[i] ?? 0;
      if (alloc === 0) return;
      nodeScore += perResource(requested[i] ?? 0, alloc) * r.weight;
      weightSum += r.weight;
    });
    return weightSum === 0 ? 0 : goDiv(nodeScore, weightSum);
  };
}

/** helper.BuildBrokenLinearFunction: piecewise linear through the shape points, integer math. */
export function brokenLinearFunction(shape: readonly { utilization: number; score: number }[]): (p: number) => number {
  return (p) => {
    for (let i = 0; i < shape.length; i++) {
      const cur = shape[i];
      if (cur === undefined || p > cur.utilization) continue;
      const prev = shape[i - 1];
      if (prev === undefined) return cur.score;
      return prev.score + goDiv((cur.score - prev.score) * (p - prev.utilization), cur.utilization - prev.utilization);
    }
    return shape[shape.length - 1]?.score ?? 0;
  };
}

function requestedToCapacityRatioScorer(resources: readonly ResourceSpec[], shape: readonly UtilizationShapePoint[]) {
  const raw = brokenLinearFunction(
    shape.map((p) => ({ utilization: p.utilization, score: p.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE) })),
  );
  const resourceScore = (requested: number, capacity: number): number => {
    if (capacity === 0 || requested > capacity) return raw(MAX_NODE_SCORE);
    // scaledUtilization: requested × 100 / capacity, requested clamped at 0.
    return raw(requested <= 0 ? 0 : goMulDiv(requested, MAX_NODE_SCORE, capacity));
  };
  return (requested: readonly number[], allocatable: readonly number[]): number => {
    let nodeScore = 0;
    let weightSum = 0;
    resources.forEach((r, i) => {
      const alloc = allocatable[i] ?? 0;
      if (alloc === 0) return;
      const s = resourceScore(requested[i] ?? 0, alloc);
      // Resources scoring 0 do not dilute the mean.
      if (s > 0) {
        nodeScore += s * r.weight;
        weightSum += r.weight;
      }
    });
    return weightSum === 0 ? 0 : goRound(nodeScore / weightSum);
  };
}

export function nodeResourcesFitScore(args: NodeResourcesFitArgs = {}): ScorePlugin {
  const strategy: ScoringStrategy = args.scoringStrategy ?? { type: 'LeastAllocated' };
  const resources = strategy.resources ?? DEFAULT_RESOURCES;
  const scorer =
    strategy.type === 'LeastAllocated'
      ? weightedScorer(leastRequestedScore, resources)
      : strategy.type === 'MostAllocated'
        ? weightedScorer(mostRequestedScore, resources)
        : requestedToCapacityRatioScorer(resources, strategy.shape);
  return {
    name: 'NodeResourcesFit',
    preScore(pod) {
      // The fit scorer reads non-zero requests (useRequested = false).
      const podList = podRequestList(pod, resources, false);
      return {
        kind: 'score',
        score: (node) => {
          const { requested, allocatable } = allocationLists(node, resources, podList, false);
          return scorer(requested, allocatable);
        },
      };
    },
  };
}
