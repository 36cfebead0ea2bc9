/**
 * The wasm scheduler engine against the TypeScript reference, on random clusters and pods: the
 * same feasible nodes, the same total scores, the same FailedScheduling message and — with the
 * same seed — the same chosen node, pod after pod.
 */
import { describe, expect, it } from 'vitest';
import {
  assumePod,
  buildSnapshot,
  type Node,
  type Pod,
  ReferenceScheduler,
  SplitMix64,
} from '../../bench/baselines/scheduler/index.js';
import { loadKubewasm } from '../../ts/wasm/node.js';
import type { SchedulerEngine } from '../../ts/wasm/scheduler.js';

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';

class Gen {
  constructor(private readonly rng: SplitMix64) {}
  int(n: number): number {
    return this.rng.below(n);
  }
  chance(p: number): boolean {
    return this.int(1000) < p * 1000;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

function randomNode(g: Gen, i: number): Node {
  const name = `node-${i}`;
  const labels: Record<string, string> = { [HOST]: name, disk: g.pick(['ssd', 'hdd']) };
  if (!g.chance(0.1)) labels[ZONE] = g.pick(['z1', 'z2', 'z3']);
  const taints = g.chance(0.25)
    ? [
        {
          key: 'dedicated',
          value: g.pick(['gpu', 'infra']),
          effect: g.pick(['NoSchedule', 'PreferNoSchedule'] as const),
        },
      ]
    : [];
  return {
    metadata: { name, labels },
    spec: { taints, ...(g.chance(0.05) ? { unschedulable: true } : {}) },
    status: {
      allocatable: {
        cpu: g.pick(['1', '2', '4', '8']),
        memory: g.pick(['2Gi', '8Gi', '32Gi']),
        pods: g.pick(['5', '20', '110']),
      },
      images: g.chance(0.3)
        ? [{ names: ['registry.k8s.io/app:v1'], sizeBytes: g.pick([50, 300, 900]) * 1024 * 1024 }]
        : [],
    },
  };
}

const selector = (app: string) => ({ matchLabels: { app } });

function randomPod(g: Gen, name: string, nodeName?: string): Pod {
  const app = g.pick(['a', 'b', 'c']);
  const requests: Record<string, string> = {};
  if (g.chance(0.8)) requests.cpu = g.pick(['100m', '250m', '500m', '1', '2']);
  if (g.chance(0.8)) requests.memory = g.pick(['128Mi', '500Mi', '1Gi', '4Gi']);
  const spec: Record<string, unknown> = {
    containers: [
      {
        name: 'main',
        image: g.chance(0.5) ? 'registry.k8s.io/app:v1' : 'registry.k8s.io/other:v2',
        resources: { requests },
        ...(g.chance(0.1) ? { ports: [{ containerPort: 80, hostPort: 8080 }] } : {}),
      },
    ],
  };
  if (nodeName) spec.nodeName = nodeName;
  if (g.chance(0.2)) spec.nodeSelector = { disk: 'ssd' };
  if (g.chance(0.3)) spec.tolerations = [{ key: 'dedicated', operator: 'Exists' }];
  const affinity: Record<string, unknown> = {};
  if (g.chance(0.25)) {
    affinity.nodeAffinity = {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: g.pick([1, 10, 50]),
          preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: ['z1'] }] },
        },
      ],
    };
  }
  if (g.chance(0.2)) {
    affinity.podAntiAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: selector(app), topologyKey: HOST }],
    };
  }
  if (g.chance(0.2)) {
    affinity.podAffinity = {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: g.pick([5, 100]),
          podAffinityTerm: { labelSelector: selector(g.pick(['a', 'b'])), topologyKey: ZONE },
        },
      ],
    };
  }
  if (Object.keys(affinity).length > 0) spec.affinity = affinity;
  if (g.chance(0.25)) {
    spec.topologySpreadConstraints = [
      {
        maxSkew: g.pick([1, 2]),
        topologyKey: ZONE,
        whenUnsatisfiable: g.pick(['DoNotSchedule', 'ScheduleAnyway']),
        labelSelector: selector(app),
      },
    ];
  }
  return { metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app } }, spec } as unknown as Pod;
}

