import { beforeAll, describe, expect, it } from 'vitest';
import {
  cpuWeightLogQuadratic,
  type ReferencePod,
  type ReferenceResult,
  referencePodCgroups,
} from '../../bench/baselines/cgroup-reference.js';
import {
  type CgroupContainer,
  type CgroupNodeConfig,
  type CgroupPod,
  isPodCgroupsError,
  type NodeCgroups,
  type PodCgroups,
} from './cgroup.js';
import { KubewasmError } from './errors.js';
import type { Kubewasm } from './kubewasm.js';
import { loadKubewasm } from './node.js';

const MI = 2 ** 20;
const GI = 2 ** 30;
const NODE: CgroupNodeConfig = { memoryCapacity: 16 * GI };

let kw: Kubewasm;
beforeAll(async () => {
  kw = await loadKubewasm();
});

type Quantities = Record<string, string>;

function container(name: string, requests: Quantities = {}, limits: Quantities = {}): CgroupContainer {
  return { name, resources: { requests, limits } };
}

function pod(uid: string, containers: CgroupContainer[], extra: Partial<CgroupPod['spec']> = {}): CgroupPod {
  return { metadata: { uid, name: uid, namespace: 'default' }, spec: { containers, ...extra } };
}

/** A pod of one container "app". */
function single(uid: string, requests: Quantities, limits: Quantities = {}): CgroupPod {
  return pod(uid, [container('app', requests, limits)]);
}

function ok(slot: NodeCgroups['pods'][number] | undefined): PodCgroups {
  if (slot === undefined) throw new Error('no slot');
  if (isPodCgroupsError(slot)) throw new Error(`${slot.error.code}: ${slot.error.message}`);
  return slot;
}

/** The error a call throws, asserting it is a KubewasmError and not a wasm trap. */
function thrown(call: () => unknown): KubewasmError {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(KubewasmError);
    return err as KubewasmError;
  }
  throw new Error('expected the call to throw');
}

/** The module still answers after an error: nothing trapped, no state left poisoned. */
function stillWorks(): void {
  expect(kw.podCgroup(single('after', { cpu: '100m' }), NODE).containers[0]?.resources.cpuShares).toBe(102);
}

describe('podCgroups: CPU', () => {
  // node.md §1.3 worked table: milliCPU → shares → linear / log-quadratic cpu.weight.
  const table: Array<[number, number, number, number]> = [
    [0, 2, 1, 1],
    [10, 10, 1, 4],
    [100, 102, 4, 17],
    [250, 256, 10, 35],
    [500, 512, 20, 59],
    [1000, 1024, 39, 100],
    [2000, 2048, 79, 174],
    [4000, 4096, 157, 303],
  ];
  const pods = table.map(([milli]) => single(`m${milli}`, { cpu: `${milli}m` }));

  it('gives node.md’s shares and linear weight per container and pod', () => {
    const got = kw.podCgroups(pods, NODE);
    table.forEach(([, shares, linear], i) => {
      const p = ok(got.pods[i]);
      expect(p.containers[0]?.resources.cpuShares).toBe(shares);
      expect(p.containers[0]?.oci.linux.resources.cpu?.shares).toBe(shares);
      expect(p.containers[0]?.files['cpu.weight']).toBe(String(linear));
      // The pod cgroup: the same shares (BestEffort gets MinShares = 2 anyway).
      expect(p.config.cpuShares).toBe(shares);
      expect(p.files['cpu.weight']).toBe(String(linear));
    });
  });

  it('gives node.md’s log-quadratic weight with runc ≥ 1.3.2', () => {
    const got = kw.podCgroups(pods, { ...NODE, weightFormula: 'logQuadratic' });
    table.forEach(([, , linear, quadratic], i) => {
      const p = ok(got.pods[i]);
      expect(p.containers[0]?.files['cpu.weight']).toBe(String(quadratic));
      expect(p.files['cpu.weight'], 'the kubelet keeps the linear formula').toBe(String(linear));
    });
  });

  it('writes cpu.max from the limit: 500m → "50000 100000", none → "max 100000"', () => {
    const got = kw.podCgroups(
      [single('limited', { cpu: '250m' }, { cpu: '500m' }), single('free', { cpu: '250m' })],
      NODE,
    );
    const limited = ok(got.pods[0]).containers[0];
    expect(limited?.resources).toMatchObject({ cpuShares: 256, cpuQuota: 50_000, cpuPeriod: 100_000 });
    expect(limited?.files['cpu.max']).toBe('50000 100000');
    const free = ok(got.pods[1]).containers[0];
    expect(free?.resources.cpuQuota).toBe(0);
    expect(free?.files['cpu.max']).toBe('max 100000');
    expect(free?.oci.linux.resources.cpu).toEqual({ shares: 256, period: 100_000 });
  });

  it('honours the CFS period and the cpuCfsQuota switch', () => {
    const p = single('u', { cpu: '1500m', memory: '1Gi' }, { cpu: '1500m', memory: '1Gi' });
    const half = kw.podCgroup(p, { ...NODE, cpuCfsQuotaPeriodUs: 50_000 });
    expect(half.containers[0]?.files['cpu.max']).toBe('75000 50000');
    expect(half.files['cpu.max']).toBe('75000 50000');
    const off = kw.podCgroup(p, { ...NODE, cpuCfsQuota: false });
    expect(off.containers[0]?.resources).toMatchObject({ cpuQuota: 0, cpuPeriod: 0 });
    expect(off.config.cpuQuota).toBe(-1);
    expect(off.files['cpu.max']).toBe('max 100000');
  });
});

