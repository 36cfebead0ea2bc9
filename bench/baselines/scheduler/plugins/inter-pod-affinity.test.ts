// Cases ported from pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go
// (TestPreferredAffinity, TestPreferredAffinityWithHardPodAffinitySymmetricWeight) and
// filtering_test.go (TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes).
// Go's test pods have namespace ""; here they are all in "default", which changes nothing.

import { describe, expect, it } from 'vitest';
import { runFilter, runScore, scoreMap } from '../plugin-runner.js';
import { makeNode, makePod } from '../testing.js';
import type { Affinity, LabelSelectorRequirement, Namespace, Node, Pod, PodAffinityTerm } from '../types.js';
import {
  ERR_REASON_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  interPodAffinityFilter,
  interPodAffinityScore,
} from './inter-pod-affinity.js';

const labelRgChina = { region: 'China' };
const labelRgIndia = { region: 'India' };
const labelAzAz1 = { az: 'az1' };
const labelAzAz2 = { az: 'az2' };
const labelRgChinaAzAz1 = { region: 'China', az: 'az1' };
const S1 = { security: 'S1' };
const S2 = { security: 'S2' };

const namespaces: Namespace[] = [
  { metadata: { name: 'subteam1.team1', labels: { team: 'team1' } } },
  { metadata: { name: 'subteam2.team1', labels: { team: 'team1' } } },
  { metadata: { name: 'subteam1.team2', labels: { team: 'team2' } } },
  { metadata: { name: 'subteam2.team2', labels: { team: 'team2' } } },
];

const term = (topologyKey: string, ...matchExpressions: LabelSelectorRequirement[]): PodAffinityTerm => ({
  labelSelector: { matchExpressions },
  topologyKey,
});
const securityIn = (...values: string[]): LabelSelectorRequirement => ({ key: 'security', operator: 'In', values });
const weighted = (weight: number, podAffinityTerm: PodAffinityTerm) => ({ weight, podAffinityTerm });

const stayWithS1InRegion: Affinity = {
  podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term('region', securityIn('S1')))] },
};
const stayWithS2InRegion: Affinity = {
  podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(6, term('region', securityIn('S2')))] },
};
const affinity3: Affinity = {
  podAffinity: {
    preferredDuringSchedulingIgnoredDuringExecution: [
      weighted(8, term('region', { key: 'security', operator: 'NotIn', values: ['S1'] }, securityIn('S2'))),
      weighted(
        2,
        term('region', { key: 'security', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }),
      ),
    ],
  },
};
const hardAffinity: Affinity = {
  podAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: [
      term('region', securityIn('S1', 'value2')),
      term('region', { key: 'security', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }),
    ],
  },
};
const awayFromS1InAz: Affinity = {
  podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term('az', securityIn('S1')))] },
};
const awayFromS2InAz: Affinity = {
  podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term('az', securityIn('S2')))] },
};
const stayWithS1InRegionAwayFromS2InAz: Affinity = {
  podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(8, term('region', securityIn('S1')))] },
  podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term('az', securityIn('S2')))] },
};
const nsSelectorTerm: PodAffinityTerm = {
  ...term('region', securityIn('S1')),
  namespaces: ['subteam2.team2'],
  namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['team1'] }] },
};
const affinityNamespaceSelector: Affinity = {
  podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, nsSelectorTerm)] },
};
const antiAffinityNamespaceSelector: Affinity = {
  podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, nsSelectorTerm)] },
};

let seq = 0;
const at = (nodeName: string, labels: Record<string, string> = {}, affinity?: Affinity, namespace?: string): Pod =>
  makePod(`e${seq++}`, {
    nodeName,
    labels,
    ...(affinity === undefined ? {} : { affinity }),
    ...(namespace === undefined ? {} : { namespace }),
  });
const incoming = (labels: Record<string, string>, affinity?: Affinity, namespace?: string): Pod =>
  makePod('incoming', {
    labels,
    ...(affinity === undefined ? {} : { affinity }),
    ...(namespace === undefined ? {} : { namespace }),
  });
const nodesOf = (...labels: Record<string, string>[]): Node[] =>
  labels.map((l, i) => makeNode(`node${i + 1}`, { labels: l }));

