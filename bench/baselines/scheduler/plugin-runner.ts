// Runs one plugin the way kube-scheduler's plugin tests do: PreFilter + Filter per node, or
// PreScore + Score per node + NormalizeScore. For tests of this folder and the Rust differential tests.

import type { FilterPlugin, NodeScore, ScorePlugin, Status } from './framework.js';
import { buildSnapshot, type ClusterState } from './snapshot.js';
import type { Pod } from './types.js';

export type FilterRun =
  | { readonly kind: 'skip' }
  | { readonly kind: 'reject'; readonly status: Status }
  | { readonly kind: 'filter'; readonly statuses: Record<string, Status>; readonly nodeNames?: readonly string[] };

export function runFilter(plugin: FilterPlugin, pod: Pod, cluster: ClusterState): FilterRun {
  const snapshot = buildSnapshot(cluster);
  const r = plugin.preFilter(pod, snapshot);
  if (r.kind !== 'filter') return r;
  const statuses: Record<string, Status> = {};
  for (const node of snapshot.nodeInfos) statuses[node.name] = r.filter(node);
  return r.nodeNames === undefined
    ? { kind: 'filter', statuses }
    : { kind: 'filter', statuses, nodeNames: [...r.nodeNames].sort() };
}

/** Scores (normalized) of the `feasible` nodes (default: all), or 'skip'. */
export function runScore(
  plugin: ScorePlugin,
  pod: Pod,
  cluster: ClusterState,
  feasible?: readonly string[],
): NodeScore[] | 'skip' {
  const snapshot = buildSnapshot(cluster);
  const nodes =
    feasible === undefined ? snapshot.nodeInfos : snapshot.nodeInfos.filter((n) => feasible.includes(n.name));
  const r = plugin.preScore(pod, snapshot, nodes);
  if (r.kind === 'skip') return 'skip';
  const scores = nodes.map((n) => ({ name: n.name, score: r.score(n) }));
  r.normalize?.(scores);
  return scores;
}

/** The normalized scores as { node: score }. */
export function scoreMap(scores: NodeScore[] | 'skip'): Record<string, number> | 'skip' {
  if (scores === 'skip') return 'skip';
  return Object.fromEntries(scores.map((s) => [s.name, s.score]));
}
