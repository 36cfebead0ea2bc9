/**
 * kube-scheduler's own benchmark workloads (k/k test/integration/scheduler_perf), the 5000-node
 * `performance` variants, as data: node and pod templates, the createNodes/createPods steps of each
 * workload, and the CI throughput threshold it must beat. `materialize` turns one into objects.
 *
 * Paths are relative to test/integration/scheduler_perf/; "@abc12345" is the commit read.
 */
import { labelSelectorAsSelector, selectorMatches } from './baselines/scheduler/labels.js';
import type { Node, Pod, PodSpec } from './baselines/scheduler/types.js';
import { makeNodes, makePods } from './baselines/scheduler/workload.js';

/** A pod template: its labels and spec; every template here has pod-default's pause container. */
export interface PodTemplate {
  /** The template file the object copies. */
  readonly file: string;
  readonly generateName: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly spec?: Partial<Omit<PodSpec, 'containers'>>;
}

const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';
/** The two namespaces the affinity workloads create (`createNamespaces: {prefix: sched, count: 2}`). */
const SCHED_NAMESPACES = ['sched-1', 'sched-0'];

// Nodes: templates/node-default.yaml @898b9f80 — capacity pods 110, cpu 4, memory 32Gi (allocatable
// defaults to capacity), which is makeNodes' default. test/integration/framework/perf_utils.go
// (IntegrationTestNodePreparer.PrepareNodes) adds kubernetes.io/hostname = the node name; nodes get
// no zone label unless the workload's labelNodePrepareStrategy sets one.

/** templates/pod-default.yaml @95f08499: one pause container, cpu 100m / memory 500Mi requests = limits. */
export const POD_DEFAULT: PodTemplate = { file: 'templates/pod-default.yaml', generateName: 'pod-' };

/** templates/pod-with-pod-anti-affinity.yaml @5d7e2a39. */
export const POD_WITH_POD_ANTI_AFFINITY: PodTemplate = {
  file: 'templates/pod-with-pod-anti-affinity.yaml',
  generateName: 'anti-affinity-pod-',
  labels: { color: 'green' },
  spec: {
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { color: 'green' } }, topologyKey: HOSTNAME, namespaces: SCHED_NAMESPACES },
        ],
      },
    },
  },
};

/** templates/pod-with-pod-affinity.yaml @2e090810. */
export const POD_WITH_POD_AFFINITY: PodTemplate = {
  file: 'templates/pod-with-pod-affinity.yaml',
  generateName: 'affinity-pod-',
  labels: { color: 'blue' },
  spec: {
    affinity: {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { color: 'blue' } }, topologyKey: ZONE, namespaces: SCHED_NAMESPACES },
        ],
      },
    },
  },
};

/** templates/pod-with-preferred-pod-affinity.yaml @5e377f94. */
export const POD_WITH_PREFERRED_POD_AFFINITY: PodTemplate = {
  file: 'templates/pod-with-preferred-pod-affinity.yaml',
  generateName: 'preferred-affinity-pod-',
  labels: { color: 'red' },
  spec: {
    affinity: {
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 1,
            podAffinityTerm: {
              labelSelector: { matchLabels: { color: 'red' } },
              topologyKey: HOSTNAME,
              namespaces: SCHED_NAMESPACES,
            },
          },
        ],
      },
    },
  },
};

/** templates/pod-with-preferred-pod-anti-affinity.yaml @61c7fad9. */
export const POD_WITH_PREFERRED_POD_ANTI_AFFINITY: PodTemplate = {
  file: 'templates/pod-with-preferred-pod-anti-affinity.yaml',
  generateName: 'preferred-anti-affinity-pod-',
  labels: { color: 'yellow' },
  spec: {
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 1,
            podAffinityTerm: {
              labelSelector: { matchLabels: { color: 'yellow' } },
              topologyKey: HOSTNAME,
              namespaces: SCHED_NAMESPACES,
            },
          },
        ],
      },
    },
  },
};

/** templates/pod-with-node-affinity.yaml @2e090810. */
export const POD_WITH_NODE_AFFINITY: PodTemplate = {
  file: 'templates/pod-with-node-affinity.yaml',
  generateName: 'node-affinity-',
  spec: {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE, operator: 'In', values: ['zone1', 'zone2'] }] }],
        },
      },
    },
  },
};

