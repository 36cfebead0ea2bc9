/**
 * Writes the built-in admission plugins refuse (NamespaceLifecycle, LimitRanger, ServiceAccount,
 * Priority), in process with kube-apiserver's default plugins: each case the exact code, reason,
 * message and details kube-apiserver 1.32 answers with, and the proof that nothing was written —
 * every key under /registry/ with its revision, and the store's revision, before and after.
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { admissionServer } from '../../ts/apiserver/admission/testing/admission-server.js';
import type { TestServer } from '../../ts/apiserver/testing/test-server.js';
import { expectRefusal, snapshot } from '../testing/bad-requests.js';

type Obj = Record<string, unknown>;
const NS = '/api/v1/namespaces/default';

const pod = (name: string, spec: Obj = {}, resources?: Obj) => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }], ...spec },
});

interface Case {
  name: string;
  method?: string;
  path: string;
  body?: Obj;
  code: number;
  reason: string;
  /** The exact message; a RegExp where a generated name appears in it. */
  message: string | RegExp;
  details?: Obj;
}

const CASES: Case[] = [
  {
    name: 'LimitRanger: below the Container minimum and above the maximum',
    path: `${NS}/pods`,
    body: pod('small', {}, { requests: { cpu: '50m' }, limits: { cpu: '3' } }),
    code: 403,
    reason: 'Forbidden',
    message:
      'pods "small" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 2, but limit is 3, cpu max limit to request ratio per Container is 4, but provided ratio is 60.000000]',
    details: { name: 'small', kind: 'pods' },
  },
  {
    name: 'LimitRanger: a limit/request ratio over the maximum',
    path: `${NS}/pods`,
    body: pod('ratio', {}, { requests: { cpu: '200m' }, limits: { cpu: '1500m' } }),
    code: 403,
    reason: 'Forbidden',
    message:
      'pods "ratio" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 7.500000',
  },
  {
    name: 'ServiceAccount: a ServiceAccount that does not exist',
    path: `${NS}/pods`,
    body: pod('robot', { serviceAccountName: 'robot' }),
    code: 403,
    reason: 'Forbidden',
    message:
      'pods "robot" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found',
    details: { name: 'robot', kind: 'pods' },
  },
  {
    name: 'ServiceAccount: a mirror pod naming a ServiceAccount',
    path: `${NS}/pods`,
    body: {
      metadata: { name: 'mirror', annotations: { 'kubernetes.io/config.mirror': 'x' } },
      spec: { serviceAccountName: 'default', containers: [{ name: 'c', image: 'nginx' }] },
    },
    code: 403,
    reason: 'Forbidden',
    message: 'pods "mirror" is forbidden: a mirror pod may not reference service accounts',
  },
  {
    name: 'Priority: a PriorityClass that does not exist',
    path: `${NS}/pods`,
    body: pod('gold', { priorityClassName: 'gold' }),
    code: 403,
    reason: 'Forbidden',
    message: 'pods "gold" is forbidden: no PriorityClass with name gold was found',
    details: { name: 'gold', kind: 'pods' },
  },
  {
    name: 'Priority: spec.priority set by the user',
    path: `${NS}/pods`,
    body: pod('prio', { priority: 1000 }),
    code: 403,
    reason: 'Forbidden',
    message:
      'pods "prio" is forbidden: the integer value of priority (1000) must not be provided in pod spec; priority admission controller computed 1 from the given PriorityClass name',
  },
  {
    name: 'Priority: a second globalDefault PriorityClass',
    path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    body: { metadata: { name: 'second' }, value: 5, globalDefault: true },
    code: 403,
    reason: 'Forbidden',
    message:
      'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist',
    details: { name: 'second', group: 'scheduling.k8s.io', kind: 'priorityclasses' },
  },
  {
    name: 'NamespaceLifecycle: a namespace that does not exist',
    path: '/api/v1/namespaces/nowhere/configmaps',
    body: { metadata: { name: 'c' } },
    code: 404,
    reason: 'NotFound',
    message: 'namespaces "nowhere" not found',
    details: { name: 'nowhere', kind: 'namespaces' },
  },
  {
    name: 'NamespaceLifecycle: an immortal namespace',
    method: 'DELETE',
    path: '/api/v1/namespaces/default',
    code: 403,
    reason: 'Forbidden',
    message: 'namespaces "default" is forbidden: this namespace may not be deleted',
    details: { name: 'default', kind: 'namespaces' },
  },
  {
    name: 'NamespaceLifecycle: a generateName object in a Terminating namespace',
    path: '/api/v1/namespaces/going/configmaps',
    body: { metadata: { generateName: 'cm-' } },
    code: 403,
    reason: 'Forbidden',
    message:
      'configmaps "cm-" is forbidden: unable to create new content in namespace going because it is being terminated',
    details: {
      name: 'cm-',
      kind: 'configmaps',
      causes: [
        { reason: 'NamespaceTerminating', message: 'namespace going is being terminated', field: 'metadata.namespace' },
      ],
    },
  },
  {
    name: 'dryRun=All is refused the same way',
    path: `${NS}/pods?dryRun=All`,
    body: pod('dry', { serviceAccountName: 'robot' }),
    code: 403,
    reason: 'Forbidden',
    message:
      'pods "dry" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found',
  },
];

describe('bad requests: built-in admission plugins', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await admissionServer();
    const setup = async (method: string, path: string, body: Obj) => {
      const res = await s.json(method, path, body);
      if (res.status >= 300) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
    };
    await setup('POST', `${NS}/limitranges`, {
      metadata: { name: 'cpu' },
      spec: {
        limits: [{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '4' } }],
      },
    });
    await setup('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {
      metadata: { name: 'first' },
      value: 1,
      globalDefault: true,
    });
    // A namespace kept Terminating by an object's finalizer.
    await setup('POST', '/api/v1/namespaces', { metadata: { name: 'going' } });
    await setup('POST', '/api/v1/namespaces/going/configmaps', {
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    });
    await setup('DELETE', '/api/v1/namespaces/going', {});
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const before = await snapshot(s.storage);
      expectRefusal(await s.json(c.method ?? 'POST', c.path, c.body), c);
      expect(await snapshot(s.storage)).toEqual(before);
    });
  }

  it('a pod that fits is stored, with the LimitRange defaults (the fixture is not refusing everything)', async () => {
    const res = await s.json('POST', `${NS}/pods`, pod('fits'));
    expect(res.status).toBe(201);
    expect((res.body.spec as Obj).priority).toBe(1);
  });

  it('kubewasm up refuses unknown and overlapping admission plugin names, as kube-apiserver does', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/kubewasm.mjs', 'up', '--port', '0', ...args], {
        encoding: 'utf8',
        timeout: 30_000,
      });
    const unknown = run('--enable-admission-plugins', 'LimitRanger,Nope');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('kubewasm up: enable-admission-plugins plugin "Nope" is unknown');
    const both = run('--enable-admission-plugins=Priority', '--disable-admission-plugins=Priority');
    expect(both.status).toBe(2);
    expect(both.stderr.split('\n')[0]).toBe(
      'kubewasm up: [Priority] in enable-admission-plugins and disable-admission-plugins overlapped',
    );
  });
});
