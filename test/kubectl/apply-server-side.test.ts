/**
 * Server-side apply with the real kubectl v1.32 against `kubewasm up`: `apply --server-side`
 * creating and re-applying, a conflicting manager (kubectl scale) with kubectl's exact error and
 * exit code, `--force-conflicts`, managed fields shown by `get --show-managed-fields`, and the
 * upgrade from client-side apply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster } from '../testing/up.js';
import { deploymentSettled } from '../testing/workloads.js';

const cluster = new UpCluster();
const ok = (input: string | undefined, ...args: string[]): string => {
  const res = cluster.kubectlWithInput(input, ...args);
  expect(res.stderr).toBe('');
  expect(res.status).toBe(0);
  return res.stdout;
};

const manifest = (replicas: number, image = 'nginx:1.27') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
    app: web
spec:
  replicas: ${replicas}
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
        image: ${image}
        ports:
        - containerPort: 80
`;

describe.skipIf(!hasKubectl)('kubectl apply --server-side against kubewasm up', () => {
  beforeAll(() => cluster.start(), 60_000);
  afterAll(() => cluster.dispose());

  it('creates, then re-applies without a change', async () => {
    expect(ok(manifest(2), 'apply', '--server-side', '-f', '-')).toBe('deployment.apps/web serverside-applied\n');
    // The deployment-controller's status writes come first; then nothing writes but kubectl.
    await deploymentSettled(cluster, 'web');
    const rv = ok(undefined, 'get', 'deployment', 'web', '-o', 'jsonpath={.metadata.resourceVersion}');
    expect(ok(manifest(2), 'apply', '--server-side', '-f', '-')).toBe('deployment.apps/web serverside-applied\n');
    expect(ok(undefined, 'get', 'deployment', 'web', '-o', 'jsonpath={.metadata.resourceVersion}')).toBe(rv);
    expect(
      ok(undefined, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas} {.spec.progressDeadlineSeconds}'),
    ).toBe('2 600');
  });

  it('shows the managers with --show-managed-fields, hides them without', () => {
    const shown = ok(undefined, 'get', 'deployment', 'web', '-o', 'yaml', '--show-managed-fields');
    expect(shown).toContain('  managedFields:\n  - apiVersion: apps/v1\n    fieldsType: FieldsV1\n    fieldsV1:\n');
    expect(shown).toContain('    manager: kubectl\n    operation: Apply\n');
    expect(shown).toMatch(/ {8}f:replicas: \{\}\n/);
    expect(shown).toContain('k:{"name":"nginx"}');
    expect(ok(undefined, 'get', 'deployment', 'web', '-o', 'yaml')).not.toContain('managedFields');
  });

  it('a field another manager changed conflicts: kubectl exits 1 with the apiserver message', () => {
    expect(ok(undefined, 'scale', 'deployment', 'web', '--replicas=5')).toBe('deployment.apps/web scaled\n');
    const res = cluster.kubectlWithInput(manifest(2), 'apply', '--server-side', '-f', '-');
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(
      'error: Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas\n' +
        'Please review the fields above--they currently have other managers. Here\n' +
        'are the ways you can resolve this warning:\n' +
        '* If you intend to manage all of these fields, please re-run the apply\n' +
        '  command with the `--force-conflicts` flag.\n' +
        '* If you do not intend to manage all of the fields, please edit your\n' +
        '  manifest to remove references to the fields that should keep their\n' +
        '  current managers.\n' +
        '* You may co-own fields by updating your manifest to match the existing\n' +
        "  value; in this case, you'll become the manager if the other manager(s)\n" +
        '  stop managing the field (remove it from their configuration).\n' +
        'See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts\n',
    );
    expect(ok(undefined, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}')).toBe('5');
  });

  it('--force-conflicts takes the field over', () => {
    expect(ok(manifest(2), 'apply', '--server-side', '--force-conflicts', '-f', '-')).toBe(
      'deployment.apps/web serverside-applied\n',
    );
    expect(ok(undefined, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}')).toBe('2');
    const managers = JSON.parse(ok(undefined, 'get', 'deployment', 'web', '-o', 'json', '--show-managed-fields')) as {
      metadata: { managedFields: { manager: string; operation: string; subresource?: string; fieldsV1: unknown }[] };
    };
    const byName = managers.metadata.managedFields.map((e) => `${e.manager}/${e.operation}/${e.subresource ?? ''}`);
    // The scaler lost its only field, so its entry is gone; the deployment-controller's annotation
    // and status writes are its own.
    expect(byName.filter((m) => !m.startsWith('kube-controller-manager/'))).toEqual(['kubectl/Apply/']);
    expect(byName).toContain('kube-controller-manager/Update/status');
  });

  it('an image change applied again updates only what changed; a field dropped from the manifest is removed', () => {
    const withMinReady = manifest(2, 'nginx:1.28').replace('  replicas: 2\n', '  replicas: 2\n  minReadySeconds: 4\n');
    expect(ok(withMinReady, 'apply', '--server-side', '-f', '-')).toBe('deployment.apps/web serverside-applied\n');
    expect(
      ok(
        undefined,
        'get',
        'deployment',
        'web',
        '-o',
        'jsonpath={.spec.minReadySeconds} {.spec.template.spec.containers[0].image}',
      ),
    ).toBe('4 nginx:1.28');
    ok(manifest(2, 'nginx:1.28'), 'apply', '--server-side', '-f', '-');
    expect(ok(undefined, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.minReadySeconds}')).toBe('');
  });

  it('--dry-run=server and kubectl diff --server-side change nothing', async () => {
    await deploymentSettled(cluster, 'web');
    const rv = ok(undefined, 'get', 'deployment', 'web', '-o', 'jsonpath={.metadata.resourceVersion}');
    expect(ok(manifest(3, 'nginx:1.28'), 'apply', '--server-side', '--dry-run=server', '-f', '-')).toBe(
      'deployment.apps/web serverside-applied (server dry run)\n',
    );
    const diff = cluster.kubectlWithInput(manifest(3, 'nginx:1.28'), 'diff', '--server-side', '-f', '-');
    expect(diff.status).toBe(1);
    expect(diff.stdout).toMatch(/^- {2}replicas: 2$/m);
    expect(diff.stdout).toMatch(/^\+ {2}replicas: 3$/m);
    expect(
      ok(undefined, 'get', 'deployment', 'web', '-o', 'jsonpath={.metadata.resourceVersion} {.spec.replicas}'),
    ).toBe(`${rv} 2`);
  });

  it('upgrades an object from client-side apply', () => {
    const cm = (v: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: default\ndata:\n  colour: ${v}\n`;
    expect(ok(cm('blue'), 'apply', '-f', '-')).toBe('configmap/settings created\n');
    expect(ok(cm('green'), 'apply', '--server-side', '-f', '-')).toBe('configmap/settings serverside-applied\n');
    const got = JSON.parse(ok(undefined, 'get', 'configmap', 'settings', '-o', 'json', '--show-managed-fields')) as {
      data: Record<string, string>;
      metadata: { annotations: Record<string, string>; managedFields: { manager: string; operation: string }[] };
    };
    expect(got.data.colour).toBe('green');
    expect(got.metadata.managedFields.map((e) => `${e.manager}/${e.operation}`)).toContain('kubectl/Apply');
    // kubectl's server-side apply keeps the client-side annotation in step.
    expect(
      JSON.parse(got.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] ?? '{}').data,
    ).toEqual({ colour: 'green' });
  });
});
