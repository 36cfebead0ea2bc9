// Scheduler profiles (KubeSchedulerConfiguration .profiles[]): which plugins run at Filter and
// Score, with what weights and args. The default is the default-scheduler profile
// (pkg/scheduler/apis/config/v1/default_plugins.go) restricted to the plugins ported here.

import type { FilterPlugin, FilterPluginName, PluginName, ScorePlugin, ScorePluginName } from './framework.js';
import { type BalancedAllocationArgs, balancedAllocationScore } from './plugins/balanced-allocation.js';
import { imageLocalityScore } from './plugins/image-locality.js';
import {
  type InterPodAffinityArgs,
  interPodAffinityFilter,
  interPodAffinityScore,
} from './plugins/inter-pod-affinity.js';
import { nodeAffinityFilter, nodeAffinityScore } from './plugins/node-affinity.js';
import { nodeName } from './plugins/node-name.js';
import { nodePorts } from './plugins/node-ports.js';
import {
  type NodeResourcesFitArgs,
  nodeResourcesFitFilter,
  nodeResourcesFitScore,
} from './plugins/node-resources-fit.js';
import { nodeUnschedulable } from './plugins/node-unschedulable.js';
import {
  type PodTopologySpreadArgs,
  podTopologySpreadFilter,
  podTopologySpreadScore,
} from './plugins/pod-topology-spread.js';
import { type TaintTolerationArgs, taintTolerationFilter, taintTolerationScore } from './plugins/taint-toleration.js';

/** The default profile's Filter plugins, in the order kube-scheduler runs them. */
export const DEFAULT_FILTER_ORDER: readonly FilterPluginName[] = [
  'NodeUnschedulable',
  'NodeName',
  'TaintToleration',
  'NodeAffinity',
  'NodePorts',
  'NodeResourcesFit',
  'PodTopologySpread',
  'InterPodAffinity',
];

/** The default profile's Score plugins and weights (default_plugins.go). */
export const DEFAULT_SCORE_WEIGHTS: Readonly<Record<ScorePluginName, number>> = {
  TaintToleration: 3,
  NodeAffinity: 2,
  NodeResourcesFit: 1,
  PodTopologySpread: 2,
  InterPodAffinity: 2,
  NodeResourcesBalancedAllocation: 1,
  ImageLocality: 1,
};

/** The default profile's Score plugins in MultiPoint order. */
export const DEFAULT_SCORE_ORDER: readonly ScorePluginName[] = [
  'TaintToleration',
  'NodeAffinity',
  'NodeResourcesFit',
  'PodTopologySpread',
  'InterPodAffinity',
  'NodeResourcesBalancedAllocation',
  'ImageLocality',
];

/** Plugin args (pluginConfig[].args). */
export interface PluginArgs {
  readonly NodeResourcesFit?: NodeResourcesFitArgs;
  readonly NodeResourcesBalancedAllocation?: BalancedAllocationArgs;
  readonly InterPodAffinity?: InterPodAffinityArgs;
  readonly PodTopologySpread?: PodTopologySpreadArgs;
  readonly TaintToleration?: TaintTolerationArgs;
}

/** A profile as configured: the default profile minus what is disabled, with weights and args. */
export interface ProfileConfig {
  /** Disabled at every extension point (multiPoint.disabled). */
  readonly disabled?: readonly PluginName[];
  /** Disabled at Filter only (filter.disabled; PreFilter goes with it). */
  readonly disabledFilters?: readonly FilterPluginName[];
  /** Disabled at Score only (score.disabled; PreScore goes with it). */
  readonly disabledScores?: readonly ScorePluginName[];
  /** Score weights; 0 means 1, as the framework does. */
  readonly weights?: Partial<Record<ScorePluginName, number>>;
  /** percentageOfNodesToScore; 0 or absent = adaptive. */
  readonly percentageOfNodesToScore?: number;
  readonly pluginArgs?: PluginArgs;
}

export interface WeightedScorePlugin {
  readonly plugin: ScorePlugin;
  readonly weight: number;
}

/** A profile ready to run. */
export interface Profile {
  readonly filters: readonly FilterPlugin[];
  readonly scores: readonly WeightedScorePlugin[];
  readonly percentageOfNodesToScore: number;
}

/** Instantiate a profile; `buildProfile()` is the default profile. */
export function buildProfile(config: ProfileConfig = {}): Profile {
  const args = config.pluginArgs ?? {};
  const disabled = new Set<string>(config.disabled ?? []);
  const disabledFilters = new Set<string>([...disabled, ...(config.disabledFilters ?? [])]);
  const disabledScores = new Set<string>([...disabled, ...(config.disabledScores ?? [])]);

  const filterFactories: Record<FilterPluginName, () => FilterPlugin> = {
    NodeUnschedulable: nodeUnschedulable,
    NodeName: nodeName,
    TaintToleration: () => taintTolerationFilter(args.TaintToleration),
    NodeAffinity: nodeAffinityFilter,
    NodePorts: nodePorts,
    NodeResourcesFit: () => nodeResourcesFitFilter(args.NodeResourcesFit),
    PodTopologySpread: () => podTopologySpreadFilter(args.PodTopologySpread),
    InterPodAffinity: interPodAffinityFilter,
  };
  const scoreFactories: Record<ScorePluginName, () => ScorePlugin> = {
    TaintToleration: taintTolerationScore,
    NodeAffinity: nodeAffinityScore,
    NodeResourcesFit: () => nodeResourcesFitScore(args.NodeResourcesFit),
    PodTopologySpread: () => podTopologySpreadScore(args.PodTopologySpread),
    InterPodAffinity: () => interPodAffinityScore(args.InterPodAffinity),
    NodeResourcesBalancedAllocation: () => balancedAllocationScore(args.NodeResourcesBalancedAllocation),
    ImageLocality: imageLocalityScore,
  };

  const filters = DEFAULT_FILTER_ORDER.filter((n) => !disabledFilters.has(n)).map((n) => filterFactories[n]());
  const scores = DEFAULT_SCORE_ORDER.filter((n) => !disabledScores.has(n)).map((n) => {
    const w = config.weights?.[n] ?? DEFAULT_SCORE_WEIGHTS[n];
    return { plugin: scoreFactories[n](), weight: w === 0 ? 1 : w };
  });
  return { filters, scores, percentageOfNodesToScore: config.percentageOfNodesToScore ?? 0 };
}
