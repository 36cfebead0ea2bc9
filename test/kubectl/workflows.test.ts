/**
 * The everyday kubectl workflows of the API-server issue's acceptance list, with the real kubectl
 * v1.32 against `kubewasm up`: imperative creates, the three patch types, label/annotate (set,
 * overwrite, remove), every output format, describe with events, delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster } from '../testing/up.js';
import { deploymentSettled } from '../testing/workloads.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);
const ok = (...args: string[]): string => cluster.kubectlOk(...args);

describe.skipIf(!hasKubectl)('kubectl workflows against kubewasm up', () => {
  beforeAll(() => cluster.start(), 60_000);
  afterAll(() => cluster.dispose());

  it('creates a namespace, configmap, secret and serviceaccount imperatively', () => {
    expect(ok('create', 'namespace', 'shop')).toBe('namespace/shop created\n');
    expect(
      ok('create', 'configmap', 'settings', '-n', 'shop', '--from-literal=colour=blue', '--from-literal=size=9'),
    ).toBe('configmap/settings created\n');
    expect(ok('create', 'secret', 'generic', 'creds', '-n', 'shop', '--from-literal=password=s3cret')).toBe(
      'secret/creds created\n',
    );
    expect(ok('create', 'serviceaccount', 'robot', '-n', 'shop')).toBe('serviceaccount/robot created\n');

    expect(ok('get', 'configmap', 'settings', '-n', 'shop', '-o', 'jsonpath={.data.colour}/{.data.size}')).toBe(
      'blue/9',
    );
    // Secret data is base64 on the wire, as stored by Kubernetes.
    expect(ok('get', 'secret', 'creds', '-n', 'shop', '-o', 'jsonpath={.type} {.data.password}')).toBe(
      `Opaque ${Buffer.from('s3cret').toString('base64')}`,
    );
    expect(ok('get', 'serviceaccounts', '-n', 'shop')).toMatch(
      /^NAME\s+SECRETS\s+AGE\ndefault\s+0\s+\d+s\nrobot\s+0\s+\d+s\n$/,
    );
  });

  it('prints one object in every output format', () => {
    const asJson = JSON.parse(ok('get', 'configmap', 'settings', '-n', 'shop', '-o', 'json')) as {
      kind: string;
      metadata: { uid: string; resourceVersion: string; creationTimestamp: string };
    };
    expect(asJson.kind).toBe('ConfigMap');
    expect(asJson.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(asJson.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const asYaml = ok('get', 'configmap', 'settings', '-n', 'shop', '-o', 'yaml');
    expect(asYaml).toMatch(/^apiVersion: v1\ndata:\n {2}colour: blue\n {2}size: "9"\nkind: ConfigMap\nmetadata:\n/);
    expect(asYaml).toContain(`resourceVersion: "${asJson.metadata.resourceVersion}"`);

    expect(ok('get', 'configmap', 'settings', '-n', 'shop', '-o', 'name')).toBe('configmap/settings\n');
    expect(ok('get', 'configmaps', '-n', 'shop', '-o', 'wide')).toMatch(/^NAME\s+DATA\s+AGE\n/);
    expect(ok('get', 'cm', 'settings', '-n', 'shop', '-o', 'custom-columns=N:.metadata.name,C:.data.colour')).toBe(
      'N          C\nsettings   blue\n',
    );
  });

  it('patches with a JSON patch, a merge patch and a strategic merge patch', () => {
    ok('create', 'deployment', 'cart', '-n', 'shop', '--image=nginx:1.27', '--replicas=1');
    const patchCart = (type: 'json' | 'merge' | 'strategic', patch: string) =>
      kubectl('patch', 'deployment', 'cart', '-n', 'shop', `--type=${type}`, '-p', patch);
    const cart = (jsonpath: string) => ok('get', 'deploy', 'cart', '-n', 'shop', '-o', `jsonpath=${jsonpath}`);

    // JSON patch (RFC 6902): a test that holds, then a replace.
    const replicas = (from: number, to: number) =>
      `[{"op":"test","path":"/spec/replicas","value":${from}},{"op":"replace","path":"/spec/replicas","value":${to}}]`;
    expect(patchCart('json', replicas(1, 3)).status).toBe(0);
    expect(cart('{.spec.replicas}')).toBe('3');
    // A failing test op changes nothing.
    expect(patchCart('json', replicas(7, 9)).status).not.toBe(0);
    expect(cart('{.spec.replicas}')).toBe('3');

    // Merge patch (RFC 7386): a list is replaced whole.
    const containers = (name: string, image: string) =>
      `{"spec":{"template":{"spec":{"containers":[{"name":"${name}","image":"${image}"}]}}}}`;
    expect(patchCart('merge', containers('nginx', 'nginx:1.28')).status).toBe(0);
    expect(cart('{.spec.template.spec.containers[*].image}')).toBe('nginx:1.28');

    // Strategic merge patch (kubectl's default): containers merge by name, so a sidecar joins nginx
    // instead of replacing it — placed first, as strategicpatch's normalizeElementOrder puts an
    // element new to the list before the ones the patch does not name.
    expect(patchCart('strategic', containers('log', 'busybox:1.36')).status).toBe(0);
    expect(cart('{.spec.template.spec.containers[*].name}')).toBe('log nginx');
    // generation counts the three spec changes (create = 1).
    expect(cart('{.metadata.generation}')).toBe('4');
  });

  it('sets, overwrites and removes labels and annotations', () => {
    expect(ok('label', 'configmap', 'settings', '-n', 'shop', 'tier=web')).toBe('configmap/settings labeled\n');
    const clash = kubectl('label', 'configmap', 'settings', '-n', 'shop', 'tier=db');
    expect(clash.status).not.toBe(0);
    expect(clash.stderr).toContain("'tier' already has a value (web), and --overwrite is false");
    ok('label', 'configmap', 'settings', '-n', 'shop', 'tier=db', '--overwrite');
    ok('annotate', 'configmap', 'settings', '-n', 'shop', 'owner=team-a');
    expect(ok('get', 'cm', '-n', 'shop', '-l', 'tier=db', '-o', 'name')).toBe('configmap/settings\n');
    expect(ok('get', 'cm', 'settings', '-n', 'shop', '-o', 'jsonpath={.metadata.annotations.owner}')).toBe('team-a');

    ok('label', 'configmap', 'settings', '-n', 'shop', 'tier-');
    ok('annotate', 'configmap', 'settings', '-n', 'shop', 'owner-');
    expect(ok('get', 'cm', 'settings', '-n', 'shop', '-o', 'jsonpath={.metadata.labels}{.metadata.annotations}')).toBe(
      '',
    );
    expect(ok('get', 'cm', '-n', 'shop', '-l', 'tier', '-o', 'name')).toBe('');
  });

  it('describes a pod with its events and a namespace with its quota and limit sections', async () => {
    ok('run', 'waiter', '-n', 'shop', '--image=nginx:1.27');
    // No node exists: the scheduler records FailedScheduling, which describe lists under Events.
    let out = '';
    for (let i = 0; i < 50; i++) {
      out = ok('describe', 'pod', 'waiter', '-n', 'shop');
      if (out.includes('FailedScheduling')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(out).toMatch(/^Name:\s+waiter\nNamespace:\s+shop\n/);
    expect(out).toMatch(/^Status:\s+Pending$/m);
    expect(out).toMatch(/^QoS Class:\s+BestEffort$/m);
    expect(out).toMatch(/Warning\s+FailedScheduling\s+\S+\s+default-scheduler\s+no nodes available to schedule pods/);

    const ns = ok('describe', 'namespace', 'shop');
    expect(ns).toMatch(/^Name:\s+shop\n/);
    expect(ns).toMatch(/^Status:\s+Active$/m);
    expect(ns).toContain('No resource quota.');
    expect(ns).toContain('No LimitRange resource.');

    // Its template changed three times with no pod ever ready (no kubelet): a rollout that stays
    // stuck, how far it got depending on when the controller saw each template.
    await deploymentSettled(cluster, 'cart', 'shop');
    const deploy = ok('describe', 'deployment', 'cart', '-n', 'shop');
    expect(deploy).toMatch(/^Replicas:\s+3 desired \| \d+ updated \| \d+ total \| 0 available \| \d+ unavailable$/m);
    expect(deploy).toMatch(/^StrategyType:\s+RollingUpdate$/m);
    expect(deploy).toMatch(/^NewReplicaSet:\s+cart-[bcdfghjklmnpqrstvwxz2456789]+ \(\d+\/\d+ replicas created\)$/m);
    expect(deploy).toMatch(
      /Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set cart-\S+ from 0 to \d+/,
    );
  }, 30_000);

  it('deletes objects, and a missing one is a NotFound error', () => {
    expect(ok('delete', 'configmap', 'settings', '-n', 'shop')).toBe('configmap "settings" deleted\n');
    const again = kubectl('delete', 'configmap', 'settings', '-n', 'shop');
    expect(again.status).toBe(1);
    expect(again.stderr).toBe('Error from server (NotFound): configmaps "settings" not found\n');
    expect(ok('delete', 'configmap', 'settings', '-n', 'shop', '--ignore-not-found')).toBe('');
  });
});
