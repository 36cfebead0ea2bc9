// Cases ported from kube-scheduler's own tests (same inputs, same expected scores/reasons):
// pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go (TestLeastAllocatedScoringStrategy),
// most_allocated_test.go and fit_test.go. Quantities are those of the Go tests, e.g. "cpu": "4000"
// is 4000 cores there too.

import { describe, expect, it } from 'vitest';
import { runFilter, runScore, scoreMap } from '../plugin-runner.js';
import { makeNode, makePod } from '../testing.js';
import type { Node, Pod, ResourceList } from '../types.js';
import {
  brokenLinearFunction,
  leastRequestedScore,
  mostRequestedScore,
  nodeResourcesFitFilter,
  nodeResourcesFitScore,
} from './node-resources-fit.js';

const cap = (name: string, allocatable: ResourceList): Node => makeNode(name, { allocatable });
const on = (node: string, ...requests: ResourceList[]): Pod =>
  makePod(`p-${node}-${Math.random().toString(36).slice(2)}`, { nodeName: node, requests });

describe('NodeResourcesFit LeastAllocated (least_allocated_test.go TestLeastAllocatedScoringStrategy)', () => {
  const cases: {
    name: string;
    pod: Pod;
    nodes: Node[];
    existing?: Pod[];
    resources?: { name: string; weight: number }[];
    want: Record<string, number>;
  }[] = [
    {
      name: 'nothing scheduled, nothing requested',
      pod: makePod('p'),
      nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '4000', memory: '10000' })],
      want: { node1: 100, node2: 100 },
    },
    {
      name: 'nothing scheduled, resources requested, differently sized nodes',
      pod: makePod('p', {
        requests: [
          { cpu: '1000', memory: '2000' },
          { cpu: '2000', memory: '3000' },
        ],
      }),
      nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000' })],
      want: { node1: 37, node2: 50 },
    },
    {
      name: 'no resources requested, pods scheduled',
      pod: makePod('p'),
      nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '4000', memory: '10000' })],
      existing: [on('node1'), on('node1'), on('node2'), on('node2')],
      want: { node1: 100, node2: 100 },
    },
    {
      name: 'no resources requested, pods scheduled with resources',
      pod: makePod('p'),
      nodes: [cap('node1', { cpu: '10000', memory: '20000' }), cap('node2', { cpu: '10000', memory: '20000' })],
      existing: [
        on('node1', { cpu: '3000', memory: '0' }),
        on('node1', { cpu: '3000', memory: '0' }),
        on('node2', { cpu: '3000', memory: '0' }),
        on('node2', { cpu: '3000', memory: '5000' }),
      ],
      want: { node1: 70, node2: 57 },
    },
    {
      name: 'resources requested, pods scheduled with resources',
      pod: makePod('p', {
        requests: [
          { cpu: '1000', memory: '2000' },
          { cpu: '2000', memory: '3000' },
        ],
      }),
      nodes: [cap('node1', { cpu: '10000', memory: '20000' }), cap('node2', { cpu: '10000', memory: '20000' })],
      existing: [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      want: { node1: 57, node2: 45 },
    },
    {
      name: 'resources requested, pods scheduled with resources, differently sized nodes',
      pod: makePod('p', {
        requests: [
          { cpu: '1000', memory: '2000' },
          { cpu: '2000', memory: '3000' },
        ],
      }),
      nodes: [cap('node1', { cpu: '10000', memory: '20000' }), cap('node2', { cpu: '10000', memory: '50000' })],
      existing: [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      want: { node1: 57, node2: 60 },
    },
    {
      name: 'requested resources exceed node capacity',
      pod: makePod('p', { requests: [{ cpu: '3000', memory: '0' }] }),
      nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '4000', memory: '10000' })],
      existing: [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      want: { node1: 50, node2: 25 },
    },
    {
      name: 'zero node resources, pods scheduled with resources',
      pod: makePod('p'),
      nodes: [makeNode('node1'), makeNode('node2')],
      existing: [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      want: { node1: 0, node2: 0 },
    },
    {
      name: 'nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes',
      pod: makePod('p', {
        requests: [
          { cpu: '1000', memory: '2000' },
          { cpu: '2000', memory: '3000' },
        ],
      }),
      nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000' })],
      resources: [
        { name: 'memory', weight: 2 },
        { name: 'cpu', weight: 1 },
      ],
      want: { node1: 41, node2: 50 },
    },
    {
      name: 'bypass extended resource if the pod does not request',
      pod: makePod('p', {
        requests: [
          { cpu: '1000', memory: '2000' },
          { cpu: '2000', memory: '3000' },
        ],
      }),
      nodes: [
        cap('node1', { cpu: '6000', memory: '10000' }),
        cap('node2', { cpu: '6000', memory: '10000', 'example.com/foo': '4' }),
      ],
      resources: [
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
        { name: 'example.com/foo', weight: 1 },
      ],
      want: { node1: 50, node2: 50 },
    },
    {
      name: 'honor extended resource if the pod requests',
      pod: makePod('p', { requests: [{ cpu: '3000', memory: '5000', 'example.com/foo': '2' }] }),
      nodes: [
        cap('node1', { cpu: '6000', memory: '10000', 'example.com/foo': '4' }),
        cap('node2', { cpu: '6000', memory: '10000', 'example.com/foo': '10' }),
      ],
      resources: [
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
        { name: 'example.com/foo', weight: 1 },
      ],
      want: { node1: 50, node2: 60 },
    },
    {
      name: "if the node doesn't have a resource",
      pod: makePod('p', { requests: [{ cpu: '3000', memory: '4000' }] }),
      nodes: [
        cap('node1', { cpu: '6000', memory: '10000' }),
        cap('node2', { cpu: '6000', memory: '10000', 'example.com/foo': '4' }),
      ],
      resources: [
        { name: 'example.com/foo', weight: 2 },
        { name: 'cpu', weight: 1 },
        { name: 'memory', weight: 1 },
      ],
      want: { node1: 55, node2: 55 },
    },
  ];
  it.each(cases)('$name', ({ pod, nodes, existing, resources, want }) => {
    const plugin = nodeResourcesFitScore({
      scoringStrategy: resources === undefined ? { type: 'LeastAllocated' } : { type: 'LeastAllocated', resources },
    });
    expect(scoreMap(runScore(plugin, pod, { nodes, pods: existing ?? [] }))).toEqual(want);
  });

  it('leastRequestedScore is 0 past capacity or without capacity', () => {
    expect(leastRequestedScore(5, 4)).toBe(0);
    expect(leastRequestedScore(0, 0)).toBe(0);
    expect(leastRequestedScore(3000, 4000)).toBe(25);
  });
});

