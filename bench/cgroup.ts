/**
 * `kubewasm bench cgroup`: pods per second through the kubelet's resource math, the wasm batch
 * entry point (`podCgroupsFromJson`) against the plain TypeScript reference
 * (bench/baselines/cgroup-reference.ts). Both start from the same Pod JSON text and end with
 * JavaScript objects, since that is what a kubelet pays (a `-json-out` case ends with JSON text
 * instead). The wasm side computes and returns more per pod (OCI fragment, CRI unified map,
 * MemoryQoS, scheduler requests, requests/limits text, QoS tiers) than the reference does.
 */
import type { CgroupContainer, CgroupNodeConfig, CgroupPod } from '../ts/wasm/cgroup.js';
import type { Kubewasm } from '../ts/wasm/kubewasm.js';
import { referencePodCgroups } from './baselines/cgroup-reference.js';
import { type BenchRow, opsPerSecond, type Suite } from './harness.js';

const BATCH = 10_000;
const SINGLE_CALLS = 2_000;
const NODE: CgroupNodeConfig = { memoryCapacity: 64 * 2 ** 30, allocatableMemory: 62 * 2 ** 30 };

/** Fields of a real container that the math skips but the JSON parsers still read. */
const CONTAINER_DETAILS = {
  ports: [{ containerPort: 8080, protocol: 'TCP' }],
  env: [{ name: 'LOG_LEVEL', value: 'info' }],
  imagePullPolicy: 'IfNotPresent',
};

/** A container as a Deployment would write it. */
function container(name: string, requests: Record<string, string>, limits: Record<string, string>): CgroupContainer {
  const image = { image: `registry.example.com/${name}:1.4.2` };
  return { name, ...image, ...CONTAINER_DETAILS, resources: { requests, limits } };
}

/** Mixed QoS: 30% Guaranteed, 50% Burstable (a fifth with a sidecar and an init container), 10% BestEffort. */
export function mixedPods(count: number): CgroupPod[] {
  return Array.from({ length: count }, (_, i) => {
    const cpu = `${100 + (i % 20) * 50}m`;
    const memory = `${128 + (i % 16) * 64}Mi`;
    let containers: CgroupContainer[];
    let initContainers: CgroupContainer[] = [];
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
        containers = [container('app', { cpu, memory }, { cpu, memory })];
        break;
      case 3:
      case 4:
      case 5:
      case 6:
        containers = [container('app', { cpu, memory }, { memory: '2Gi' }), container('log', { cpu: '50m' }, {})];
        break;
      case 7:
        containers = [container('app', { cpu, memory }, {})];
        initContainers = [
          { ...container('mesh', { cpu: '100m', memory: '64Mi' }, {}), restartPolicy: 'Always' },
          container('migrate', { cpu: '1', memory: '256Mi' }, { cpu: '1' }),
        ];
        break;
      case 8:
        containers = [container('app', { cpu }, { cpu: '2' })];
        break;
      default:
        containers = [container('batch', {}, {})];
    }
    const uid = `${(0x1000_0000 + i).toString(16)}-4b2c-4d6e-8f00-${String(i).padStart(12, '0')}`;
    const objectMeta = { labels: { app: 'web', 'pod-template-hash': '5d8f7c9b6' }, resourceVersion: String(1000 + i) };
    const podDetails = { nodeName: 'node-1', restartPolicy: 'Always', serviceAccountName: 'default' };
    return {
      metadata: {
        uid,
        name: `web-${i}`,
        namespace: 'prod',
        annotations: { 'kubernetes.io/config.source': 'api' },
        ...objectMeta,
      },
      spec: { containers, initContainers, ...podDetails },
    };
  });
}

export function cgroupSuite(kubewasm: Kubewasm): Suite {
  return {
    name: 'cgroup',
    async run(progress) {
      const rows: BenchRow[] = [];
      const row = (c: string, impl: string, value: number) =>
        rows.push({ suite: 'cgroup', case: c, impl, metric: 'pods_per_s', value, unit: 'pods/s' });
      const pods = mixedPods(BATCH);
      const batchJson = JSON.stringify(pods);
      const singleJson = pods.slice(0, SINGLE_CALLS).map((p) => JSON.stringify([p]));

      const batchCase = `batch-${BATCH / 1000}k-mixed-qos`;
      progress(`${batchCase} · wasm`);
      row(
        batchCase,
        'wasm',
        opsPerSecond(() => kubewasm.podCgroupsFromJson(batchJson, NODE).pods.length),
      );
      progress(`${batchCase} · ts`);
      row(
        batchCase,
        'ts',
        opsPerSecond(() => referencePodCgroups(batchJson, NODE).length),
      );

      // The same with text out: what a caller pays that passes the answer on as JSON.
      const textCase = `${batchCase}-json-out`;
      progress(`${textCase} · wasm`);
      row(
        textCase,
        'wasm',
        opsPerSecond(() => {
          kubewasm.podCgroupsJson(batchJson, NODE);
          return BATCH;
        }),
      );
      progress(`${textCase} · ts`);
      row(
        textCase,
        'ts',
        opsPerSecond(() => {
          JSON.stringify(referencePodCgroups(batchJson, NODE));
          return BATCH;
        }),
      );

      progress('one-pod-per-call · wasm');
      row(
        'one-pod-per-call',
        'wasm',
        opsPerSecond(() => {
          for (const json of singleJson) kubewasm.podCgroupsFromJson(json, NODE);
          return singleJson.length;
        }),
      );
      progress('one-pod-per-call · ts');
      row(
        'one-pod-per-call',
        'ts',
        opsPerSecond(() => {
          for (const json of singleJson) referencePodCgroups(json, NODE);
          return singleJson.length;
        }),
      );
      return rows;
    },
  };
}
