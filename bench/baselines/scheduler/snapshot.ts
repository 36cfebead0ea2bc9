// The cluster as one scheduling cycle sees it (backend/cache.Snapshot + framework.NodeInfo):
// nodes in a fixed order, the pods bound to each, and per-node aggregates the plugins read.

import type { Labels } from './labels.js';
import { type Amounts, nodeAllocatable, podRequests, sumAmounts } from './resources.js';
import type { LabelSelectorOwner, MapSelectorOwner, Namespace, Node, Pod } from './types.js';

/** Input: everything the plugins may consult besides the pod being scheduled. */
export interface ClusterState {
  readonly nodes: readonly Node[];
  /** Pods already placed; a pod counts on the node its spec.nodeName names (others are ignored). */
  readonly pods?: readonly Pod[];
  /** Namespaces with their labels, for pod (anti-)affinity namespaceSelector. */
  readonly namespaces?: readonly Namespace[];
  // Owners whose selectors make up PodTopologySpread's system-default selector (helper.DefaultSelector).
  readonly services?: readonly MapSelectorOwner[];
  readonly replicationControllers?: readonly MapSelectorOwner[];
  readonly replicaSets?: readonly LabelSelectorOwner[];
  readonly statefulSets?: readonly LabelSelectorOwner[];
}

/** A host port in use: framework.HostPortInfo after sanitize (""→"0.0.0.0", ""→"TCP"). */
export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

/** framework.ImageStateSummary: an image's size and on how many nodes of the cluster it is. */
export interface ImageState {
  readonly size: number;
  readonly numNodes: number;
}

/** framework.NodeInfo, computed from scratch (readability over incremental updates). */
export interface NodeInfo {
  readonly node: Node;
  readonly name: string;
  readonly labels: Labels;
  readonly pods: Pod[];
  readonly allocatable: Amounts;
  /** Σ PodRequests of the pods on the node. */
  requested: Amounts;
  /** Σ PodRequests with the non-zero defaults (100m cpu, 200Mi memory per container lacking one). */
  nonZeroRequested: Amounts;
  readonly usedPorts: HostPort[];
  readonly imageStates: ReadonlyMap<string, ImageState>;
}

export interface Snapshot {
  /** In input order; the cycle walks them round-robin from nextStartNodeIndex. */
  readonly nodeInfos: readonly NodeInfo[];
  readonly byName: ReadonlyMap<string, NodeInfo>;
  readonly namespaceLabels: ReadonlyMap<string, Labels>;
  readonly state: ClusterState;
}

export const DEFAULT_BIND_ALL_HOST_IP = '0.0.0.0';

export function podNamespace(pod: Pod): string {
  return pod.metadata.namespace ?? 'default';
}

export function podLabels(pod: Pod): Labels {
  return pod.metadata.labels ?? {};
}

