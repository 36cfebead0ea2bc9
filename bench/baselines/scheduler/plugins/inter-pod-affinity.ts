// InterPodAffinity (plugins/interpodaffinity).
// Filter (required terms only):
//  1. the pod's affinity terms: every term's topology domain of the node must hold a pod matching
//     all the terms — unless no pod anywhere matches them and the pod matches its own terms;
//  2. the pod's anti-affinity terms: no matching pod in the node's domain of any term;
//  3. existing pods' anti-affinity terms: the node is in no domain where an existing pod's term
//     matches the incoming pod.
// Score: per topology pair, + weight of the pod's preferred affinity terms matched by existing
// pods, − for preferred anti-affinity; + hardPodAffinityWeight for existing pods' required
// affinity terms the pod matches; ± existing pods' preferred terms the pod matches. A node's raw
// score sums the pairs it is in; NormalizeScore maps [min, max] onto [0, 100].

import {
  type FilterPlugin,
  MAX_NODE_SCORE,
  type ScorePlugin,
  SUCCESS,
  unresolvable,
  unschedulable,
} from '../framework.js';
import { type AffinityTerm, affinityTermMatches, type Labels, newAffinityTerm } from '../labels.js';
import { type NodeInfo, podLabels, podNamespace, type Snapshot } from '../snapshot.js';
import type { Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../types.js';

/** interpodaffinity.ErrReasonAffinityRulesNotMatch. */
export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
/** interpodaffinity.ErrReasonAntiAffinityRulesNotMatch. */
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";
/** interpodaffinity.ErrReasonExistingAntiAffinityRulesNotMatch. */
export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
  "node(s) didn't satisfy existing pods anti-affinity rules";

/** config.InterPodAffinityArgs. */
export interface InterPodAffinityArgs {
  /** Weight of existing pods' required affinity terms in scoring; default 1 (0 disables). */
  readonly hardPodAffinityWeight?: number;
  /** Skip scoring existing pods' preferred terms when the pod has no preferred terms. */
  readonly ignorePreferredTermsOfExistingPods?: boolean;
}

interface WeightedTerm {
  readonly term: AffinityTerm;
  readonly weight: number;
}

/** framework.PodInfo's processed affinity terms. */
interface PodTerms {
  readonly requiredAffinity: AffinityTerm[];
  readonly requiredAntiAffinity: AffinityTerm[];
  readonly preferredAffinity: WeightedTerm[];
  readonly preferredAntiAffinity: WeightedTerm[];
}

function podTerms(pod: Pod): PodTerms {
  const ns = podNamespace(pod);
  const labels = podLabels(pod);
  const required = (terms: readonly PodAffinityTerm[] | undefined) =>
    (terms ?? []).map((t) => newAffinityTerm(ns, labels, t));
  const weighted = (terms: readonly WeightedPodAffinityTerm[] | undefined) =>
    (terms ?? []).map((t) => ({ term: newAffinityTerm(ns, labels, t.podAffinityTerm), weight: t.weight }));
  const a = pod.spec.affinity;
  return {
    requiredAffinity: required(a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    requiredAntiAffinity: required(a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    preferredAffinity: weighted(a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
    preferredAntiAffinity: weighted(a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
  };
}

/** topologyToMatchedTermCount: topology key → value → count. */
class TopologyCounts {
  readonly counts = new Map<string, Map<string, number>>();

  /** update: count `value` at the node's value of `key`, if the node has the label. */
  add(nodeLabels: Labels, key: string, value: number): void {
    if (!Object.hasOwn(nodeLabels, key)) return;
    const tv = nodeLabels[key] ?? '';
    let byValue = this.counts.get(key);
    if (byValue === undefined) {
      byValue = new Map();
      this.counts.set(key, byValue);
    }
    const next = (byValue.get(tv) ?? 0) + value;
    if (next === 0) byValue.delete(tv);
    else byValue.set(tv, next);
    if (byValue.size === 0) this.counts.delete(key);
  }

  get(key: string, value: string): number {
    return this.counts.get(key)?.get(value) ?? 0;
  }

  get isEmpty(): boolean {
    return this.counts.size === 0;
  }
}

/** How an incoming pod's term sees an existing pod: by the existing pod's namespace labels. */
function incomingTermMatches(term: AffinityTerm, existing: Pod, snapshot: Snapshot): boolean {
  const ns = podNamespace(existing);
  return affinityTermMatches(term, ns, existing.metadata.labels, snapshot.namespaceLabels.get(ns));
}

/** podMatchesAllAffinityTerms (false for no terms). */
function matchesAllTerms(terms: readonly AffinityTerm[], pod: Pod, snapshot: Snapshot): boolean {
  return terms.length > 0 && terms.every((t) => incomingTermMatches(t, pod, snapshot));
}

export function interPodAffinityFilter(): FilterPlugin {
  return {
    name: 'InterPodAffinity',
    preFilter(pod, snapshot) {
      const terms = podTerms(pod);
      const ns = podNamespace(pod);
      // The incoming pod's namespace labels, as an empty set when the namespace is unknown.
      const nsLabels = snapshot.namespaceLabels.get(ns) ?? {};

      const existingAntiAffinity = new TopologyCounts();
      const affinity = new TopologyCounts();
      const antiAffinity = new TopologyCounts();
      for (const node of snapshot.nodeInfos) {
        for (const existing of node.pods) {
          for (const t of podTerms(existing).requiredAntiAffinity) {
            if (affinityTermMatches(t, ns, pod.metadata.labels, nsLabels))
              existingAntiAffinity.add(node.labels, t.topologyKey, 1);
          }
          if (matchesAllTerms(terms.requiredAffinity, existing, snapshot)) {
            for (const t of terms.requiredAffinity) affinity.add(node.labels, t.topologyKey, 1);
          }
          for (const t of terms.requiredAntiAffinity) {
            if (incomingTermMatches(t, existing, snapshot)) antiAffinity.add(node.labels, t.topologyKey, 1);
          }
        }
      }

      if (
        existingAntiAffinity.isEmpty &&
        terms.requiredAffinity.length === 0 &&
        terms.requiredAntiAffinity.length === 0
      ) {
        return { kind: 'skip' };
      }
      const selfMatches = matchesAllTerms(terms.requiredAffinity, pod, snapshot);

      const satisfiesAffinity = (node: NodeInfo): boolean => {
        let podsExist = true;
        for (const t of terms.requiredAffinity) {
          if (!Object.hasOwn(node.labels, t.topologyKey)) return false;
          if (affinity.get(t.topologyKey, node.labels[t.topologyKey] ?? '') <= 0) podsExist = false;
        }
        // The first pod of a group with affinity to itself may go anywhere with the topology keys.
        return podsExist || (affinity.isEmpty && selfMatches);
      };
      const satisfiesAntiAffinity = (node: NodeInfo): boolean => {
        if (antiAffinity.isEmpty) return true;
        return terms.requiredAntiAffinity.every(
          (t) =>
            !Object.hasOwn(node.labels, t.topologyKey) ||
            antiAffinity.get(t.topologyKey, node.labels[t.topologyKey] ?? '') <= 0,
        );
      };
      const satisfiesExistingAntiAffinity = (node: NodeInfo): boolean => {
        if (existingAntiAffinity.isEmpty) return true;
        return Object.entries(node.labels).every(([k, v]) => existingAntiAffinity.get(k, v) <= 0);
      };

      return {
        kind: 'filter',
        filter: (node) => {
          if (!satisfiesAffinity(node)) return unresolvable(ERR_REASON_AFFINITY_RULES_NOT_MATCH);
          if (!satisfiesAntiAffinity(node)) return unschedulable(ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
          if (!satisfiesExistingAntiAffinity(node))
            return unschedulable(ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
          return SUCCESS;
        },
      };
    },
  };
}

export function interPodAffinityScore(args: InterPodAffinityArgs = {}): ScorePlugin {
  const hardPodAffinityWeight = args.hardPodAffinityWeight ?? 1;
  return {
    name: 'InterPodAffinity',
    preScore(pod, snapshot) {
      const terms = podTerms(pod);
      const hasConstraints = terms.preferredAffinity.length > 0 || terms.preferredAntiAffinity.length > 0;
      if (args.ignorePreferredTermsOfExistingPods === true && !hasConstraints) return { kind: 'skip' };
      const ns = podNamespace(pod);
      const nsLabels = snapshot.namespaceLabels.get(ns) ?? {};

      const topologyScore = new TopologyCounts();
      // processTerm: when `matches`, add weight × multiplier at the existing pod's node's domain.
      const process = (matches: boolean, term: AffinityTerm, weight: number, nodeLabels: Labels) => {
        if (matches) topologyScore.add(nodeLabels, term.topologyKey, weight);
      };
      for (const node of snapshot.nodeInfos) {
        if (Object.keys(node.labels).length === 0) continue;
        for (const existing of node.pods) {
          for (const { term, weight } of terms.preferredAffinity) {
            process(incomingTermMatches(term, existing, snapshot), term, weight, node.labels);
          }
          for (const { term, weight } of terms.preferredAntiAffinity) {
            process(incomingTermMatches(term, existing, snapshot), term, -weight, node.labels);
          }
          const existingTerms = podTerms(existing);
          const matchesPod = (t: AffinityTerm) => affinityTermMatches(t, ns, pod.metadata.labels, nsLabels);
          if (hardPodAffinityWeight > 0) {
            for (const t of existingTerms.requiredAffinity)
              process(matchesPod(t), t, hardPodAffinityWeight, node.labels);
          }
          for (const { term, weight } of existingTerms.preferredAffinity)
            process(matchesPod(term), term, weight, node.labels);
          for (const { term, weight } of existingTerms.preferredAntiAffinity) {
            process(matchesPod(term), term, -weight, node.labels);
          }
        }
      }

      // Nothing to score when no pair got a weight (k/k returns Skip when no node hosts pods with
      // affinity and the pod has no preferred terms; the totals are the same either way).
      if (topologyScore.isEmpty) return { kind: 'skip' };

      return {
        kind: 'score',
        score: (node) => {
          let score = 0;
          for (const [key, byValue] of topologyScore.counts) {
            if (Object.hasOwn(node.labels, key)) score += byValue.get(node.labels[key] ?? '') ?? 0;
          }
          return score;
        },
        normalize: (scores) => {
          let min = Number.POSITIVE_INFINITY;
          let max = Number.NEGATIVE_INFINITY;
          for (const s of scores) {
            if (s.score > max) max = s.score;
            if (s.score < min) min = s.score;
          }
          const diff = max - min;
          for (const s of scores) {
            s.score = diff > 0 ? Math.trunc(MAX_NODE_SCORE * ((s.score - min) / diff)) : 0;
          }
        },
      };
    },
  };
}
