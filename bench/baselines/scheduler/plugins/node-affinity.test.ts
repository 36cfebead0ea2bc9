// Cases ported from pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go
// (TestNodeAffinity for PreFilter/Filter, TestNodeAffinityPriority for Score).

import { describe, expect, it } from 'vitest';
import { runFilter, runScore, scoreMap } from '../plugin-runner.js';
import { makeNode, makePod } from '../testing.js';
import type { Affinity, NodeSelectorRequirement, NodeSelectorTerm, PodSpec } from '../types.js';
import { ERR_REASON_CONFLICT, ERR_REASON_POD, nodeAffinityFilter, nodeAffinityScore } from './node-affinity.js';

const required = (...terms: NodeSelectorTerm[]): Affinity => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
});
const exprs = (...matchExpressions: NodeSelectorRequirement[]): NodeSelectorTerm => ({ matchExpressions });
const nameIn = (...values: string[]): NodeSelectorRequirement => ({ key: 'metadata.name', operator: 'In', values });

type Want = 'fit' | 'unfit' | 'skip' | 'conflict';

function verdict(spec: Partial<PodSpec>, labels: Record<string, string>, nodeName = 'node1'): Want {
  const r = runFilter(nodeAffinityFilter(), makePod('p', spec), { nodes: [makeNode(nodeName, { labels })] });
  if (r.kind === 'skip') return 'skip';
  if (r.kind === 'reject') return r.status.reasons[0] === ERR_REASON_CONFLICT ? 'conflict' : 'unfit';
  const s = r.statuses[nodeName];
  if (s?.code === 'Success') return 'fit';
  expect(s?.reasons).toEqual([ERR_REASON_POD]);
  return 'unfit';
}

describe('NodeAffinity Filter (TestNodeAffinity)', () => {
  it.each<[string, Partial<PodSpec>, Record<string, string>, Want, string?]>([
    ['missing labels', { nodeSelector: { foo: 'bar' } }, {}, 'unfit'],
    ['same labels', { nodeSelector: { foo: 'bar' } }, { foo: 'bar' }, 'fit'],
    ['node labels are superset', { nodeSelector: { foo: 'bar' } }, { foo: 'bar', baz: 'blah' }, 'fit'],
    ['node labels are subset', { nodeSelector: { foo: 'bar', baz: 'blah' } }, { foo: 'bar' }, 'unfit'],
    [
      'Pod with matchExpressions using In operator that matches the existing node',
      { affinity: required(exprs({ key: 'foo', operator: 'In', values: ['bar', 'value2'] })) },
      { foo: 'bar' },
      'fit',
    ],
    [
      'Pod with matchExpressions using Gt operator that matches the existing node',
      { affinity: required(exprs({ key: 'kernel-version', operator: 'Gt', values: ['0204'] })) },
      { 'kernel-version': '0206' },
      'fit',
    ],
    [
      'Pod with matchExpressions using NotIn operator that matches the existing node',
      { affinity: required(exprs({ key: 'mem-type', operator: 'NotIn', values: ['DDR', 'DDR2'] })) },
      { 'mem-type': 'DDR3' },
      'fit',
    ],
    [
      'Pod with matchExpressions using Exists operator that matches the existing node',
      { affinity: required(exprs({ key: 'GPU', operator: 'Exists' })) },
      { GPU: 'NVIDIA-GRID-K1' },
      'fit',
    ],
    [
      "Pod with affinity that don't match node's labels won't schedule onto the node",
      { affinity: required(exprs({ key: 'foo', operator: 'In', values: ['value1', 'value2'] })) },
      { foo: 'bar' },
      'unfit',
    ],
    [
      "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
      { affinity: required({ matchExpressions: [] }) },
      { foo: 'bar' },
      'unfit',
    ],
    ['Pod with no Affinity will schedule onto a node', {}, { foo: 'bar' }, 'skip'],
    [
      'Pod with Affinity but nil NodeSelector will schedule onto a node',
      { affinity: { nodeAffinity: {} } },
      { foo: 'bar' },
      'skip',
    ],
    [
      'Pod with multiple matchExpressions ANDed that matches the existing node',
      {
        affinity: required(
          exprs({ key: 'GPU', operator: 'Exists' }, { key: 'GPU', operator: 'NotIn', values: ['AMD', 'INTER'] }),
        ),
      },
      { GPU: 'NVIDIA-GRID-K1' },
      'fit',
    ],
    [
      "Pod with multiple matchExpressions ANDed that doesn't match the existing node",
      {
        affinity: required(
          exprs({ key: 'GPU', operator: 'Exists' }, { key: 'GPU', operator: 'In', values: ['AMD', 'INTER'] }),
        ),
      },
      { GPU: 'NVIDIA-GRID-K1' },
      'unfit',
    ],
    [
      "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
      {
        affinity: required(
          exprs({ key: 'foo', operator: 'In', values: ['bar', 'value2'] }),
          exprs({ key: 'diffkey', operator: 'In', values: ['wrong', 'value2'] }),
        ),
      },
      { foo: 'bar' },
      'fit',
    ],
    [
      'Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node',
      { nodeSelector: { foo: 'bar' }, affinity: required(exprs({ key: 'foo', operator: 'Exists' })) },
      { foo: 'bar' },
      'fit',
    ],
    [
      "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node",
      { nodeSelector: { foo: 'bar' }, affinity: required(exprs({ key: 'foo', operator: 'Exists' })) },
      { foo: 'barrrrrr' },
      'unfit',
    ],
    [
      'Pod with matchFields using In operator that matches the existing node',
      { affinity: required({ matchFields: [nameIn('node1')] }) },
      {},
      'fit',
      'node1',
    ],
    [
      'Pod with matchFields using In operator that does not match the existing node',
      { affinity: required({ matchFields: [nameIn('node1')] }) },
      {},
      'unfit',
      'node2',
    ],
    [
      'Pod with two terms: matchFields does not match, but matchExpressions matches',
      {
        affinity: required(
          { matchFields: [nameIn('node1'), nameIn('node2')] },
          exprs({ key: 'foo', operator: 'In', values: ['bar'] }),
        ),
      },
      { foo: 'bar' },
      'fit',
      'node2',
    ],
    [
      'Pod with one term: matchFields does not match, but matchExpressions matches',
      {
        affinity: required({
          matchFields: [nameIn('node1')],
          matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }],
        }),
      },
      { foo: 'bar' },
      'unfit',
      'node2',
    ],
    [
      'Pod with one term: both matchFields and matchExpressions match',
      {
        affinity: required({
          matchFields: [nameIn('node1')],
          matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }],
        }),
      },
      { foo: 'bar' },
      'fit',
      'node1',
    ],
    [
      'Pod with two terms: both matchFields and matchExpressions do not match',
      {
        affinity: required(
          { matchFields: [nameIn('node1')] },
          exprs({ key: 'foo', operator: 'In', values: ['not-match-to-bar'] }),
        ),
      },
      { foo: 'bar' },
      'unfit',
      'node2',
    ],
    [
      'Pod with two terms of node.Name affinity',
      { affinity: required({ matchFields: [nameIn('node1')] }, { matchFields: [nameIn('node2')] }) },
      {},
      'fit',
      'node2',
    ],
    [
      'Pod with two conflicting mach field requirements',
      { affinity: required({ matchFields: [nameIn('node1'), nameIn('node2')] }) },
      {},
      'conflict',
      'node2',
    ],
  ])('%s', (_name, spec, labels, want, nodeName) => {
    expect(verdict(spec, labels, nodeName)).toBe(want);
  });

  it('PreFilterResult: node names from matchFields (union over terms, intersection within a term)', () => {
    const pod = makePod('p', {
      affinity: required({ matchFields: [nameIn('node1')] }, { matchFields: [nameIn('node2')] }),
    });
    const r = runFilter(nodeAffinityFilter(), pod, {
      nodes: [makeNode('node1'), makeNode('node2'), makeNode('node3')],
    });
    expect(r.kind === 'filter' ? r.nodeNames : null).toEqual(['node1', 'node2']);
  });
});

