// Invariants of whole cycles over seeded random clusters (the shape the differential tests
// against the Rust engine will take): whatever the input, a chosen node passed every filter and
// has the top total, every normalized score is in [0, 100], and failures carry a message.

import { describe, expect, it } from 'vitest';
import { SplitMix64 } from './rng.js';
import { runScenario } from './schedule-one.js';
import { makeNode, makePod } from './testing.js';
import type { Affinity, Node, Pod, Taint, TopologySpreadConstraint } from './types.js';

function randomScenario(seed: number): { nodes: Node[]; pods: Pod[] } {
  const rng = new SplitMix64(seed);
  const pick = <T>(xs: readonly T[]): T => xs[rng.below(xs.length)] as T;
  const nodes: Node[] = [];
  const nodeCount = 1 + rng.below(12);
  for (let i = 0; i < nodeCount; i++) {
    const taints: Taint[] =
      rng.below(4) === 0
        ? [{ key: 'dedicated', value: pick(['a', 'b']), effect: pick(['NoSchedule', 'PreferNoSchedule'] as const) }]
        : [];
    nodes.push(
      makeNode(`n${i}`, {
        labels: {
          'kubernetes.io/hostname': `n${i}`,
          'topology.kubernetes.io/zone': `z${rng.below(3)}`,
          disk: pick(['ssd', 'hdd']),
        },
        allocatable: { cpu: `${1 + rng.below(4)}`, memory: `${1 + rng.below(8)}Gi`, pods: 2 + rng.below(10) },
        taints,
        ...(rng.below(10) === 0 ? { unschedulable: true } : {}),
      }),
    );
  }
  const pods: Pod[] = [];
  for (let i = 0; i < 25; i++) {
    const app = pick(['web', 'db', 'cache']);
    const affinity: Affinity | undefined =
      rng.below(3) === 0
        ? {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 10,
                  podAffinityTerm: { labelSelector: { matchLabels: { app } }, topologyKey: 'kubernetes.io/hostname' },
                },
              ],
              ...(rng.below(2) === 0
                ? {
                    requiredDuringSchedulingIgnoredDuringExecution: [
                      { labelSelector: { matchLabels: { app } }, topologyKey: 'kubernetes.io/hostname' },
                    ],
                  }
                : {}),
            },
          }
        : undefined;
    const spread: TopologySpreadConstraint[] =
      rng.below(3) === 0
        ? [
            {
              maxSkew: 1,
              topologyKey: 'topology.kubernetes.io/zone',
              whenUnsatisfiable: pick(['DoNotSchedule', 'ScheduleAnyway'] as const),
              labelSelector: { matchLabels: { app } },
            },
          ]
        : [];
    pods.push(
      makePod(`p${i}`, {
        labels: { app },
        requests: [{ cpu: `${100 * (1 + rng.below(10))}m`, memory: `${128 * (1 + rng.below(8))}Mi` }],
        ...(affinity === undefined ? {} : { affinity }),
        topologySpreadConstraints: spread,
        ...(rng.below(4) === 0 ? { nodeSelector: { disk: 'ssd' } } : {}),
        ...(rng.below(3) === 0 ? { tolerations: [{ key: 'dedicated', operator: 'Exists' as const }] } : {}),
      }),
    );
  }
  return { nodes, pods };
}

describe('cycle invariants over random clusters', () => {
  it.each(Array.from({ length: 40 }, (_, i) => i))('seed %i', (seed) => {
    const { nodes, pods } = randomScenario(seed);
    const results = runScenario({ cluster: { nodes }, pods, seed });
    for (const r of results) {
      expect(r.message === null).toBe(r.nodeName !== null);
      if (r.nodeName === null) {
        expect(r.message).toMatch(/^0\/\d+ nodes are available/);
        continue;
      }
      const verdict = r.filter.find((f) => f.node === r.nodeName);
      if (r.filter.length > 0) expect(verdict?.feasible).toBe(true);
      expect(r.feasibleNodes).toBe(r.filter.filter((f) => f.feasible).length);
      if (r.scores.length > 0) {
        const max = Math.max(...r.scores.map((s) => s.total));
        expect(r.scores.find((s) => s.node === r.nodeName)?.total).toBe(max);
        for (const s of r.scores) {
          expect(s.total).toBe(s.plugins.reduce((sum, p) => sum + p.weighted, 0));
          for (const p of s.plugins) {
            expect(p.normalized).toBeGreaterThanOrEqual(0);
            expect(p.normalized).toBeLessThanOrEqual(100);
          }
        }
      }
    }
  });
});
