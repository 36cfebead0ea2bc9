/**
 * kubernetes.io's "ReplicationController" page (concepts/workloads/controllers/replicationcontroller),
 * run as written with the real kubectl v1.32 against `kubewasm up`: `kubectl apply -f` of
 * controllers/replication.yaml, `kubectl describe replicationcontrollers/nginx`, the pods it made
 * (`kubectl get pods --selector=app=nginx`), `kubectl scale rc nginx --replicas=5`, and the two
 * deletes of "Working with ReplicationControllers": with its pods, and with `--cascade=orphan`.
 * No kubelet runs pods: the scheduler binds them to a Node object the test registers, and the test
 * marks them Running and Ready (test/testing/workloads.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';
import { keepPodsReady, registerNode } from '../testing/workloads.js';

const cluster = new UpCluster();
const ok = (...args: string[]): string => cluster.kubectlOk(...args);

// content/en/examples/controllers/replication.yaml of kubernetes/website.
const REPLICATION_YAML = `apiVersion: v1
kind: ReplicationController
metadata:
  name: nginx
spec:
  replicas: 3
  selector:
    app: nginx
  template:
    metadata:
      name: nginx
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx
        ports:
        - containerPort: 80
`;

interface PodList {
  items: {
    metadata: { name: string; deletionTimestamp?: string; ownerReferences?: { kind: string; name: string }[] };
  }[];
}

/** The live pods of app=nginx: `name owner-kind/owner-name` each (` /` for none). */
const nginxPods = (): string[] =>
  (JSON.parse(ok('get', 'pods', '--selector=app=nginx', '-o', 'json')) as PodList).items
    .filter((pod) => pod.metadata.deletionTimestamp === undefined)
    .map((pod) => {
      const owner = pod.metadata.ownerReferences?.[0];
      return `${pod.metadata.name} ${owner?.kind ?? ''}/${owner?.name ?? ''}`;
    });

const rcStatus = (): string =>
  ok('get', 'rc', 'nginx', '-o', 'jsonpath={.spec.replicas} {.status.replicas} {.status.readyReplicas}');

describe.skipIf(!hasKubectl)('the ReplicationController page with kubectl', () => {
  let stopReady: () => Promise<void> = async () => {};
  beforeAll(async () => {
    await cluster.start();
    await registerNode(cluster, 'node-1');
    stopReady = keepPodsReady(cluster, 'default');
  }, 60_000);
  afterAll(async () => {
    await stopReady();
    await cluster.dispose();
  });

  it('runs three copies of nginx (kubectl apply -f controllers/replication.yaml)', async () => {
    const applied = cluster.kubectlWithInput(REPLICATION_YAML, 'apply', '-f', '-');
    expect(applied.stdout).toBe('replicationcontroller/nginx created\n');
    await until(() => rcStatus() === '3 3 3', 30_000);
    expect(ok('get', 'rc')).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nnginx\s+3\s+3\s+3\s+\d+s\n$/);
    expect(ok('get', 'rc', '-o', 'wide')).toMatch(
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nnginx\s+3\s+3\s+3\s+\d+s\s+nginx\s+nginx\s+app=nginx\n$/,
    );
    // SetDefaults_ReplicationController gave the RC the template's labels.
    expect(ok('get', 'rc', 'nginx', '-o', 'jsonpath={.metadata.labels}')).toBe('{"app":"nginx"}');
  }, 60_000);

  it('kubectl describe replicationcontrollers/nginx', () => {
    const described = ok('describe', 'replicationcontrollers/nginx');
    expect(described).toMatch(/^Name:\s+nginx$/m);
    expect(described).toMatch(/^Namespace:\s+default$/m);
    expect(described).toMatch(/^Selector:\s+app=nginx$/m);
    expect(described).toMatch(/^Labels:\s+app=nginx$/m);
    expect(described).toMatch(/^Replicas:\s+3 current \/ 3 desired$/m);
    expect(described).toMatch(/^Pods Status:\s+3 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed$/m);
    expect(described).toMatch(/^ {4}Image:\s+nginx$/m);
    expect(described).toMatch(/^ {4}Port:\s+80\/TCP$/m);
    // Three SuccessfulCreate Events from the replication-controller, one per pod.
    const created = described.match(
      /^\s+Normal\s+SuccessfulCreate\s+\S+\s+replication-controller\s+Created pod: nginx-[a-z0-9]{5}$/gm,
    );
    expect(created).toHaveLength(3);
  });

  it('lists the pods belonging to the ReplicationController', () => {
    const names = ok('get', 'pods', '--selector=app=nginx', '--output=jsonpath={.items..metadata.name}').split(' ');
    expect(names).toHaveLength(3);
    for (const name of names) expect(name).toMatch(/^nginx-[a-z0-9]{5}$/);
    expect(nginxPods().map((l) => l.split(' ')[1])).toEqual([
      'ReplicationController/nginx',
      'ReplicationController/nginx',
      'ReplicationController/nginx',
    ]);
  });

  it('kubectl scale rc nginx --replicas=5', async () => {
    expect(ok('scale', 'rc', 'nginx', '--replicas=5')).toBe('replicationcontroller/nginx scaled\n');
    await until(() => rcStatus() === '5 5 5', 30_000);
    expect(nginxPods()).toHaveLength(5);
    expect(ok('get', 'rc', 'nginx', '--subresource=scale', '-o', 'jsonpath={.status.selector}')).toBe('app=nginx');
  }, 60_000);

  it('deleting with --cascade=orphan leaves the pods, without their owner', async () => {
    expect(ok('delete', 'rc', 'nginx', '--cascade=orphan')).toBe('replicationcontroller "nginx" deleted\n');
    await until(() => cluster.kubectl('get', 'rc', 'nginx').status !== 0);
    await until(() => nginxPods().every((l) => l.endsWith(' /')), 15_000);
    expect(nginxPods()).toHaveLength(5);
  }, 30_000);

  it('a new RC with the same selector adopts the orphans; deleting it (kubectl delete) deletes its pods', async () => {
    const applied = cluster.kubectlWithInput(REPLICATION_YAML, 'apply', '-f', '-');
    expect(applied.stdout).toBe('replicationcontroller/nginx created\n');
    // Five orphans match; three are adopted, two are too many and go.
    await until(() => rcStatus() === '3 3 3' && nginxPods().length === 3, 30_000);
    expect(nginxPods().every((l) => l.endsWith(' ReplicationController/nginx'))).toBe(true);
    expect(ok('delete', 'rc', 'nginx')).toBe('replicationcontroller "nginx" deleted\n');
    // The garbage collector deletes the pods (kubectl's default cascade is background).
    await until(() => nginxPods().length === 0, 30_000);
  }, 60_000);
});
