/**
 * Writes ResourceQuota admission refuses, in process (NamespaceLifecycle + ResourceQuota): each
 * case the exact code, reason, message and details kube-apiserver 1.32 answers with, and the proof
 * that nothing was written — every key under /registry/, its revision and the store's revision,
 * before and after (a refused write charges no quota either).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type QuotaServer, quotaServer } from '../../ts/apiserver/admission/resource-quota/testing/quota-server.js';
import { expectRefusal, snapshot } from '../testing/bad-requests.js';

type Obj = Record<string, unknown>;
const NS = '/api/v1/namespaces/team-a';

const pod = (name: string, resources?: Obj, spec: Obj = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }], ...spec },
});

interface Case {
  name: string;
  path: string;
  body: Obj;
  method?: string;
  /** 403 Forbidden unless given. */
  code?: number;
  reason?: string;
  /** The exact message; a RegExp where a generated name appears in it. */
  message: string | RegExp;
  details?: Obj;
}

const CASES: Case[] = [
  {
    name: 'pod count over `pods`',
    path: `${NS}/pods`,
    body: pod('p'),
    message: 'pods "p" is forbidden: exceeded quota: counts, requested: pods=1, used: pods=2, limited: pods=2',
    details: { name: 'p', kind: 'pods' },
  },
  {
    name: 'requests.cpu over (canonical quantities)',
    path: `${NS}/pods`,
    body: pod(
      'cpu',
      { requests: { cpu: '0.5', memory: '1Mi' }, limits: { cpu: '1', memory: '1Mi' } },
      {
        activeDeadlineSeconds: 30,
      },
    ),
    message:
      'pods "cpu" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1500m, limited: requests.cpu=1800m',
    details: { name: 'cpu', kind: 'pods' },
  },
  {
    name: 'several resources exceeded at once, sorted by name',
    path: `${NS}/pods`,
    body: pod(
      'big',
      { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '2', memory: '2Gi' } },
      {
        activeDeadlineSeconds: 30,
      },
    ),
    message:
      'pods "big" is forbidden: exceeded quota: compute, requested: limits.memory=2Gi,requests.cpu=2,requests.memory=2Gi, used: limits.memory=0,requests.cpu=1500m,requests.memory=0, limited: limits.memory=1Gi,requests.cpu=1800m,requests.memory=1Gi',
  },
  {
    name: 'cpu/memory quota without requests and limits on every container',
    path: `${NS}/pods`,
    body: {
      metadata: { name: 'bare' },
      spec: {
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { memory: '1Mi' } } }],
        initContainers: [{ name: 'init', image: 'busybox' }],
        activeDeadlineSeconds: 30,
      },
    },
    message:
      'pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: c,init; limits.memory for: c,init; requests.cpu for: c,init; requests.memory for: init',
  },
  {
    name: 'a quota whose status.used lacks a tracked resource',
    path: `${NS}/secrets`,
    body: { metadata: { name: 's' } },
    message: 'secrets "s" is forbidden: status unknown for quota: unsynced, resources: count/secrets,secrets',
  },
  {
    name: 'count/configmaps over, generated name in the message',
    path: `${NS}/configmaps`,
    body: { metadata: { generateName: 'cm-' } },
    message:
      /^configmaps "cm-[a-z0-9]{5}" is forbidden: exceeded quota: counts, requested: count\/configmaps=1, used: count\/configmaps=1, limited: count\/configmaps=1$/,
  },
  {
    name: 'services.nodeports over',
    path: `${NS}/services`,
    body: {
      metadata: { name: 'np' },
      spec: {
        type: 'NodePort',
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81 },
        ],
      },
    },
    message:
      'services "np" is forbidden: exceeded quota: counts, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
  },
  {
    name: 'count/deployments.apps over',
    path: '/apis/apps/v1/namespaces/team-a/deployments',
    body: {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    },
    message:
      'deployments.apps "web" is forbidden: exceeded quota: counts, requested: count/deployments.apps=1, used: count/deployments.apps=0, limited: count/deployments.apps=0',
    details: { name: 'web', group: 'apps', kind: 'deployments' },
  },
  {
    name: 'dryRun=All is refused the same way',
    path: `${NS}/pods?dryRun=All`,
    body: pod('dry'),
    message: 'pods "dry" is forbidden: exceeded quota: counts, requested: pods=1, used: pods=2, limited: pods=2',
  },
  // The quota itself (ValidateResourceQuota, ts/api/validation/kinds): refused before admission.
  {
    name: 'a negative hard limit',
    path: `${NS}/resourcequotas`,
    body: { metadata: { name: 'neg' }, spec: { hard: { pods: '-1' } } },
    code: 422,
    reason: 'Invalid',
    message: 'ResourceQuota "neg" is invalid: spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0',
  },
  {
    name: 'the BestEffort scope on a compute resource',
    path: `${NS}/resourcequotas`,
    body: { metadata: { name: 'be' }, spec: { hard: { 'requests.cpu': '1' }, scopes: ['BestEffort'] } },
    code: 422,
    reason: 'Invalid',
    message:
      'ResourceQuota "be" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource',
  },
];

describe('bad requests: ResourceQuota admission', () => {
  let s: QuotaServer;
  beforeAll(async () => {
    s = await quotaServer();
    await s.quota(
      'counts',
      {
        pods: '2',
        'count/configmaps': '1',
        'services.nodeports': '1',
        'count/deployments.apps': '0',
      },
      { pods: '2', 'count/configmaps': '1', 'services.nodeports': '0', 'count/deployments.apps': '0' },
    );
    await s.quota(
      'compute',
      { 'requests.cpu': '1800m', 'requests.memory': '1Gi', 'limits.cpu': '4', 'limits.memory': '1Gi' },
      { 'requests.cpu': '1.5', 'requests.memory': '0', 'limits.cpu': '0', 'limits.memory': '0' },
      { scopes: ['Terminating'] },
    );
    await s.quota('unsynced', { secrets: '5', 'count/secrets': '5' }, {});
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const before = await snapshot(s.storage);
      const res = await s.json(c.method ?? 'POST', c.path, c.body);
      expectRefusal(res, { ...c, code: c.code ?? 403, reason: c.reason ?? 'Forbidden' });
      expect(await snapshot(s.storage)).toEqual(before);
    });
  }

  it('a write that fits is stored and charged (the fixture is not refusing everything)', async () => {
    const res = await s.json('POST', `${NS}/services`, { metadata: { name: 'ok' }, spec: { ports: [{ port: 80 }] } });
    expect(res.status).toBe(201);
  });
});