/** templates/pod-with-topology-spreading.yaml @8371a358. */
export const POD_WITH_TOPOLOGY_SPREADING: PodTemplate = {
  file: 'templates/pod-with-topology-spreading.yaml',
  generateName: 'spreading-pod-',
  labels: { color: 'blue' },
  spec: {
    topologySpreadConstraints: [
      {
        maxSkew: 5,
        topologyKey: ZONE,
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { color: 'blue' } },
      },
    ],
  },
};

/** templates/pod-with-preferred-topology-spreading.yaml @2e090810. */
export const POD_WITH_PREFERRED_TOPOLOGY_SPREADING: PodTemplate = {
  file: 'templates/pod-with-preferred-topology-spreading.yaml',
  generateName: 'spreading-pod-',
  labels: { color: 'blue' },
  spec: {
    topologySpreadConstraints: [
      {
        maxSkew: 5,
        topologyKey: ZONE,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { color: 'blue' } },
      },
    ],
  },
};

/** One createPods op: `count` pods from `template` in `namespace`. */
export interface PodStep {
  readonly template: PodTemplate;
  readonly count: number;
  /**
   * The op's namespace; scheduler_perf.go names it `namespace-<opIndex>` when the op sets none
   * (runCreatePodsOp), which is what the unnamed ones here are.
   */
  readonly namespace: string;
}

export interface SchedWorkload {
  /** `<test case>/<workload>` as scheduler_perf names it. */
  readonly name: string;
  /** The performance-config.yaml it comes from. */
  readonly config: string;
  readonly nodes: number;
  /** createNodes' labelNodePrepareStrategy. */
  readonly nodeLabel?: { readonly key: string; readonly values: readonly string[] };
  /** createPods ops without collectMetrics: scheduled before the measurement starts. */
  readonly init: readonly PodStep[];
  /** The createPods op with collectMetrics: true. */
  readonly measure: PodStep;
  /** Average pods/s the CI run must reach (scheduler.md §1.2; the QueueingHints variants share it). */
  readonly threshold: number;
  /** Measured pods expected to stay unschedulable; 0 everywhere here, checked after every run. */
  readonly unschedulable: number;
}

const MISC = 'misc/performance-config.yaml @008b3652';
const AFFINITY = 'affinity/performance-config.yaml @1bd6a8f3';
const SPREADING = 'topology_spreading/performance-config.yaml @05377107';
const ONE_ZONE = { key: ZONE, values: ['zone1'] } as const;
const THREE_MOONS = { key: ZONE, values: ['moon-1', 'moon-2', 'moon-3'] } as const;

/** Init pods in sched-0, measured pods in sched-1: the affinity workloads' shape. */
function schedPair(template: PodTemplate, init: number, measure: number) {
  return {
    init: [{ template, count: init, namespace: 'sched-0' }],
    measure: { template, count: measure, namespace: 'sched-1' },
  };
}

