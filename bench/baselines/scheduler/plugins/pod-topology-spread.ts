// PodTopologySpread (plugins/podtopologyspread).
// Filter (DoNotSchedule constraints): for each constraint, matching pods in the node's domain
// + 1 if the pod matches itself − the global minimum over domains must be ≤ maxSkew; the minimum
// is 0 while fewer than minDomains domains exist. Nodes lacking a topology key are unresolvable.
// Score (ScheduleAnyway constraints, or the defaults when the pod has none): per constraint
// cnt × log(#domains + 2) + (maxSkew − 1), rounded; NormalizeScore 100 × (max + min − s) / max.

import {
  type FilterPlugin,
  goDiv,
  goRound,
  MAX_NODE_SCORE,
  type ScorePlugin,
  SUCCESS,
  unresolvable,
  unschedulable,
} from '../framework.js';
import {
  addRequirements,
  EVERYTHING,
  isEverything,
  type Labels,
  labelSelectorAsSelector,
  type Requirement,
  requirementsOf,
  type Selector,
  selectorFromSet,
  selectorMatches,
} from '../labels.js';
import { type NodeInfo, podLabels, podNamespace, type Snapshot } from '../snapshot.js';
import type { LabelSelector, NodeInclusionPolicy, Pod, TopologySpreadConstraint } from '../types.js';
import { requiredNodeAffinityMatches } from './node-affinity.js';
import { findUntoleratedDoNotScheduleTaint } from './taint-toleration.js';