describe('podCgroups: QoS classes and cgroup paths', () => {
  const guaranteed = single('1234-abcd', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' });
  const burstable = single('1234-abcd', { cpu: '500m', memory: '256Mi' });
  const bestEffort = single('1234-abcd', {});

  it('names the pod cgroup for systemd', () => {
    const got = kw.podCgroups([guaranteed, burstable, bestEffort], NODE).pods.map(ok);
    expect(got.map((p) => p.qosClass)).toEqual(['Guaranteed', 'Burstable', 'BestEffort']);
    expect(got.map((p) => p.cgroupPath)).toEqual([
      '/kubepods.slice/kubepods-pod1234_abcd.slice',
      '/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234_abcd.slice',
      '/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1234_abcd.slice',
    ]);
    expect(got[1]?.cgroupName).toEqual(['kubepods', 'burstable', 'pod1234-abcd']);
    expect(got[1]?.containers[0]?.oci.linux.cgroupsPath).toBe(
      'kubepods-burstable-pod1234_abcd.slice:cri-containerd:app',
    );
  });

  it('names the pod cgroup for cgroupfs', () => {
    const got = kw.podCgroups([guaranteed, burstable, bestEffort], { ...NODE, cgroupDriver: 'cgroupfs' });
    expect(got.pods.map((p) => ok(p).cgroupPath)).toEqual([
      '/kubepods/pod1234-abcd',
      '/kubepods/burstable/pod1234-abcd',
      '/kubepods/besteffort/pod1234-abcd',
    ]);
    expect(ok(got.pods[0]).containers[0]?.oci.linux.cgroupsPath).toBe('/kubepods/pod1234-abcd/app');
    expect(got.kubepods.path).toBe('/kubepods');
    expect(got.burstable.path).toBe('/kubepods/burstable');
    expect(got.besteffort.path).toBe('/kubepods/besteffort');
  });

  it('gives each class its pod ResourceConfig', () => {
    const [g, b, e] = kw.podCgroups([guaranteed, burstable, bestEffort], NODE).pods.map(ok);
    expect(g?.config).toEqual({
      cpuShares: 1024,
      cpuQuota: 100_000,
      cpuPeriod: 100_000,
      memory: GI,
      hugepageLimits: {},
      unified: {},
    });
    expect(g?.files).toEqual({ 'cpu.weight': '39', 'cpu.max': '100000 100000', 'memory.max': String(GI) });
    expect(b?.config).toEqual({ cpuShares: 512, hugepageLimits: {}, unified: {} });
    expect(e?.config).toEqual({ cpuShares: 2, hugepageLimits: {}, unified: {} });
    expect(g?.requests).toEqual({ cpu: '1', memory: '1Gi' });
    expect(b?.scheduler).toEqual({ milliCpu: 500, memory: 256 * MI, nonZeroMilliCpu: 500, nonZeroMemory: 256 * MI });
    expect(e?.scheduler).toEqual({ milliCpu: 0, memory: 0, nonZeroMilliCpu: 100, nonZeroMemory: 200 * MI });
  });

  it('applies API defaulting: limits alone make a Guaranteed pod unless turned off', () => {
    const limitsOnly = single('u', {}, { cpu: '1', memory: '1Gi' });
    expect(kw.podCgroup(limitsOnly, NODE).qosClass).toBe('Guaranteed');
    expect(kw.podCgroup(limitsOnly, { ...NODE, applyApiDefaults: false }).qosClass).toBe('Burstable');
  });

  it('sums the QoS tiers over the valid pods', () => {
    const got = kw.podCgroups(
      [guaranteed, burstable, single('b2', { cpu: '1500m' }), bestEffort, single('bad', { cpu: 'x' })],
      NODE,
    );
    expect(got.burstable.config.cpuShares).toBe(2048);
    expect(got.besteffort.config.cpuShares).toBe(2);
    expect(got.besteffort.files['cpu.weight']).toBe('1');
    expect(got.kubepods.path).toBe('/kubepods.slice');
  });
});

describe('podCgroups: OOM score adjust (node.md §2)', () => {
  const node: CgroupNodeConfig = { memoryCapacity: 10 * GI };
  const score = (p: CgroupPod, n: CgroupNodeConfig = node) => kw.podCgroup(p, n).containers[0]?.resources.oomScoreAdj;

  it('is -997 for Guaranteed and 1000 for BestEffort', () => {
    expect(score(single('g', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }))).toBe(-997);
    expect(score(single('e', {}))).toBe(1000);
  });

  it('scales Burstable scores with the memory request, clamped to [3, 999]', () => {
    for (const [memory, expected] of [
      ['1Gi', 900],
      ['3Gi', 700],
      ['1', 999],
      ['9.9Gi', 10],
      ['9.99Gi', 3],
      ['10Gi', 3],
      ['20Gi', 3],
    ] as const) {
      expect(score(single('b', { memory })), memory).toBe(expected);
    }
    expect(score(single('cpu-only', { cpu: '1' }))).toBe(999);
  });

  it('gives node-critical static and mirror pods -997', () => {
    const critical = (annotations: Record<string, string>): CgroupPod => ({
      metadata: { uid: 'c', annotations },
      spec: { priorityClassName: 'system-node-critical', containers: [container('a')] },
    });
    expect(score(critical({ 'kubernetes.io/config.mirror': 'hash' }))).toBe(-997);
    expect(score(critical({ 'kubernetes.io/config.source': 'file' }))).toBe(-997);
    expect(score(critical({ 'kubernetes.io/config.source': 'api' }))).toBe(1000);
    const byPriority = pod('p', [container('a')], {
      priority: 2_000_001_000,
      priorityClassName: 'system-node-critical',
    });
    expect(score(byPriority)).toBe(-997);
  });
});

