// A plain TypeScript reference of kube-scheduler's default profile, written to be read: the oracle
// for differential tests of the Rust/wasm engine (test/scheduler/differential.test.ts) and the
// baseline of its benchmarks (bench/sched.ts). It lives with the other baselines; nothing under ts/
// imports it.
//
//   types.ts          the Kubernetes JSON the plugins read (Pod, Node, Namespace, owners)
//   quantity.ts       exact resource quantities
//   labels.ts         label/node selectors and pod affinity terms
//   resources.ts      PodRequests (init containers, sidecars, overhead, non-zero defaults)
//   snapshot.ts       the cluster a cycle sees: NodeInfo per node
//   framework.ts      Status, extension-point shapes, DefaultNormalizeScore
//   plugins/          one file per plugin, tests beside each
//   profile.ts        default profile, disabled plugins, weights, args
//   schedule-one.ts   the cycle: PreFilter, Filter, Score, selectHost; ReferenceScheduler
//   fit-error.ts      the FailedScheduling message
//   rng.ts            SplitMix64, the tie-breaking generator shared with the Rust engine
//   workload.ts       scheduler_perf-shaped nodes and pods
//   testing.ts        makeNode / makePod builders; plugin-runner.ts runs a single plugin

export { fitErrorMessage } from './fit-error.js';
export {
  type Code,
  type FilterPlugin,
  type FilterPluginName,
  MAX_NODE_SCORE,
  type NodeScore,
  type PluginName,
  type PreFilterResult,
  type PreScoreResult,
  type ScorePlugin,
  type ScorePluginName,
  type Status,
} from './framework.js';
export { SelectorError } from './labels.js';
export { type FilterRun, runFilter, runScore, scoreMap } from './plugin-runner.js';
export type { BalancedAllocationArgs } from './plugins/balanced-allocation.js';
export type { InterPodAffinityArgs } from './plugins/inter-pod-affinity.js';
export type { NodeResourcesFitArgs, ScoringStrategy, UtilizationShapePoint } from './plugins/node-resources-fit.js';
export type { PodTopologySpreadArgs } from './plugins/pod-topology-spread.js';
export type { ResourceSpec } from './plugins/resource-allocation.js';
export type { TaintReasonStyle, TaintTolerationArgs } from './plugins/taint-toleration.js';
export {
  buildProfile,
  DEFAULT_FILTER_ORDER,
  DEFAULT_SCORE_ORDER,
  DEFAULT_SCORE_WEIGHTS,
  type PluginArgs,
  type Profile,
  type ProfileConfig,
} from './profile.js';
export { parseQuantityMilli, parseQuantityValue, QuantityError, resourceAmount } from './quantity.js';
export { type Amounts, DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST, podRequests } from './resources.js';
export { SplitMix64 } from './rng.js';
export {
  type CycleState,
  type FilterVerdict,
  type NodeFilterResult,
  type NodeScoreResult,
  newCycleState,
  numFeasibleNodesToFind,
  type PluginScore,
  ReferenceScheduler,
  runScenario,
  type Scenario,
  type ScheduleResult,
  schedulePod,
  selectHost,
} from './schedule-one.js';
export {
  assumePod,
  buildSnapshot,
  type ClusterState,
  type HostPort,
  type ImageState,
  type NodeInfo,
  type Snapshot,
} from './snapshot.js';
export { makeNode, makePod, type NodeOptions, type PodOptions } from './testing.js';
export type * from './types.js';
export { basicWorkload, bindRoundRobin, makeNodes, makePods, type Workload } from './workload.js';