describe('InterPodAffinity Score (TestPreferredAffinity)', () => {
  it('"all nodes are same priority as Affinity is nil" (Skip)', () => {
    expect(
      runScore(interPodAffinityScore(), incoming(S1), { nodes: nodesOf(labelRgChina, labelRgIndia, labelAzAz1) }),
    ).toBe('skip');
  });

  it.each([
    {
      name: "Affinity: pod that matches topology key & pods in nodes will get high score comparing to otherswhich doesn't match either pods in nodes or in topology key",
      pod: incoming(S1, stayWithS1InRegion),
      pods: [at('node1', S1), at('node2', S2), at('node3', S1)],
      nodes: nodesOf(labelRgChina, labelRgIndia, labelAzAz1),
      want: [100, 0, 0],
    },
    {
      name: 'All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score',
      pod: incoming({}, stayWithS1InRegion),
      pods: [at('node1', S1)],
      nodes: nodesOf(labelRgChina, labelRgChinaAzAz1, labelRgIndia),
      want: [100, 100, 0],
    },
    {
      name: 'Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score',
      pod: incoming(S1, stayWithS2InRegion),
      pods: [at('node1', S2), at('node1', S2), at('node2', S2), at('node3', S2), at('node4', S2), at('node5', S2)],
      nodes: nodesOf(labelRgChina, labelRgIndia, labelRgChina, labelRgChina, labelRgIndia),
      want: [100, 0, 100, 100, 0],
    },
    {
      name: 'Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures ',
      pod: incoming(S1, affinity3),
      pods: [at('node1', S1), at('node2', S2), at('node3', S1)],
      nodes: nodesOf(labelRgChina, labelRgIndia, labelAzAz1),
      want: [20, 100, 0],
    },
    {
      name: 'Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry',
      pod: incoming(S2),
      pods: [at('node1', S1, stayWithS1InRegion), at('node2', S2, stayWithS2InRegion)],
      nodes: nodesOf(labelRgChina, labelRgIndia, labelAzAz1),
      want: [0, 100, 0],
    },
    {
      name: 'Affinity symmetry with namespace selector',
      pod: incoming(S1, undefined, 'subteam1.team1'),
      pods: [at('node1', S1, affinityNamespaceSelector), at('node2', S2, stayWithS2InRegion)],
      nodes: nodesOf(labelRgChina, labelRgIndia, labelAzAz1),
      want: [100, 0, 0],
    },
    {
      name: 'AntiAffinity symmetry with namespace selector',
      pod: incoming(S1, undefined, 'subteam1.team1'),
      pods: [at('node1', S1, antiAffinityNamespaceSelector), at('node2', S2, stayWithS2InRegion)],
      nodes: nodesOf(labelRgChina, labelRgIndia, labelAzAz1),
      want: [0, 100, 100],
    },
    {
      name: 'Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry',
      pod: incoming(S1),
      pods: [at('node1', S1, hardAffinity), at('node2', S2, hardAffinity)],
      nodes: nodesOf(labelRgChina, labelRgIndia, labelAzAz1),
      want: [100, 100, 0],
    },
    {
      name: 'Anti Affinity: pod that does not match existing pods in node will get high score ',
      pod: incoming(S1, awayFromS1InAz),
      pods: [at('node1', S1), at('node2', S2)],
      nodes: nodesOf(labelAzAz1, labelRgChina),
      want: [0, 100],
    },
    {
      name: 'Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others ',
      pod: incoming(S1, awayFromS1InAz),
      pods: [at('node1', S1), at('node2', S1)],
      nodes: nodesOf(labelAzAz1, labelRgChina),
      want: [0, 100],
    },
    {
      name: 'Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score',
      pod: incoming(S1, awayFromS1InAz),
      pods: [at('node1', S1), at('node1', S1), at('node2', S2)],
      nodes: nodesOf(labelAzAz1, labelRgIndia),
      want: [0, 100],
    },
    {
      name: 'Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score',
      pod: incoming(S2),
      pods: [at('node1', S1, awayFromS2InAz), at('node2', S2, awayFromS1InAz)],
      nodes: nodesOf(labelAzAz1, labelAzAz2),
      want: [0, 100],
    },
    {
      name: 'Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity',
      pod: incoming(S1, stayWithS1InRegionAwayFromS2InAz),
      pods: [at('node1', S1), at('node2', S1)],
      nodes: nodesOf(labelRgChina, labelAzAz1),
      want: [100, 0],
    },
    {
      name: 'Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels',
      pod: incoming(S1, stayWithS1InRegionAwayFromS2InAz),
      pods: [
        at('node1', S1),
        at('node1', S1),
        at('node2', S1),
        at('node3', S1),
        at('node3', S1),
        at('node4', S1),
        at('node5', S1),
      ],
      nodes: nodesOf(labelRgChinaAzAz1, labelRgIndia, labelRgChina, labelRgChina, labelRgIndia),
      want: [100, 0, 100, 100, 0],
    },
    {
      name: 'Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry',
      pod: incoming(S1, stayWithS1InRegionAwayFromS2InAz),
      pods: [
        at('node1', S1),
        at('node2', S2),
        at('node3', {}, stayWithS1InRegionAwayFromS2InAz),
        at('node4', {}, awayFromS1InAz),
      ],
      nodes: nodesOf(labelRgChina, labelAzAz1, labelRgIndia, labelAzAz2),
      want: [100, 0, 100, 0],
    },
    {
      name: "Avoid panic when partial nodes in a topology don't have pods with affinity",
      pod: incoming(S1),
      pods: [at('node1', S1), at('node2', {}, stayWithS1InRegionAwayFromS2InAz)],
      nodes: nodesOf(labelRgChina, labelRgChina),
      want: [0, 0],
    },
  ])('$name', ({ pod, pods, nodes, want }) => {
    const got = scoreMap(runScore(interPodAffinityScore(), pod, { nodes, pods, namespaces }));
    expect(got).toEqual(Object.fromEntries(want.map((s, i) => [`node${i + 1}`, s])));
  });
});

