/**
 * The real kubectl (v1.32) against `kubewasm up` with kube-apiserver's default admission plugins:
 * a LimitRange defaulting a pod's resources, a pod LimitRanger refuses (kubectl's exact stderr), the
 * ServiceAccount plugin's token volume (with the `default` ServiceAccount and `kube-root-ca.crt`
 * ConfigMap the controllers make in every namespace, new ones included), a priorityClassName pod,
 * and DefaultTolerationSeconds' tolerations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster } from '../testing/up.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);
const apply = (manifest: unknown, ...args: string[]) =>
  cluster.kubectlWithInput(JSON.stringify(manifest), 'apply', '-f', '-', ...args);

// biome-ignore lint/suspicious/noExplicitAny: kubectl's JSON output is read freely
type Doc = any;
const getJson = (...args: string[]): Doc => JSON.parse(kubectl('get', ...args, '-o', 'json').stdout);

const pod = (name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  // A node selector nothing matches keeps the pod unscheduled: only admission is looked at.
  spec: { nodeSelector: { absent: 'yes' }, containers: [{ name: 'app', image: 'nginx', ...container }], ...spec },
});

describe.skipIf(!hasKubectl)('admission plugins against kubewasm up', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
  });

  it("a LimitRange fills in a pod's requests and limits, and says so in an annotation", () => {
    expect(kubectl('create', 'namespace', 'limits').status).toBe(0);
    const lr = apply(
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'defaults' },
        spec: {
          limits: [{ type: 'Container', default: { cpu: '500m', memory: '128Mi' }, defaultRequest: { cpu: '250m' } }],
        },
      },
      '-n',
      'limits',
    );
    expect(lr.stdout).toBe('limitrange/defaults created\n');
    expect(apply(pod('web'), '-n', 'limits').stdout).toBe('pod/web created\n');
    const web = getJson('pod', 'web', '-n', 'limits');
    expect(web.spec.containers[0].resources).toEqual({
      limits: { cpu: '500m', memory: '128Mi' },
      requests: { cpu: '250m', memory: '128Mi' },
    });
    expect(web.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app',
    );
  });

  it("a pod over the LimitRange maximum is refused with kube-apiserver's message, and not stored", () => {
    expect(kubectl('create', 'namespace', 'capped').status).toBe(0);
    apply(
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'cap' },
        spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] },
      },
      '-n',
      'capped',
    );
    const refused = apply(pod('big', {}, { resources: { limits: { cpu: '2' } } }), '-n', 'capped');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2\n',
    );
    expect(kubectl('get', 'pod', 'big', '-n', 'capped').stderr).toBe(
      'Error from server (NotFound): pods "big" not found\n',
    );
  });

  it('every pod gets the service account token volume, from the default ServiceAccount and kube-root-ca.crt', () => {
    expect(kubectl('create', 'namespace', 'fresh').status).toBe(0);
    // The controllers fill a new namespace in (the plugin waits a little for `default`).
    expect(
      kubectl('run', 'p', '--image=nginx', '-n', 'fresh', '--overrides={"spec":{"nodeSelector":{"absent":"yes"}}}')
        .stdout,
    ).toBe('pod/p created\n');
    const p = getJson('pod', 'p', '-n', 'fresh');
    expect(p.spec.serviceAccountName).toBe('default');
    expect(p.spec.serviceAccount).toBe('default');
    const volume = p.spec.volumes.find((v: Doc) => v.name.startsWith('kube-api-access-'));
    expect(volume.name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    expect(volume.projected.sources).toEqual([
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ]);
    expect(volume.projected.defaultMode).toBe(420);
    expect(p.spec.containers[0].volumeMounts).toEqual([
      { name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
    ]);
    expect(kubectl('get', 'serviceaccount', 'default', '-n', 'fresh', '-o', 'name').stdout).toBe(
      'serviceaccount/default\n',
    );
    const ca = kubectl('get', 'configmap', 'kube-root-ca.crt', '-n', 'fresh', '-o', 'jsonpath={.data.ca\\.crt}');
    expect(ca.stdout).toBe(cluster.ca.toString());
  });

  it('a pod naming a ServiceAccount that does not exist is refused', () => {
    const res = apply(pod('robot', { serviceAccountName: 'robot' }));
    expect(res.stderr).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "robot" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found\n',
    );
  });

  it('priorityClassName resolves into spec.priority; the system classes exist; tolerations are defaulted', () => {
    expect(
      apply({
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'high' },
        value: 100000,
        preemptionPolicy: 'Never',
      }).stdout,
    ).toBe('priorityclass.scheduling.k8s.io/high created\n');
    apply(pod('important', { priorityClassName: 'high' }));
    const important = getJson('pod', 'important');
    expect(important.spec.priority).toBe(100000);
    expect(important.spec.preemptionPolicy).toBe('Never');
    expect(important.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    apply(pod('critical', { priorityClassName: 'system-cluster-critical' }), '-n', 'kube-system');
    expect(getJson('pod', 'critical', '-n', 'kube-system').spec.priority).toBe(2000000000);
    const missing = apply(pod('nope', { priorityClassName: 'nope' }));
    expect(missing.stderr).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "nope" is forbidden: no PriorityClass with name nope was found\n',
    );
  });
});
