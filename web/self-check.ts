import type { CpuCgroupValues, Kubewasm } from '../ts/browser.js';

/** One result from each core crate, computed through the wasm binding. */
export interface SelfCheck {
  cgroup: CpuCgroupValues;
  store: { revision: string; value: string };
  sched: { reasons: string[] };
}

export function selfCheck(kubewasm: Kubewasm): SelfCheck {
  const cgroup = kubewasm.cpuCgroup('1000m', '1000m');

  const store = kubewasm.newStore();
  let revision: bigint;
  let value: string;
  try {
    revision = store.put('/registry/pods/default/web', '{"kind":"Pod"}');
    const kv = store.range('/registry/pods/default/web').kvs[0];
    value = kv ? new TextDecoder().decode(kv.value) : '';
  } finally {
    store.free();
  }

  // A scheduler_perf node (4 CPU, 32Gi, 110 pods) already holding 3.95 CPU and 110 pods.
  const short = kubewasm.nodeResourcesFit(
    { milliCpu: 100, memory: 500 * 2 ** 20 },
    {
      allocatable: { milliCpu: 4000, memory: 32 * 2 ** 30 },
      allowedPodNumber: 110,
      requested: { milliCpu: 3950 },
      podCount: 110,
    },
  );
  return { cgroup, store: { revision: revision.toString(), value }, sched: { reasons: short.map((r) => r.reason) } };
}
