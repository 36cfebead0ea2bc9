import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { RESOURCES } from '../../client/resources.js';
import { harness } from '../../client/testing/harness.js';
import { KubernetesServiceController } from './kubernetes-service-controller.js';

const ENDPOINTS = { group: '', version: 'v1', resource: 'endpoints' };

/** A controller on an in-process client, its errors collected; `publicIP` the advertised address. */
async function controller(publicIP?: string) {
  const { client, server } = await harness('in-process');
  const errors: unknown[] = [];
  const c = new KubernetesServiceController({
    client,
    clock: server.clock,
    clusterIP: '10.96.0.1',
    ...(publicIP === undefined ? {} : { publicIP }),
    port: 6443,
    onError: (err) => errors.push(err),
  });
  return { client, c, errors };
}

describe('KubernetesServiceController', () => {
  it('creates the kubernetes Service at the given address and puts its ports back', async () => {
    const { client, c, errors } = await controller('10.0.0.5');
    await c.reconcile();
    const svc = (await client.get(RESOURCES.services, 'default', 'kubernetes')) as KubeObject & {
      spec: Record<string, unknown>;
    };
    expect(svc.metadata?.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
    });
    const ep = await client.get(ENDPOINTS, 'default', 'kubernetes');
    expect(ep.subsets).toEqual([
      { addresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] },
    ]);
    await client.patch(RESOURCES.services, 'default', 'kubernetes', 'merge', {
      spec: { ports: [{ port: 8443, name: 'x' }] },
    });
    await c.reconcile();
    const again = (await client.get(RESOURCES.services, 'default', 'kubernetes')) as KubeObject & {
      spec: { ports: unknown };
    };
    expect(again.spec.ports).toEqual([{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }]);
    expect(errors).toEqual([]);
  });

  it('keeps the Service when validation refuses a loopback endpoint, reporting that once', async () => {
    const { client, c, errors } = await controller('127.0.0.1');
    await c.reconcile();
    await c.reconcile();
    expect((await client.get(RESOURCES.services, 'default', 'kubernetes')).metadata?.name).toBe('kubernetes');
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('may not be in the loopback range');
  });

  it('keeps only the Service when there is no address to advertise', async () => {
    const { client, c, errors } = await controller();
    await c.reconcile();
    expect((await client.get(RESOURCES.services, 'default', 'kubernetes')).metadata?.name).toBe('kubernetes');
    await expect(client.get(ENDPOINTS, 'default', 'kubernetes')).rejects.toMatchObject({ status: { code: 404 } });
    expect(errors).toEqual([]);
  });
});