describe('podCgroups: init containers, sidecars, overhead', () => {
  it('runs a sidecar pod: sums sidecars, caps their OOM score at the smallest app container', () => {
    const web = pod('1234-abcd', [container('app', { cpu: '500m', memory: '1Gi' }, { memory: '2Gi' })], {
      initContainers: [{ ...container('proxy', { cpu: '100m', memory: '64Mi' }), restartPolicy: 'Always' }],
    });
    const got = kw.podCgroup(web, NODE);
    expect(got.qosClass).toBe('Burstable');
    expect(got.requests).toEqual({ cpu: '600m', memory: '1088Mi' });
    expect(got.config.cpuShares).toBe(614);
    expect(got.config.memory).toBeUndefined();
    expect(got.containers.map((c) => [c.name, c.init, c.sidecar])).toEqual([
      ['proxy', true, true],
      ['app', false, false],
    ]);
    // Its own 64Mi would score 997; the app's 1Gi scores 938, and the sidecar takes the lower.
    expect(got.containers[0]?.resources.oomScoreAdj).toBe(938);
    expect(got.containers[0]?.oci.process.oomScoreAdj).toBe(938);
    expect(got.containers[1]?.files['memory.max']).toBe(String(2 * GI));
    expect(got.containers[1]?.resources.unified).toEqual({ 'memory.oom.group': '1' });
  });

  it('takes the larger of the biggest init container and the regular sum', () => {
    const p = pod('u', [container('app', { cpu: '500m', memory: '100Mi' })], {
      initContainers: [container('migrate', { cpu: '2', memory: '50Mi' })],
    });
    const got = kw.podCgroup(p, NODE);
    expect(got.requests).toEqual({ cpu: '2', memory: '100Mi' });
    expect(got.config.cpuShares).toBe(2048);
    // A sidecar started before the init container runs beside it: 1 + 2 = 3 CPUs at the peak.
    const withSidecar = kw.podCgroup(
      pod('u', [container('app', { cpu: '500m' })], {
        initContainers: [
          { ...container('side', { cpu: '1' }), restartPolicy: 'Always' },
          container('migrate', { cpu: '2' }),
        ],
      }),
      NODE,
    );
    expect(withSidecar.requests.cpu).toBe('3');
  });

  it('adds RuntimeClass overhead to requests and set limits', () => {
    const p = pod('u', [container('app', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })], {
      overhead: { cpu: '250m', memory: '120Mi' },
    });
    const got = kw.podCgroup(p, NODE);
    expect(got.qosClass).toBe('Guaranteed');
    expect(got.requests).toEqual({ cpu: '1250m', memory: '1144Mi' });
    expect(got.limits).toEqual({ cpu: '1250m', memory: '1144Mi' });
    expect(got.config).toMatchObject({ cpuShares: 1280, cpuQuota: 125_000, memory: GI + 120 * MI });
    expect(got.scheduler.milliCpu).toBe(1250);
  });
});

