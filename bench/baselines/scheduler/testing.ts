// Small builders for tests and benchmarks, in the spirit of k8s.io/kubernetes/pkg/scheduler/testing
// (st.MakePod / st.MakeNode), producing plain Kubernetes JSON objects.

import type { Container, ContainerImage, Node, Pod, PodSpec, ResourceList, Taint } from './types.js';

export interface NodeOptions {
  readonly labels?: Readonly<Record<string, string>>;
  /** status.allocatable; `pods` defaults to 110 unless given. */
  readonly allocatable?: ResourceList;
  readonly taints?: readonly Taint[];
  readonly unschedulable?: boolean;
  readonly images?: readonly ContainerImage[];
}

/** A node. `makeNode('n1', { allocatable: { cpu: '4', memory: '32Gi' } })`. */
export function makeNode(name: string, opts: NodeOptions = {}): Node {
  return {
    metadata: { name, labels: opts.labels ?? {} },
    spec: {
      ...(opts.unschedulable === undefined ? {} : { unschedulable: opts.unschedulable }),
      taints: opts.taints ?? [],
    },
    status: {
      allocatable: { pods: 110, ...(opts.allocatable ?? {}) },
      images: opts.images ?? [],
    },
  };
}

export interface PodOptions extends Partial<Omit<PodSpec, 'containers'>> {
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly uid?: string;
  /** One container per entry, with these requests (st.MakePod().Req(...) adds a container each). */
  readonly requests?: readonly ResourceList[];
  readonly containers?: readonly Container[];
  readonly deletionTimestamp?: string;
}

/** A pod. `makePod('p', { requests: [{ cpu: '100m', memory: '500Mi' }], nodeName: 'n1' })`. */
export function makePod(name: string, opts: PodOptions = {}): Pod {
  const { namespace, labels, uid, requests, containers, deletionTimestamp, ...spec } = opts;
  const fromRequests: Container[] = (requests ?? []).map((r, i) => ({
    name: `c${i}`,
    image: 'pause',
    resources: { requests: r },
  }));
  return {
    metadata: {
      name,
      namespace: namespace ?? 'default',
      uid: uid ?? `uid-${name}`,
      labels: labels ?? {},
      ...(deletionTimestamp === undefined ? {} : { deletionTimestamp }),
    },
    spec: { ...spec, containers: [...fromRequests, ...(containers ?? [])] },
  };
}