/** podtopologyspread.ErrReasonConstraintsNotMatch. */
export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
/** podtopologyspread.ErrReasonNodeLabelNotMatch. */
export const ERR_REASON_NODE_LABEL_NOT_MATCH = `${ERR_REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;

/** v1.LabelHostname and v1.LabelTopologyZone. */
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';

/** podtopologyspread.systemDefaultConstraints (hostname first, as upstream). */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly TopologySpreadConstraint[] = [
  { topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LABEL_TOPOLOGY_ZONE, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

/** config.PodTopologySpreadArgs. */
export interface PodTopologySpreadArgs {
  /** System (default): the system default constraints; List: `defaultConstraints`. */
  readonly defaultingType?: 'System' | 'List';
  readonly defaultConstraints?: readonly TopologySpreadConstraint[];
  /**
   * Selector provider for the default constraints, in place of helper.DefaultSelector over the
   * snapshot's Services/ReplicationControllers/ReplicaSets/StatefulSets. Null/undefined or an
   * empty selector means no default constraints for that pod.
   */
  readonly defaultSelector?: (pod: Pod) => LabelSelector | null | undefined;
}

/** The parsed internal form (topologySpreadConstraint). */
export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: Selector;
  readonly minDomains: number;
  readonly nodeAffinityPolicy: NodeInclusionPolicy;
  readonly nodeTaintsPolicy: NodeInclusionPolicy;
}

type Action = TopologySpreadConstraint['whenUnsatisfiable'];

/** filterTopologySpreadConstraints: the constraints of one action, matchLabelKeys merged in. */
function parseConstraints(
  constraints: readonly TopologySpreadConstraint[],
  labels: Labels,
  action: Action,
): SpreadConstraint[] {
  const out: SpreadConstraint[] = [];
  for (const c of constraints) {
    if (c.whenUnsatisfiable !== action) continue;
    let selector = labelSelectorAsSelector(c.labelSelector);
    const matchLabels: Record<string, string> = {};
    for (const key of c.matchLabelKeys ?? []) {
      const v = labels[key];
      if (v !== undefined) matchLabels[key] = v;
    }
    if (Object.keys(matchLabels).length > 0) {
      // mergeLabelSetWithSelector: the set's requirements, then the selector's (none if it is nil).
      selector = addRequirements(selectorFromSet(matchLabels), requirementsOf(selector));
    }
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      minDomains: c.minDomains ?? 1,
      nodeAffinityPolicy: c.nodeAffinityPolicy ?? 'Honor',
      nodeTaintsPolicy: c.nodeTaintsPolicy ?? 'Ignore',
    });
  }
  return out;
}

/**
 * helper.DefaultSelector: the union of the selectors of the Services, ReplicationControllers,
 * ReplicaSets and StatefulSets in the pod's namespace that select the pod.
 */
export function defaultSelector(pod: Pod, snapshot: Snapshot): Selector {
  const ns = podNamespace(pod);
  const labels = podLabels(pod);
  const hasLabels = Object.keys(labels).length > 0;
  const inNamespace = (meta: { namespace?: string }) => (meta.namespace ?? 'default') === ns;
  const set: Record<string, string> = {};
  for (const svc of snapshot.state.services ?? []) {
    const sel = svc.spec?.selector;
    // A nil service selector selects nothing.
    if (!inNamespace(svc.metadata) || sel === null || sel === undefined) continue;
    if (selectorMatches(selectorFromSet(sel), labels)) Object.assign(set, sel);
  }
  if (hasLabels) {
    for (const rc of snapshot.state.replicationControllers ?? []) {
      const sel = rc.spec?.selector ?? {};
      // An empty controller selector selects nothing.
      if (!inNamespace(rc.metadata) || Object.keys(sel).length === 0) continue;
      if (selectorMatches(selectorFromSet(sel), labels)) Object.assign(set, sel);
    }
  }
  let selector: Selector = Object.keys(set).length > 0 ? selectorFromSet(set) : EVERYTHING;
  if (hasLabels) {
    const extra: Requirement[] = [];
    for (const owner of [...(snapshot.state.replicaSets ?? []), ...(snapshot.state.statefulSets ?? [])]) {
      if (!inNamespace(owner.metadata)) continue;
      const sel = labelSelectorAsSelector(owner.spec?.selector);
      if (sel.nothing || isEverything(sel) || !selectorMatches(sel, labels)) continue;
      extra.push(...requirementsOf(sel));
    }
    selector = addRequirements(selector, extra);
  }
  return selector;
}

/** A provided selector: absent or empty means none (Everything is treated as "no selector"). */
function providedSelector(ls: LabelSelector | null | undefined): Selector {
  return ls === null || ls === undefined ? EVERYTHING : labelSelectorAsSelector(ls);
}

function constraintsFor(pod: Pod, snapshot: Snapshot, args: PodTopologySpreadArgs, action: Action): SpreadConstraint[] {
  const own = pod.spec.topologySpreadConstraints ?? [];
  if (own.length > 0) return parseConstraints(own, podLabels(pod), action);
  // buildDefaultConstraints.
  const defaults = args.defaultingType === 'List' ? (args.defaultConstraints ?? []) : SYSTEM_DEFAULT_CONSTRAINTS;
  const constraints = parseConstraints(defaults, podLabels(pod), action);
  if (constraints.length === 0) return [];
  const selector =
    args.defaultSelector === undefined ? defaultSelector(pod, snapshot) : providedSelector(args.defaultSelector(pod));
  if (isEverything(selector)) return [];
  return constraints.map((c) => ({ ...c, selector }));
}

/** nodeLabelsMatchSpreadConstraints: the node has every topology key. */
function hasAllTopologyKeys(labels: Labels, constraints: readonly SpreadConstraint[]): boolean {
  return constraints.every((c) => Object.hasOwn(labels, c.topologyKey));
}

/** matchNodeInclusionPolicies: whether the node's domain counts toward the constraint. */
function matchesInclusionPolicies(c: SpreadConstraint, pod: Pod, node: NodeInfo): boolean {
  if (c.nodeAffinityPolicy === 'Honor' && !requiredNodeAffinityMatches(pod, node.node)) return false;
  if (
    c.nodeTaintsPolicy === 'Honor' &&
    findUntoleratedDoNotScheduleTaint(node.node.spec?.taints ?? [], pod.spec.tolerations ?? []) !== undefined
  ) {
    return false;
  }
  return true;
}

/** countPodsMatchSelector: pods of the namespace, not terminating, matching the selector. */
function countMatching(pods: readonly Pod[], selector: Selector, namespace: string): number {
  let count = 0;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp !== undefined || podNamespace(p) !== namespace) continue;
    if (selectorMatches(selector, p.metadata.labels)) count++;
  }
  return count;
}

export function podTopologySpreadFilter(args: PodTopologySpreadArgs = {}): FilterPlugin {
  return {
    name: 'PodTopologySpread',
    preFilter(pod, snapshot) {
      const constraints = constraintsFor(pod, snapshot, args, 'DoNotSchedule');
      if (constraints.length === 0) return { kind: 'skip' };
      const ns = podNamespace(pod);

      // calPreFilterState: matching pods per domain, over nodes holding every topology key.
      const matchNum = constraints.map(() => new Map<string, number>());
      for (const node of snapshot.nodeInfos) {
        if (!hasAllTopologyKeys(node.labels, constraints)) continue;
        constraints.forEach((c, i) => {
          if (!matchesInclusionPolicies(c, pod, node)) return;
          const value = node.labels[c.topologyKey] ?? '';
          const m = matchNum[i] ?? new Map<string, number>();
          m.set(value, (m.get(value) ?? 0) + countMatching(node.pods, c.selector, ns));
        });
      }
      // minMatchNum: the global minimum, or 0 while fewer than minDomains domains exist.
      const minMatch = constraints.map((c, i) => {
        const m = matchNum[i] ?? new Map<string, number>();
        if (m.size < c.minDomains) return 0;
        // criticalPaths start at math.MaxInt32, which is what an empty map leaves.
        return m.size === 0 ? 2147483647 : Math.min(...m.values());
      });
      const labels = podLabels(pod);

      return {
        kind: 'filter',
        filter: (node) => {
          for (let i = 0; i < constraints.length; i++) {
            const c = constraints[i];
            if (c === undefined) continue;
            if (!Object.hasOwn(node.labels, c.topologyKey)) return unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
            const tpVal = node.labels[c.topologyKey] ?? '';
            const selfMatch = selectorMatches(c.selector, labels) ? 1 : 0;
            const skew = (matchNum[i]?.get(tpVal) ?? 0) + selfMatch - (minMatch[i] ?? 0);
            if (skew > c.maxSkew) return unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
          }
          return SUCCESS;
        },
      };
    },
  };
}

/** topologyNormalizingWeight: log(size + 2). */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

export function podTopologySpreadScore(args: PodTopologySpreadArgs = {}): ScorePlugin {
  const systemDefaulted = args.defaultingType !== 'List';
  return {
    name: 'PodTopologySpread',
    preScore(pod, snapshot, feasible) {
      if (snapshot.nodeInfos.length === 0) return { kind: 'skip' };
      const constraints = constraintsFor(pod, snapshot, args, 'ScheduleAnyway');
      if (constraints.length === 0) return { kind: 'skip' };
      // Only non-system-default rules require nodes to hold every topology key, so nodes without
      // a zone label still get hostname spreading under the system defaults.
      const requireAllTopologies = (pod.spec.topologySpreadConstraints ?? []).length > 0 || !systemDefaulted;
      const ns = podNamespace(pod);

      // initPreScoreState: the domains present among the feasible nodes.
      const ignored = new Set<string>();
      const podCounts = constraints.map(() => new Map<string, number>());
      for (const node of feasible) {
        if (requireAllTopologies && !hasAllTopologyKeys(node.labels, constraints)) {
          ignored.add(node.name);
          continue;
        }
        constraints.forEach((c, i) => {
          if (c.topologyKey === LABEL_HOSTNAME) return; // counted per node in Score
          const value = node.labels[c.topologyKey] ?? '';
          podCounts[i]?.set(value, 0);
        });
      }
      const weights = constraints.map((c, i) =>
        topologyNormalizingWeight(
          c.topologyKey === LABEL_HOSTNAME ? feasible.length - ignored.size : (podCounts[i]?.size ?? 0),
        ),
      );

      // Count matching pods per domain over all nodes.
      for (const node of snapshot.nodeInfos) {
        if (requireAllTopologies && !hasAllTopologyKeys(node.labels, constraints)) continue;
        constraints.forEach((c, i) => {
          if (!matchesInclusionPolicies(c, pod, node)) return;
          const m = podCounts[i];
          const value = node.labels[c.topologyKey] ?? '';
          if (m === undefined || !m.has(value)) return;
          m.set(value, (m.get(value) ?? 0) + countMatching(node.pods, c.selector, ns));
        });
      }

      return {
        kind: 'score',
        score: (node) => {
          if (ignored.has(node.name)) return 0;
          let score = 0;
          constraints.forEach((c, i) => {
            if (!Object.hasOwn(node.labels, c.topologyKey)) return;
            const cnt =
              c.topologyKey === LABEL_HOSTNAME
                ? countMatching(node.pods, c.selector, ns)
                : (podCounts[i]?.get(node.labels[c.topologyKey] ?? '') ?? 0);
            score += cnt * (weights[i] ?? 0) + (c.maxSkew - 1);
          });
          return goRound(score);
        },
        normalize: (scores) => {
          let min = Number.MAX_SAFE_INTEGER;
          let max = 0;
          for (const s of scores) {
            if (ignored.has(s.name)) continue;
            if (s.score < min) min = s.score;
            if (s.score > max) max = s.score;
          }
          for (const s of scores) {
            if (ignored.has(s.name)) s.score = 0;
            else if (max === 0) s.score = MAX_NODE_SCORE;
            else s.score = goDiv(MAX_NODE_SCORE * (max + min - s.score), max);
          }
        },
      };
    },
  };
}