describe('podCgroups: MemoryQoS', () => {
  const p = single('u', { memory: '128Mi' }, { memory: '256Mi' });

  it('sets memory.min and memory.high on cgroup v2 (1.27–1.36)', () => {
    const got = kw.podCgroups([p], { ...NODE, enforceMemoryQos: true });
    const pc = ok(got.pods[0]);
    expect(pc.containers[0]?.files).toMatchObject({ 'memory.min': '134217728', 'memory.high': '255012864' });
    expect(pc.containers[0]?.resources.unified).toEqual({
      'memory.high': '255012864',
      'memory.min': '134217728',
      'memory.oom.group': '1',
    });
    expect(pc.files['memory.min']).toBe('134217728');
    expect(got.burstable.files['memory.min']).toBe('134217728');
    expect(got.kubepods.files['memory.min']).toBe('134217728');
  });

  it('does nothing on cgroup v1 or with the gate off, and follows 1.37 policies', () => {
    expect(
      kw.podCgroup(p, { ...NODE, enforceMemoryQos: true, cgroupV2: false }).containers[0]?.resources.unified,
    ).toEqual({});
    expect(kw.podCgroup(p, NODE).containers[0]?.files['memory.min']).toBeUndefined();
    const tiered = kw.podCgroup(p, {
      ...NODE,
      enforceMemoryQos: true,
      memoryQosPolicy: 'tieredReservation',
      memoryThrottlingFactor: null,
    });
    expect(tiered.containers[0]?.resources.unified).toEqual({ 'memory.low': '134217728', 'memory.oom.group': '1' });
    expect(tiered.files['memory.low']).toBe('134217728');
  });
});