export const SCHED_WORKLOADS: readonly SchedWorkload[] = [
  {
    name: 'SchedulingBasic/5000Nodes_10000Pods',
    config: MISC,
    nodes: 5000,
    init: [{ template: POD_DEFAULT, count: 1000, namespace: 'namespace-1' }],
    measure: { template: POD_DEFAULT, count: 10000, namespace: 'namespace-2' },
    threshold: 680,
    unschedulable: 0,
  },
  {
    name: 'SchedulingBasic/5000Nodes_50000Pods',
    config: MISC,
    nodes: 5000,
    init: [{ template: POD_DEFAULT, count: 5000, namespace: 'namespace-1' }],
    measure: { template: POD_DEFAULT, count: 50000, namespace: 'namespace-2' },
    threshold: 810,
    unschedulable: 0,
  },
  {
    name: 'SchedulingPodAntiAffinity/5000Nodes_2000Pods',
    config: AFFINITY,
    nodes: 5000,
    ...schedPair(POD_WITH_POD_ANTI_AFFINITY, 1000, 2000),
    threshold: 60,
    unschedulable: 0,
  },
  {
    name: 'SchedulingPodAffinity/5000Nodes_5000Pods',
    config: AFFINITY,
    nodes: 5000,
    nodeLabel: ONE_ZONE,
    ...schedPair(POD_WITH_POD_AFFINITY, 5000, 5000),
    threshold: 35,
    unschedulable: 0,
  },
  {
    name: 'SchedulingPreferredPodAffinity/5000Nodes_5000Pods',
    config: AFFINITY,
    nodes: 5000,
    ...schedPair(POD_WITH_PREFERRED_POD_AFFINITY, 5000, 5000),
    threshold: 90,
    unschedulable: 0,
  },
  {
    name: 'SchedulingPreferredPodAntiAffinity/5000Nodes_5000Pods',
    config: AFFINITY,
    nodes: 5000,
    ...schedPair(POD_WITH_PREFERRED_POD_ANTI_AFFINITY, 5000, 5000),
    threshold: 90,
    unschedulable: 0,
  },
  {
    name: 'SchedulingNodeAffinity/5000Nodes_10000Pods',
    config: AFFINITY,
    nodes: 5000,
    nodeLabel: ONE_ZONE,
    init: [{ template: POD_WITH_NODE_AFFINITY, count: 5000, namespace: 'namespace-1' }],
    measure: { template: POD_WITH_NODE_AFFINITY, count: 10000, namespace: 'namespace-2' },
    threshold: 220,
    unschedulable: 0,
  },
  {
    name: 'TopologySpreading/5000Nodes_5000Pods',
    config: SPREADING,
    nodes: 5000,
    nodeLabel: THREE_MOONS,
    init: [{ template: POD_DEFAULT, count: 5000, namespace: 'namespace-1' }],
    measure: { template: POD_WITH_TOPOLOGY_SPREADING, count: 5000, namespace: 'namespace-2' },
    threshold: 460,
    unschedulable: 0,
  },
  {
    name: 'PreferredTopologySpreading/5000Nodes_5000Pods',
    config: SPREADING,
    nodes: 5000,
    nodeLabel: THREE_MOONS,
    init: [{ template: POD_DEFAULT, count: 5000, namespace: 'namespace-1' }],
    measure: { template: POD_WITH_PREFERRED_TOPOLOGY_SPREADING, count: 5000, namespace: 'namespace-2' },
    threshold: 340,
    unschedulable: 0,
  },
  {
    // Ops: createNodes, createNamespaces (sched-0), five createPods in sched-0, then the measured
    // createPods at op index 7 with no namespace.
    name: 'MixedSchedulingBasePod/5000Nodes_5000Pods',
    config: AFFINITY,
    nodes: 5000,
    nodeLabel: ONE_ZONE,
    init: [
      POD_DEFAULT,
      POD_WITH_POD_AFFINITY,
      POD_WITH_POD_ANTI_AFFINITY,
      POD_WITH_PREFERRED_POD_AFFINITY,
      POD_WITH_PREFERRED_POD_ANTI_AFFINITY,
    ].map((template) => ({ template, count: 2000, namespace: 'sched-0' })),
    measure: { template: POD_DEFAULT, count: 5000, namespace: 'namespace-7' },
    threshold: 140,
    unschedulable: 0,
  },
];

/** A workload as objects: nodes, init pods per step (in order), measured pods. */
export interface MaterializedWorkload {
  readonly nodes: Node[];
  readonly initPods: Pod[];
  readonly measurePods: Pod[];
}

function podsOf(step: PodStep, index: number): Pod[] {
  return makePods({
    count: step.count,
    // Unique per step: generateName plus the step, as the apiserver would make them unique.
    namePrefix: `${step.template.generateName}${index}-`,
    namespace: step.namespace,
    ...(step.template.labels === undefined ? {} : { labels: step.template.labels }),
    ...(step.template.spec === undefined ? {} : { spec: step.template.spec }),
  });
}

/** Builds the objects of `w`; the same workload gives the same objects. */
export function materialize(w: SchedWorkload): MaterializedWorkload {
  return {
    nodes: makeNodes({
      count: w.nodes,
      zones: 0,
      ...(w.nodeLabel === undefined ? {} : { labelStrategy: w.nodeLabel }),
    }),
    initPods: w.init.flatMap((step, i) => podsOf(step, i)),
    measurePods: podsOf(w.measure, w.init.length),
  };
}

