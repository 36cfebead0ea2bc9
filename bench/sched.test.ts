import { beforeAll, describe, expect, it } from 'vitest';
import type { Kubewasm } from '../ts/wasm/kubewasm.js';
import { loadKubewasm } from '../ts/wasm/node.js';
import { runWasm } from './sched.js';
import { materialize, POD_DEFAULT, type SchedWorkload } from './sched-workloads.js';

let kw: Kubewasm;
beforeAll(async () => {
  kw = await loadKubewasm();
});

const tiny: SchedWorkload = {
  name: 'Tiny/10Nodes',
  config: 'test',
  nodes: 10,
  init: [{ template: POD_DEFAULT, count: 10, namespace: 'namespace-1' }],
  measure: { template: POD_DEFAULT, count: 20, namespace: 'namespace-2' },
  threshold: 1,
  unschedulable: 0,
};

describe('runWasm', () => {
  it('times the measured pods once all of them are placed', () => {
    const result = runWasm(kw, tiny, materialize(tiny), 1n, () => {});
    expect(result.initNodes).toHaveLength(10);
    expect(result.podsPerSecond).toBeGreaterThan(0);
  });

  it('fails loudly instead of reporting a rate when measured pods stay pending', () => {
    const objects = materialize(tiny);
    const tooBig = objects.measurePods.map((p) => ({
      ...p,
      spec: { ...p.spec, containers: [{ name: 'big', resources: { requests: { cpu: '5' } } }] },
    }));
    expect(() => runWasm(kw, tiny, { ...objects, measurePods: tooBig }, 1n, () => {})).toThrow(
      /placed 0 of 20 measured pods, expected 20; first failure: 0\/10 nodes are available: 10 Insufficient cpu/,
    );
  });
});
