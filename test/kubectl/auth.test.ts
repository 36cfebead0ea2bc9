/**
 * The access-review APIs with the real kubectl (v1.32, /usr/bin/kubectl) against `kubewasm up`:
 * `kubectl auth can-i` (a protobuf SelfSubjectAccessReview) for the admin and for an RBAC-limited
 * user, `auth can-i --list` (SelfSubjectRulesReview), a SubjectAccessReview for another user made
 * with `kubectl create -f`, and `kubectl api-resources` listing the four reviews.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, type KubectlResult, UpCluster } from '../testing/up.js';

const JANE_TOKEN = 'jane-token-0123456789';
// jane's token, in a --token-auth-file beside the admin's token.
const tokenDir = mkdtempSync(join(tmpdir(), 'kubewasm-auth-'));
const TOKEN_FILE = join(tokenDir, 'tokens.csv');
const cluster = new UpCluster(['--token-auth-file', TOKEN_FILE]);

// jane has only the default bindings until these: a Role for her, and one for the admin (for --list).
const RBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pod-reader, namespace: default}
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: jane-reads-pods, namespace: default}
subjects:
- {kind: User, name: jane, apiGroup: rbac.authorization.k8s.io}
roleRef: {kind: Role, name: pod-reader, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cm1-reader, namespace: default}
rules:
- apiGroups: [""]
  resources: ["configmaps"]
  resourceNames: ["cm1"]
  verbs: ["get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: admin-reads-cm1, namespace: default}
subjects:
- {kind: User, name: admin, apiGroup: rbac.authorization.k8s.io}
roleRef: {kind: Role, name: cm1-reader, apiGroup: rbac.authorization.k8s.io}
`;

const sar = (verb: string) => `apiVersion: authorization.k8s.io/v1
kind: SubjectAccessReview
spec:
  user: jane
  resourceAttributes: {namespace: default, verb: ${verb}, resource: pods}
`;

/** Runs `run` until `done` holds (the authorizer follows RBAC changes through a watch), at most 10 s. */
async function eventually(run: () => KubectlResult, done: (r: KubectlResult) => boolean): Promise<KubectlResult> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = run();
    if (done(r) || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!hasKubectl)('kubectl auth against kubewasm up', () => {
  beforeAll(async () => {
    writeFileSync(TOKEN_FILE, `${JANE_TOKEN},jane,jane-uid,"devs"\n`);
    await cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
    rmSync(tokenDir, { recursive: true, force: true });
  });

  it('kubectl auth can-i create pods: yes for the admin (system:masters)', () => {
    const r = cluster.kubectl('auth', 'can-i', 'create', 'pods');
    expect(r.stdout).toBe('yes\n');
    expect(r.status).toBe(0);
  });

  it('kubectl auth can-i for jane follows the Role bound to her', async () => {
    const asJane = (...args: string[]) => cluster.kubectl('--token', JANE_TOKEN, 'auth', 'can-i', ...args);
    const before = asJane('list', 'pods');
    expect(before.stdout).toBe('no\n');
    expect(before.status).toBe(1);

    const created = cluster.kubectlWithInput(RBAC, 'create', '-f', '-');
    expect(created.status).toBe(0);
    expect(created.stdout).toContain('rolebinding.rbac.authorization.k8s.io/jane-reads-pods created');

    const after = await eventually(
      () => asJane('list', 'pods'),
      (r) => r.stdout === 'yes\n',
    );
    expect(after.stdout).toBe('yes\n');
    expect(after.status).toBe(0);
    expect(asJane('delete', 'pods').stdout).toBe('no\n');
    expect(asJane('list', 'pods', '-n', 'kube-system').stdout).toBe('no\n');
  });

  it('a SubjectAccessReview for jane made with kubectl create -f answers allowed or not', async () => {
    const allowed = await eventually(
      () => cluster.kubectlWithInput(sar('list'), 'create', '-f', '-', '-o', 'json'),
      (r) => r.stdout.includes('"allowed": true'),
    );
    expect(allowed.status).toBe(0);
    const review = JSON.parse(allowed.stdout) as Record<string, unknown>;
    expect(review).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'default', resource: 'pods', verb: 'list' }, user: 'jane' },
      status: {
        allowed: true,
        reason: 'RBAC: allowed by RoleBinding "jane-reads-pods/default" of Role "pod-reader" to User "jane"',
      },
    });

    const denied = cluster.kubectlWithInput(sar('delete'), 'create', '-f', '-', '-o', 'json');
    expect(denied.status).toBe(0);
    expect((JSON.parse(denied.stdout) as { status: unknown }).status).toEqual({ allowed: false });

    const invalid = cluster.kubectlWithInput(sar('get').replace('  user: jane\n', ''), 'create', '-f', '-');
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toContain('spec.user: Invalid value: "": at least one of user or group must be specified');
  });

  it('kubectl auth can-i --list shows the rules the requester holds in the namespace', async () => {
    const admin = await eventually(
      () => cluster.kubectl('auth', 'can-i', '--list'),
      (r) => r.stdout.includes('[cm1]'),
    );
    expect(admin.status).toBe(0);
    const lines = admin.stdout.split('\n');
    expect(lines[0]).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
    expect(lines).toContainEqual(expect.stringMatching(/^configmaps\s+\[\]\s+\[cm1\]\s+\[get\]$/));

    const jane = cluster.kubectl('--token', JANE_TOKEN, 'auth', 'can-i', '--list');
    expect(jane.status).toBe(0);
    expect(jane.stdout.split('\n')).toContainEqual(expect.stringMatching(/^pods\s+\[\]\s+\[\]\s+\[get list\]$/));
    // Another namespace: not her Role's.
    const elsewhere = cluster.kubectl('--token', JANE_TOKEN, 'auth', 'can-i', '--list', '-n', 'kube-system');
    expect(elsewhere.stdout.split('\n')).not.toContainEqual(expect.stringMatching(/^pods\s/));
  });

  it('kubectl api-resources lists the four reviews of authorization.k8s.io/v1', () => {
    const r = cluster.kubectl('api-resources', '--api-group=authorization.k8s.io', '--no-headers');
    expect(r.status).toBe(0);
    expect(
      r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split(/\s+/)),
    ).toEqual([
      ['localsubjectaccessreviews', 'authorization.k8s.io/v1', 'true', 'LocalSubjectAccessReview'],
      ['selfsubjectaccessreviews', 'authorization.k8s.io/v1', 'false', 'SelfSubjectAccessReview'],
      ['selfsubjectrulesreviews', 'authorization.k8s.io/v1', 'false', 'SelfSubjectRulesReview'],
      ['subjectaccessreviews', 'authorization.k8s.io/v1', 'false', 'SubjectAccessReview'],
    ]);
    const verbs = cluster.kubectl('api-resources', '--api-group=authorization.k8s.io', '-o', 'wide', '--no-headers');
    // The VERBS column: create only.
    const lastColumns = verbs.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.trim().split(/\s+/).at(-1));
    expect(lastColumns).toEqual(['create', 'create', 'create', 'create']);
  });
});
