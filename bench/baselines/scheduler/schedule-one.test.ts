// The scheduling cycle: schedule_one_test.go (TestNumFeasibleNodesToFind, TestSelectHost,
// TestSchedulerSchedulePod's FitError messages) plus whole-cycle checks of this port.

import { describe, expect, it } from 'vitest';
import { buildProfile } from './profile.js';
import { SplitMix64 } from './rng.js';
import {
  newCycleState,
  numFeasibleNodesToFind,
  ReferenceScheduler,
  runScenario,
  schedulePod,
  selectHost,
} from './schedule-one.js';
import { buildSnapshot } from './snapshot.js';
import { makeNode, makePod } from './testing.js';
import type { Node } from './types.js';

describe('numFeasibleNodesToFind (TestNumFeasibleNodesToFind)', () => {
  it.each([
    ['not set percentageOfNodesToScore and nodes number not more than 50', 0, 10, 10],
    ['set profile percentageOfNodesToScore and nodes number not more than 50', 40, 10, 10],
    ['not set percentageOfNodesToScore and nodes number more than 50', 0, 1000, 420],
    ['set profile percentageOfNodesToScore and nodes number more than 50', 40, 1000, 400],
    ['not set percentageOfNodesToScore and nodes number more than 50*125', 0, 6000, 300],
    ['set profile percentageOfNodesToScore and nodes number more than 50*125', 40, 6000, 2400],
    ['(added) 5000 nodes adaptive', 0, 5000, 500],
    ['(added) 15000 nodes adaptive', 0, 15000, 750],
    ['(added) 100% checks all', 100, 200, 200],
    ['(added) never fewer than 100', 1, 1000, 100],
  ])('%s', (_name, pct, nodes, want) => {
    expect(numFeasibleNodesToFind(pct, nodes)).toBe(want);
  });
});

describe('selectHost (TestSelectHost)', () => {
  it('"unique properly ordered scores"', () => {
    expect(
      selectHost(
        [
          { node: 'node1.1', total: 1 },
          { node: 'node2.1', total: 2 },
        ],
        new SplitMix64(1),
      ),
    ).toBe('node2.1');
  });
  it('"equal scores" picks each maximum about equally often', () => {
    const rng = new SplitMix64(42);
    const scores = [
      { node: 'node1.1', total: 1 },
      { node: 'node1.2', total: 2 },
      { node: 'node1.3', total: 2 },
      { node: 'node2.1', total: 2 },
    ];
    const hits = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const n = selectHost(scores, rng) ?? '';
      hits.set(n, (hits.get(n) ?? 0) + 1);
    }
    expect(hits.get('node1.1')).toBeUndefined();
    for (const n of ['node1.2', 'node1.3', 'node2.1']) {
      expect(hits.get(n)).toBeGreaterThan(850);
      expect(hits.get(n)).toBeLessThan(1150);
    }
  });
  it('"empty priority list"', () => {
    expect(selectHost([], new SplitMix64(0))).toBeNull();
  });
  it('draws below(count) only on ties, in order — the sequence the Rust engine must reproduce', () => {
    const scores = [
      { node: 'a', total: 5 },
      { node: 'b', total: 5 },
      { node: 'c', total: 3 },
      { node: 'd', total: 5 },
    ];
    const mirror = new SplitMix64(7);
    const draw2 = mirror.below(2);
    const draw3 = mirror.below(3);
    const want = draw3 === 0 ? 'd' : draw2 === 0 ? 'b' : 'a';
    expect(selectHost(scores, new SplitMix64(7))).toBe(want);
  });
});

const cpuNode = (name: string, cpu: string, extra: Partial<Parameters<typeof makeNode>[1]> = {}): Node =>
  makeNode(name, { allocatable: { cpu, memory: '32Gi' }, ...extra });

