// Cases ported from pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go
// (TestTaintTolerationScore, TestTaintTolerationFilter). The newest upstream wording of the Filter
// reason is "node(s) had untolerated taint(s)" (reasonStyle 'generic'); v1.25–v1.33 used
// "node(s) had untolerated taint {key: value}" (the default here).

import { describe, expect, it } from 'vitest';
import { runFilter, runScore, scoreMap } from '../plugin-runner.js';
import { makeNode, makePod } from '../testing.js';
import type { Taint, Toleration } from '../types.js';
import { taintTolerationFilter, taintTolerationScore, toleratesTaint } from './taint-toleration.js';

const withTolerations = (tolerations: Toleration[]) => makePod('pod1', { tolerations });
const withTaints = (name: string, taints: Taint[]) => makeNode(name, { taints });

describe('TaintToleration Score (TestTaintTolerationScore)', () => {
  it.each([
    {
      name: 'node with taints tolerated by the pod, gets a higher score than those node with intolerable taints',
      tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }] as Toleration[],
      nodes: [
        withTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }]),
        withTaints('nodeB', [{ key: 'foo', value: 'blah', effect: 'PreferNoSchedule' }]),
      ],
      want: { nodeA: 100, nodeB: 0 },
    },
    {
      name: 'the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has',
      tolerations: [
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'PreferNoSchedule' },
      ] as Toleration[],
      nodes: [
        withTaints('nodeA', []),
        withTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
        withTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ]),
      ],
      want: { nodeA: 100, nodeB: 100, nodeC: 100 },
    },
    {
      name: 'the more intolerable taints a node has, the lower score it gets.',
      tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }] as Toleration[],
      nodes: [
        withTaints('nodeA', []),
        withTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
        withTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ]),
      ],
      want: { nodeA: 100, nodeB: 50, nodeC: 0 },
    },
    {
      name: 'only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function',
      tolerations: [
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'NoSchedule' },
      ] as Toleration[],
      nodes: [
        withTaints('nodeA', []),
        withTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }]),
        withTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ]),
      ],
      want: { nodeA: 100, nodeB: 100, nodeC: 0 },
    },
    {
      name: 'Default behaviour No taints and tolerations, lands on node with no taints',
      tolerations: [] as Toleration[],
      nodes: [
        withTaints('nodeA', []),
        withTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
      ],
      want: { nodeA: 100, nodeB: 0 },
    },
  ])('$name', ({ tolerations, nodes, want }) => {
    expect(scoreMap(runScore(taintTolerationScore(), withTolerations(tolerations), { nodes }))).toEqual(want);
  });
});

describe('TaintToleration Filter (TestTaintTolerationFilter)', () => {
  it.each([
    {
      name: "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
      tolerations: [] as Toleration[],
      taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }] as Taint[],
      want: 'node(s) had untolerated taint {dedicated: user1}',
    },
    {
      name: 'A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule',
      tolerations: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }] as Toleration[],
      taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }] as Taint[],
      want: null,
    },
    {
      name: "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }] as Toleration[],
      taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }] as Taint[],
      want: 'node(s) had untolerated taint {dedicated: user1}',
    },
    {
      name: 'A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node',
      tolerations: [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }] as Toleration[],
      taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }] as Taint[],
      want: null,
    },
    {
      name: 'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node',
      tolerations: [
        { key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      ] as Toleration[],
      taints: [
        { key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      ] as Taint[],
      want: null,
    },
    {
      name: "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
      tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }] as Toleration[],
      taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }] as Taint[],
      want: 'node(s) had untolerated taint {foo: bar}',
    },
    {
      name: 'The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node',
      tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar' }] as Toleration[],
      taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }] as Taint[],
      want: null,
    },
    {
      name: "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }] as Toleration[],
      taints: [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }] as Taint[],
      want: null,
    },
    {
      name: 'The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node',
      tolerations: [] as Toleration[],
      taints: [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }] as Taint[],
      want: null,
    },
  ])('$name', ({ tolerations, taints, want }) => {
    const r = runFilter(taintTolerationFilter(), withTolerations(tolerations), {
      nodes: [withTaints('nodeA', taints)],
    });
    const status = r.kind === 'filter' ? r.statuses.nodeA : undefined;
    if (want === null) {
      expect(status?.code).toBe('Success');
    } else {
      expect(status).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: [want] });
      const generic = runFilter(taintTolerationFilter({ reasonStyle: 'generic' }), withTolerations(tolerations), {
        nodes: [withTaints('nodeA', taints)],
      });
      expect(generic.kind === 'filter' ? generic.statuses.nodeA?.reasons : []).toEqual([
        'node(s) had untolerated taint(s)',
      ]);
    }
  });

  it('reports the first untolerated taint in node order; an empty-key Exists toleration tolerates all', () => {
    const taints: Taint[] = [
      { key: 'a', value: '1', effect: 'PreferNoSchedule' },
      { key: 'b', value: '2', effect: 'NoExecute' },
      { key: 'c', value: '3', effect: 'NoSchedule' },
    ];
    const r = runFilter(taintTolerationFilter(), withTolerations([]), { nodes: [withTaints('n', taints)] });
    expect(r.kind === 'filter' ? r.statuses.n?.reasons : []).toEqual(['node(s) had untolerated taint {b: 2}']);
    expect(toleratesTaint({ operator: 'Exists' }, { key: 'x', effect: 'NoSchedule' })).toBe(true);
  });
});
