import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { controllerRuns, notFound, waitFor } from '../testing/controller-runs.js';
import { ServiceAccountsController, type ServiceAccountsControllerOptions } from './serviceaccounts-controller.js';

const runs = controllerRuns();

/** The controller on a shared informer factory of `h`'s client, running. */
function start(
  h: Harness,
  options: Omit<ServiceAccountsControllerOptions, 'factory' | 'client'>,
): Promise<ServiceAccountsController> {
  return runs.start(h, (factory) => new ServiceAccountsController({ factory, client: h.client, ...options }));
}

describe('ServiceAccountsController', () => {
  it('gives every existing namespace its default ServiceAccount before start() resolves', async () => {
    const h = await harness('in-process');
    await start(h, { clock: h.server.clock });
    for (const ns of ['default', 'team-a']) {
      const sa = await h.client.get(RESOURCES.serviceaccounts, ns, 'default');
      expect(sa.metadata).toMatchObject({ name: 'default', namespace: ns });
    }
  });

  it('makes it for a new namespace, and again when it is deleted', async () => {
    const h = await harness('in-process');
    await start(h, { clock: h.server.clock });
    await h.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'fresh' } });
    const exists = (ns: string) => async () =>
      !(await notFound(() => h.client.get(RESOURCES.serviceaccounts, ns, 'default')));
    await waitFor(exists('fresh'));
    const before = await h.client.get(RESOURCES.serviceaccounts, 'fresh', 'default');
    await h.client.delete(RESOURCES.serviceaccounts, 'fresh', 'default');
    await waitFor(async () => {
      if (!(await exists('fresh')())) return false;
      const again = await h.client.get(RESOURCES.serviceaccounts, 'fresh', 'default');
      return again.metadata?.uid !== before.metadata?.uid;
    });
  });

  it('makes none in a Terminating namespace', async () => {
    const h = await harness('in-process');
    // A finalizer keeps the namespace Terminating.
    await h.client.create(RESOURCES.configmaps, 'team-a', {
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    } as KubeObject);
    await h.client.delete(RESOURCES.namespaces, undefined, 'team-a');
    const c = await start(h, { clock: h.server.clock });
    await c.sync('team-a');
    const list = await h.client.list(RESOURCES.serviceaccounts, { namespace: 'team-a' });
    expect(list.items).toEqual([]);
  });
});
