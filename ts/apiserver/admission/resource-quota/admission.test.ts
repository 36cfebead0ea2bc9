/** ResourceQuota through the whole apiserver: the handler, the admission chain, storage. */
import { describe, expect, it } from 'vitest';
import { quotaServer } from './testing/quota-server.js';

type Obj = Record<string, unknown>;
const NS = '/api/v1/namespaces/team-a';

const pod = (name: string, requests?: Obj) => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(requests ? { resources: { requests } } : {}) }] },
});

describe('ResourceQuota admission in the apiserver', () => {
  it('100 concurrent creates: exactly the limit stored, the rest 403, status.used exact', async () => {
    const { json, quota, used } = await quotaServer();
    await quota('pods', { pods: '10' }, { pods: '0' });
    await quota('configmaps', { 'count/configmaps': '50' }, { 'count/configmaps': '0' });
    const results = await Promise.all([
      ...Array.from({ length: 100 }, (_, i) => json('POST', `${NS}/pods`, pod(`p${i}`))),
      ...Array.from({ length: 100 }, (_, i) => json('POST', `${NS}/configmaps`, { metadata: { name: `c${i}` } })),
    ]);
    const pods = results.slice(0, 100);
    const cms = results.slice(100);
    expect(pods.filter((r) => r.status === 201)).toHaveLength(10);
    expect(cms.filter((r) => r.status === 201)).toHaveLength(50);
    for (const r of pods.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(403);
      expect(r.body.reason).toBe('Forbidden');
      const name = (r.body.details as Obj).name as string;
      expect(r.body.message).toBe(
        `pods "${name}" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=10, limited: pods=10`,
      );
    }
    for (const r of cms.filter((x) => x.status !== 201)) {
      const name = (r.body.details as Obj).name as string;
      expect(r.body.message).toBe(
        `configmaps "${name}" is forbidden: exceeded quota: configmaps, requested: count/configmaps=1, used: count/configmaps=50, limited: count/configmaps=50`,
      );
    }
    expect(((await json('GET', `${NS}/pods`)).body.items as unknown[]).length).toBe(10);
    expect(((await json('GET', `${NS}/configmaps`)).body.items as unknown[]).length).toBe(50);
    expect(await used('pods')).toEqual({ pods: '10' });
    expect(await used('configmaps')).toEqual({ 'count/configmaps': '50' });
  });

  it('requests.cpu: charged on create, refused past the limit with canonical quantities', async () => {
    const { json, quota, used } = await quotaServer();
    await quota(
      'compute',
      { 'requests.cpu': '1', 'requests.memory': '1Gi' },
      {
        'requests.cpu': '0',
        'requests.memory': '0',
      },
    );
    expect((await json('POST', `${NS}/pods`, pod('a', { cpu: '500m', memory: '512Mi' }))).status).toBe(201);
    expect((await json('POST', `${NS}/pods`, pod('b', { cpu: '0.5', memory: '256Mi' }))).status).toBe(201);
    expect(await used('compute')).toEqual({ 'requests.cpu': '1', 'requests.memory': '768Mi' });
    const res = await json('POST', `${NS}/pods`, pod('c', { cpu: '500m', memory: '256Mi' }));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'pods "c" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1, limited: requests.cpu=1',
    );
    expect((await json('GET', `${NS}/pods/c`)).status).toBe(404);
  });

  it('dryRun=All is checked but never charged', async () => {
    const { json, quota, used } = await quotaServer();
    await quota('objects', { 'count/secrets': '1' }, { 'count/secrets': '0' });
    const dry = await json('POST', `${NS}/secrets?dryRun=All`, { metadata: { name: 's' } });
    expect(dry.status).toBe(201);
    expect(await used('objects')).toEqual({ 'count/secrets': '0' });
    expect((await json('POST', `${NS}/secrets`, { metadata: { name: 's' } })).status).toBe(201);
    const refused = await json('POST', `${NS}/secrets?dryRun=All`, { metadata: { name: 't' } });
    expect(refused.status).toBe(403);
    expect(await used('objects')).toEqual({ 'count/secrets': '1' });
  });

  it('service updates charge the type change; updates of counted objects are free', async () => {
    const { json, quota, used } = await quotaServer();
    await quota(
      'svc',
      { 'services.loadbalancers': '0', 'count/configmaps': '1' },
      {
        'services.loadbalancers': '0',
        'count/configmaps': '0',
      },
    );
    const svc = await json('POST', `${NS}/services`, { metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } });
    expect(svc.status).toBe(201);
    const res = await json('PUT', `${NS}/services/s`, {
      ...svc.body,
      spec: { ...(svc.body.spec as Obj), type: 'LoadBalancer' },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'services "s" is forbidden: exceeded quota: svc, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0',
    );
    const cm = await json('POST', `${NS}/configmaps`, { metadata: { name: 'c' } });
    expect((await json('PUT', `${NS}/configmaps/c`, { ...cm.body, data: { a: 'b' } })).status).toBe(200);
    expect(await used('svc')).toEqual({ 'services.loadbalancers': '0', 'count/configmaps': '1' });
  });
});
