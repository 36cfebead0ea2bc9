import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { StatusError } from '../../../api/status.js';
import { VirtualClock } from '../../../sim/clock.js';
import { WasmStorage } from '../../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../../wasm/node.js';
import { decodeStored, encodeForStorage } from '../../decode/codec.js';
import { findResource, type ResourceInfo } from '../../registry/resources.js';
import type { AdmissionAttributes, Operation } from '../types.js';
import { resourceQuotaPlugin } from './index.js';
import { QuotaAccessor, quotaKey } from './quota-access.js';

type Obj = Record<string, unknown>;

async function setup() {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  const plugin = resourceQuotaPlugin({ storage, clock });
  /** A quota as the controller leaves it: status.hard = spec.hard, status.used given. */
  const putQuota = async (name: string, hard: Obj, used: Obj, spec: Obj = {}) => {
    await storage.create(
      quotaKey('ns', name),
      encodeForStorage({
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name, namespace: 'ns' },
        spec: { hard, ...spec },
        status: { hard, used },
      }),
    );
  };
  const getQuota = async (name: string): Promise<Obj> => {
    const stored = await storage.get(quotaKey('ns', name));
    return decodeStored(stored as NonNullable<typeof stored>) as Obj;
  };
  return { storage, clock, plugin, putQuota, getQuota };
}

const info = (group: string, resource: string): ResourceInfo => {
  const r = findResource(group, group === 'apps' ? 'v1' : 'v1', resource);
  if (r === undefined) throw new Error(resource);
  return r;
};

function attrs(
  resource: string,
  object: Obj | undefined,
  o: { operation?: Operation; oldObject?: Obj; dryRun?: boolean; subresource?: string; group?: string } = {},
): AdmissionAttributes {
  const meta = (object?.metadata ?? {}) as Obj;
  return {
    operation: o.operation ?? 'CREATE',
    info: info(o.group ?? '', resource),
    subresource: o.subresource ?? '',
    namespace: 'ns',
    name: typeof meta.name === 'string' ? meta.name : '',
    object,
    oldObject: o.oldObject,
    dryRun: o.dryRun ?? false,
    user: { name: 'admin', uid: '1', groups: ['system:masters'] },
    warn: () => {},
  };
}

const podObj = (name: string, containers: Obj[] = [{ name: 'c', image: 'x' }]): Obj => ({
  metadata: { name, namespace: 'ns' },
  spec: { containers },
});

async function refusal(p: Promise<void>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('admitted');
}

