/**
 * Requests Pod Security admission refuses, against the apiserver handler in process: each with the
 * exact Status kube-apiserver 1.32 answers (403 for a pod the namespace's enforce level forbids, 422
 * for invalid policy labels), and the proof that nothing was written (every key under /registry/
 * and the store revision, before and after). Then what it lets through with a Warning header.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { type TestServer, testServer } from '../../ts/apiserver/testing/test-server.js';
import { snapshot } from '../testing/bad-requests.js';

const P = 'pod-security.kubernetes.io/';
const NS = '/api/v1/namespaces';

const RESTRICTED_NGINX = (c: string) =>
  `allowPrivilegeEscalation != false (container "${c}" must set securityContext.allowPrivilegeEscalation=false), ` +
  `unrestricted capabilities (container "${c}" must set securityContext.capabilities.drop=["ALL"]), ` +
  `runAsNonRoot != true (pod or container "${c}" must set securityContext.runAsNonRoot=true), ` +
  `seccompProfile (pod or container "${c}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

const pod = (name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...container }], ...spec },
});

const restrictedPod = (name: string) =>
  pod(
    name,
    { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } },
    { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } },
  );

let s: TestServer;

beforeEach(async () => {
  // NamespaceLifecycle and PodSecurity: the other default plugins need objects (ServiceAccounts)
  // no controller makes here.
  s = await testServer({ admission: { plugins: ['NamespaceLifecycle', 'PodSecurity'] } });
  const namespaces: Array<[string, Record<string, string>]> = [
    ['strict', { [`${P}enforce`]: 'restricted' }],
    ['base', { [`${P}enforce`]: 'baseline', [`${P}warn`]: 'restricted', [`${P}audit`]: 'restricted' }],
    ['pinned', { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.18' }],
  ];
  for (const [name, labels] of namespaces) {
    const r = await s.json('POST', NS, { metadata: { name, labels } });
    if (r.status !== 201) throw new Error(`fixture: ${JSON.stringify(r.body)}`);
  }
  // A pod stored before the namespace was restricted, for updates.
  const r = await s.json('POST', `${NS}/team-a/pods`, pod('old'));
  if (r.status !== 201) throw new Error(`fixture: ${JSON.stringify(r.body)}`);
  const label = await s.json(
    'PATCH',
    `${NS}/team-a`,
    { metadata: { labels: { [`${P}enforce`]: 'restricted' } } },
    { 'Content-Type': 'application/merge-patch+json' },
  );
  if (label.status !== 200) throw new Error(`fixture: ${JSON.stringify(label.body)}`);
});

interface BadRequest {
  name: string;
  method: string;
  path: string;
  body: unknown;
  headers?: Record<string, string>;
  code: number;
  reason: string;
  message: string;
  details?: Record<string, unknown>;
}

const forbiddenPod = (ns: string, name: string, body: unknown, why: string): BadRequest => ({
  name: `pod ${name} in ${ns}`,
  method: 'POST',
  path: `${NS}/${ns}/pods`,
  body,
  code: 403,
  reason: 'Forbidden',
  message: `pods "${name}" is forbidden: violates PodSecurity ${why}`,
  details: { name, kind: 'pods' },
});

const labelError = (label: string, value: string, detail: string) => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: "${value}": ${detail}`,
  field: `metadata.labels[${P}${label}]`,
});

const LEVELS = 'must be one of privileged, baseline, restricted';

const cases: BadRequest[] = [
  forbiddenPod(
    'strict',
    'priv',
    pod('priv', {}, { securityContext: { privileged: true } }),
    `"restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ${RESTRICTED_NGINX('c')}`,
  ),
  forbiddenPod('strict', 'plain', pod('plain'), `"restricted:latest": ${RESTRICTED_NGINX('c')}`),
  forbiddenPod(
    'strict',
    'root',
    {
      ...restrictedPod('root'),
      spec: {
        ...restrictedPod('root').spec,
        securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } },
        volumes: [{ name: 'data', hostPath: { path: '/data' } }],
      },
    },
    '"restricted:latest": restricted volume types (volume "data" uses restricted volume type "hostPath"), runAsUser=0 (pod must not set runAsUser=0)',
  ),
  forbiddenPod(
    'base',
    'hostnet',
    pod(
      'hostnet',
      { hostNetwork: true, volumes: [{ name: 'h', hostPath: { path: '/' } }] },
      {
        ports: [{ containerPort: 80, hostPort: 80 }],
      },
    ),
    '"baseline:latest": host namespaces (hostNetwork=true), hostPath volumes (volume "h"), hostPort (container "c" uses hostPort 80)',
  ),
  forbiddenPod(
    'base',
    'caps',
    pod('caps', {}, { securityContext: { capabilities: { add: ['NET_ADMIN', 'SYS_ADMIN'] } } }),
    '"baseline:latest": non-default capabilities (container "c" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add)',
  ),
  forbiddenPod(
    'base',
    'unconfined',
    pod('unconfined', { securityContext: { seccompProfile: { type: 'Unconfined' } } }),
    '"baseline:latest": seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
  ),
  forbiddenPod(
    'base',
    'sysctl',
    pod('sysctl', { securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }] } }),
    '"baseline:latest": forbidden sysctls (kernel.msgmax)',
  ),
  forbiddenPod(
    'pinned',
    'annotated',
    {
      ...pod('annotated'),
      metadata: { name: 'annotated', annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } },
    },
    '"baseline:v1.18": seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")',
  ),
  {
    ...forbiddenPod('strict', 'dry', pod('dry'), `"restricted:latest": ${RESTRICTED_NGINX('c')}`),
    name: 'a dry-run pod in strict',
    path: `${NS}/strict/pods?dryRun=All`,
  },
  {
    name: 'an image change of a pod stored before the namespace was restricted',
    method: 'PATCH',
    path: `${NS}/team-a/pods/old`,
    body: { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
    code: 403,
    reason: 'Forbidden',
    message: `pods "old" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_NGINX('c')}`,
    details: { name: 'old', kind: 'pods' },
  },
  {
    name: 'a namespace with an unknown enforce level',
    method: 'POST',
    path: NS,
    body: { metadata: { name: 'bad', labels: { [`${P}enforce`]: 'strict' } } },
    code: 422,
    reason: 'Invalid',
    message: `Namespace "bad" is invalid: metadata.labels[${P}enforce]: Invalid value: "strict": ${LEVELS}`,
    details: { name: 'bad', kind: 'Namespace', causes: [labelError('enforce', 'strict', LEVELS)] },
  },
  {
    name: 'a namespace with a bad version and a bad warn level',
    method: 'POST',
    path: NS,
    body: { metadata: { name: 'bad', labels: { [`${P}enforce-version`]: 'v1.x', [`${P}warn`]: 'Baseline' } } },
    code: 422,
    reason: 'Invalid',
    message:
      `Namespace "bad" is invalid: [metadata.labels[${P}enforce-version]: Invalid value: "v1.x": must be "latest" or "v1.x", ` +
      `metadata.labels[${P}warn]: Invalid value: "Baseline": ${LEVELS}]`,
    details: {
      name: 'bad',
      kind: 'Namespace',
      causes: [
        labelError('enforce-version', 'v1.x', 'must be "latest" or "v1.x"'),
        labelError('warn', 'Baseline', LEVELS),
      ],
    },
  },
  {
    name: 'labelling a namespace with an unknown audit level',
    method: 'PATCH',
    path: `${NS}/base`,
    body: { metadata: { labels: { [`${P}audit`]: 'all' } } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
    code: 422,
    reason: 'Invalid',
    message: `Namespace "base" is invalid: metadata.labels[${P}audit]: Invalid value: "all": ${LEVELS}`,
    details: { name: 'base', kind: 'Namespace', causes: [labelError('audit', 'all', LEVELS)] },
  },
];

describe('Pod Security refusals', () => {
  it.each(cases)('$name → $code', async (c) => {
    const before = await snapshot(s.storage);
    const res = await s.json(c.method, c.path, c.body, c.headers);
    expect(res.status).toBe(c.code);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: c.message,
      reason: c.reason,
      ...(c.details === undefined ? {} : { details: c.details }),
      code: c.code,
    });
    expect(await snapshot(s.storage)).toEqual(before);
  });

  it('names a pod refused by its generated name', async () => {
    const before = await snapshot(s.storage);
    const body = { ...pod(''), metadata: { generateName: 'web-' } };
    const res = await s.json('POST', `${NS}/strict/pods`, body);
    expect(res.status).toBe(403);
    expect(String(res.body.message)).toMatch(
      /^pods "web-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/,
    );
    expect(await snapshot(s.storage)).toEqual(before);
  });
});

describe('what Pod Security lets through', () => {
  it('stores a restricted pod in a restricted namespace without a warning', async () => {
    const res = await s.call('POST', `${NS}/strict/pods`, restrictedPod('good'));
    expect(res.status).toBe(201);
    expect(res.headers.get('Warning')).toBeNull();
  });

  it('stores a baseline pod in a baseline namespace and warns about restricted', async () => {
    const res = await s.call('POST', `${NS}/base/pods`, pod('web'));
    expect(res.status).toBe(201);
    expect(res.headers.get('Warning')).toBe(
      `299 - ${JSON.stringify(`would violate PodSecurity "restricted:latest": ${RESTRICTED_NGINX('c')}`)}`,
    );
  });

  it('never refuses a workload, and warns only with a warn level', async () => {
    const deployment = (name: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: 'web', image: 'nginx', securityContext: { privileged: true } }] },
        },
      },
    });
    const strict = await s.call('POST', '/apis/apps/v1/namespaces/strict/deployments', deployment('a'));
    expect(strict.status).toBe(201);
    expect(strict.headers.get('Warning')).toBeNull();
    const base = await s.call('POST', '/apis/apps/v1/namespaces/base/deployments', deployment('b'));
    expect(base.status).toBe(201);
    expect(base.headers.get('Warning')).toBe(
      `299 - ${JSON.stringify(`would violate PodSecurity "restricted:latest": privileged (container "web" must not set securityContext.privileged=true), ${RESTRICTED_NGINX('web')}`)}`,
    );
  });

  it('keeps a pod the new enforce level forbids and warns when the level is tightened', async () => {
    const created = await s.json('POST', `${NS}/base/pods`, pod('legacy'));
    expect(created.status).toBe(201);
    const res = await s.call(
      'PATCH',
      `${NS}/base`,
      { metadata: { labels: { [`${P}enforce`]: 'restricted' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Warning')).toBe(
      [
        'existing pods in namespace "base" violate the new PodSecurity enforce level "restricted:latest"',
        'legacy: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      ]
        .map((w) => `299 - ${JSON.stringify(w)}`)
        .join(', '),
    );
    expect((await s.json('GET', `${NS}/base/pods/legacy`)).status).toBe(200);
  });

  it('lets a pod update through when nothing the checks read changed', async () => {
    const res = await s.json(
      'PATCH',
      `${NS}/team-a/pods/old`,
      { metadata: { labels: { a: 'b' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(res.status).toBe(200);
  });
});
