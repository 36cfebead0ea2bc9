// Cases ported from pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go
// (TestNodeResourcesBalancedAllocation): makeNode(name, milliCPU, memory, scalars) there is
// allocatable cpu in millicores.

import { describe, expect, it } from 'vitest';
import { runScore, scoreMap } from '../plugin-runner.js';
import { makeNode, makePod } from '../testing.js';
import type { Node, Pod, PodSpec, ResourceList } from '../types.js';
import { balancedAllocationScore, balancedResourceScore } from './balanced-allocation.js';

const node = (name: string, milliCPU: number, memory: number, scalars: ResourceList = {}): Node =>
  makeNode(name, { allocatable: { cpu: `${milliCPU}m`, memory, ...scalars } });
const container = (requests: ResourceList) => ({ resources: { requests } });

const cpuAndMemory = (nodeName: string): PodSpec => ({
  nodeName,
  containers: [container({ cpu: '1000m', memory: '2000' }), container({ cpu: '2000m', memory: '3000' })],
});
const cpuOnly = (nodeName: string): PodSpec => ({
  nodeName,
  containers: [container({ cpu: '1000m', memory: '0' }), container({ cpu: '2000m', memory: '0' })],
});
const cpuAndMemoryAndGPU = (nodeName: string): PodSpec => ({
  nodeName,
  containers: [
    container({ cpu: '1000m', memory: '2000' }),
    container({ cpu: '2000m', memory: '3000', 'nvidia.com/gpu': '3' }),
  ],
});
const pod = (name: string, spec: PodSpec): Pod => ({ metadata: { name, namespace: 'default' }, spec });
const unbound = (spec: PodSpec): Pod => {
  const { nodeName: _ignored, ...rest } = spec;
  return pod('incoming', rest);
};

const threeResources = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
  { name: 'nvidia.com/gpu', weight: 1 },
];

describe('NodeResourcesBalancedAllocation (balanced_allocation_test.go)', () => {
  it('"nothing scheduled, nothing requested, skip in PreScore"', () => {
    const nodes = [node('node1', 4000, 10000), node('node2', 4000, 10000)];
    expect(runScore(balancedAllocationScore(), makePod('p'), { nodes })).toBe('skip');
  });

  it.each([
    {
      name: 'nothing scheduled, resources requested, differently sized nodes',
      incoming: unbound(cpuAndMemory('node2')),
      nodes: [node('node1', 4000, 10000), node('node2', 6000, 10000)],
      pods: [] as Pod[],
      resources: undefined,
      want: { node1: 87, node2: 100 },
    },
    {
      name: 'resources requested, pods scheduled with resources',
      incoming: unbound(cpuAndMemory('node2')),
      nodes: [node('node1', 10000, 20000), node('node2', 10000, 20000)],
      pods: [pod('a', cpuOnly('node1')), pod('b', cpuAndMemory('node2'))],
      resources: undefined,
      want: { node1: 82, node2: 95 },
    },
    {
      name: 'resources requested, pods scheduled with resources, differently sized nodes',
      incoming: unbound(cpuAndMemory('node2')),
      nodes: [node('node1', 10000, 20000), node('node2', 10000, 50000)],
      pods: [pod('a', cpuOnly('node1')), pod('b', cpuAndMemory('node2'))],
      resources: undefined,
      want: { node1: 82, node2: 80 },
    },
    {
      name: 'requested resources at node capacity',
      incoming: unbound(cpuOnly('node1')),
      nodes: [node('node1', 6000, 10000), node('node2', 6000, 10000)],
      pods: [pod('a', cpuOnly('node1')), pod('b', cpuAndMemory('node2'))],
      resources: undefined,
      want: { node1: 50, node2: 75 },
    },
    {
      name: 'include scalar resource on a node for balanced resource allocation',
      incoming: makePod('p', { requests: [{ memory: '0', 'nvidia.com/gpu': '1' }] }),
      nodes: [
        node('node1', 3500, 40000, { 'nvidia.com/gpu': '8' }),
        node('node2', 3500, 40000, { 'nvidia.com/gpu': '8' }),
      ],
      pods: [pod('a', cpuAndMemory('node2')), pod('b', cpuAndMemoryAndGPU('node1'))],
      resources: threeResources,
      want: { node1: 70, node2: 65 },
    },
    {
      name: 'node without the scalar resource should skip the scalar resource',
      incoming: unbound(cpuAndMemory('node1')),
      nodes: [node('node1', 3500, 40000, { 'nvidia.com/gpu': '8' }), node('node2', 3500, 40000)],
      pods: [] as Pod[],
      resources: threeResources,
      want: { node1: 63, node2: 63 },
    },
  ])('$name', ({ incoming, nodes, pods, resources, want }) => {
    const plugin = balancedAllocationScore(resources === undefined ? {} : { resources });
    expect(scoreMap(runScore(plugin, incoming, { nodes, pods }))).toEqual(want);
  });

  it('std is |f1 − f2| / 2 for two resources and capped fractions', () => {
    expect(balancedResourceScore([3000, 5000], [4000, 10000])).toBe(87);
    expect(balancedResourceScore([9000, 0], [6000, 10000])).toBe(50);
    expect(balancedResourceScore([1], [2])).toBe(100);
  });
});
