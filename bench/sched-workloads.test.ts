import { beforeAll, describe, expect, it } from 'vitest';
import type { Kubewasm } from '../ts/wasm/kubewasm.js';
import { loadKubewasm } from '../ts/wasm/node.js';
import type { Pod } from './baselines/scheduler/types.js';
import {
  constraintViolations,
  materialize,
  POD_WITH_POD_ANTI_AFFINITY,
  POD_WITH_TOPOLOGY_SPREADING,
  SCHED_WORKLOADS,
  type SchedWorkload,
  selectWorkloads,
} from './sched-workloads.js';

let kw: Kubewasm;
beforeAll(async () => {
  kw = await loadKubewasm();
});

describe('scheduler_perf workloads', () => {
  it('match the performance configs (scheduler.md §1.2)', () => {
    const shape = SCHED_WORKLOADS.map((w) => [
      w.name,
      w.nodes,
      w.init.reduce((n, s) => n + s.count, 0),
      w.measure.count,
      w.threshold,
    ]);
    expect(shape).toEqual([
      ['SchedulingBasic/5000Nodes_10000Pods', 5000, 1000, 10000, 680],
      ['SchedulingBasic/5000Nodes_50000Pods', 5000, 5000, 50000, 810],
      ['SchedulingPodAntiAffinity/5000Nodes_2000Pods', 5000, 1000, 2000, 60],
      ['SchedulingPodAffinity/5000Nodes_5000Pods', 5000, 5000, 5000, 35],
      ['SchedulingPreferredPodAffinity/5000Nodes_5000Pods', 5000, 5000, 5000, 90],
      ['SchedulingPreferredPodAntiAffinity/5000Nodes_5000Pods', 5000, 5000, 5000, 90],
      ['SchedulingNodeAffinity/5000Nodes_10000Pods', 5000, 5000, 10000, 220],
      ['TopologySpreading/5000Nodes_5000Pods', 5000, 5000, 5000, 460],
      ['PreferredTopologySpreading/5000Nodes_5000Pods', 5000, 5000, 5000, 340],
      ['MixedSchedulingBasePod/5000Nodes_5000Pods', 5000, 10000, 5000, 140],
    ]);
  });

  it('materialize labelled nodes and uniquely named pods', () => {
    const spread = selectWorkloads('TopologySpreading')[0] as SchedWorkload;
    const { nodes, initPods, measurePods } = materialize(spread);
    expect(nodes).toHaveLength(5000);
    expect(nodes[4]?.metadata.labels).toEqual({
      'kubernetes.io/hostname': 'scheduler-perf-4',
      'topology.kubernetes.io/zone': 'moon-2',
    });
    expect(measurePods[0]?.metadata.labels).toEqual({ color: 'blue' });
    expect(measurePods[0]?.spec.topologySpreadConstraints?.[0]?.whenUnsatisfiable).toBe('DoNotSchedule');
    const keys = new Set([...initPods, ...measurePods].map((p) => `${p.metadata.namespace}/${p.metadata.name}`));
    expect(keys.size).toBe(initPods.length + measurePods.length);
    const basic = materialize(selectWorkloads('SchedulingBasic/5000Nodes_10000Pods')[0] as SchedWorkload);
    expect(basic.nodes[0]?.metadata.labels).toEqual({ 'kubernetes.io/hostname': 'scheduler-perf-0' });
  });

  it('are selected by full or test-case name, case-insensitively', () => {
    expect(selectWorkloads(undefined)).toHaveLength(SCHED_WORKLOADS.length);
    expect(selectWorkloads('schedulingbasic').map((w) => w.name)).toEqual([
      'SchedulingBasic/5000Nodes_10000Pods',
      'SchedulingBasic/5000Nodes_50000Pods',
    ]);
    expect(selectWorkloads('SchedulingPodAffinity/5000Nodes_5000Pods')).toHaveLength(1);
    expect(selectWorkloads('Nope')).toEqual([]);
  });

  it('schedule completely and within their constraints at 1/100 scale on the wasm engine', () => {
    for (const w of SCHED_WORKLOADS) {
      const small: SchedWorkload = {
        ...w,
        nodes: 50,
        init: w.init.map((s) => ({ ...s, count: s.count / 100 })),
        measure: { ...w.measure, count: w.measure.count / 100 },
      };
      const { nodes, initPods, measurePods } = materialize(small);
      const engine = kw.newScheduler(undefined, 3n);
      engine.upsertNodes(nodes);
      const pods = [...initPods, ...measurePods];
      const placements = engine.scheduleBatch(pods.map((pod) => ({ pod })));
      engine.free();
      expect(placements.filter((p) => !p.node).map((p) => p.message ?? p.error?.message)).toEqual([]);
      const placed = pods.map((pod, i) => ({ pod, node: placements[i]?.node ?? '' }));
      expect(constraintViolations(nodes, placed), w.name).toEqual([]);
    }
  });
});

describe('constraintViolations', () => {
  const node = (name: string, zone: string) => ({
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone } },
  });
  const nodes = [node('a', 'z1'), node('b', 'z1'), node('c', 'z2')];
  const pod = (name: string, namespace: string, template: typeof POD_WITH_POD_ANTI_AFFINITY): Pod => ({
    metadata: { name, namespace, labels: template.labels ?? {} },
    spec: { ...template.spec, containers: [] },
  });

  it('finds two anti-affine pods on one node, in the namespaces the term lists', () => {
    const p1 = pod('p1', 'sched-0', POD_WITH_POD_ANTI_AFFINITY);
    const p2 = pod('p2', 'sched-1', POD_WITH_POD_ANTI_AFFINITY);
    const elsewhere = pod('p3', 'other', POD_WITH_POD_ANTI_AFFINITY);
    expect(
      constraintViolations(nodes, [
        { pod: p1, node: 'a' },
        { pod: p2, node: 'b' },
      ]),
    ).toEqual([]);
    expect(
      constraintViolations(nodes, [
        { pod: p1, node: 'a' },
        { pod: p2, node: 'a' },
      ]),
    ).toContain('p1 and p2 share kubernetes.io/hostname=a');
    // p3's term lists sched-0/sched-1 only, and p1's term does not select namespace "other".
    expect(
      constraintViolations(nodes, [
        { pod: p1, node: 'c' },
        { pod: { ...elsewhere, spec: { containers: [] } }, node: 'c' },
      ]),
    ).toEqual([]);
  });

  it('finds a zone spread beyond maxSkew', () => {
    const spread = (i: number) => pod(`s${i}`, 'ns', POD_WITH_TOPOLOGY_SPREADING);
    const six = Array.from({ length: 6 }, (_, i) => ({ pod: spread(i), node: 'a' }));
    expect(constraintViolations(nodes, six.slice(0, 5))).toEqual([]);
    expect(constraintViolations(nodes, six)).toEqual([
      'topology.kubernetes.io/zone skew 6 > maxSkew 5: [["z1",6],["z2",0]]',
    ]);
  });
});
