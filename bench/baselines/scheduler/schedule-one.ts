// One scheduling cycle (pkg/scheduler/schedule_one.go): PreFilter, Filter the nodes round-robin
// from nextStartNodeIndex until numFeasibleNodesToFind feasible nodes are found, PreScore/Score/
// NormalizeScore the feasible ones, weight and sum, and pick the highest total with ties broken
// by reservoir sampling (selectHost).
//
// Determinism contract (what a differential test may rely on), and where it departs from
// kube-scheduler because upstream is nondeterministic or out of scope:
// - Filtering is sequential: nodes are evaluated strictly in order from nextStartNodeIndex and
//   the loop stops as soon as the quota of feasible nodes is met (upstream filters in parallel
//   and may evaluate a few more). nextStartNodeIndex advances by the nodes evaluated.
// - With a PreFilterResult (NodeAffinity matchFields on metadata.name) the candidates keep
//   snapshot order (upstream iterates a Go map); the index then wraps over that narrowed list.
// - selectHost walks the feasible nodes in evaluation order: the first maximum, then for each
//   later equal total one draw `rng.below(count)` (rng.ts), taking the node on 0. Upstream now
//   pops a heap; the distribution is the same, the draws are not Go's.
// - A single feasible node is chosen without running Score (as upstream).
// - Not modelled: preemption (no "preemption: …" postfix), nominated pods, volumes, DRA,
//   extenders, pod-level resources, in-place resize, Gt/Lt tolerations, NodeAffinity addedAffinity.

import { fitErrorMessage } from './fit-error.js';
import type { FilterPluginName, NodeScore, ScorePluginName, Status } from './framework.js';
import { buildProfile, type Profile, type ProfileConfig } from './profile.js';
import { SplitMix64 } from './rng.js';
import { assumePod, buildSnapshot, type ClusterState, type NodeInfo, type Snapshot } from './snapshot.js';
import type { Pod } from './types.js';

/** schedule_one.go minFeasibleNodesToFind. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** schedule_one.go minFeasibleNodesPercentageToFind. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
/** ErrNoNodesAvailable's text. */
export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/**
 * numFeasibleNodesToFind: all nodes below 100 or at ≥100%; else `percentage` of them (adaptive
 * when 0: 50 − n/125, at least 5), never fewer than 100. `numFeasibleNodesToFind(0, 5000) === 500`.
 */
export function numFeasibleNodesToFind(percentage: number, numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND || percentage >= 100) return numAllNodes;
  let pct = percentage;
  if (pct === 0) {
    pct = 50 - Math.trunc(numAllNodes / 125);
    if (pct < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) pct = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const numNodes = Math.trunc((numAllNodes * pct) / 100);
  return Math.max(numNodes, MIN_FEASIBLE_NODES_TO_FIND);
}

/** One plugin's verdict on one node. */
export interface FilterVerdict {
  readonly plugin: FilterPluginName;
  readonly code: Status['code'];
  readonly reasons: readonly string[];
}

/** A node the Filter loop evaluated: the verdicts of the plugins run, in order, up to the first rejection. */
export interface NodeFilterResult {
  readonly node: string;
  readonly feasible: boolean;
  readonly verdicts: readonly FilterVerdict[];
}

/** One plugin's scores for one node. */
export interface PluginScore {
  readonly plugin: ScorePluginName;
  /** Score() output. */
  readonly raw: number;
  /** After NormalizeScore (= raw when the plugin has none). */
  readonly normalized: number;
  /** normalized × weight. */
  readonly weighted: number;
}

export interface NodeScoreResult {
  readonly node: string;
  readonly plugins: readonly PluginScore[];
  readonly total: number;
}

export interface ScheduleResult {
  /** The chosen node, or null when the pod does not fit. */
  readonly nodeName: string | null;
  readonly numAllNodes: number;
  /** Nodes the Filter loop evaluated (feasible + rejected), as ScheduleResult.EvaluatedNodes. */
  readonly evaluatedNodes: number;
  readonly feasibleNodes: number;
  /** PreFilter outcome per plugin: skipped plugins do not Filter; a rejection ends the cycle. */
  readonly preFilter: readonly {
    readonly plugin: FilterPluginName;
    readonly outcome: 'skip' | 'filter' | 'reject';
    readonly reasons: readonly string[];
  }[];
  /** The candidate node names after PreFilterResult narrowing, or null for all nodes. */
  readonly preFilterNodeNames: readonly string[] | null;
  /** Every node the Filter loop evaluated, in evaluation order. */
  readonly filter: readonly NodeFilterResult[];
  /** Score plugins whose PreScore returned Skip. */
  readonly skippedScorePlugins: readonly ScorePluginName[];
  /** Scores of the feasible nodes in feasible order; empty when only one node was feasible. */
  readonly scores: readonly NodeScoreResult[];
  /** FailedScheduling message (FitError.Error() without the preemption part), null on success. */
  readonly message: string | null;
}