describe('podCgroups: errors', () => {
  it('puts a pod’s own error in its slot and keeps the others', () => {
    const got = kw.podCgroups(
      [single('bad-q', { cpu: '1KB' }), single('good', { cpu: '1' }), single('over', { cpu: '2' }, { cpu: '1' })],
      NODE,
    );
    const [bad, good, over] = got.pods;
    expect(bad).toMatchObject({
      uid: 'bad-q',
      name: 'bad-q',
      namespace: 'default',
      error: { code: 'E_QUANTITY_FORMAT' },
    });
    expect(ok(good).qosClass).toBe('Burstable');
    expect(over).toMatchObject({ uid: 'over', error: { code: 'E_REQUEST_EXCEEDS_LIMIT' } });
    // Only the valid pod counts toward the burstable tier.
    expect(got.burstable.config.cpuShares).toBe(1024);
  });

  it('throws typed errors with stable codes, and keeps working after each', () => {
    const cases: Array<[string, () => unknown]> = [
      ['E_QUANTITY_FORMAT', () => kw.podCgroup(single('u', { memory: '1KB' }), NODE)],
      ['E_QUANTITY_RANGE', () => kw.podCgroup(single('u', { memory: '1e30' }), NODE)],
      ['E_NEGATIVE_QUANTITY', () => kw.podCgroup(single('u', { cpu: '-1' }), NODE)],
      ['E_REQUEST_EXCEEDS_LIMIT', () => kw.podCgroup(single('u', { memory: '2Gi' }, { memory: '1Gi' }), NODE)],
      ['E_NO_CONTAINERS', () => kw.podCgroup(pod('u', []), NODE)],
      ['E_DUPLICATE_CONTAINER', () => kw.podCgroup(pod('u', [container('a'), container('a')]), NODE)],
      ['E_INVALID_CGROUP_NAME', () => kw.podCgroup(single('a_b', {}), NODE)],
      ['E_BAD_JSON', () => kw.podCgroupsFromJson('[{"spec":', NODE)],
      ['E_BAD_JSON', () => kw.podCgroupsFromJson('{"not":"an array"}', NODE)],
      ['E_BAD_JSON', () => kw.podCgroups([], {} as CgroupNodeConfig)],
      ['E_BAD_JSON', () => kw.podCgroups([], { ...NODE, memoryCapasity: 1 } as CgroupNodeConfig)],
      ['E_BAD_JSON', () => kw.podCgroups([], { ...NODE, cgroupDriver: 'docker' } as unknown as CgroupNodeConfig)],
      ['E_INVALID_CAPACITY', () => kw.podCgroups([], { memoryCapacity: 0 })],
      ['E_INVALID_PERIOD', () => kw.podCgroups([], { ...NODE, cpuCfsQuotaPeriodUs: 10 })],
      ['E_INVALID_PAGE_SIZE', () => kw.podCgroups([], { ...NODE, pageSize: 3000 })],
      ['E_INVALID_THROTTLING_FACTOR', () => kw.podCgroups([], { ...NODE, memoryThrottlingFactor: 2 })],
      ['E_QUANTITY_FORMAT', () => kw.quantityCanonical('1KB')],
    ];
    for (const [code, call] of cases) {
      const err = thrown(call);
      expect(err.code, err.message).toBe(code);
      expect(err.message.length).toBeGreaterThan(0);
      stillWorks();
    }
  });
});

describe('podCgroups: reading real Pod JSON', () => {
  it('ignores unknown fields, reads bare numbers and null as Go does', () => {
    const json = JSON.stringify([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { uid: 'u', name: 'web', namespace: 'prod', labels: { app: 'web' }, managedFields: [{}] },
        spec: {
          nodeName: 'n1',
          containers: [
            { name: 'app', image: 'nginx', resources: { requests: { cpu: 0.5, memory: ' 64Mi ' }, limits: null } },
          ],
          initContainers: null,
        },
        status: { phase: 'Running', qosClass: 'Burstable' },
      },
    ]);
    const got = ok(kw.podCgroupsFromJson(json, NODE).pods[0]);
    expect(got).toMatchObject({ uid: 'u', name: 'web', namespace: 'prod', qosClass: 'Burstable' });
    expect(got.requests).toEqual({ cpu: '500m', memory: '64Mi' });
  });

  it('answers the same as text', () => {
    const json = JSON.stringify([single('u', { cpu: '1' }), single('bad', { cpu: 'x' })]);
    expect(JSON.parse(kw.podCgroupsJson(json, NODE))).toEqual(kw.podCgroupsFromJson(json, NODE));
    expect(thrown(() => kw.podCgroupsJson('[', NODE)).code).toBe('E_BAD_JSON');
    stillWorks();
  });

  it('prints quantities as Kubernetes does', () => {
    expect(kw.quantityCanonical('1.5Gi')).toBe('1536Mi');
    expect(kw.quantityCanonical('1000m')).toBe('1');
    expect(kw.quantityCanonical('0.5')).toBe('500m');
    expect(kw.quantityCanonical('1Gi')).toBe('1Gi');
  });
});