/**
 * The workloads `filter` selects: all when undefined; else those whose full name or test-case name
 * (before the `/`) equals it, case-insensitively. `selectWorkloads('SchedulingBasic')` → both.
 */
export function selectWorkloads(filter: string | undefined): readonly SchedWorkload[] {
  if (filter === undefined) return SCHED_WORKLOADS;
  const f = filter.toLowerCase();
  return SCHED_WORKLOADS.filter((w) => w.name.toLowerCase() === f || w.name.split('/')[0]?.toLowerCase() === f);
}

/** A pod and the node it was placed on. */
export interface PlacedPod {
  readonly pod: Pod;
  readonly node: string;
}

/**
 * What any correct scheduler guarantees about these workloads, checked on the final placements
 * (so a fast engine that ignores a constraint fails instead of winning):
 * - required pod anti-affinity: no pod shares its term's topology domain with a pod the term selects;
 * - DoNotSchedule topology spread: per domain of the key, counts of the pods the constraint selects
 *   stay within maxSkew (each placement kept count ≤ min + maxSkew, and min never drops).
 * Returns one line per violation found (at most a few), [] when none.
 */
export function constraintViolations(nodes: readonly Node[], placed: readonly PlacedPod[]): string[] {
  const labelsOf = new Map(nodes.map((n) => [n.metadata.name, n.metadata.labels ?? {}]));
  const namespaceOf = (pod: Pod) => pod.metadata.namespace ?? 'default';
  const out: string[] = [];
  const checked = new Set<string>();
  // topology key → domain → the pods placed in it.
  const domains = new Map<string, Map<string, PlacedPod[]>>();
  const podsIn = (key: string, domain: string): readonly PlacedPod[] => {
    let byDomain = domains.get(key);
    if (byDomain === undefined) {
      byDomain = new Map();
      for (const p of placed) {
        const d = labelsOf.get(p.node)?.[key];
        if (d === undefined) continue;
        const list = byDomain.get(d);
        if (list === undefined) byDomain.set(d, [p]);
        else list.push(p);
      }
      domains.set(key, byDomain);
    }
    return byDomain.get(domain) ?? [];
  };
  for (const { pod, node } of placed) {
    for (const term of pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
      const domain = labelsOf.get(node)?.[term.topologyKey];
      if (domain === undefined) continue;
      const selector = labelSelectorAsSelector(term.labelSelector);
      const namespaces = term.namespaces?.length ? term.namespaces : [namespaceOf(pod)];
      for (const other of podsIn(term.topologyKey, domain)) {
        if (other.pod === pod) continue;
        if (!namespaces.includes(namespaceOf(other.pod)) || !selectorMatches(selector, other.pod.metadata.labels)) {
          continue;
        }
        if (out.length < 3)
          out.push(`${pod.metadata.name} and ${other.pod.metadata.name} share ${term.topologyKey}=${domain}`);
        else return out;
      }
    }
    for (const c of pod.spec.topologySpreadConstraints ?? []) {
      const key = `${namespaceOf(pod)}\u0000${c.topologyKey}\u0000${JSON.stringify(c.labelSelector)}`;
      if (c.whenUnsatisfiable !== 'DoNotSchedule' || checked.has(key)) continue;
      checked.add(key);
      const counts = new Map<string, number>();
      for (const labels of labelsOf.values()) {
        const domain = labels[c.topologyKey];
        if (domain !== undefined) counts.set(domain, 0);
      }
      const selector = labelSelectorAsSelector(c.labelSelector);
      for (const other of placed) {
        const domain = labelsOf.get(other.node)?.[c.topologyKey];
        if (domain === undefined || namespaceOf(other.pod) !== namespaceOf(pod)) continue;
        if (selectorMatches(selector, other.pod.metadata.labels)) counts.set(domain, (counts.get(domain) ?? 0) + 1);
      }
      const values = [...counts.values()];
      const skew = Math.max(...values) - Math.min(...values);
      if (skew > c.maxSkew)
        out.push(`${c.topologyKey} skew ${skew} > maxSkew ${c.maxSkew}: ${JSON.stringify([...counts])}`);
    }
  }
  return out;
}