describe('NodeAffinity Score (TestNodeAffinityPriority)', () => {
  const label1 = { foo: 'bar' };
  const label2 = { key: 'value' };
  const label3 = { az: 'az1' };
  const label4 = { abc: 'az11', def: 'az22' };
  const label5 = { foo: 'bar', key: 'value', az: 'az1' };
  const affinity1: Affinity = {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 2, preference: exprs({ key: 'foo', operator: 'In', values: ['bar'] }) },
      ],
    },
  };
  const affinity2: Affinity = {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 2, preference: exprs({ key: 'foo', operator: 'In', values: ['bar'] }) },
        { weight: 4, preference: exprs({ key: 'key', operator: 'In', values: ['value'] }) },
        {
          weight: 5,
          preference: exprs(
            { key: 'foo', operator: 'In', values: ['bar'] },
            { key: 'key', operator: 'In', values: ['value'] },
            { key: 'az', operator: 'In', values: ['az1'] },
          ),
        },
      ],
    },
  };
  const nodes = (l1: Record<string, string>, l2: Record<string, string>, l3: Record<string, string>) => [
    makeNode('node1', { labels: l1 }),
    makeNode('node2', { labels: l2 }),
    makeNode('node3', { labels: l3 }),
  ];

  it('"all nodes are same priority as NodeAffinity is nil" (PreScore skips)', () => {
    expect(runScore(nodeAffinityScore(), makePod('p'), { nodes: nodes(label1, label2, label3) })).toBe('skip');
  });
  it('"no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes\' priority is zero"', () => {
    expect(
      scoreMap(
        runScore(nodeAffinityScore(), makePod('p', { affinity: affinity1 }), { nodes: nodes(label4, label2, label3) }),
      ),
    ).toEqual({
      node1: 0,
      node2: 0,
      node3: 0,
    });
  });
  it('"only node1 matches the preferred scheduling requirements of pod"', () => {
    expect(
      scoreMap(
        runScore(nodeAffinityScore(), makePod('p', { affinity: affinity1 }), { nodes: nodes(label1, label2, label3) }),
      ),
    ).toEqual({
      node1: 100,
      node2: 0,
      node3: 0,
    });
  });
  it('"all nodes matches the preferred scheduling requirements of pod but with different priorities"', () => {
    const ns = [
      makeNode('node1', { labels: label1 }),
      makeNode('node5', { labels: label5 }),
      makeNode('node2', { labels: label2 }),
    ];
    expect(scoreMap(runScore(nodeAffinityScore(), makePod('p', { affinity: affinity2 }), { nodes: ns }))).toEqual({
      node1: 18,
      node5: 100,
      node2: 36,
    });
  });
});
