/**
 * The real kubectl (v1.32) against `kubewasm up`: Pod Security admission as a user meets it —
 * labelling a namespace (invalid values refused, existing pods reported), `kubectl run` refused by
 * the enforce level with kubectl's exact stderr, and the `Warning:` lines of the warn level on
 * workloads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster } from '../testing/up.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);

const RESTRICTED = (c: string) =>
  `allowPrivilegeEscalation != false (container "${c}" must set securityContext.allowPrivilegeEscalation=false), ` +
  `unrestricted capabilities (container "${c}" must set securityContext.capabilities.drop=["ALL"]), ` +
  `runAsNonRoot != true (pod or container "${c}" must set securityContext.runAsNonRoot=true), ` +
  `seccompProfile (pod or container "${c}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

describe.skipIf(!hasKubectl)('kubectl: Pod Security admission against kubewasm up', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
  });

  it('reports existing pods when a namespace is labelled restricted, then refuses kubectl run', () => {
    expect(kubectl('create', 'namespace', 'psa').stdout).toBe('namespace/psa created\n');
    expect(kubectl('run', 'before', '--image=nginx', '-n', 'psa').stdout).toBe('pod/before created\n');
    const label = kubectl('label', 'ns', 'psa', 'pod-security.kubernetes.io/enforce=restricted');
    expect(label.stdout).toBe('namespace/psa labeled\n');
    expect(label.stderr).toBe(
      'Warning: existing pods in namespace "psa" violate the new PodSecurity enforce level "restricted:latest"\n' +
        'Warning: before: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile\n',
    );
    const run = kubectl('run', 'web', '--image=nginx', '-n', 'psa');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `Error from server (Forbidden): pods "web" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED('web')}\n`,
    );
    expect(kubectl('get', 'pod', 'web', '-n', 'psa').stderr).toBe(
      'Error from server (NotFound): pods "web" not found\n',
    );
  });

  it("refuses an invalid policy label with kubectl's Invalid text", () => {
    const res = kubectl('label', 'ns', 'psa', '--overwrite', 'pod-security.kubernetes.io/enforce=strict');
    expect(res.status).toBe(1);
    expect(res.stderr).toBe(
      'The Namespace "psa" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted\n',
    );
    expect(
      kubectl('get', 'ns', 'psa', '-o', 'jsonpath={.metadata.labels.pod-security\\.kubernetes\\.io/enforce}').stdout,
    ).toBe('restricted');
  });

  it('warns about a deployment the warn level forbids, and creates it', () => {
    expect(kubectl('create', 'namespace', 'warned').stdout).toBe('namespace/warned created\n');
    expect(
      kubectl(
        'label',
        'ns',
        'warned',
        'pod-security.kubernetes.io/warn=restricted',
        'pod-security.kubernetes.io/enforce=baseline',
      ).stdout,
    ).toBe('namespace/warned labeled\n');
    const res = kubectl('create', 'deployment', 'web', '--image=nginx', '-n', 'warned');
    expect(res.status).toBe(0);
    expect(res.stdout).toBe('deployment.apps/web created\n');
    expect(res.stderr).toBe(`Warning: would violate PodSecurity "restricted:latest": ${RESTRICTED('nginx')}\n`);
  });

  it('refuses a privileged pod from a manifest under baseline', () => {
    const manifest = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'priv', namespace: 'warned' },
      spec: { hostPID: true, containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] },
    });
    const res = cluster.kubectlWithInput(manifest, 'apply', '-f', '-');
    expect(res.status).toBe(1);
    expect(res.stderr).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "priv" is forbidden: violates PodSecurity "baseline:latest": ' +
        'host namespaces (hostPID=true), privileged (container "c" must not set securityContext.privileged=true)\n',
    );
  });
});
