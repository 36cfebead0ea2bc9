import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import type { Client } from '../../client/client.js';
import { RESOURCES, type ResourceType } from '../../client/resources.js';
import { harness } from '../../client/testing/harness.js';
import { controllerRuns, notFound, waitFor } from '../testing/controller-runs.js';
import { GarbageCollector } from './garbage-collector.js';

const absent = (client: Client, resource: ResourceType, name: string) => () =>
  notFound(() => client.get(resource, 'default', name));

const runs = controllerRuns();

async function setup() {
  const h = await harness('in-process');
  const { client } = h;
  const owner = await client.create(RESOURCES.deployments, 'default', {
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  } as KubeObject);
  const ref = (block: boolean): OwnerReference => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    name: 'web',
    uid: owner.metadata?.uid ?? '',
    ...(block ? { blockOwnerDeletion: true } : {}),
  });
  await client.create(RESOURCES.configmaps, 'default', { metadata: { name: 'dep', ownerReferences: [ref(true)] } });
  const gc = await runs.start(
    h,
    (factory) =>
      new GarbageCollector({
        factory,
        client,
        clock: h.server.clock,
        resources: [RESOURCES.configmaps, RESOURCES.deployments],
      }),
  );
  return { client, ref, gc };
}

describe('GarbageCollector', () => {
  it('deletes dependents of an owner deleted in the background', async () => {
    const { client } = await setup();
    await client.delete(RESOURCES.deployments, 'default', 'web', { propagationPolicy: 'Background' });
    await waitFor(absent(client, RESOURCES.configmaps, 'dep'));
  });

  it('orphans dependents, then lets the owner go', async () => {
    const { client } = await setup();
    await client.delete(RESOURCES.deployments, 'default', 'web', { propagationPolicy: 'Orphan' });
    await waitFor(absent(client, RESOURCES.deployments, 'web'));
    const dep = await client.get(RESOURCES.configmaps, 'default', 'dep');
    expect(dep.metadata?.ownerReferences).toBeUndefined();
  });

  it('deletes dependents first in the foreground, then the owner', async () => {
    const { client } = await setup();
    await client.delete(RESOURCES.deployments, 'default', 'web', { propagationPolicy: 'Foreground' });
    await waitFor(absent(client, RESOURCES.configmaps, 'dep'));
    await waitFor(absent(client, RESOURCES.deployments, 'web'));
  });

  it('drops only the dangling reference of a dependent with another live owner', async () => {
    const { client, ref } = await setup();
    const other = await client.create<KubeObject>(RESOURCES.configmaps, 'default', { metadata: { name: 'other' } });
    await client.create(RESOURCES.configmaps, 'default', {
      metadata: {
        name: 'shared',
        ownerReferences: [
          ref(false),
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: other.metadata?.uid ?? '' },
        ],
      },
    });
    await client.delete(RESOURCES.deployments, 'default', 'web');
    await waitFor(async () => {
      const s = await client.get(RESOURCES.configmaps, 'default', 'shared');
      return (s.metadata?.ownerReferences ?? []).length === 1;
    });
    expect((await client.get(RESOURCES.configmaps, 'default', 'shared')).metadata?.ownerReferences?.[0]?.name).toBe(
      'other',
    );
  });

  it('keeps no graph entry for objects gone: owners and dependents created and deleted leave it as it was', async () => {
    const { client, gc } = await setup();
    const before = gc.graphSize();
    for (let i = 0; i < 5; i++) {
      const owner = await client.create<KubeObject>(RESOURCES.configmaps, 'default', { metadata: { name: `o-${i}` } });
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: `o-${i}`, uid: owner.metadata?.uid ?? '' };
      await client.create(RESOURCES.configmaps, 'default', { metadata: { name: `d-${i}`, ownerReferences: [ref] } });
      await waitFor(async () => gc.graphSize().nodes === before.nodes + 2);
      await client.delete(RESOURCES.configmaps, 'default', `o-${i}`);
      await waitFor(absent(client, RESOURCES.configmaps, `d-${i}`));
    }
    await waitFor(async () => gc.graphSize().nodes === before.nodes);
    expect(gc.graphSize()).toEqual(before);
  });
});
