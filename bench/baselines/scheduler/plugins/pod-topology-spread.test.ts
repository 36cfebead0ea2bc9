// Cases ported from pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go
// (TestSingleConstraint, TestMultipleConstraints) and scoring_test.go (TestPodTopologySpreadScore).
// Cases marked (added) are not upstream; their expectations are worked out in the comments.

import { describe, expect, it } from 'vitest';
import type { Code } from '../framework.js';
import { runFilter, runScore, scoreMap } from '../plugin-runner.js';
import { makeNode, makePod } from '../testing.js';
import type { Affinity, LabelSelector, Node, Pod, TopologySpreadConstraint } from '../types.js';
import {
  ERR_REASON_CONSTRAINTS_NOT_MATCH,
  ERR_REASON_NODE_LABEL_NOT_MATCH,
  LABEL_HOSTNAME,
  podTopologySpreadFilter,
  podTopologySpreadScore,
} from './pod-topology-spread.js';

const exists = (key: string): LabelSelector => ({ matchExpressions: [{ key, operator: 'Exists' }] });
const hard = (
  maxSkew: number,
  topologyKey: string,
  labelSelector: LabelSelector | null,
  extra: Partial<TopologySpreadConstraint> = {},
): TopologySpreadConstraint => ({
  maxSkew,
  topologyKey,
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector,
  ...extra,
});
const soft = (
  maxSkew: number,
  topologyKey: string,
  labelSelector: LabelSelector | null,
  extra: Partial<TopologySpreadConstraint> = {},
): TopologySpreadConstraint => ({
  ...hard(maxSkew, topologyKey, labelSelector, extra),
  whenUnsatisfiable: 'ScheduleAnyway',
});
const incoming = (labels: Record<string, string>, constraints: TopologySpreadConstraint[], affinity?: Affinity): Pod =>
  makePod('p', { labels, topologySpreadConstraints: constraints, ...(affinity === undefined ? {} : { affinity }) });
const existing = (
  name: string,
  nodeName: string,
  labels: Record<string, string> = { foo: '' },
  extra: { namespace?: string; deletionTimestamp?: string } = {},
): Pod => makePod(name, { nodeName, labels, ...extra });
const zoneNode = (name: string, zone: string): Node => makeNode(name, { labels: { zone, node: name } });
const fourNodes = () => [
  zoneNode('node-a', 'zone1'),
  zoneNode('node-b', 'zone1'),
  zoneNode('node-x', 'zone2'),
  zoneNode('node-y', 'zone2'),
];
const spread2103 = () => [
  existing('p-a1', 'node-a'),
  existing('p-a2', 'node-a'),
  existing('p-b1', 'node-b'),
  existing('p-y1', 'node-y'),
  existing('p-y2', 'node-y'),
  existing('p-y3', 'node-y'),
];

function codes(pod: Pod, nodes: Node[], pods: Pod[]): Record<string, Code> {
  const r = runFilter(podTopologySpreadFilter(), pod, { nodes, pods });
  if (r.kind !== 'filter') throw new Error(`unexpected ${r.kind}`);
  return Object.fromEntries(Object.entries(r.statuses).map(([n, s]) => [n, s.code]));
}
const S = 'Success';
const U = 'Unschedulable';
const UU = 'UnschedulableAndUnresolvable';

