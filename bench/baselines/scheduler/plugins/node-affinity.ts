// NodeAffinity (plugins/nodeaffinity).
// PreFilter: Skip when the pod has neither nodeSelector nor required node affinity; narrows the
// candidates to the node names of `metadata.name In` matchFields when every term has one.
// Filter: nodeSelector (every label equal) AND the required terms (any term).
// Score: Σ weights of matching preferred terms; NormalizeScore = DefaultNormalizeScore(100).

import {
  defaultNormalizeScore,
  type FilterPlugin,
  MAX_NODE_SCORE,
  type ScorePlugin,
  SUCCESS,
  unresolvable,
} from '../framework.js';
import { NODE_NAME_FIELD, nodeSelectorMatches, nodeSelectorTermMatches } from '../labels.js';
import type { NodeInfo } from '../snapshot.js';
import type { Node, Pod } from '../types.js';

/** nodeaffinity.ErrReasonPod. */
export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
/** nodeaffinity.errReasonConflict: every term names disjoint nodes by metadata.name. */
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

/** nodeaffinity.GetRequiredNodeAffinity(pod).Match(node). */
export function requiredNodeAffinityMatches(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) {
    if (!Object.hasOwn(labels, k) || labels[k] !== v) return false;
  }
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return required === undefined || nodeSelectorMatches(required, node);
}

/** The PreFilterResult node names, or undefined for "all nodes". */
function nodeNamesFromFieldAffinity(pod: Pod): Set<string> | undefined {
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return undefined;
  let union: Set<string> | undefined;
  for (const t of terms) {
    let termNames: Set<string> | undefined;
    for (const r of t.matchFields ?? []) {
      if (r.key !== NODE_NAME_FIELD || r.operator !== 'In') continue;
      const s = new Set(r.values ?? []);
      termNames = termNames === undefined ? s : new Set([...termNames].filter((n) => s.has(n)));
    }
    // A term without a name restriction admits every node (terms are ORed).
    if (termNames === undefined) return undefined;
    union = new Set([...(union ?? []), ...termNames]);
  }
  return union;
}

export function nodeAffinityFilter(): FilterPlugin {
  return {
    name: 'NodeAffinity',
    preFilter(pod) {
      const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
      if (required === undefined && pod.spec.nodeSelector === undefined) return { kind: 'skip' };
      const filter = (node: NodeInfo) =>
        requiredNodeAffinityMatches(pod, node.node) ? SUCCESS : unresolvable(ERR_REASON_POD);
      const nodeNames = nodeNamesFromFieldAffinity(pod);
      if (nodeNames === undefined) return { kind: 'filter', filter };
      if (nodeNames.size === 0) return { kind: 'reject', status: unresolvable(ERR_REASON_CONFLICT) };
      return { kind: 'filter', filter, nodeNames };
    },
  };
}

export function nodeAffinityScore(): ScorePlugin {
  return {
    name: 'NodeAffinity',
    preScore(pod) {
      const preferred = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
      if (preferred === undefined) return { kind: 'skip' };
      // NewPreferredSchedulingTerms drops zero-weight terms.
      const terms = preferred.filter((t) => t.weight !== 0);
      return {
        kind: 'score',
        score: (node) => {
          let count = 0;
          for (const t of terms) if (nodeSelectorTermMatches(t.preference, node.node)) count += t.weight;
          return count;
        },
        normalize: (scores) => defaultNormalizeScore(MAX_NODE_SCORE, false, scores),
      };
    },
  };
}