/** Across-cycle state: the round-robin start and the tie-breaking generator. */
export interface CycleState {
  nextStartNodeIndex: number;
  readonly rng: SplitMix64;
}

export function newCycleState(seed: number | bigint = 0): CycleState {
  return { nextStartNodeIndex: 0, rng: new SplitMix64(seed) };
}

function noFit(base: Omit<ScheduleResult, 'nodeName' | 'message' | 'scores'>, message: string): ScheduleResult {
  return { ...base, nodeName: null, scores: [], message };
}

/** Run one scheduling cycle for `pod` against `snapshot`. Mutates `state` (start index, rng). */
export function schedulePod(profile: Profile, snapshot: Snapshot, pod: Pod, state: CycleState): ScheduleResult {
  const allNodes = snapshot.nodeInfos;
  const numAllNodes = allNodes.length;
  const base = {
    numAllNodes,
    evaluatedNodes: 0,
    feasibleNodes: 0,
    preFilter: [] as ScheduleResult['preFilter'][number][],
    preFilterNodeNames: null as string[] | null,
    filter: [] as NodeFilterResult[],
    skippedScorePlugins: [] as ScorePluginName[],
  };
  if (numAllNodes === 0) return noFit(base, NO_NODES_AVAILABLE);

  // PreFilter.
  const filters: { name: FilterPluginName; filter: (n: NodeInfo) => Status }[] = [];
  let nodeNames: Set<string> | undefined;
  const narrowedBy: FilterPluginName[] = [];
  for (const plugin of profile.filters) {
    const r = plugin.preFilter(pod, snapshot);
    if (r.kind === 'skip') {
      base.preFilter.push({ plugin: plugin.name, outcome: 'skip', reasons: [] });
      continue;
    }
    if (r.kind === 'reject') {
      base.preFilter.push({ plugin: plugin.name, outcome: 'reject', reasons: r.status.reasons });
      return noFit(base, fitErrorMessage({ numAllNodes, preFilterMsg: r.status.reasons.join(', '), nodeReasons: [] }));
    }
    base.preFilter.push({ plugin: plugin.name, outcome: 'filter', reasons: [] });
    filters.push({ name: plugin.name, filter: r.filter });
    if (r.nodeNames !== undefined) {
      narrowedBy.push(plugin.name);
      const prev = nodeNames;
      nodeNames = prev === undefined ? new Set(r.nodeNames) : new Set([...prev].filter((n) => r.nodeNames?.has(n)));
      if (nodeNames.size === 0) {
        const msg =
          narrowedBy.length === 1
            ? `node(s) didn't satisfy plugin ${narrowedBy[0]}`
            : `node(s) didn't satisfy plugin(s) [${narrowedBy.join(' ')}] simultaneously`;
        return noFit(base, fitErrorMessage({ numAllNodes, preFilterMsg: msg, nodeReasons: [] }));
      }
    }
  }

  // PreFilterResult narrowing; nodes outside it are "absent" with a fixed reason.
  const nodes = nodeNames === undefined ? allNodes : allNodes.filter((n) => nodeNames?.has(n.name));
  const absentNodesReasons =
    nodeNames === undefined ? [] : [`node(s) didn't satisfy plugin(s) [${[...narrowedBy].sort().join(' ')}]`];
  base.preFilterNodeNames = nodeNames === undefined ? null : nodes.map((n) => n.name);

  // Filter: round-robin from nextStartNodeIndex until enough feasible nodes are found.
  const numNodesToFind = numFeasibleNodesToFind(profile.percentageOfNodesToScore, nodes.length);
  const feasible: NodeInfo[] = [];
  const rejectedReasons: (readonly string[])[] = [];
  if (profile.filters.length === 0) {
    for (let i = 0; i < numNodesToFind; i++) {
      const n = nodes[(state.nextStartNodeIndex + i) % nodes.length];
      if (n !== undefined) feasible.push(n);
    }
  } else if (nodes.length > 0) {
    for (let i = 0; i < nodes.length && feasible.length < numNodesToFind; i++) {
      const node = nodes[(state.nextStartNodeIndex + i) % nodes.length];
      if (node === undefined) continue;
      const verdicts: FilterVerdict[] = [];
      let ok = true;
      for (const f of filters) {
        const s = f.filter(node);
        verdicts.push({ plugin: f.name, code: s.code, reasons: s.reasons });
        if (s.code !== 'Success') {
          ok = false;
          rejectedReasons.push(s.reasons);
          break;
        }
      }
      base.filter.push({ node: node.name, feasible: ok, verdicts });
      if (ok) feasible.push(node);
    }
    state.nextStartNodeIndex = (state.nextStartNodeIndex + base.filter.length) % nodes.length;
  }
  base.evaluatedNodes = base.filter.length;
  base.feasibleNodes = feasible.length;

  if (feasible.length === 0) {
    return noFit(base, fitErrorMessage({ numAllNodes, nodeReasons: rejectedReasons, absentNodesReasons }));
  }
  const only = feasible[0];
  if (feasible.length === 1 && only !== undefined) {
    // "When only one node after predicate, just use it": no scoring.
    return { ...base, nodeName: only.name, scores: [], message: null };
  }

  const scores = prioritizeNodes(profile, snapshot, pod, feasible, base.skippedScorePlugins);
  const chosen = selectHost(scores, state.rng);
  return { ...base, nodeName: chosen, scores, message: null };
}