describe('InterPodAffinity Score (TestPreferredAffinityWithHardPodAffinitySymmetricWeight)', () => {
  const pods = () => [at('node1', {}, hardAffinity), at('node2', {}, hardAffinity)];
  const nodes = nodesOf(labelRgChina, labelRgIndia, labelAzAz1);
  it('"with default weight"', () => {
    expect(scoreMap(runScore(interPodAffinityScore(), incoming(S1), { nodes, pods: pods() }))).toEqual({
      node1: 100,
      node2: 100,
      node3: 0,
    });
  });
  it('"with zero weight"', () => {
    expect(runScore(interPodAffinityScore({ hardPodAffinityWeight: 0 }), incoming(S1), { nodes, pods: pods() })).toBe(
      'skip',
    );
  });
});

describe('InterPodAffinity Filter (TestRequiredAffinitySingleNode)', () => {
  const required = (...terms: PodAffinityTerm[]): Affinity => ({
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms },
  });
  const anti = (...terms: PodAffinityTerm[]): Affinity => ({
    podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms },
  });
  const serviceIn = (...values: string[]): LabelSelectorRequirement => ({ key: 'service', operator: 'In', values });
  const node1 = makeNode('node1', { labels: { region: 'r1', zone: 'z11', hostname: 'h1' } });
  const verdict = (pod: Pod, pods: Pod[]) => {
    const r = runFilter(interPodAffinityFilter(), pod, { nodes: [node1], pods });
    return r.kind === 'filter' ? (r.statuses.node1?.reasons[0] ?? 'fit') : r.kind;
  };
  const podLabel = { service: 'securityscan' };

  it.each([
    [
      'A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods',
      incoming({}),
      [],
      'skip',
    ],
    [
      'satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod',
      incoming(podLabel, required(term('region', serviceIn('securityscan', 'value2')))),
      [at('node1', podLabel)],
      'fit',
    ],
    [
      'satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod',
      incoming(
        podLabel,
        required(term('region', { key: 'service', operator: 'NotIn', values: ['securityscan3', 'value3'] })),
      ),
      [at('node1', podLabel)],
      'fit',
    ],
    [
      'Does not satisfy the PodAffinity with labelSelector because of diff Namespace',
      incoming(
        podLabel,
        required({ ...term('region', serviceIn('securityscan', 'value2')), namespaces: ['DiffNameSpace'] }),
      ),
      [at('node1', podLabel, undefined, 'ns')],
      ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ],
    [
      "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
      incoming(podLabel, required(term('region', serviceIn('antivirusscan', 'value2')))),
      [at('node1', podLabel)],
      ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ],
    [
      'satisfies the PodAffinity and PodAntiAffinity with the existing pod',
      incoming(podLabel, {
        ...required(term('region', serviceIn('securityscan', 'value2'))),
        ...anti(term('node', serviceIn('antivirusscan', 'value2'))),
      }),
      [at('node1', podLabel)],
      'fit',
    ],
    [
      "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
      incoming(podLabel, {
        ...required(term('region', serviceIn('securityscan', 'value2'))),
        ...anti(term('zone', serviceIn('securityscan', 'value2'))),
      }),
      [at('node1', podLabel)],
      ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ],
    [
      "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
      incoming(podLabel, {
        ...required(term('region', serviceIn('securityscan', 'value2'))),
        ...anti(term('node', serviceIn('antivirusscan', 'value2'))),
      }),
      [at('node1', podLabel, anti(term('zone', serviceIn('securityscan', 'value2'))))],
      ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    ],
    [
      'pod matches its own Label in PodAffinity and that matches the existing pod Labels',
      incoming(
        podLabel,
        required(term('region', { key: 'service', operator: 'NotIn', values: ['securityscan', 'value2'] })),
      ),
      [at('node2', podLabel)],
      ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ],
    [
      "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
      incoming(podLabel),
      [at('node1', podLabel, anti(term('zone', serviceIn('securityscan', 'value2'))))],
      ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    ],
    [
      'verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod',
      incoming(podLabel),
      [
        at(
          'node1',
          podLabel,
          anti(term('zone', { key: 'service', operator: 'NotIn', values: ['securityscan', 'value2'] })),
        ),
      ],
      'skip', // PreFilter Skip: nothing to check, the node fits
    ],
    [
      "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
      incoming(
        podLabel,
        anti(
          term('region', { key: 'service', operator: 'Exists' }),
          term('zone', { key: 'security', operator: 'Exists' }),
        ),
      ),
      [at('node1', { security: 'securityscan' }, anti(term('zone', { key: 'security', operator: 'Exists' })))],
      ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ],
    [
      '(added) no pod matches the terms but the pod matches its own: the first pod of a group may land',
      incoming(podLabel, required(term('region', serviceIn('securityscan')))),
      [],
      'fit',
    ],
  ] as [string, Pod, Pod[], string][])('%s', (_name, pod, pods, want) => {
    expect(verdict(pod, pods)).toBe(want);
  });
});