describe('NodeResourcesFit MostAllocated (most_allocated_test.go TestMostAllocatedScoringStrategy)', () => {
  it.each([
    {
      // CPU 3000/4000 → 75, memory 5000/10000 → 50: (75+50)/2 = 62; node2 3000/6000 → 50, 50 → 50.
      name: 'nothing scheduled, resources requested, differently sized nodes',
      pod: makePod('p', {
        requests: [
          { cpu: '1000', memory: '2000' },
          { cpu: '2000', memory: '3000' },
        ],
      }),
      nodes: [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000' })],
      existing: [] as Pod[],
      want: { node1: 62, node2: 50 },
    },
    {
      // node1: cpu (3000+3000)/10000 = 60, memory 5000/20000 = 25 → 42; node2: 60, 10000/20000 = 50 → 55.
      name: 'resources requested, pods scheduled with resources',
      pod: makePod('p', {
        requests: [
          { cpu: '1000', memory: '2000' },
          { cpu: '2000', memory: '3000' },
        ],
      }),
      nodes: [cap('node1', { cpu: '10000', memory: '20000' }), cap('node2', { cpu: '10000', memory: '20000' })],
      existing: [on('node1', { cpu: '3000', memory: '0' }), on('node2', { cpu: '3000', memory: '5000' })],
      want: { node1: 42, node2: 55 },
    },
  ])('$name', ({ pod, nodes, existing, want }) => {
    const plugin = nodeResourcesFitScore({ scoringStrategy: { type: 'MostAllocated' } });
    expect(scoreMap(runScore(plugin, pod, { nodes, pods: existing }))).toEqual(want);
  });

  it('mostRequestedScore caps at capacity', () => {
    expect(mostRequestedScore(6000, 4000)).toBe(100);
    expect(mostRequestedScore(1, 0)).toBe(0);
  });
});

describe('NodeResourcesFit RequestedToCapacityRatio (requested_to_capacity_ratio_test.go)', () => {
  it('brokenLinearFunction interpolates with integer math (TestBrokenLinearFunction)', () => {
    const f = brokenLinearFunction([
      { utilization: 10, score: 1 },
      { utilization: 90, score: 9 },
    ]);
    expect([0, 5, 10, 15, 90, 95].map(f)).toEqual([1, 1, 1, 1, 9, 9]);
    const g = brokenLinearFunction([
      { utilization: 0, score: 2 },
      { utilization: 40, score: 10 },
      { utilization: 100, score: 0 },
    ]);
    expect([0, 10, 20, 40, 70, 100].map(g)).toEqual([2, 4, 6, 10, 5, 0]);
  });

  it('"nothing scheduled, nothing requested (default - least requested nodes have priority)"', () => {
    // Shape {0:10, 100:0}: empty nodes score 100.
    const plugin = nodeResourcesFitScore({
      scoringStrategy: {
        type: 'RequestedToCapacityRatio',
        shape: [
          { utilization: 0, score: 10 },
          { utilization: 100, score: 0 },
        ],
      },
    });
    const nodes = [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '4000', memory: '10000' })];
    expect(scoreMap(runScore(plugin, makePod('p'), { nodes }))).toEqual({ node1: 100, node2: 100 });
  });

  it('"nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)"', () => {
    // node1: cpu 3000/4000 = 75 → 25, memory 5000/10000 = 50 → 50: round(75/2) = 38; node2: 50, 50 → 50.
    const plugin = nodeResourcesFitScore({
      scoringStrategy: {
        type: 'RequestedToCapacityRatio',
        shape: [
          { utilization: 0, score: 10 },
          { utilization: 100, score: 0 },
        ],
      },
    });
    const pod = makePod('p', {
      requests: [
        { cpu: '1000', memory: '2000' },
        { cpu: '2000', memory: '3000' },
      ],
    });
    const nodes = [cap('node1', { cpu: '4000', memory: '10000' }), cap('node2', { cpu: '6000', memory: '10000' })];
    expect(scoreMap(runScore(plugin, pod, { nodes }))).toEqual({ node1: 38, node2: 50 });
  });
});