/** Host ports a pod asks for: app containers and sidecars (restartable init containers). */
export function podHostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  const containers = [
    ...pod.spec.containers,
    ...(pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  for (const c of containers) {
    for (const p of c.ports ?? []) {
      const port = p.hostPort ?? 0;
      if (port <= 0) continue;
      out.push({
        ip: p.hostIP === undefined || p.hostIP === '' ? DEFAULT_BIND_ALL_HOST_IP : p.hostIP,
        protocol: p.protocol === undefined ? 'TCP' : p.protocol,
        port,
      });
    }
  }
  return out;
}

/** Build the snapshot: one NodeInfo per node, pods attached by spec.nodeName. */
export function buildSnapshot(state: ClusterState): Snapshot {
  // Image name → names of nodes having it (createImageExistenceMap).
  // The scheduler cache keeps one state per image name (cache.go addNodeImageStates): its size is
  // the one reported by the first node seen with it, and it counts the nodes that have it.
  const nodesWithImage = new Map<string, Set<string>>();
  const imageSize = new Map<string, number>();
  for (const node of state.nodes) {
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) {
        let set = nodesWithImage.get(name);
        if (set === undefined) {
          set = new Set();
          nodesWithImage.set(name, set);
          imageSize.set(name, image.sizeBytes ?? 0);
        }
        set.add(node.metadata.name);
      }
    }
  }

  const nodeInfos: NodeInfo[] = [];
  const byName = new Map<string, NodeInfo>();
  for (const node of state.nodes) {
    const imageStates = new Map<string, ImageState>();
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) {
        imageStates.set(name, { size: imageSize.get(name) ?? 0, numNodes: nodesWithImage.get(name)?.size ?? 0 });
      }
    }
    const info: NodeInfo = {
      node,
      name: node.metadata.name,
      labels: node.metadata.labels ?? {},
      pods: [],
      allocatable: nodeAllocatable(node.status?.allocatable),
      requested: new Map(),
      nonZeroRequested: new Map(),
      usedPorts: [],
      imageStates,
    };
    nodeInfos.push(info);
    byName.set(info.name, info);
  }

  const namespaceLabels = new Map<string, Labels>();
  for (const ns of state.namespaces ?? []) namespaceLabels.set(ns.metadata.name, ns.metadata.labels ?? {});

  const snapshot: Snapshot = { nodeInfos: nodeTreeOrder(nodeInfos), byName, namespaceLabels, state };
  for (const pod of state.pods ?? []) {
    const info = pod.spec.nodeName === undefined ? undefined : byName.get(pod.spec.nodeName);
    if (info !== undefined) addPodToNodeInfo(info, pod);
  }
  return snapshot;
}

/** NodeInfo.AddPod: attach a pod and update the aggregates. */
export function addPodToNodeInfo(info: NodeInfo, pod: Pod): void {
  info.pods.push(pod);
  info.requested = sumAmounts(info.requested, podRequests(pod));
  const nonZero = podRequests(pod, { nonMissingDefaults: true });
  info.nonZeroRequested = sumAmounts(
    info.nonZeroRequested,
    new Map([
      ['cpu', nonZero.get('cpu') ?? 0],
      ['memory', nonZero.get('memory') ?? 0],
    ]),
  );
  info.usedPorts.push(...podHostPorts(pod));
}

/**
 * Bind a pod in the snapshot (the scheduler's "assume"): it counts on `nodeName` from now on.
 * Returns the pod as bound. Mutates the snapshot, which is what a sequence of cycles wants.
 */
export function assumePod(snapshot: Snapshot, pod: Pod, nodeName: string): Pod {
  const info = snapshot.byName.get(nodeName);
  if (info === undefined) throw new RangeError(`no node ${nodeName} in the snapshot`);
  const bound: Pod = { ...pod, spec: { ...pod.spec, nodeName } };
  addPodToNodeInfo(info, bound);
  return bound;
}

/**
 * kube-scheduler's nodeTree order (pkg/scheduler/backend/cache/node_tree.go): nodes grouped by
 * zone key (region and zone labels, utilnode.GetZoneKey) in the order they were added, then listed
 * round-robin across zones, so that the first N feasible nodes spread over zones.
 */
export function nodeTreeOrder(infos: readonly NodeInfo[]): NodeInfo[] {
  const zones = new Map<string, NodeInfo[]>();
  for (const info of infos) {
    const l = info.labels;
    const zone = l['failure-domain.beta.kubernetes.io/zone'] ?? l['topology.kubernetes.io/zone'] ?? '';
    const region = l['failure-domain.beta.kubernetes.io/region'] ?? l['topology.kubernetes.io/region'] ?? '';
    const key = `${region}:\u0000:${zone}`;
    let list = zones.get(key);
    if (!list) {
      list = [];
      zones.set(key, list);
    }
    list.push(info);
  }
  const lists = [...zones.values()];
  const out: NodeInfo[] = [];
  for (let i = 0; out.length < infos.length; i++) {
    for (const list of lists) {
      const info = list[i];
      if (info) out.push(info);
    }
  }
  return out;
}