// ---- Differential: wasm against the TypeScript reference (bench/baselines) ----

/** mulberry32: a tiny seeded PRNG, so a failure replays. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random pods of every QoS class, sidecars, init containers, overhead, a few invalid ones. */
function randomPods(seed: number, count: number): CgroupPod[] {
  const rand = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const cpu = () =>
    pick([
      () => `${Math.floor(rand() * 4000)}m`,
      () => String(Math.floor(rand() * 8) + 1),
      () => `${(rand() * 2).toFixed(3)}`,
      () => pick(['0', '1m', '10m', '100m', '250m', '500m', '1', '2', '1500m', '64', '300']),
    ])();
  const memory = () =>
    pick([
      () => `${Math.floor(rand() * 4096) + 1}Mi`,
      () => `${Math.floor(rand() * 8) + 1}Gi`,
      () => `${Math.floor(rand() * 4e9)}`,
      () => `${(rand() * 3).toFixed(2)}G`,
      () => pick(['0', '1', '64Mi', '128Mi', '1Gi', '1.5Gi', '100M', '20Gi']),
    ])();
  const resources = (): { requests: Quantities; limits: Quantities } => {
    const requests: Quantities = {};
    const limits: Quantities = {};
    const shape = rand();
    if (shape < 0.25) {
      // Guaranteed-shaped: equal requests and limits (or limits only, defaulted).
      const c = cpu();
      const m = memory();
      Object.assign(limits, { cpu: c, memory: m });
      if (rand() < 0.7) Object.assign(requests, { cpu: c, memory: m });
    } else if (shape < 0.85) {
      if (rand() < 0.8) requests.cpu = cpu();
      if (rand() < 0.7) requests.memory = memory();
      // Limits at or above the request, mostly.
      if (rand() < 0.4)
        limits.cpu = rand() < 0.9 && requests.cpu ? `${Math.ceil(Number.parseFloat(requests.cpu) * 2)}` : cpu();
      if (rand() < 0.4) limits.memory = rand() < 0.9 && requests.memory ? '64Gi' : memory();
    }
    if (rand() < 0.03) requests[pick(['cpu', 'memory'])] = pick(['1KB', '-1', 'abc', '1.2.3']);
    return { requests, limits };
  };
  return Array.from({ length: count }, (_, i) => {
    const containers = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, j) => ({
      name: `c${j}`,
      resources: resources(),
    }));
    const initContainers = Array.from({ length: rand() < 0.4 ? 1 + Math.floor(rand() * 2) : 0 }, (_, j) => ({
      name: `init${j}`,
      resources: resources(),
      ...(rand() < 0.5 ? { restartPolicy: 'Always' } : {}),
    }));
    const spec: CgroupPod['spec'] = { containers, initContainers };
    if (rand() < 0.1) spec.overhead = { cpu: '250m', memory: '120Mi' };
    if (rand() < 0.05) spec.priorityClassName = 'system-node-critical';
    const annotations: Record<string, string> =
      rand() < 0.05 ? { 'kubernetes.io/config.source': pick(['file', 'api', 'http']) } : {};
    return { metadata: { uid: `${seed}-${i}-${Math.floor(rand() * 1e6)}`, name: `p${i}`, annotations }, spec };
  });
}

