// The scheduling framework's vocabulary (k8s.io/kube-scheduler/framework): plugin names, Status,
// the PreFilter/Filter and PreScore/Score/NormalizeScore extension points, and the shared
// normalization helper. A plugin's per-cycle state lives in the closures its PreFilter/PreScore
// return, in place of CycleState.

import type { NodeInfo, Snapshot } from './snapshot.js';
import type { Pod } from './types.js';

/** framework.MaxNodeScore. */
export const MAX_NODE_SCORE = 100;

export type FilterPluginName =
  | 'NodeUnschedulable'
  | 'NodeName'
  | 'TaintToleration'
  | 'NodeAffinity'
  | 'NodePorts'
  | 'NodeResourcesFit'
  | 'PodTopologySpread'
  | 'InterPodAffinity';

export type ScorePluginName =
  | 'TaintToleration'
  | 'NodeAffinity'
  | 'NodeResourcesFit'
  | 'PodTopologySpread'
  | 'InterPodAffinity'
  | 'NodeResourcesBalancedAllocation'
  | 'ImageLocality';

export type PluginName = FilterPluginName | ScorePluginName;

/** framework.Code (the subset a reference without preemption or errors produces). */
export type Code = 'Success' | 'Unschedulable' | 'UnschedulableAndUnresolvable';

/** framework.Status: a code and the reasons shown in FailedScheduling. */
export interface Status {
  readonly code: Code;
  readonly reasons: readonly string[];
}

export const SUCCESS: Status = { code: 'Success', reasons: [] };

export function unschedulable(...reasons: string[]): Status {
  return { code: 'Unschedulable', reasons };
}

export function unresolvable(...reasons: string[]): Status {
  return { code: 'UnschedulableAndUnresolvable', reasons };
}

/** What a PreFilter hands the cycle. */
export type PreFilterResult =
  /** framework.Skip: this plugin's Filter does not run in this cycle. */
  | { readonly kind: 'skip' }
  /** The pod cannot be scheduled anywhere; the status is the FitError's PreFilterMsg. */
  | { readonly kind: 'reject'; readonly status: Status }
  /** Run `filter` on each node; `nodeNames` (PreFilterResult.NodeNames) restricts the candidates. */
  | {
      readonly kind: 'filter';
      readonly filter: (node: NodeInfo) => Status;
      readonly nodeNames?: ReadonlySet<string>;
    };

export interface FilterPlugin {
  readonly name: FilterPluginName;
  /** PreFilter over all nodes of the snapshot. */
  preFilter(pod: Pod, snapshot: Snapshot): PreFilterResult;
}

/** One node's score in a plugin's list (framework.NodeScore). */
export interface NodeScore {
  readonly name: string;
  score: number;
}

/** What a PreScore hands the cycle. */
export type PreScoreResult =
  /** framework.Skip: the plugin does not score in this cycle (contributes nothing). */
  | { readonly kind: 'skip' }
  | {
      readonly kind: 'score';
      readonly score: (node: NodeInfo) => number;
      /** NormalizeScore, in place; absent when the plugin has no ScoreExtensions. */
      readonly normalize?: (scores: NodeScore[]) => void;
    };

export interface ScorePlugin {
  readonly name: ScorePluginName;
  /** PreScore over the feasible nodes. */
  preScore(pod: Pod, snapshot: Snapshot, feasible: readonly NodeInfo[]): PreScoreResult;
}

/**
 * helper.DefaultNormalizeScore: scale to [0, maxPriority] by the maximum (integer division);
 * `reverse` flips it. All-zero scores become maxPriority when reversed, else stay 0.
 */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
  let maxCount = 0;
  for (const s of scores) if (s.score > maxCount) maxCount = s.score;
  if (maxCount === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return;
  }
  for (const s of scores) {
    let score = goDiv(maxPriority * s.score, maxCount);
    if (reverse) score = maxPriority - score;
    s.score = score;
  }
}

/** Go's int64 `a / b` (truncates toward zero), exact for any safe integers. */
export function goDiv(a: number, b: number): number {
  return Number(BigInt(a) / BigInt(b));
}

/** Go's int64 `a * b / c`, exact even when a·b passes 2^53. */
export function goMulDiv(a: number, b: number, c: number): number {
  return Number((BigInt(a) * BigInt(b)) / BigInt(c));
}

/** Go's math.Round: half away from zero (JS Math.round rounds half up). */
export function goRound(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}