describe('ResourceQuota admission', () => {
  it('charges status.used and refuses the write past the limit with the exact 403', async () => {
    const { plugin, putQuota, getQuota } = await setup();
    await putQuota('compute', { pods: '2', 'requests.cpu': '1' }, { pods: '0', 'requests.cpu': '0' });
    const cpu = (n: string, c: string) => podObj(n, [{ name: 'c', image: 'x', resources: { requests: { cpu: c } } }]);
    await plugin.validate?.(attrs('pods', cpu('a', '500m')));
    await plugin.validate?.(attrs('pods', cpu('b', '500m')));
    expect((await getQuota('compute')).status).toEqual({
      hard: { pods: '2', 'requests.cpu': '1' },
      used: { pods: '2', 'requests.cpu': '1' },
    });
    const err = await refusal(plugin.validate?.(attrs('pods', cpu('c', '500m'))) as Promise<void>);
    expect(err.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "c" is forbidden: exceeded quota: compute, requested: pods=1,requests.cpu=500m, used: pods=2,requests.cpu=1, limited: pods=2,requests.cpu=1',
      details: { name: 'c', kind: 'pods' },
    });
  });

  it('failed quota: containers must state what cpu/memory quotas track', async () => {
    const { plugin, putQuota } = await setup();
    await putQuota('compute', { 'limits.cpu': '2', 'requests.cpu': '2' }, { 'limits.cpu': '0', 'requests.cpu': '0' });
    const err = await refusal(plugin.validate?.(attrs('pods', podObj('p'))) as Promise<void>);
    expect(err.status.message).toBe(
      'pods "p" is forbidden: failed quota: compute: must specify limits.cpu for: c; requests.cpu for: c',
    );
  });

  it('status unknown while status.used lacks a hard resource', async () => {
    const { plugin, putQuota } = await setup();
    await putQuota('q', { pods: '5', 'count/configmaps': '1' }, {});
    const err = await refusal(
      plugin.validate?.(attrs('configmaps', { metadata: { generateName: 'cm-' } })) as Promise<void>,
    );
    expect(err.status.message).toBe(
      'configmaps "cm-" is forbidden: status unknown for quota: q, resources: count/configmaps',
    );
  });

  it('a quota the controller has not synced (no status.hard) matches nothing, as in Kubernetes', async () => {
    const { storage, plugin } = await setup();
    await storage.create(
      quotaKey('ns', 'fresh'),
      encodeForStorage({ metadata: { name: 'fresh', namespace: 'ns' }, spec: { hard: { pods: '0' } } }),
    );
    await expect(plugin.validate?.(attrs('pods', podObj('p')))).resolves.toBeUndefined();
  });

  it('dry run checks without charging; scopes pick the quota', async () => {
    const { plugin, putQuota, getQuota } = await setup();
    await putQuota('be', { pods: '1' }, { pods: '1' }, { scopes: ['BestEffort'] });
    await putQuota('nbe', { pods: '5' }, { pods: '0' }, { scopes: ['NotBestEffort'] });
    const burst = podObj('b', [{ name: 'c', image: 'x', resources: { requests: { memory: '1Mi' } } }]);
    await plugin.validate?.(attrs('pods', burst, { dryRun: true }));
    expect(((await getQuota('nbe')).status as Obj).used).toEqual({ pods: '0' });
    await plugin.validate?.(attrs('pods', burst));
    expect(((await getQuota('nbe')).status as Obj).used).toEqual({ pods: '1' });
    const err = await refusal(plugin.validate?.(attrs('pods', podObj('x'), { dryRun: true })) as Promise<void>);
    expect(err.status.message).toBe(
      'pods "x" is forbidden: exceeded quota: be, requested: pods=1, used: pods=1, limited: pods=1',
    );
  });

  it('service updates charge the difference (a NodePort service becoming a LoadBalancer)', async () => {
    const { plugin, putQuota, getQuota } = await setup();
    await putQuota(
      'svc',
      { services: '5', 'services.loadbalancers': '1', 'services.nodeports': '3' },
      { services: '1', 'services.loadbalancers': '0', 'services.nodeports': '2' },
    );
    const svc = (type: string): Obj => ({
      metadata: { name: 's', namespace: 'ns', resourceVersion: '7' },
      spec: { type, ports: [{ port: 80 }, { port: 81 }] },
    });
    await plugin.validate?.(
      attrs('services', svc('LoadBalancer'), { operation: 'UPDATE', oldObject: svc('NodePort') }),
    );
    expect(((await getQuota('svc')).status as Obj).used).toEqual({
      services: '1',
      'services.loadbalancers': '1',
      'services.nodeports': '2',
    });
    const err = await refusal(
      plugin.validate?.(
        attrs('services', { metadata: { name: 't' }, spec: { type: 'NodePort', ports: [{ port: 1 }, { port: 2 }] } }),
      ) as Promise<void>,
    );
    expect(err.status.message).toBe(
      'services "t" is forbidden: exceeded quota: svc, requested: services.nodeports=2, used: services.nodeports=2, limited: services.nodeports=3',
    );
  });

  it('ignores subresources, updates of counted objects, events and cluster-scoped writes', async () => {
    const { plugin, putQuota } = await setup();
    await putQuota('q', { 'count/configmaps': '0', pods: '0' }, { 'count/configmaps': '0', pods: '0' });
    const cm = { metadata: { name: 'c', namespace: 'ns', resourceVersion: '3' } };
    expect(plugin.handles(attrs('pods', podObj('p'), { subresource: 'status', operation: 'UPDATE' }))).toBe(false);
    expect(plugin.handles(attrs('events', { metadata: { name: 'e' } }))).toBe(false);
    await expect(
      plugin.validate?.(attrs('configmaps', cm, { operation: 'UPDATE', oldObject: cm })),
    ).resolves.toBeUndefined();
    const err = await refusal(plugin.validate?.(attrs('configmaps', cm)) as Promise<void>);
    expect(err.status.message).toBe(
      'configmaps "c" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=0, limited: count/configmaps=0',
    );
  });

  it('a waiter gives up after 10 seconds with an InternalError', async () => {
    const { clock, plugin, putQuota } = await setup();
    await putQuota('q', { pods: '3' }, { pods: '0' });
    // The quota read of the batch never answers.
    const read = vi.spyOn(QuotaAccessor.prototype, 'getQuotas').mockReturnValueOnce(new Promise(() => {}));
    onTestFinished(() => read.mockRestore());
    let settled = false;
    const pending = refusal(plugin.validate?.(attrs('pods', podObj('a'))) as Promise<void>).finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    clock.advance(9_999);
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    clock.advance(1);
    const err = await pending;
    expect(err.status).toMatchObject({
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: resource quota evaluation timed out',
    });
  });

  it('100 concurrent creates never exceed the quota by one', async () => {
    const { plugin, putQuota, getQuota } = await setup();
    await putQuota('pods', { pods: '10' }, { pods: '0' });
    await putQuota('cms', { 'count/configmaps': '50' }, { 'count/configmaps': '0' });
    const results = await Promise.allSettled([
      ...Array.from({ length: 100 }, (_, i) => plugin.validate?.(attrs('pods', podObj(`p${i}`)))),
      ...Array.from({ length: 100 }, (_, i) =>
        plugin.validate?.(attrs('configmaps', { metadata: { name: `c${i}`, namespace: 'ns' } })),
      ),
    ]);
    const pods = results.slice(0, 100);
    const cms = results.slice(100);
    expect(pods.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(cms.filter((r) => r.status === 'fulfilled')).toHaveLength(50);
    for (const r of pods.filter((x) => x.status === 'rejected')) {
      expect(((r as PromiseRejectedResult).reason as StatusError).status.message).toMatch(
        /^pods "p\d+" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=10, limited: pods=10$/,
      );
    }
    expect(((await getQuota('pods')).status as Obj).used).toEqual({ pods: '10' });
    expect(((await getQuota('cms')).status as Obj).used).toEqual({ 'count/configmaps': '50' });
  });

  it('a concurrent status write makes the charge retry against the fresh quota (CAS)', async () => {
    const { storage, plugin, putQuota, getQuota } = await setup();
    await putQuota('q', { pods: '3' }, { pods: '0' });
    // Another writer (the controller) moves usage to 2 while the first check is in flight.
    const original = storage.guaranteedUpdate.bind(storage);
    let interfered = false;
    storage.guaranteedUpdate = async (key, tryUpdate, options) => {
      if (!interfered && key === quotaKey('ns', 'q')) {
        interfered = true;
        await original(key, (cur) => {
          const obj = JSON.parse(new TextDecoder().decode(cur?.value)) as Obj;
          obj.status = { hard: { pods: '3' }, used: { pods: '2' } };
          return new TextEncoder().encode(JSON.stringify(obj));
        });
      }
      return original(key, tryUpdate, options);
    };
    const results = await Promise.allSettled([
      plugin.validate?.(attrs('pods', podObj('a'))),
      plugin.validate?.(attrs('pods', podObj('b'))),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(((await getQuota('q')).status as Obj).used).toEqual({ pods: '3' });
  });
});
