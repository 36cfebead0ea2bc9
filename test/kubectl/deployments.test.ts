/**
 * kubernetes.io's "Deployments" page (concepts/workloads/controllers/deployment), run as written
 * with the real kubectl v1.32 against `kubewasm up`: create, rollout status, the ReplicaSet and
 * its pod-template-hash, set image and the rollout, history, undo (to the last and to a given
 * revision), scale, pause and resume, restart, and a rollout that exceeds its progress deadline.
 * No kubelet runs pods yet: the scheduler binds them to a Node object the test registers, and the
 * test marks them Running and Ready (test/testing/workloads.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';
import { keepPodsReady, registerNode } from '../testing/workloads.js';

const cluster = new UpCluster();
const ok = (...args: string[]): string => cluster.kubectlOk(...args);

// content/en/examples/controllers/nginx-deployment.yaml of kubernetes/website.
const NGINX_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`;

/** The ReplicaSets of the Deployment: `name desired current ready` each. */
const replicaSets = (): string[] =>
  ok(
    'get',
    'rs',
    '-l',
    'app=nginx',
    '-o',
    'jsonpath={range .items[*]}{.metadata.name} {.spec.replicas} {.status.replicas} {.status.readyReplicas}{"\\n"}{end}',
  )
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

describe.skipIf(!hasKubectl)('the Deployments page with kubectl', () => {
  let stopReady: () => Promise<void> = async () => {};
  beforeAll(async () => {
    await cluster.start();
    // One node for the scheduler to bind the pods to; the test then plays its kubelet.
    await registerNode(cluster, 'node-1');
    stopReady = keepPodsReady(cluster, 'default');
  }, 60_000);
  afterAll(async () => {
    await stopReady();
    await cluster.dispose();
  });

  it('creates a Deployment that rolls out three nginx pods through a ReplicaSet', async () => {
    const applied = cluster.kubectlWithInput(NGINX_DEPLOYMENT, 'apply', '-f', '-');
    expect(applied.stdout).toBe('deployment.apps/nginx-deployment created\n');
    const status = await cluster.kubectlAsync('rollout', 'status', 'deployment/nginx-deployment', '--timeout=30s');
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/deployment "nginx-deployment" successfully rolled out\n$/);
    expect(ok('get', 'deployments')).toMatch(
      /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nnginx-deployment\s+3\/3\s+3\s+3\s+\d+s\n$/,
    );

    // The ReplicaSet is named <deployment>-<pod-template-hash>, and its pods carry the hash.
    const [rs] = replicaSets();
    const name = rs?.split(' ')[0] ?? '';
    expect(rs).toMatch(/^nginx-deployment-[bcdfghjklmnpqrstvwxz2456789]+ 3 3 3$/);
    const hash = name.slice('nginx-deployment-'.length);
    expect(ok('get', 'rs', name, '-o', 'jsonpath={.metadata.labels.pod-template-hash}')).toBe(hash);
    expect(ok('get', 'rs', name, '-o', 'jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}')).toBe(
      '1',
    );
    const pods = ok('get', 'pods', '--show-labels', '-l', 'app=nginx').trim().split('\n').slice(1);
    expect(pods).toHaveLength(3);
    for (const line of pods) expect(line).toContain(`app=nginx,pod-template-hash=${hash}`);
    expect(ok('get', 'deployment', 'nginx-deployment', '-o', 'jsonpath={.status.conditions[*].type}')).toBe(
      'Available Progressing',
    );
  });

  it('rolls out a new image, keeps the history, and rolls back', async () => {
    expect(ok('set', 'image', 'deployment.v1.apps/nginx-deployment', 'nginx=nginx:1.16.1')).toBe(
      'deployment.apps/nginx-deployment image updated\n',
    );
    const status = await cluster.kubectlAsync('rollout', 'status', 'deployment/nginx-deployment', '--timeout=30s');
    expect(status.stdout).toMatch(/deployment "nginx-deployment" successfully rolled out\n$/);
    // The new ReplicaSet has the three pods; the old one is scaled to 0 and kept.
    await until(() => replicaSets().filter((r) => r.endsWith(' 3 3 3')).length === 1);
    const sets = replicaSets();
    expect(sets).toHaveLength(2);
    expect(sets.filter((r) => r.endsWith(' 0 0'))).toHaveLength(1);
    expect(
      ok('get', 'deployment', 'nginx-deployment', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'),
    ).toBe('nginx:1.16.1');

    expect(ok('rollout', 'history', 'deployment/nginx-deployment')).toBe(
      'deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n',
    );
    expect(ok('rollout', 'history', 'deployment/nginx-deployment', '--revision=2')).toContain('Image:\tnginx:1.16.1');

    expect(ok('rollout', 'undo', 'deployment/nginx-deployment')).toBe('deployment.apps/nginx-deployment rolled back\n');
    await cluster.kubectlAsync('rollout', 'status', 'deployment/nginx-deployment', '--timeout=30s');
    expect(
      ok('get', 'deployment', 'nginx-deployment', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'),
    ).toBe('nginx:1.14.2');
    // The undone revision 1 came back as revision 3.
    expect(ok('rollout', 'history', 'deployment/nginx-deployment')).toBe(
      'deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n',
    );
    expect(ok('rollout', 'undo', 'deployment/nginx-deployment', '--to-revision=2')).toBe(
      'deployment.apps/nginx-deployment rolled back\n',
    );
    await cluster.kubectlAsync('rollout', 'status', 'deployment/nginx-deployment', '--timeout=30s');
    expect(
      ok('get', 'deployment', 'nginx-deployment', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'),
    ).toBe('nginx:1.16.1');
  });

  it('scales, pauses and resumes, and restarts', async () => {
    expect(ok('scale', 'deployment/nginx-deployment', '--replicas=10')).toBe(
      'deployment.apps/nginx-deployment scaled\n',
    );
    await until(
      () => ok('get', 'deployment', 'nginx-deployment', '-o', 'jsonpath={.status.availableReplicas}') === '10',
    );

    expect(ok('rollout', 'pause', 'deployment/nginx-deployment')).toBe('deployment.apps/nginx-deployment paused\n');
    ok('set', 'image', 'deployment/nginx-deployment', 'nginx=nginx:1.16.2');
    // Paused: the template changed, no new ReplicaSet.
    await new Promise((r) => setTimeout(r, 500));
    expect(replicaSets()).toHaveLength(2);
    expect(
      ok(
        'get',
        'deployment',
        'nginx-deployment',
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Progressing")].reason}',
      ),
    ).toBe('DeploymentPaused');
    expect(ok('rollout', 'resume', 'deployment/nginx-deployment')).toBe('deployment.apps/nginx-deployment resumed\n');
    const resumed = await cluster.kubectlAsync('rollout', 'status', 'deployment/nginx-deployment', '--timeout=30s');
    expect(resumed.stdout).toMatch(/successfully rolled out\n$/);
    expect(replicaSets()).toHaveLength(3);

    expect(ok('rollout', 'restart', 'deployment/nginx-deployment')).toBe(
      'deployment.apps/nginx-deployment restarted\n',
    );
    const restarted = await cluster.kubectlAsync('rollout', 'status', 'deployment/nginx-deployment', '--timeout=30s');
    expect(restarted.stdout).toMatch(/successfully rolled out\n$/);
    expect(
      ok(
        'get',
        'deployment',
        'nginx-deployment',
        '-o',
        "jsonpath={.spec.template.metadata.annotations['kubectl\\.kubernetes\\.io/restartedAt']}",
      ),
    ).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  // The replaced pods stay Terminating (no kubelet finishes them): the slices list them as
  // terminating, not ready; the Endpoints leave them out.
  it('exposes the Deployment: its Service gets the ready pods as Endpoints and an EndpointSlice', async () => {
    expect(ok('expose', 'deployment/nginx-deployment', '--port=80')).toBe('service/nginx-deployment exposed\n');
    const ips = () =>
      ok(
        'get',
        'endpointslices',
        '-l',
        'kubernetes.io/service-name=nginx-deployment',
        '-o',
        'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].addresses[0]}',
      )
        .split(' ')
        .filter((a) => a !== '');
    await until(() => ips().length === 10);
    expect(
      ok(
        'get',
        'endpointslices',
        '-l',
        'kubernetes.io/service-name=nginx-deployment',
        '-o',
        'jsonpath={.items[0].metadata.labels.endpointslice\\.kubernetes\\.io/managed-by} {.items[0].ports[0].port} {.items[0].addressType}',
      ),
    ).toBe('endpointslice-controller.k8s.io 80 IPv4');
    const endpoints = ok('get', 'endpoints', 'nginx-deployment', '-o', 'jsonpath={.subsets[0].addresses[*].ip}').split(
      ' ',
    );
    expect(endpoints.sort()).toEqual(ips().sort());
    expect(ok('get', 'endpoints', 'nginx-deployment')).toMatch(
      /^nginx-deployment\s+10\.244\.\d+\.\d+:80,10\.244\.\d+\.\d+:80,10\.244\.\d+\.\d+:80 \+ 7 more\.\.\.\s+\d+s$/m,
    );
  });

  it('reports a rollout that makes no progress as ProgressDeadlineExceeded', async () => {
    const res = cluster.kubectlWithInput(
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: stuck
spec:
  replicas: 1
  progressDeadlineSeconds: 2
  selector:
    matchLabels:
      app: stuck
  template:
    metadata:
      labels:
        app: stuck
    spec:
      readinessGates:
      - conditionType: example.com/never
      containers:
      - name: c
        image: nginx:1.14.2
`,
      'apply',
      '-f',
      '-',
    );
    expect(res.status).toBe(0);
    // Its pod has a readiness gate nobody sets: the ready marker, like a kubelet, leaves it unready.
    const status = await cluster.kubectlAsync('rollout', 'status', 'deployment/stuck', '--timeout=30s');
    expect(status.status).toBe(1);
    expect(status.stderr).toBe('error: deployment "stuck" exceeded its progress deadline\n');
    expect(
      ok(
        'get',
        'deployment',
        'stuck',
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Progressing")].status} {.status.conditions[?(@.type=="Progressing")].reason}',
      ),
    ).toBe('False ProgressDeadlineExceeded');
  });
});
