import { beforeAll, describe, expect, it } from 'vitest';
import type { Kubewasm } from '../ts/wasm/kubewasm.js';
import { loadKubewasm } from '../ts/wasm/node.js';
import { runE2e } from './sched-e2e.js';
import { explanationText } from './sched-explain.js';
import { materialize, POD_WITH_POD_ANTI_AFFINITY, type SchedWorkload } from './sched-workloads.js';

let kw: Kubewasm;
beforeAll(async () => {
  kw = await loadKubewasm();
});

// Required anti-affinity per hostname: 8 + 8 pods on 20 nodes fit one per node; 8 + 13 do not.
const tiny = (measured: number): SchedWorkload => ({
  name: 'TinyAntiAffinity/20Nodes',
  config: 'test',
  nodes: 20,
  init: [{ template: POD_WITH_POD_ANTI_AFFINITY, count: 8, namespace: 'sched-0' }],
  measure: { template: POD_WITH_POD_ANTI_AFFINITY, count: measured, namespace: 'sched-1' },
  threshold: 1,
  unschedulable: 0,
});

describe('runE2e', () => {
  it('creates the workload through the in-process API and times the measured pods until bound', async () => {
    const w = tiny(8);
    const result = await runE2e(kw, w, materialize(w), 1n, () => {}, { explain: true });
    expect(result.podsPerSecond).toBeGreaterThan(0);
    // The explanation of the first measured pod, asked once the 8 init pods were bound.
    const status = result.explanation?.response.status;
    expect(status?.nodes).toHaveLength(20);
    expect(status?.feasibleNodes).toBe(12);
    const rejected = status?.nodes.filter((n) =>
      n.filters.some((f) => f.plugin === 'InterPodAffinity' && f.code !== 'Success'),
    );
    expect(rejected?.[0]?.filters.find((f) => f.plugin === 'InterPodAffinity')?.reasons).toEqual([
      "node(s) didn't match pod anti-affinity rules",
    ]);
    expect(rejected).toHaveLength(8);
    const text = explanationText(w.name, 8, result.explanation ?? { request: {}, response: { spec: {} } });
    expect(text).toContain("8 × InterPodAffinity Unschedulable: node(s) didn't match pod anti-affinity rules");
    expect(text).toContain(`chosenNode: ${status?.chosenNode}`);
  });

  it('fails instead of reporting a rate when measured pods stay pending', async () => {
    const w = tiny(13);
    const objects = materialize(w);
    const waiting = runE2e(kw, w, objects, 1n, () => {}, {}, 2_000);
    await expect(waiting).rejects.toThrow(/1 of 13 measured pods not bound in 2 s; last failure: .*anti-affinity/);
  });
});
