/**
 * The real kubectl (v1.32, /usr/bin/kubectl) against `kubewasm up` as a child process: discovery,
 * create, get (tables and YAML), apply with default validation, scale, pod binding and the status
 * subresource, label, delete, a bad request, and a restart on the same data directory keeping every
 * object.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, KUBECTL, UpCluster } from '../testing/up.js';
import { deploymentSettled } from '../testing/workloads.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);
const https = (method: string, path: string, body?: Uint8Array, headers: Record<string, string> = {}) =>
  cluster.https(method, path, body, headers);
const startUp = () => cluster.start();
const stopUp = () => cluster.stop();
const dataDir = cluster.dataDir;
const root = cluster.root;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
`;

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: p1
spec:
  containers:
  - name: c
    image: nginx:1.27
`;

const auth = () => cluster.auth();

describe.skipIf(!hasKubectl)('kubectl against kubewasm up', () => {
  beforeAll(async () => {
    await startUp();
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
  });

  it('lists the system namespaces as a table', () => {
    const res = kubectl('get', 'namespaces');
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^NAME\s+STATUS\s+AGE\n/);
    expect(res.stdout).toMatch(/^default\s+Active\s+\d+s$/m);
    expect(res.stdout).toMatch(/^kube-system\s+Active\s+\d+s$/m);
  });

  it('creates a namespace and a configmap (protobuf bodies) and reads them back', () => {
    expect(kubectl('create', 'namespace', 'team-a').stdout).toBe('namespace/team-a created\n');
    expect(kubectl('create', 'configmap', 'cm1', '--from-literal=a=b', '-n', 'team-a').stdout).toBe(
      'configmap/cm1 created\n',
    );
    const yaml = kubectl('get', 'configmap', 'cm1', '-n', 'team-a', '-o', 'yaml').stdout;
    expect(yaml).toMatch(/^data:\n {2}a: b$/m);
    expect(yaml).toMatch(/^ {2}resourceVersion: "\d+"$/m);
    expect(yaml).toMatch(/^ {2}uid: [0-9a-f-]{36}$/m);
    const table = kubectl('get', 'cm', 'cm1', '-n', 'team-a').stdout;
    expect(table).toMatch(/^NAME\s+DATA\s+AGE\ncm1\s+1\s+\d+s\n$/);
  });

  it('applies a Deployment with default (server-side Strict) validation', async () => {
    const file = join(root, 'deploy.yaml');
    writeFileSync(file, DEPLOYMENT);
    const apply = kubectl('apply', '-f', file);
    expect(apply.stderr).toBe('');
    expect(apply.stdout).toBe('deployment.apps/web created\n');
    expect(kubectl('apply', '-f', file).stdout).toBe('deployment.apps/web unchanged\n');
    // The deployment-controller makes its ReplicaSet and two pods, unready without a kubelet.
    await deploymentSettled(cluster, 'web');
    const get = kubectl('get', 'deploy').stdout;
    expect(get).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+0\/2\s+2\s+0\s+\d+s\n$/);
    // A changed manifest: kubectl sends a strategic merge patch.
    writeFileSync(file, DEPLOYMENT.replace('replicas: 2', 'replicas: 3').replace('nginx:1.27', 'nginx:1.28'));
    expect(kubectl('apply', '-f', file).stdout).toBe('deployment.apps/web configured\n');
    const live = kubectl(
      'get',
      'deploy',
      'web',
      '-o',
      'jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.metadata.generation}',
    );
    expect(live.stdout).toBe('3 nginx:1.28 2');
  });

  it('creates a deployment and a service with kubectl create (protobuf bodies)', () => {
    expect(kubectl('create', 'deployment', 'd2', '--image=nginx:1.27', '--replicas=0').stdout).toBe(
      'deployment.apps/d2 created\n',
    );
    expect(kubectl('get', 'deploy', 'd2', '-o', 'jsonpath={.spec.replicas}').stdout).toBe('0');
    expect(kubectl('create', 'service', 'clusterip', 's1', '--tcp=80:8080').stdout).toBe('service/s1 created\n');
    // A ClusterIP from the default service range 10.96.0.0/12 (test/kubectl/lifecycle.test.ts has more).
    expect(kubectl('get', 'svc', 's1').stdout).toMatch(
      /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\ns1\s+ClusterIP\s+10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+\s+<none>\s+80\/TCP\s+\d+s\n$/,
    );
  });

  it('scales a deployment through deployments/scale, and refuses a negative count with 422', async () => {
    expect(kubectl('scale', 'deploy', 'web', '--replicas=5').stdout).toBe('deployment.apps/web scaled\n');
    expect(kubectl('get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}').stdout).toBe(
      '5 3',
    );
    const scale = await https('GET', '/apis/apps/v1/namespaces/default/deployments/web/scale', undefined, auth());
    expect(JSON.parse(scale.text)).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 5 },
      status: { selector: 'app=web' },
    });
    // The controller's status writes for the new count are done before the refused one is tried.
    await deploymentSettled(cluster, 'web');
    const before = kubectl('get', 'deploy', 'web', '-o', 'jsonpath={.metadata.resourceVersion}').stdout;
    const neg = await https(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/web/scale',
      new TextEncoder().encode('{"spec":{"replicas":-1}}'),
      { ...auth(), 'Content-Type': 'application/merge-patch+json' },
    );
    expect(neg.status).toBe(422);
    expect(JSON.parse(neg.text)).toMatchObject({
      reason: 'Invalid',
      message:
        'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    });
    expect(kubectl('get', 'deploy', 'web', '-o', 'jsonpath={.metadata.resourceVersion} {.spec.replicas}').stdout).toBe(
      `${before} 5`,
    );
  });

  it('binds a pod with a raw pods/binding POST; get -o wide shows the node; a second binding is a 409', async () => {
    const file = join(root, 'pod.yaml');
    writeFileSync(file, POD);
    expect(kubectl('apply', '-f', file).stdout).toBe('pod/p1 created\n');
    const path = '/api/v1/namespaces/default/pods/p1/binding';
    const body = (node: string) =>
      new TextEncoder().encode(
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name: 'p1' },
          target: { kind: 'Node', name: node },
        }),
      );
    const headers = { ...auth(), 'Content-Type': 'application/json' };
    const bound = await https('POST', path, body('node-1'), headers);
    console.log(`POST ${path} → ${bound.status} ${bound.text}`);
    expect(bound.status).toBe(201);
    expect(JSON.parse(bound.text)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      code: 201,
    });
    const wide = kubectl('get', 'pod', 'p1', '-o', 'wide').stdout;
    expect(wide).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES\n/);
    expect(wide).toMatch(/^p1\s+0\/1\s+Pending\s+0\s+\d+s\s+<none>\s+node-1\s+<none>\s+<none>\n$/m);
    expect(
      kubectl('get', 'pod', 'p1', '-o', 'jsonpath={.status.conditions[0].type}={.status.conditions[0].status}').stdout,
    ).toBe('PodScheduled=True');

    const before = kubectl('get', 'pod', 'p1', '-o', 'jsonpath={.metadata.resourceVersion}').stdout;
    const again = await https('POST', path, body('node-2'), headers);
    console.log(`POST ${path} → ${again.status} ${again.text}`);
    expect(again.status).toBe(409);
    expect(JSON.parse(again.text)).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "node-1"',
      details: { name: 'p1', kind: 'pods/binding' },
    });
    expect(kubectl('get', 'pod', 'p1', '-o', 'jsonpath={.metadata.resourceVersion} {.spec.nodeName}').stdout).toBe(
      `${before} node-1`,
    );
  });

  it('reads and patches the status subresource; a missing object is a 404', () => {
    const patched = kubectl(
      'patch',
      'pod',
      'p1',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"podIP":"10.0.0.7","podIPs":[{"ip":"10.0.0.7"}]},"spec":{"nodeName":"elsewhere"}}',
    );
    expect(patched.stdout).toBe('pod/p1 patched\n');
    expect(kubectl('get', 'pod', 'p1', '-o', 'jsonpath={.status.podIP} {.spec.nodeName}').stdout).toBe(
      '10.0.0.7 node-1',
    );
    const missing = kubectl('get', 'pod', 'nope', '--subresource=status');
    expect(missing.stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
  });

  it('rejects an unknown field with fieldValidation=Strict', () => {
    const file = join(root, 'bad-deploy.yaml');
    writeFileSync(
      file,
      DEPLOYMENT.replace('name: web\n', 'name: web2\n').replace('kind: Deployment', 'kind: Deployment\ncolour: blue'),
    );
    const res = kubectl('create', '-f', file);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('strict decoding error: unknown field "colour"');
  });

  it('streams a watch as kubectl get -w prints it', async () => {
    const watcher = spawn(
      KUBECTL,
      ['get', 'cm', '-n', 'team-a', '-w', '--field-selector', 'metadata.name!=kube-root-ca.crt'],
      {
        env: { ...process.env, KUBECONFIG: join(dataDir, 'kubeconfig'), HOME: root },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    watcher.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const waitFor = async (re: RegExp) => {
      const deadline = Date.now() + 10_000;
      while (!re.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    try {
      await waitFor(/^cm1\s/m);
      kubectl('create', 'configmap', 'watched', '--from-literal=k=v', '-n', 'team-a');
      await waitFor(/^watched\s/m);
    } finally {
      watcher.kill('SIGTERM');
    }
    console.log(`$ kubectl get cm -n team-a -w --field-selector metadata.name!=kube-root-ca.crt\n${out}`);
    expect(out).toMatch(/^NAME\s+DATA\s+AGE\ncm1\s+1\s+\d+s\nwatched\s+1\s+\d+s\n/);
  });

  it('labels and deletes a configmap', () => {
    expect(kubectl('label', 'cm', 'cm1', 'x=y', '-n', 'team-a').stdout).toBe('configmap/cm1 labeled\n');
    expect(kubectl('get', 'cm', 'cm1', '-n', 'team-a', '--show-labels').stdout).toMatch(/cm1\s+1\s+\d+s\s+x=y/);
    kubectl('create', 'configmap', 'cm2', '--from-literal=k=v', '-n', 'team-a');
    expect(kubectl('delete', 'configmap', 'cm1', '-n', 'team-a').stdout).toBe('configmap "cm1" deleted\n');
    const gone = kubectl('get', 'configmap', 'cm1', '-n', 'team-a');
    expect(gone.stderr).toBe('Error from server (NotFound): configmaps "cm1" not found\n');
  });

  it("prints Kubernetes' error text for a bad request", () => {
    const res = kubectl('create', 'configmap', 'Bad_Name');
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain(
      'ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters',
    );
    const dup = kubectl('create', 'namespace', 'team-a');
    expect(dup.stderr).toBe('Error from server (AlreadyExists): namespaces "team-a" already exists\n');
  });

  it('answers 401 without a token and 413 for a body over 3 MiB', async () => {
    const unauth = await https('GET', '/api/v1/namespaces');
    expect(unauth.status).toBe(401);
    expect(JSON.parse(unauth.text)).toMatchObject({ reason: 'Unauthorized', message: 'Unauthorized' });
    const big = new Uint8Array(3 * 1024 * 1024 + 1).fill(0x20);
    const res = await https('POST', '/api/v1/namespaces', big, { 'Content-Type': 'application/json' });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ reason: 'RequestEntityTooLarge' });
  });

  it('schedules a pod created with kubectl run onto a node, and explains a pod that fits nowhere', async () => {
    const node = join(root, 'node.yaml');
    writeFileSync(
      node,
      [
        'apiVersion: v1',
        'kind: Node',
        'metadata:',
        '  name: node-a',
        '  labels: {kubernetes.io/hostname: node-a}',
        'status:',
        '  allocatable: {cpu: "4", memory: 32Gi, pods: "110"}',
        '',
      ].join('\n'),
    );
    expect(kubectl('create', '-f', node).stdout).toBe('node/node-a created\n');
    expect(kubectl('run', 'sched-me', '--image=nginx', '-n', 'team-a').stdout).toBe('pod/sched-me created\n');
    const overrides = JSON.stringify({
      spec: { containers: [{ name: 'too-big', image: 'nginx', resources: { requests: { cpu: '8' } } }] },
    });
    expect(kubectl('run', 'too-big', '--image=nginx', '-n', 'team-a', `--overrides=${overrides}`).status).toBe(0);
    let nodeName = '';
    for (let i = 0; i < 100 && nodeName === ''; i++) {
      await new Promise((r) => setTimeout(r, 100));
      nodeName = kubectl('get', 'pod', 'sched-me', '-n', 'team-a', '-o', 'jsonpath={.spec.nodeName}').stdout;
    }
    expect(nodeName).toBe('node-a');
    let events = '';
    for (let i = 0; i < 50 && !events.includes('FailedScheduling'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      events = kubectl('get', 'events', '-n', 'team-a').stdout;
    }
    console.log(`$ kubectl get events -n team-a\n${events}`);
    expect(events).toMatch(/Normal\s+Scheduled\s+pod\/sched-me\s+Successfully assigned team-a\/sched-me to node-a/);
    expect(events).toMatch(
      /Warning\s+FailedScheduling\s+pod\/too-big\s+0\/1 nodes are available: 1 Insufficient cpu\./,
    );
    expect(kubectl('get', 'pod', 'too-big', '-n', 'team-a', '-o', 'jsonpath={.spec.nodeName}').stdout).toBe('');
  });

  it('keeps every object across a restart on the same data directory', async () => {
    expect(await stopUp()).toBe(0);
    await startUp();
    expect(kubectl('get', 'namespaces').stdout).toMatch(/^team-a\s+Active\s+\d+s$/m);
    expect(kubectl('get', 'cm', 'cm2', '-n', 'team-a', '-o', 'jsonpath={.data.k}').stdout).toBe('v');
    expect(kubectl('get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}').stdout).toBe('5');
    expect(kubectl('get', 'pod', 'p1', '-o', 'jsonpath={.spec.nodeName}').stdout).toBe('node-1');
  }, 60_000);
});
