// Workloads shaped like kube-scheduler's scheduler_perf (test/integration/scheduler_perf):
// templates/node-default.yaml — capacity (= allocatable) pods 110, cpu 4, memory 32Gi;
// templates/pod-default.yaml — one pause container, requests and limits cpu 100m, memory 500Mi.
// Nodes carry kubernetes.io/hostname and, round-robin, topology.kubernetes.io/zone labels.
// Deterministic: the same options give the same objects.

import { LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE } from './plugins/pod-topology-spread.js';
import type { Node, Pod, PodSpec, ResourceList } from './types.js';

/** templates/node-default.yaml status.capacity. */
export const NODE_DEFAULT_CAPACITY: ResourceList = { pods: '110', cpu: '4', memory: '32Gi' };
/** templates/pod-default.yaml resources (requests = limits). */
export const POD_DEFAULT_RESOURCES: ResourceList = { cpu: '100m', memory: '500Mi' };
/** templates/pod-default.yaml image. */
export const POD_DEFAULT_IMAGE = 'registry.k8s.io/pause:3.10';

export interface NodeSetOptions {
  readonly count: number;
  /** Zones zone-0 … zone-(n−1), assigned round-robin; 0 leaves the zone label off. Default 3. */
  readonly zones?: number;
  readonly namePrefix?: string;
  readonly allocatable?: ResourceList;
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * scheduler_perf's labelNodePrepareStrategy: `key` set on every node to `values`, round-robin
   * as test/utils LabelNodePrepareStrategy.PreparePatch does. Applied after `zones`, so it wins
   * on the same key.
   */
  readonly labelStrategy?: { readonly key: string; readonly values: readonly string[] };
}

/** `count` node-default nodes. `makeNodes({ count: 5000 })`. */
export function makeNodes(opts: NodeSetOptions): Node[] {
  const zones = opts.zones ?? 3;
  const prefix = opts.namePrefix ?? 'scheduler-perf-';
  const nodes: Node[] = [];
  for (let i = 0; i < opts.count; i++) {
    const name = `${prefix}${i}`;
    const labels: Record<string, string> = { ...(opts.labels ?? {}), [LABEL_HOSTNAME]: name };
    if (zones > 0) labels[LABEL_TOPOLOGY_ZONE] = `zone-${i % zones}`;
    const strategy = opts.labelStrategy;
    const value = strategy?.values[i % strategy.values.length];
    if (strategy !== undefined && value !== undefined) labels[strategy.key] = value;
    nodes.push({
      metadata: { name, labels },
      spec: { taints: [] },
      status: { allocatable: opts.allocatable ?? NODE_DEFAULT_CAPACITY, images: [] },
    });
  }
  return nodes;
}

export interface PodSetOptions {
  readonly count: number;
  readonly namePrefix?: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly requests?: ResourceList;
  /** Extra spec fields (affinity, topologySpreadConstraints, tolerations, …) for every pod. */
  readonly spec?: Partial<Omit<PodSpec, 'containers'>>;
}

/** `count` pod-default pods, unbound. `makePods({ count: 10000, namePrefix: 'measure-' })`. */
export function makePods(opts: PodSetOptions): Pod[] {
  const prefix = opts.namePrefix ?? 'pod-';
  const namespace = opts.namespace ?? 'default';
  const resources = opts.requests ?? POD_DEFAULT_RESOURCES;
  const pods: Pod[] = [];
  for (let i = 0; i < opts.count; i++) {
    const name = `${prefix}${i}`;
    pods.push({
      metadata: { name, namespace, uid: `${namespace}/${name}`, labels: { ...(opts.labels ?? {}) } },
      spec: {
        ...(opts.spec ?? {}),
        containers: [
          {
            name: 'pause',
            image: POD_DEFAULT_IMAGE,
            ports: [{ containerPort: 80 }],
            resources: { requests: resources, limits: resources },
          },
        ],
      },
    });
  }
  return pods;
}

/** Bind pods to nodes round-robin (a cheap stand-in for scheduling the init pods). */
export function bindRoundRobin(pods: readonly Pod[], nodes: readonly Node[]): Pod[] {
  return pods.map((p, i) => {
    const node = nodes[i % nodes.length];
    if (node === undefined) throw new RangeError('no nodes to bind to');
    return { ...p, spec: { ...p.spec, nodeName: node.metadata.name } };
  });
}

/** A scheduler_perf-style case: nodes, init pods (to schedule first or bind), measured pods. */
export interface Workload {
  readonly nodes: Node[];
  readonly initPods: Pod[];
  readonly measurePods: Pod[];
}

export interface BasicWorkloadOptions {
  readonly nodes: number;
  readonly initPods: number;
  readonly measurePods: number;
  readonly zones?: number;
  readonly podSpec?: Partial<Omit<PodSpec, 'containers'>>;
  readonly podLabels?: Readonly<Record<string, string>>;
}

/** SchedulingBasic and friends, e.g. `basicWorkload({ nodes: 5000, initPods: 1000, measurePods: 10000 })`. */
export function basicWorkload(opts: BasicWorkloadOptions): Workload {
  const common = {
    ...(opts.podSpec === undefined ? {} : { spec: opts.podSpec }),
    ...(opts.podLabels === undefined ? {} : { labels: opts.podLabels }),
  };
  return {
    nodes: makeNodes({ count: opts.nodes, ...(opts.zones === undefined ? {} : { zones: opts.zones }) }),
    initPods: makePods({ count: opts.initPods, namePrefix: 'init-', ...common }),
    measurePods: makePods({ count: opts.measurePods, namePrefix: 'measure-', ...common }),
  };
}