async function compareScenario(seed: bigint, minNodes = 3, extraNodes = 20): Promise<number> {
  const g = new Gen(new SplitMix64(seed));
  const nodes = Array.from({ length: minNodes + g.int(extraNodes) }, (_, i) => randomNode(g, i));
  const placed = Array.from({ length: g.int(15) }, (_, i) => randomPod(g, `old-${i}`, g.pick(nodes).metadata.name));
  const pending = Array.from({ length: 4 + g.int(10) }, (_, i) => randomPod(g, `new-${i}`));

  const kw = await loadKubewasm();
  // The reference has no DefaultPreemption: compare with it turned off.
  const engine: SchedulerEngine = kw.newScheduler(
    { plugins: { postFilter: { disabled: [{ name: 'DefaultPreemption' }] } } },
    seed,
  );
  engine.upsertNodes(nodes);
  engine.addPods(placed);
  const reference = new ReferenceScheduler({ seed });
  const snapshot = buildSnapshot({ nodes, pods: placed });
  let compared = 0;
  try {
    for (const pod of pending) {
      const expected = reference.scheduleOne(snapshot, pod);
      const explained = engine.explain({ pod });
      const context = `seed ${seed}, pod ${pod.metadata.name}`;
      const feasible = explained.nodes
        .filter((n) => n.examined && n.feasible)
        .map((n) => n.node)
        .sort();
      const expectedFeasible = expected.filter
        .filter((f) => f.feasible)
        .map((f) => f.node)
        .sort();
      expect(feasible, context).toEqual(expectedFeasible);
      if (expected.scores.length > 1) {
        const totals = Object.fromEntries(
          explained.nodes.filter((n) => n.examined && n.feasible).map((n) => [n.node, n.total]),
        );
        const expectedTotals = Object.fromEntries(expected.scores.map((s) => [s.node, s.total]));
        if (process.env.DEBUG_SCHED && JSON.stringify(totals) !== JSON.stringify(expectedTotals)) {
          for (const n of explained.nodes.filter((x) => x.feasible)) {
            const ref = expected.scores.find((s) => s.node === n.node);
            if (ref && ref.total !== n.total) {
              console.log(n.node, JSON.stringify(n.scores.map((s) => [s.plugin, s.raw, s.normalized, s.weighted])));
              console.log(n.node, JSON.stringify(ref.plugins.map((s) => [s.plugin, s.raw, s.normalized, s.weighted])));
            }
          }
          console.log(JSON.stringify(pod));
          console.log(JSON.stringify(nodes.map((n) => [n.metadata.name, n.status?.images])));
        }
        expect(totals, context).toEqual(expectedTotals);
      }
      const [placement] = engine.scheduleBatch([{ pod }]);
      expect(placement?.node ?? null, context).toBe(expected.nodeName);
      if (expected.message) expect(placement?.message, context).toBe(expected.message);
      if (expected.nodeName) assumePod(snapshot, pod, expected.nodeName);
      compared++;
    }
  } finally {
    engine.free();
  }
  return compared;
}

describe('wasm scheduler vs the TypeScript reference', () => {
  it('agrees on feasible nodes, scores, messages and choices on 400 random small clusters', async () => {
    let pods = 0;
    for (let seed = 1n; seed <= 400n; seed++) pods += await compareScenario(seed);
    expect(pods).toBeGreaterThan(3000);
  }, 120_000);

  it('agrees where only some nodes are examined (numFeasibleNodesToFind, round-robin start)', async () => {
    let pods = 0;
    for (let seed = 1001n; seed <= 1030n; seed++) pods += await compareScenario(seed, 120, 300);
    expect(pods).toBeGreaterThan(200);
  }, 120_000);
});
