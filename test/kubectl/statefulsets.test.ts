/**
 * kubernetes.io's "StatefulSet Basics" tutorial (tutorials/stateful-application/basic-stateful-set)
 * with the real kubectl v1.32 against `kubewasm up`: the headless `nginx` Service and the `web`
 * StatefulSet; pods made web-0 then web-1, each Ready before the next; `kubectl scale` to 5 and
 * back to 3, removed from the highest ordinal down; a staged update through
 * `rollingUpdate.partition`, then the rest; `kubectl rollout status / history / undo`; OnDelete.
 * No kubelet runs: the test plays its part — bound pods marked Running and Ready, pods being
 * deleted finished. The tutorial's `www` claims are made, one per pod before it; with no
 * PersistentVolume binder and provisioner yet they stay Pending (the tutorial shows them Bound).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';
import { markPodsReady, registerNode } from '../testing/workloads.js';

const cluster = new UpCluster();
const NS = 'default';
const ok = (...args: string[]): string => cluster.kubectlOk(...args);

// content/en/examples/application/web/web.yaml of kubernetes/website.
const WEB = `apiVersion: v1
kind: Service
metadata:
  name: nginx
  labels:
    app: nginx
spec:
  ports:
  - port: 80
    name: web
  clusterIP: None
  selector:
    app: nginx
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: "nginx"
  replicas: 2
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
        image: registry.k8s.io/nginx-slim:0.21
        ports:
        - containerPort: 80
          name: web
        volumeMounts:
        - name: www
          mountPath: /usr/share/nginx/html
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ "ReadWriteOnce" ]
      resources:
        requests:
          storage: 1Gi
`;

interface PodItem {
  metadata: { name: string; deletionTimestamp?: string; creationTimestamp?: string; labels?: Record<string, string> };
  spec: { containers: Array<{ image: string }> };
}

const pods = async (): Promise<PodItem[]> => {
  const res = await cluster.https(
    'GET',
    `/api/v1/namespaces/${NS}/pods?labelSelector=app%3Dnginx`,
    undefined,
    cluster.auth(),
  );
  return (JSON.parse(res.text) as { items: PodItem[] }).items;
};
const liveNames = async (): Promise<string[]> =>
  (await pods())
    .filter((p) => p.metadata.deletionTimestamp === undefined)
    .map((p) => p.metadata.name)
    .sort();
const images = async (): Promise<Record<string, string>> =>
  Object.fromEntries(
    (await pods())
      .filter((p) => p.metadata.deletionTimestamp === undefined)
      .map((p) => [p.metadata.name, p.spec.containers[0]?.image ?? '']),
  );

/** The kubelet's part: pods made Ready, pods being deleted finished; every pass's pod names kept. */
function kubelet(): { stop(): Promise<void>; seen: string[][] } {
  let stopped = false;
  const seen: string[][] = [];
  const loop = (async () => {
    while (!stopped) {
      await markPodsReady(cluster, NS).catch(() => 0);
      const all = await pods().catch(() => []);
      seen.push(all.map((p) => p.metadata.name).sort());
      for (const pod of all) {
        if (pod.metadata.deletionTimestamp === undefined) continue;
        await cluster
          .https(
            'DELETE',
            `/api/v1/namespaces/${NS}/pods/${pod.metadata.name}?gracePeriodSeconds=0`,
            undefined,
            cluster.auth(),
          )
          .catch(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    seen,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** until, for a check that reads the cluster asynchronously. */
async function untilAsync(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const rolloutStatus = async (): Promise<string> => {
  const res = await cluster.kubectlAsync('rollout', 'status', 'sts/web', '--timeout=60s');
  expect(res.status, res.stderr).toBe(0);
  return res.stdout;
};

describe.skipIf(!hasKubectl)('the StatefulSet Basics tutorial with kubectl', () => {
  let k: ReturnType<typeof kubelet> | undefined;
  beforeAll(async () => {
    await cluster.start();
    await registerNode(cluster, 'node-1');
    k = kubelet();
  }, 60_000);
  afterAll(async () => {
    await k?.stop();
    await cluster.dispose();
  });

  it('creates web-0, then web-1 once web-0 is Ready', async () => {
    const applied = cluster.kubectlWithInput(WEB, 'apply', '-f', '-');
    expect(applied.stdout).toBe('service/nginx created\nstatefulset.apps/web created\n');
    expect(await rolloutStatus()).toMatch(/partitioned roll out complete: 2 new pods have been updated...\n$/);
    const made = (await pods()).sort((a, b) =>
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
    );
    expect(made.map((p) => p.metadata.name)).toEqual(['web-0', 'web-1']);
    // web-1 came only after web-0 was Ready: never seen alone before it.
    const firstWithWeb1 = k?.seen.findIndex((names) => names.includes('web-1')) ?? -1;
    expect(k?.seen.slice(0, firstWithWeb1).every((names) => !names.includes('web-1'))).toBe(true);
    expect(ok('get', 'sts', 'web')).toMatch(/^NAME\s+READY\s+AGE\nweb\s+2\/2\s+\d+s\n$/);
    // Stable identity: hostname and the pod-name label.
    expect(
      ok(
        'get',
        'pod',
        'web-1',
        '-o',
        'jsonpath={.spec.hostname}.{.spec.subdomain} {.metadata.labels.statefulset\\.kubernetes\\.io/pod-name} {.metadata.labels.apps\\.kubernetes\\.io/pod-index}',
      ),
    ).toBe('web-1.nginx web-1 1');
    const events = ok(
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=web',
      '-o',
      'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}',
    );
    expect(events).toContain('SuccessfulCreate: create Pod web-0 in StatefulSet web successful');
    expect(events).toContain('SuccessfulCreate: create Pod web-1 in StatefulSet web successful');
    expect(events).toContain('SuccessfulCreate: create Claim www-web-0 Pod web-0 in StatefulSet web success');
    // The tutorial's `kubectl get pvc -l app=nginx`: a claim per pod, named after the template and the pod.
    expect(ok('get', 'pvc', '-l', 'app=nginx', '-o', 'jsonpath={.items[*].metadata.name}')).toBe('www-web-0 www-web-1');
    expect(
      ok('get', 'pod', 'web-0', '-o', 'jsonpath={.spec.volumes[?(@.name=="www")].persistentVolumeClaim.claimName}'),
    ).toBe('www-web-0');
  }, 90_000);

  it('scales up to 5 in order and down to 3 from the highest ordinal', async () => {
    expect(ok('scale', 'sts', 'web', '--replicas=5')).toBe('statefulset.apps/web scaled\n');
    await until(() => ok('get', 'sts', 'web', '-o', 'jsonpath={.status.readyReplicas}') === '5', 60_000);
    expect(await liveNames()).toEqual(['web-0', 'web-1', 'web-2', 'web-3', 'web-4']);
    const from = k?.seen.length ?? 0;
    expect(ok('patch', 'sts', 'web', '-p', '{"spec":{"replicas":3}}')).toBe('statefulset.apps/web patched\n');
    await until(() => ok('get', 'sts', 'web', '-o', 'jsonpath={.status.replicas}') === '3', 60_000);
    expect(await liveNames()).toEqual(['web-0', 'web-1', 'web-2']);
    // web-4 went before web-3: no pass saw web-3 gone while web-4 remained.
    expect(k?.seen.slice(from).some((names) => names.includes('web-4') && !names.includes('web-3'))).toBe(false);
  }, 90_000);

  it('stages an update with a partition, then rolls the rest; history and undo', async () => {
    expect(
      ok(
        'patch',
        'statefulset',
        'web',
        '-p',
        '{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":3}}}}',
      ),
    ).toBe('statefulset.apps/web patched\n');
    expect(
      ok(
        'patch',
        'statefulset',
        'web',
        '--type=json',
        '-p',
        '[{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value":"registry.k8s.io/nginx-slim:0.24"}]',
      ),
    ).toBe('statefulset.apps/web patched\n');
    expect(await rolloutStatus()).toMatch(/partitioned roll out complete: 0 new pods have been updated...\n$/);
    expect(Object.values(await images())).toEqual(Array(3).fill('registry.k8s.io/nginx-slim:0.21'));
    // The canary: partition 2 updates web-2 only.
    ok(
      'patch',
      'statefulset',
      'web',
      '-p',
      '{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":2}}}}',
    );
    expect(await rolloutStatus()).toMatch(/partitioned roll out complete: 1 new pods have been updated...\n$/);
    expect(await images()).toEqual({
      'web-0': 'registry.k8s.io/nginx-slim:0.21',
      'web-1': 'registry.k8s.io/nginx-slim:0.21',
      'web-2': 'registry.k8s.io/nginx-slim:0.24',
    });
    // A pod below the partition deleted comes back at the current revision.
    ok('delete', 'pod', 'web-0', '--wait=false');
    await untilAsync(async () => (await liveNames()).includes('web-0'), 30_000);
    expect((await images())['web-0']).toBe('registry.k8s.io/nginx-slim:0.21');
    // Phased roll out: partition 0.
    ok(
      'patch',
      'statefulset',
      'web',
      '-p',
      '{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0}}}}',
    );
    expect(await rolloutStatus()).toMatch(/partitioned roll out complete: 3 new pods have been updated...\n$/);
    expect(Object.values(await images())).toEqual(Array(3).fill('registry.k8s.io/nginx-slim:0.24'));

    expect(ok('rollout', 'history', 'sts/web')).toMatch(
      /^statefulset.apps\/web \nREVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n\n$/,
    );
    expect(ok('rollout', 'history', 'sts/web', '--revision=1')).toContain('registry.k8s.io/nginx-slim:0.21');
    expect(ok('rollout', 'undo', 'sts/web')).toBe('statefulset.apps/web rolled back\n');
    await untilAsync(
      async () =>
        Object.values(await images()).every((i) => i === 'registry.k8s.io/nginx-slim:0.21') &&
        (await liveNames()).length === 3,
      60_000,
    );
    await rolloutStatus();
    // The undo renumbered revision 1 to 3.
    expect(ok('rollout', 'history', 'sts/web')).toMatch(/REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n/);
  }, 180_000);

  it('OnDelete: the template changes, pods change only when deleted', async () => {
    ok('patch', 'statefulset', 'web', '-p', '{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}');
    ok(
      'patch',
      'statefulset',
      'web',
      '--type=json',
      '-p',
      '[{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value":"registry.k8s.io/nginx-slim:0.24"}]',
    );
    await until(
      () =>
        ok('get', 'sts', 'web', '-o', 'jsonpath={.status.observedGeneration}') ===
        ok('get', 'sts', 'web', '-o', 'jsonpath={.metadata.generation}'),
      30_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(Object.values(await images())).toEqual(Array(3).fill('registry.k8s.io/nginx-slim:0.21'));
    ok('delete', 'pod', 'web-1', '--wait=false');
    await untilAsync(async () => (await images())['web-1'] === 'registry.k8s.io/nginx-slim:0.24', 30_000);
    expect((await images())['web-0']).toBe('registry.k8s.io/nginx-slim:0.21');
    const rollout = cluster.kubectl('rollout', 'status', 'sts/web');
    expect(rollout.stderr).toContain('rollout status is only available for RollingUpdate strategy type');
  }, 90_000);
});