/** prioritizeNodes: run every Score plugin over the feasible nodes and total the weighted scores. */
export function prioritizeNodes(
  profile: Profile,
  snapshot: Snapshot,
  pod: Pod,
  feasible: readonly NodeInfo[],
  skipped: ScorePluginName[] = [],
): NodeScoreResult[] {
  if (profile.scores.length === 0) {
    return feasible.map((n) => ({ node: n.name, plugins: [], total: 1 }));
  }
  const perNode = feasible.map(() => [] as PluginScore[]);
  for (const { plugin, weight } of profile.scores) {
    const r = plugin.preScore(pod, snapshot, feasible);
    if (r.kind === 'skip') {
      skipped.push(plugin.name);
      continue;
    }
    const raw = feasible.map((n) => r.score(n));
    const list: NodeScore[] = feasible.map((n, i) => ({ name: n.name, score: raw[i] ?? 0 }));
    r.normalize?.(list);
    list.forEach((s, i) => {
      perNode[i]?.push({ plugin: plugin.name, raw: raw[i] ?? 0, normalized: s.score, weighted: s.score * weight });
    });
  }
  return feasible.map((n, i) => {
    const plugins = perNode[i] ?? [];
    return { node: n.name, plugins, total: plugins.reduce((sum, p) => sum + p.weighted, 0) };
  });
}

/**
 * selectHost: the first maximum, replaced by each later node with an equal total with
 * probability 1/count (reservoir sampling: `rng.below(count) === 0`, count ≥ 2).
 */
export function selectHost(scores: readonly { node: string; total: number }[], rng: SplitMix64): string | null {
  const first = scores[0];
  if (first === undefined) return null;
  let selected = first.node;
  let maxScore = first.total;
  let count = 1;
  for (const s of scores.slice(1)) {
    if (s.total > maxScore) {
      maxScore = s.total;
      selected = s.node;
      count = 1;
    } else if (s.total === maxScore) {
      count++;
      if (rng.below(count) === 0) selected = s.node;
    }
  }
  return selected;
}

/** A scheduler over one profile: holds nextStartNodeIndex and the generator across cycles. */
export class ReferenceScheduler {
  readonly profile: Profile;
  readonly state: CycleState;

  constructor(options: { readonly profile?: ProfileConfig; readonly seed?: number | bigint } = {}) {
    this.profile = buildProfile(options.profile);
    this.state = newCycleState(options.seed ?? 0);
  }

  /** One cycle. `new ReferenceScheduler({ seed: 1 }).scheduleOne(buildSnapshot(cluster), pod)`. */
  scheduleOne(snapshot: Snapshot, pod: Pod): ScheduleResult {
    return schedulePod(this.profile, snapshot, pod, this.state);
  }

  /** Schedule pods one after another, binding each placed pod in the snapshot before the next. */
  scheduleAll(snapshot: Snapshot, pods: readonly Pod[]): ScheduleResult[] {
    return pods.map((pod) => {
      const result = this.scheduleOne(snapshot, pod);
      if (result.nodeName !== null) assumePod(snapshot, pod, result.nodeName);
      return result;
    });
  }
}

/** A scenario for differential tests: a cluster, pods to schedule in order, a profile and a seed. */
export interface Scenario {
  readonly cluster: ClusterState;
  readonly pods: readonly Pod[];
  readonly profile?: ProfileConfig;
  readonly seed?: number | bigint;
}

/** Schedule a scenario's pods in order (each placed pod is bound before the next cycle). */
export function runScenario(scenario: Scenario): ScheduleResult[] {
  const scheduler = new ReferenceScheduler({
    ...(scenario.profile === undefined ? {} : { profile: scenario.profile }),
    ...(scenario.seed === undefined ? {} : { seed: scenario.seed }),
  });
  return scheduler.scheduleAll(buildSnapshot(scenario.cluster), scenario.pods);
}