describe('schedulePod', () => {
  it('FailedScheduling: "0/5 nodes are available: 2 node(s) had untolerated taint {foo: bar}, 3 Insufficient cpu."', () => {
    const nodes = [
      cpuNode('n1', '100m'),
      cpuNode('n2', '4', { taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }] }),
      cpuNode('n3', '100m'),
      cpuNode('n4', '4', { taints: [{ key: 'foo', value: 'bar', effect: 'NoExecute' }] }),
      cpuNode('n5', '100m'),
    ];
    const r = new ReferenceScheduler().scheduleOne(
      buildSnapshot({ nodes }),
      makePod('p', { requests: [{ cpu: '1' }] }),
    );
    expect(r.nodeName).toBeNull();
    expect(r.message).toBe('0/5 nodes are available: 2 node(s) had untolerated taint {foo: bar}, 3 Insufficient cpu.');
    expect(r.filter.map((f) => f.verdicts.at(-1)?.plugin)).toEqual([
      'NodeResourcesFit',
      'TaintToleration',
      'NodeResourcesFit',
      'TaintToleration',
      'NodeResourcesFit',
    ]);
    // Filters run in profile order and stop at the first rejection.
    expect(r.filter[1]?.verdicts.map((v) => v.plugin)).toEqual(['NodeUnschedulable', 'NodeName', 'TaintToleration']);
  });

  it('counts every reason of a multi-reason status', () => {
    const nodes = [
      makeNode('n1', { allocatable: { cpu: '1', memory: '1Gi' } }),
      makeNode('n2', { allocatable: { cpu: '1', memory: '1Gi' } }),
    ];
    const r = new ReferenceScheduler().scheduleOne(
      buildSnapshot({ nodes }),
      makePod('p', { requests: [{ cpu: '2', memory: '2Gi' }] }),
    );
    expect(r.message).toBe('0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory.');
  });

  it('PreFilter rejection: "0/2 nodes are available: pod affinity terms conflict."', () => {
    const pod = makePod('p', {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchFields: [
                  { key: 'metadata.name', operator: 'In', values: ['n1'] },
                  { key: 'metadata.name', operator: 'In', values: ['n2'] },
                ],
              },
            ],
          },
        },
      },
    });
    const r = new ReferenceScheduler().scheduleOne(
      buildSnapshot({ nodes: [cpuNode('n1', '4'), cpuNode('n2', '4')] }),
      pod,
    );
    expect(r.message).toBe('0/2 nodes are available: pod affinity terms conflict.');
    expect(r.preFilter.find((p) => p.outcome === 'reject')?.plugin).toBe('NodeAffinity');
  });

  it('PreFilterResult narrows the candidates; the others count as absent', () => {
    const pod = makePod('p', {
      requests: [{ cpu: '8' }],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }],
          },
        },
      },
    });
    const nodes = [cpuNode('n1', '4'), cpuNode('n2', '4'), cpuNode('n3', '4')];
    const r = new ReferenceScheduler().scheduleOne(buildSnapshot({ nodes }), pod);
    expect(r.preFilterNodeNames).toEqual(['n2']);
    expect(r.evaluatedNodes).toBe(1);
    expect(r.message).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].",
    );
  });

  it('a single feasible node is chosen without scoring', () => {
    const nodes = [cpuNode('n1', '100m'), cpuNode('n2', '4')];
    const r = new ReferenceScheduler().scheduleOne(
      buildSnapshot({ nodes }),
      makePod('p', { requests: [{ cpu: '1' }] }),
    );
    expect(r.nodeName).toBe('n2');
    expect(r.scores).toEqual([]);
    expect(r.feasibleNodes).toBe(1);
  });

  it('totals are Σ weight × normalized score, default weights', () => {
    // n1 is emptier: LeastAllocated prefers it; everything else ties.
    const nodes = [cpuNode('n1', '4'), cpuNode('n2', '4')];
    const pods = [makePod('e', { nodeName: 'n2', requests: [{ cpu: '2', memory: '16Gi' }] })];
    const r = new ReferenceScheduler().scheduleOne(
      buildSnapshot({ nodes, pods }),
      makePod('p', { requests: [{ cpu: '1', memory: '1Gi' }] }),
    );
    expect(r.nodeName).toBe('n1');
    const n1 = r.scores.find((s) => s.node === 'n1');
    const byPlugin = Object.fromEntries((n1?.plugins ?? []).map((p) => [p.plugin, [p.raw, p.normalized, p.weighted]]));
    // cpu (4000−1000)/4000 → 75, memory (32−1)/32 → 96: (75+96)/2 = 85.
    expect(byPlugin.NodeResourcesFit).toEqual([85, 85, 85]);
    expect(byPlugin.TaintToleration).toEqual([0, 100, 300]);
    // cpu 1000/4000 = .25, memory 1/32 = .03125: std = .109375 → 89.
    expect(byPlugin.NodeResourcesBalancedAllocation).toEqual([89, 89, 89]);
    expect(byPlugin.ImageLocality).toEqual([0, 0, 0]);
    expect(r.skippedScorePlugins).toEqual(['NodeAffinity', 'PodTopologySpread', 'InterPodAffinity']);
    expect(n1?.total).toBe(85 + 300 + 89);
  });

  it('walks nodes round-robin across cycles and stops at the feasible quota', () => {
    const nodes = Array.from({ length: 250 }, (_, i) => cpuNode(`n${i}`, '4'));
    const snapshot = buildSnapshot({ nodes });
    const state = newCycleState(3);
    const profile = buildProfile();
    // 250 nodes: 50 − 250/125 = 48% → 120 nodes per cycle.
    const first = schedulePod(profile, snapshot, makePod('p1'), state);
    expect(first.evaluatedNodes).toBe(120);
    expect(first.filter[0]?.node).toBe('n0');
    expect(state.nextStartNodeIndex).toBe(120);
    const second = schedulePod(profile, snapshot, makePod('p2'), state);
    expect(second.filter[0]?.node).toBe('n120');
    expect(state.nextStartNodeIndex).toBe(240);
    const third = schedulePod(profile, snapshot, makePod('p3'), state);
    expect(third.filter.map((f) => f.node).slice(9, 11)).toEqual(['n249', 'n0']);
    expect(state.nextStartNodeIndex).toBe(110);
  });

  it('counts rejected nodes toward the start index too', () => {
    const nodes = Array.from({ length: 120 }, (_, i) => cpuNode(`n${i}`, i < 10 ? '10m' : '4'));
    const state = newCycleState();
    // 120 nodes: 49% → 58, raised to 100 feasible; 10 rejected first, so 110 evaluated.
    const r = schedulePod(buildProfile(), buildSnapshot({ nodes }), makePod('p', { requests: [{ cpu: '1' }] }), state);
    expect(r.feasibleNodes).toBe(100);
    expect(r.evaluatedNodes).toBe(110);
    expect(state.nextStartNodeIndex).toBe(110);
  });

  it('is reproducible from the seed, and ties are broken by it', () => {
    const nodes = Array.from({ length: 8 }, (_, i) => cpuNode(`n${i}`, '4'));
    const pick = (seed: number) =>
      new ReferenceScheduler({ seed }).scheduleOne(buildSnapshot({ nodes }), makePod('p')).nodeName;
    expect(pick(5)).toBe(pick(5));
    expect(new Set(Array.from({ length: 40 }, (_, s) => pick(s))).size).toBeGreaterThan(4);
  });

  it('no nodes: "no nodes available to schedule pods"', () => {
    expect(new ReferenceScheduler().scheduleOne(buildSnapshot({ nodes: [] }), makePod('p')).message).toBe(
      'no nodes available to schedule pods',
    );
  });
});