describe('InterPodAffinity Filter (TestRequiredAffinityMultipleNodes)', () => {
  it('"A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules"', () => {
    const nodes = [
      makeNode('nodeA', { labels: { region: 'r1', zone: 'z1', hostname: 'h1' } }),
      makeNode('nodeB', { labels: { region: 'r1', zone: 'z2', hostname: 'h2' } }),
    ];
    const pod = incoming(
      {},
      {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            term('hostname', { key: 'foo', operator: 'In', values: ['bar'] }),
          ],
        },
      },
    );
    const r = runFilter(interPodAffinityFilter(), pod, { nodes, pods: [at('nodeA', { foo: 'bar' })] });
    expect(r.kind === 'filter' ? [r.statuses.nodeA?.code, r.statuses.nodeB?.code] : r).toEqual([
      'Success',
      'UnschedulableAndUnresolvable',
    ]);
  });

  it('"The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys"', () => {
    const nodes = [
      makeNode('nodeA', { labels: { region: 'r1', zone: 'z1', hostname: 'nodeA' } }),
      makeNode('nodeB', { labels: { region: 'r1', hostname: 'nodeB' } }),
    ];
    const pod = incoming(
      { foo: 'bar', service: 'securityscan' },
      {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            term('zone', { key: 'foo', operator: 'In', values: ['bar'] }),
            term('region', { key: 'service', operator: 'In', values: ['securityscan'] }),
          ],
        },
      },
    );
    const r = runFilter(interPodAffinityFilter(), pod, { nodes });
    expect(r.kind === 'filter' ? [r.statuses.nodeA?.code, r.statuses.nodeB?.reasons] : r).toEqual([
      'Success',
      [ERR_REASON_AFFINITY_RULES_NOT_MATCH],
    ]);
  });

  it('"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB."', () => {
    const nodes = [
      makeNode('nodeA', { labels: { region: 'r1', zone: 'z1', hostname: 'h1' } }),
      makeNode('nodeB', { labels: { region: 'r1', zone: 'z2', hostname: 'h2' } }),
    ];
    const pod = incoming(
      {},
      {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            term('region', { key: 'foo', operator: 'In', values: ['abc'] }),
          ],
        },
      },
    );
    const r = runFilter(interPodAffinityFilter(), pod, { nodes, pods: [at('nodeA', { foo: 'abc' })] });
    expect(r.kind === 'filter' ? [r.statuses.nodeA?.reasons, r.statuses.nodeB?.reasons] : r).toEqual([
      [ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH],
      [ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH],
    ]);
  });
});