describe('NodeResourcesFit Filter (fit_test.go TestEnoughRequests)', () => {
  const node = (allocatable: ResourceList) => makeNode('n', { allocatable });
  const run = (pod: Pod, existing: Pod[], allocatable: ResourceList = { cpu: '10m', memory: '20', pods: 32 }) =>
    runFilter(nodeResourcesFitFilter(), pod, {
      nodes: [node(allocatable)],
      pods: existing.map((p) => ({ ...p, spec: { ...p.spec, nodeName: 'n' } })),
    });
  const reasons = (r: ReturnType<typeof run>) => (r.kind === 'filter' ? r.statuses.n?.reasons : r.kind);
  const req = (cpu: string, memory: string): ResourceList => ({ cpu, memory });

  it('"no resources requested always fits"', () => {
    expect(reasons(run(makePod('p'), [makePod('e', { requests: [req('10m', '20')] })]))).toEqual([]);
  });
  it('"too many resources fails"', () => {
    expect(
      reasons(run(makePod('p', { requests: [req('1m', '1')] }), [makePod('e', { requests: [req('10m', '20')] })])),
    ).toEqual(['Insufficient cpu', 'Insufficient memory']);
  });
  it('"too many resources fails due to init container cpu"', () => {
    const pod = makePod('p', {
      requests: [req('1m', '1')],
      initContainers: [{ resources: { requests: req('3m', '1') } }],
    });
    expect(reasons(run(pod, [makePod('e', { requests: [req('8m', '19')] })]))).toEqual(['Insufficient cpu']);
  });
  it('"too many resources fails due to highest init container cpu"', () => {
    const pod = makePod('p', {
      requests: [req('1m', '1')],
      initContainers: [{ resources: { requests: req('3m', '1') } }, { resources: { requests: req('2m', '1') } }],
    });
    expect(reasons(run(pod, [makePod('e', { requests: [req('8m', '19')] })]))).toEqual(['Insufficient cpu']);
  });
  it('"init container fits because it\'s the max, not sum, of containers and init containers"', () => {
    const pod = makePod('p', {
      requests: [req('1m', '1')],
      initContainers: [{ resources: { requests: req('1m', '1') } }, { resources: { requests: req('1m', '1') } }],
    });
    expect(reasons(run(pod, [makePod('e', { requests: [req('9m', '19')] })]))).toEqual([]);
  });
  it('"both resources fit"', () => {
    expect(
      reasons(run(makePod('p', { requests: [req('1m', '1')] }), [makePod('e', { requests: [req('5m', '5')] })])),
    ).toEqual([]);
  });
  it('"one resource memory fits"', () => {
    expect(
      reasons(run(makePod('p', { requests: [req('2m', '1')] }), [makePod('e', { requests: [req('9m', '5')] })])),
    ).toEqual(['Insufficient cpu']);
  });
  it('"one resource cpu fits"', () => {
    expect(
      reasons(run(makePod('p', { requests: [req('1m', '2')] }), [makePod('e', { requests: [req('5m', '19')] })])),
    ).toEqual(['Insufficient memory']);
  });
  it('"equal edge case"', () => {
    expect(
      reasons(run(makePod('p', { requests: [req('5m', '1')] }), [makePod('e', { requests: [req('5m', '19')] })])),
    ).toEqual([]);
  });
  it('"extended resource capacity enforced"', () => {
    const pod = makePod('p', { requests: [{ 'example.com/aaa': '10' }] });
    const r = run(pod, [], { cpu: '10m', memory: '20', pods: 32, 'example.com/aaa': '5' });
    expect(reasons(r)).toEqual(['Insufficient example.com/aaa']);
  });
  it('"extended resource allocatable enforced for unknown resource" (ignored by ignoredResources)', () => {
    const pod = makePod('p', { requests: [{ 'example.com/bbb': '1' }] });
    const snapshotArgs = { nodes: [node({ cpu: '10m', memory: '20', pods: 32 })] };
    const plain = runFilter(nodeResourcesFitFilter(), pod, snapshotArgs);
    expect(plain.kind === 'filter' ? plain.statuses.n?.reasons : []).toEqual(['Insufficient example.com/bbb']);
    const ignored = runFilter(nodeResourcesFitFilter({ ignoredResources: ['example.com/bbb'] }), pod, snapshotArgs);
    expect(ignored.kind === 'filter' ? ignored.statuses.n?.reasons : ['x']).toEqual([]);
  });
  it('"even without specified resources, predicate fails when there\'s no space for additional pod"', () => {
    const r = run(makePod('p'), [makePod('e', { requests: [req('10m', '20')] })], {
      cpu: '10m',
      memory: '20',
      pods: 1,
    });
    expect(reasons(r)).toEqual(['Too many pods']);
  });
  it('"even if both resources fit, predicate fails when there\'s no space for additional pod"', () => {
    const r = run(makePod('p', { requests: [req('1m', '1')] }), [makePod('e', { requests: [req('5m', '5')] })], {
      cpu: '10m',
      memory: '20',
      pods: 1,
    });
    expect(reasons(r)).toEqual(['Too many pods']);
  });
  it('"requests + overhead does not fit for memory"', () => {
    const pod = makePod('p', { requests: [req('1m', '1')], overhead: { cpu: '1m', memory: '15' } });
    expect(reasons(run(pod, [makePod('e', { requests: [req('5m', '5')] })]))).toEqual(['Insufficient memory']);
  });
  it('sidecars add to the steady state and to later init phases', () => {
    // Sidecar 2m + app 1m = 3m steady; a later init container of 6m runs beside the 2m sidecar = 8m.
    const pod = makePod('p', {
      requests: [req('1m', '1')],
      initContainers: [
        { restartPolicy: 'Always', resources: { requests: req('2m', '1') } },
        { resources: { requests: req('6m', '1') } },
      ],
    });
    expect(reasons(run(pod, [makePod('e', { requests: [req('2m', '1')] })]))).toEqual([]);
    expect(reasons(run(pod, [makePod('e', { requests: [req('3m', '1')] })]))).toEqual(['Insufficient cpu']);
  });
});