describe('profiles', () => {
  it('disabled plugins do not run; weights apply; 0 means 1', () => {
    const nodes = [
      cpuNode('n1', '4', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }),
      cpuNode('n2', '4', { taints: [{ key: 'k', effect: 'NoSchedule' }] }),
    ];
    const s = new ReferenceScheduler({
      profile: { disabledFilters: ['TaintToleration'], weights: { TaintToleration: 0 }, disabled: ['ImageLocality'] },
    });
    const r = s.scheduleOne(buildSnapshot({ nodes }), makePod('p'));
    expect(r.feasibleNodes).toBe(2);
    const taint = r.scores.map((n) => n.plugins.find((p) => p.plugin === 'TaintToleration')?.weighted);
    expect(taint).toEqual([0, 100]);
    expect(r.scores[0]?.plugins.some((p) => p.plugin === 'ImageLocality')).toBe(false);
    expect(r.nodeName).toBe('n2');
  });

  it('MostAllocated packs pods onto the fuller node', () => {
    const nodes = [cpuNode('n1', '4'), cpuNode('n2', '4')];
    const pods = [makePod('e', { nodeName: 'n2', requests: [{ cpu: '2', memory: '1Gi' }] })];
    const s = new ReferenceScheduler({
      profile: {
        pluginArgs: { NodeResourcesFit: { scoringStrategy: { type: 'MostAllocated' } } },
        disabled: ['NodeResourcesBalancedAllocation'],
      },
    });
    expect(
      s.scheduleOne(buildSnapshot({ nodes, pods }), makePod('p', { requests: [{ cpu: '1', memory: '1Gi' }] })).nodeName,
    ).toBe('n2');
  });
});

describe('runScenario', () => {
  it('results are plain JSON and reproducible', () => {
    const scenario = {
      cluster: { nodes: Array.from({ length: 4 }, (_, i) => cpuNode(`n${i}`, '1')) },
      pods: Array.from({ length: 6 }, (_, i) => makePod(`p${i}`, { requests: [{ cpu: '600m' }] })),
      seed: 9,
    };
    const a = runScenario(scenario);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    expect(runScenario(scenario)).toEqual(a);
    expect(a.filter((r) => r.nodeName !== null)).toHaveLength(4);
    expect(a[5]?.message).toBe('0/4 nodes are available: 4 Insufficient cpu.');
  });
});