describe('PodTopologySpread Filter (TestSingleConstraint)', () => {
  it.each<[string, Pod, Node[], Pod[], Record<string, Code>]>([
    [
      'no existing pods',
      incoming({ foo: '' }, [hard(1, 'zone', exists('foo'))]),
      fourNodes(),
      [],
      { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    ],
    [
      "no existing pods, incoming pod doesn't match itself",
      incoming({ foo: '' }, [hard(1, 'zone', exists('bar'))]),
      fourNodes(),
      [],
      { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    ],
    [
      'existing pods in a different namespace do not count',
      incoming({ foo: '' }, [hard(1, 'zone', exists('foo'))]),
      fourNodes(),
      [
        existing('p-a1', 'node-a', { foo: '' }, { namespace: 'ns1' }),
        existing('p-b1', 'node-a', { foo: '' }, { namespace: 'ns2' }),
        existing('p-x1', 'node-x'),
        existing('p-y1', 'node-y'),
      ],
      { 'node-a': S, 'node-b': S, 'node-x': U, 'node-y': U },
    ],
    [
      'pods spread across zones as 3/3, all nodes fit',
      incoming({ foo: '' }, [hard(1, 'zone', exists('foo'))]),
      fourNodes(),
      spread2103(),
      { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    ],
    [
      "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
      incoming({ foo: '' }, [hard(1, 'zone', exists('foo'))]),
      [
        zoneNode('node-a', 'zone1'),
        makeNode('node-b', { labels: { zon: 'zone1', node: 'node-b' } }),
        zoneNode('node-x', 'zone2'),
        zoneNode('node-y', 'zone2'),
      ],
      [existing('p-a1', 'node-a'), existing('p-b1', 'node-b'), existing('p-x1', 'node-x'), existing('p-y1', 'node-y')],
      { 'node-a': S, 'node-b': UU, 'node-x': U, 'node-y': U },
    ],
    [
      "pod cannot be scheduled as all nodes don't have label 'rack'",
      incoming({ foo: '' }, [hard(1, 'rack', exists('foo'))]),
      [zoneNode('node-a', 'zone1'), zoneNode('node-x', 'zone2')],
      [],
      { 'node-a': UU, 'node-x': UU },
    ],
    [
      'pods spread across nodes as 2/1/0/3, only node-x fits',
      incoming({ foo: '' }, [hard(1, 'node', exists('foo'))]),
      fourNodes(),
      spread2103(),
      { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    ],
    [
      'pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit',
      incoming({ foo: '' }, [hard(2, 'node', exists('foo'))]),
      fourNodes(),
      spread2103(),
      { 'node-a': U, 'node-b': S, 'node-x': S, 'node-y': U },
    ],
    [
      "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
      incoming({ bar: '' }, [hard(1, 'node', exists('foo'))]),
      fourNodes(),
      spread2103(),
      { 'node-a': U, 'node-b': S, 'node-x': S, 'node-y': U },
    ],
    [
      'incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits',
      incoming({ foo: '' }, [hard(1, 'node', exists('foo'))], {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'node', operator: 'In', values: ['node-a', 'node-y'] }] }],
          },
        },
      }),
      fourNodes(),
      spread2103(),
      { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': U },
    ],
    [
      'terminating Pods should be excluded',
      incoming({ foo: '' }, [hard(1, 'node', exists('foo'))]),
      [makeNode('node-a', { labels: { node: 'node-a' } }), makeNode('node-b', { labels: { node: 'node-b' } })],
      [
        existing('p-a', 'node-a', { foo: '' }, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
        existing('p-b', 'node-b'),
      ],
      { 'node-a': S, 'node-b': U },
    ],
    [
      // (added) minDomains 3 with 2 zones: the global minimum counts as 0, so zone1 (2+1−0 = 3 > 2) fails.
      '(added) minDomains greater than the number of domains treats the global minimum as 0',
      incoming({ foo: '' }, [hard(2, 'zone', exists('foo'), { minDomains: 3 })]),
      fourNodes(),
      [existing('p-a1', 'node-a'), existing('p-a2', 'node-a'), existing('p-x1', 'node-x')],
      { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    ],
    [
      // (added) nodeTaintsPolicy Honor: the tainted zone2 node does not count, so the minimum is zone1's.
      '(added) nodeTaintsPolicy Honor leaves untolerated-tainted nodes out of the domain counts',
      incoming({ foo: '' }, [hard(1, 'node', exists('foo'), { nodeTaintsPolicy: 'Honor' })]),
      [
        zoneNode('node-a', 'zone1'),
        makeNode('node-b', { labels: { zone: 'zone1', node: 'node-b' }, taints: [{ key: 't', effect: 'NoSchedule' }] }),
      ],
      [existing('p-a1', 'node-a')],
      // Domains: node-a = 1 only (node-b excluded) → min 1; node-a: 1+1−1 = 1 ≤ 1.
      { 'node-a': S, 'node-b': S },
    ],
    [
      // (added) matchLabelKeys: only pods with the incoming pod's value of "app" count.
      "(added) matchLabelKeys narrows the selector to the pod's own label values",
      incoming({ foo: '', app: 'a' }, [hard(1, 'node', exists('foo'), { matchLabelKeys: ['app'] })]),
      [zoneNode('node-a', 'zone1'), zoneNode('node-b', 'zone1')],
      [
        existing('p-a1', 'node-a', { foo: '', app: 'b' }),
        existing('p-a2', 'node-a', { foo: '', app: 'b' }),
        existing('p-b1', 'node-b', { foo: '', app: 'a' }),
      ],
      { 'node-a': S, 'node-b': U },
    ],
  ])('%s', (_name, pod, nodes, pods, want) => {
    expect(codes(pod, nodes, pods)).toEqual(want);
  });

  it('reasons are the upstream strings', () => {
    const r = runFilter(podTopologySpreadFilter(), incoming({ foo: '' }, [hard(1, 'rack', exists('foo'))]), {
      nodes: [zoneNode('n', 'z')],
    });
    expect(r.kind === 'filter' ? r.statuses.n?.reasons : []).toEqual([ERR_REASON_NODE_LABEL_NOT_MATCH]);
    const r2 = runFilter(podTopologySpreadFilter(), incoming({ foo: '' }, [hard(1, 'node', exists('foo'))]), {
      nodes: fourNodes(),
      pods: spread2103(),
    });
    expect(r2.kind === 'filter' ? r2.statuses['node-a']?.reasons : []).toEqual([ERR_REASON_CONSTRAINTS_NOT_MATCH]);
  });

  it('PreFilter skips pods without DoNotSchedule constraints', () => {
    expect(runFilter(podTopologySpreadFilter(), makePod('p'), { nodes: fourNodes() }).kind).toBe('skip');
  });
});

describe('PodTopologySpread Filter (TestMultipleConstraints)', () => {
  it('"two Constraints on zone and node, spreads = [3/3, 2/1/0/3]"', () => {
    const pod = incoming({ foo: '' }, [hard(1, 'zone', exists('foo')), hard(1, 'node', exists('foo'))]);
    expect(codes(pod, fourNodes(), spread2103())).toEqual({ 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U });
  });
  it('"two Constraints on zone and node, spreads = [3/4, 2/1/0/4]"', () => {
    const pod = incoming({ foo: '' }, [hard(1, 'zone', exists('foo')), hard(1, 'node', exists('foo'))]);
    const pods = [...spread2103(), existing('p-y4', 'node-y')];
    expect(codes(pod, fourNodes(), pods)).toEqual({ 'node-a': U, 'node-b': U, 'node-x': U, 'node-y': U });
  });
});

describe('PodTopologySpread Score (TestPodTopologySpreadScore)', () => {
  const hostNode = (name: string) => makeNode(name, { labels: { [LABEL_HOSTNAME]: name } });
  const pods2103 = () => [
    existing('p-a1', 'node-a'),
    existing('p-a2', 'node-a'),
    existing('p-b1', 'node-b'),
    existing('p-d1', 'node-d'),
    existing('p-d2', 'node-d'),
    existing('p-d3', 'node-d'),
  ];
  const four = () => ['node-a', 'node-b', 'node-c', 'node-d'].map(hostNode);

  it.each<[string, Pod, Node[], Pod[], string[] | undefined, Record<string, number>]>([
    [
      'one constraint on node, no existing pods',
      incoming({ foo: '' }, [soft(1, LABEL_HOSTNAME, exists('foo'))]),
      [hostNode('node-a'), hostNode('node-b')],
      [],
      undefined,
      { 'node-a': 100, 'node-b': 100 },
    ],
    [
      'one constraint on node, only one node is candidate',
      incoming({ foo: '' }, [soft(1, LABEL_HOSTNAME, exists('foo'))]),
      [hostNode('node-a'), hostNode('node-b')],
      [existing('p-a1', 'node-a'), existing('p-a2', 'node-a'), existing('p-b1', 'node-b')],
      ['node-a'],
      { 'node-a': 100 },
    ],
    [
      'one constraint on node, all nodes have the same number of matching pods',
      incoming({ foo: '' }, [soft(1, LABEL_HOSTNAME, exists('foo'))]),
      [hostNode('node-a'), hostNode('node-b')],
      [existing('p-a1', 'node-a'), existing('p-b1', 'node-b')],
      undefined,
      { 'node-a': 100, 'node-b': 100 },
    ],
    [
      'one constraint on node, all 4 nodes are candidates',
      incoming({ foo: '' }, [soft(1, LABEL_HOSTNAME, exists('foo'))]),
      four(),
      pods2103(),
      undefined,
      { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0 },
    ],
    [
      'one constraint on node, null selector',
      incoming({ foo: '' }, [soft(1, LABEL_HOSTNAME, null)]),
      four(),
      pods2103(),
      undefined,
      { 'node-a': 100, 'node-b': 100, 'node-c': 100, 'node-d': 100 },
    ],
    [
      'one constraint on node, all 4 nodes are candidates, maxSkew=2',
      incoming({ foo: '' }, [soft(2, LABEL_HOSTNAME, exists('foo'))]),
      four(),
      pods2103(),
      undefined,
      { 'node-a': 33, 'node-b': 66, 'node-c': 100, 'node-d': 16 },
    ],
  ])('%s', (_name, pod, nodes, pods, feasible, want) => {
    expect(scoreMap(runScore(podTopologySpreadScore(), pod, { nodes, pods }, feasible))).toEqual(want);
  });

  // More of TestPodTopologySpreadScore. Pods are "name@node:labels" (labels comma-separated keys
  // with empty values); nodes are "name:key=value,…"; failed nodes are in the snapshot but not feasible.
  const parsePods = (specs: string[]) =>
    specs.map((spec) => {
      const [nameNode = '', labelList = ''] = spec.split(':');
      const [name = '', node = ''] = nameNode.split('@');
      const labels = Object.fromEntries(
        labelList
          .split(',')
          .filter((l) => l !== '')
          .map((l) => [l, '']),
      );
      return existing(name, node, labels);
    });
  const parseNodes = (specs: string[]) =>
    specs.map((spec) => {
      const [name = '', labelList = ''] = spec.split(':');
      const labels = Object.fromEntries(
        labelList
          .split(',')
          .filter((l) => l !== '')
          .map((l) => {
            const [k = '', v = ''] = l.split('=');
            return [k === 'host' ? LABEL_HOSTNAME : k, v];
          }),
      );
      return makeNode(name, { labels });
    });
  const repeat = (node: string, n: number, labels = 'foo') =>
    Array.from({ length: n }, (_, i) => `p-${node}${i}@${node}:${labels}`);
  const fooSel = exists('foo');
  const barSel = exists('bar');

  it.each<[string, TopologySpreadConstraint[], string, string[], string[], string[], Record<string, number>]>([
    [
      'one constraint on node, all 4 nodes are candidates, maxSkew=3',
      [soft(3, LABEL_HOSTNAME, fooSel)],
      'foo',
      [...repeat('node-a', 4), ...repeat('node-b', 3), ...repeat('node-c', 2), ...repeat('node-d', 1)],
      ['node-a:host=node-a', 'node-b:host=node-b', 'node-c:host=node-c', 'node-d:host=node-d'],
      [],
      { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
    ],
    [
      'one constraint on node, 3 out of 4 nodes are candidates',
      [soft(1, LABEL_HOSTNAME, fooSel)],
      'foo',
      [...repeat('node-a', 4), ...repeat('node-b', 2), ...repeat('node-x', 1), ...repeat('node-y', 3)],
      ['node-a:host=node-a', 'node-b:host=node-b', 'node-x:host=node-x'],
      ['node-y:host=node-y'],
      { 'node-a': 33, 'node-b': 83, 'node-x': 100 },
    ],
    [
      "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
      [soft(1, LABEL_HOSTNAME, fooSel)],
      'foo',
      [...repeat('node-a', 4), ...repeat('node-b', 2), ...repeat('node-x', 1), ...repeat('node-y', 3)],
      ['node-a:host=node-a', 'node-b:n=node-b', 'node-x:host=node-x'],
      ['node-y:host=node-y'],
      { 'node-a': 16, 'node-b': 0, 'node-x': 100 },
    ],
    [
      'one constraint on zone, 3 out of 4 nodes are candidates',
      [soft(1, 'zone', fooSel)],
      'foo',
      [...repeat('node-a', 4), ...repeat('node-b', 2), ...repeat('node-x', 1), ...repeat('node-y', 3)],
      ['node-a:zone=zone1,host=node-a', 'node-b:zone=zone1,host=node-b', 'node-x:zone=zone2,host=node-x'],
      ['node-y:zone=zone2,host=node-y'],
      { 'node-a': 75, 'node-b': 75, 'node-x': 100 },
    ],
    [
      'two Constraints on zone and node, 2 out of 4 nodes are candidates',
      [soft(1, 'zone', fooSel), soft(1, LABEL_HOSTNAME, fooSel)],
      'foo',
      [...repeat('node-a', 2), ...repeat('node-b', 1), ...repeat('node-x', 2), ...repeat('node-y', 4)],
      ['node-a:zone=zone1,host=node-a', 'node-x:zone=zone2,host=node-x'],
      ['node-b:zone=zone1,host=node-b', 'node-y:zone=zone2,host=node-y'],
      { 'node-a': 100, 'node-x': 63 },
    ],
    [
      'two Constraints on zone, 2 out of 4 nodes are candidates',
      [soft(1, 'zone', fooSel), soft(1, 'zone', barSel)],
      'foo,bar',
      [
        'p-a1@node-a:foo,bar',
        'p-a2@node-a:foo',
        'p-b1@node-b:foo,bar',
        'p-y1@node-y:foo',
        'p-y2@node-y:foo,bar',
        'p-y3@node-y:foo',
      ],
      ['node-a:zone=zone1', 'node-x:zone=zone2'],
      ['node-b:zone=zone1', 'node-y:zone=zone2'],
      { 'node-a': 85, 'node-x': 100 },
    ],
    [
      'two Constraints on zone and node, with different labelSelectors',
      [soft(1, 'zone', fooSel), soft(1, LABEL_HOSTNAME, barSel)],
      'foo,bar',
      ['p-a1@node-a:foo', 'p-b1@node-b:foo,bar', 'p-y1@node-y:foo', 'p-y2@node-y:bar'],
      [
        'node-a:zone=zone1,host=node-a',
        'node-b:zone=zone1,host=node-b',
        'node-x:zone=zone2,host=node-x',
        'node-y:zone=zone2,host=node-y',
      ],
      [],
      { 'node-a': 60, 'node-b': 20, 'node-x': 100, 'node-y': 60 },
    ],
    [
      'two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods',
      [soft(1, 'zone', fooSel), soft(1, LABEL_HOSTNAME, barSel)],
      'foo,bar',
      ['p-b1@node-b:bar', 'p-x1@node-x:foo', 'p-y1@node-y:foo,bar'],
      [
        'node-a:zone=zone1,host=node-a',
        'node-b:zone=zone1,host=node-b',
        'node-x:zone=zone2,host=node-x',
        'node-y:zone=zone2,host=node-y',
      ],
      [],
      { 'node-a': 100, 'node-b': 60, 'node-x': 40, 'node-y': 0 },
    ],
    [
      'two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates',
      [soft(1, 'zone', fooSel), soft(1, LABEL_HOSTNAME, barSel)],
      'foo,bar',
      ['p-a1@node-a:foo', 'p-b1@node-b:foo,bar', 'p-y1@node-y:foo', 'p-y2@node-y:bar'],
      ['node-a:zone=zone1,host=node-a', 'node-b:zone=zone1,host=node-b', 'node-x:zone=zone2,host=node-x'],
      ['node-y:zone=zone2,host=node-y'],
      { 'node-a': 50, 'node-b': 25, 'node-x': 100 },
    ],
  ])('%s', (_name, constraints, podLabelList, podSpecs, nodeSpecs, failedSpecs, want) => {
    const labels = Object.fromEntries(podLabelList.split(',').map((l) => [l, '']));
    const nodes = parseNodes([...nodeSpecs, ...failedSpecs]);
    const feasible = parseNodes(nodeSpecs).map((n) => n.metadata.name);
    const got = runScore(
      podTopologySpreadScore(),
      incoming(labels, constraints),
      { nodes, pods: parsePods(podSpecs) },
      feasible,
    );
    expect(scoreMap(got)).toEqual(want);
  });

  it('"system defaulting, nodes don\'t have zone, pods match service"', () => {
    const pods = parsePods([
      ...repeat('node-a', 4),
      ...repeat('node-b', 3),
      ...repeat('node-c', 2),
      ...repeat('node-d', 1),
    ]);
    const nodes = parseNodes(['node-a:host=node-a', 'node-b:host=node-b', 'node-c:host=node-c', 'node-d:host=node-d']);
    const services = [{ metadata: { name: 'svc' }, spec: { selector: { foo: '' } } }];
    const got = runScore(podTopologySpreadScore(), makePod('p', { labels: { foo: '' } }), { nodes, pods, services });
    expect(scoreMap(got)).toEqual({ 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 });
  });

  it('(added) nodes missing a topology key are ignored and score 0', () => {
    // zone constraint: node-c lacks "zone". Counts: zone1 = 2 (a), zone2 = 1 (b); weight log(2+2).
    // raw a = round(2·1.386) = 3, b = round(1.386) = 1; normalized a = 100·(3+1−3)/3 = 33, b = 100.
    const nodes = [
      makeNode('node-a', { labels: { zone: 'zone1' } }),
      makeNode('node-b', { labels: { zone: 'zone2' } }),
      makeNode('node-c', { labels: {} }),
    ];
    const pods = [existing('p1', 'node-a'), existing('p2', 'node-a'), existing('p3', 'node-b')];
    const pod = incoming({ foo: '' }, [soft(1, 'zone', exists('foo'))]);
    expect(scoreMap(runScore(podTopologySpreadScore(), pod, { nodes, pods }))).toEqual({
      'node-a': 33,
      'node-b': 100,
      'node-c': 0,
    });
  });

  it('(added) system default constraints use the selector of the Services selecting the pod', () => {
    // Hostname (maxSkew 3) and zone (maxSkew 5) constraints, selector app=web from the Service.
    // node-a (zone1) has 2 web pods, node-b (zone1) 0, node-c (zone2) 0. Hostname weight log(3+2),
    // zone weight log(2+2). raw a = 2·1.609+2 + 2·1.386+4 = 11.99 → 12; b = 0+2 + 2.773+4 → 9;
    // c = 2 + 0 + 4 = 6. normalized: a 100·(12+6−12)/12 = 50, b 100·9/12 = 75, c 100.
    const nodes = ['node-a', 'node-b', 'node-c'].map((n, i) =>
      makeNode(n, { labels: { [LABEL_HOSTNAME]: n, 'topology.kubernetes.io/zone': i < 2 ? 'zone1' : 'zone2' } }),
    );
    const pods = [existing('w1', 'node-a', { app: 'web' }), existing('w2', 'node-a', { app: 'web' })];
    const services = [{ metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' } } }];
    const pod = makePod('p', { labels: { app: 'web' } });
    expect(scoreMap(runScore(podTopologySpreadScore(), pod, { nodes, pods, services }))).toEqual({
      'node-a': 50,
      'node-b': 75,
      'node-c': 100,
    });
    // Without an owner selecting the pod, there are no default constraints.
    expect(runScore(podTopologySpreadScore(), pod, { nodes, pods })).toBe('skip');
    // A selector provider stands in for the owners.
    const provided = podTopologySpreadScore({ defaultSelector: () => ({ matchLabels: { app: 'web' } }) });
    expect(scoreMap(runScore(provided, pod, { nodes, pods }))).toEqual({ 'node-a': 50, 'node-b': 75, 'node-c': 100 });
    expect(runScore(podTopologySpreadScore({ defaultSelector: () => null }), pod, { nodes, pods, services })).toBe(
      'skip',
    );
    // List defaulting with no constraints disables them.
    expect(runScore(podTopologySpreadScore({ defaultingType: 'List' }), pod, { nodes, pods, services })).toBe('skip');
  });
});