/** The fields both implementations compute, from a wasm slot. */
function comparable(slot: NodeCgroups['pods'][number], logQuadratic: NodeCgroups['pods'][number]): ReferenceResult {
  if (isPodCgroupsError(slot)) return { uid: slot.uid, error: { code: slot.error.code } };
  const quadratic = ok(logQuadratic);
  const out: ReferencePod = {
    uid: slot.uid,
    qosClass: slot.qosClass,
    cgroupPath: slot.cgroupPath,
    cpuShares: slot.config.cpuShares ?? 0,
    cpuWeight: Number(slot.files['cpu.weight']),
    containers: slot.containers.map((c, i) => {
      const r = c.resources;
      const container = {
        name: c.name,
        init: c.init,
        sidecar: c.sidecar,
        cpuShares: r.cpuShares,
        cpuQuota: r.cpuQuota,
        cpuPeriod: r.cpuPeriod,
        memoryLimitInBytes: r.memoryLimitInBytes,
        oomScoreAdj: r.oomScoreAdj,
        cpuWeight: Number(c.files['cpu.weight']),
        cpuWeightLogQuadratic: Number(quadratic.containers[i]?.files['cpu.weight']),
      };
      return {
        ...container,
        ...(c.files['cpu.max'] === undefined ? {} : { cpuMax: c.files['cpu.max'] }),
        ...(c.files['memory.max'] === undefined ? {} : { memoryMax: c.files['memory.max'] }),
      };
    }),
  };
  const { cpuQuota, cpuPeriod, memory } = slot.config;
  if (cpuQuota !== undefined) out.cpuQuota = cpuQuota;
  if (cpuPeriod !== undefined) out.cpuPeriod = cpuPeriod;
  if (memory !== undefined) out.memory = memory;
  if (slot.files['cpu.max'] !== undefined) out.cpuMax = slot.files['cpu.max'];
  if (slot.files['memory.max'] !== undefined) out.memoryMax = slot.files['memory.max'];
  return out;
}

describe('differential: wasm vs the TypeScript reference', () => {
  const nodes: CgroupNodeConfig[] = [
    { memoryCapacity: 16 * GI },
    { memoryCapacity: 7 * GI + 12_345, cgroupDriver: 'cgroupfs', cpuCfsQuotaPeriodUs: 50_000 },
    { memoryCapacity: 64 * GI, cpuCfsQuota: false, applyApiDefaults: false },
  ];
  for (const [n, node] of nodes.entries()) {
    it(`agrees on 600 random pods (node ${n})`, () => {
      const json = JSON.stringify(randomPods(1000 + n, 600));
      const linear = kw.podCgroupsFromJson(json, node).pods;
      const quadratic = kw.podCgroupsFromJson(json, { ...node, weightFormula: 'logQuadratic' }).pods;
      const wasm = linear.map((slot, i) => comparable(slot, quadratic[i] ?? slot));
      const reference = referencePodCgroups(json, node);
      const errors = wasm.filter((r) => 'error' in r).length;
      expect(errors, 'some invalid pods are generated').toBeGreaterThan(0);
      expect(errors, 'most pods are valid').toBeLessThan(wasm.length / 4);
      const qos = new Set(wasm.map((r) => ('qosClass' in r ? r.qosClass : 'error')));
      expect(qos.size, 'every class appears').toBe(4);
      for (let i = 0; i < wasm.length; i++) expect(reference[i], `pod ${i}`).toEqual(wasm[i]);
    });
  }

  it('agrees on cpu.weight for a sweep of CPU requests', () => {
    const millis = Array.from({ length: 2000 }, (_, i) => Math.floor(1.0065 ** i) + i);
    const json = JSON.stringify(millis.map((m) => single(`m${m}`, { cpu: `${m}m` })));
    const wasm = kw.podCgroupsFromJson(json, { ...NODE, weightFormula: 'logQuadratic' }).pods.map(ok);
    const reference = referencePodCgroups(json, NODE) as ReferencePod[];
    wasm.forEach((p, i) => {
      const ref = reference[i]?.containers[0];
      expect(p.containers[0]?.resources.cpuShares).toBe(ref?.cpuShares);
      expect(p.containers[0]?.files['cpu.weight'], `${millis[i]}m`).toBe(String(ref?.cpuWeightLogQuadratic));
    });
  });

  it('reference log-quadratic weight is Go’s for every shares value (crates/cgroup cpu.rs hash)', () => {
    let hash = 0xcbf29ce484222325n;
    for (let shares = 0; shares <= 262_200; shares++) {
      hash ^= BigInt(cpuWeightLogQuadratic(shares));
      hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
    }
    expect(hash).toBe(0x5a6ec66338adc53an);
  });
});
