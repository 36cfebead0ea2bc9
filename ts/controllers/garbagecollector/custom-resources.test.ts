// The garbage collector with custom resources: the facts of test/integration/garbagecollector's
// TestCustomResourceCascadingDeletion, TestMixedRelationships and TestCRDDeletionCascading (v1.32)
// against a real in-process apiserver, its monitors following the Established CRDs.
import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { type GroupVersionResource, RESOURCES, type ResourceType } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { controllerRuns, notFound, waitFor } from '../testing/controller-runs.js';
import { GarbageCollector } from './garbage-collector.js';

const runs = controllerRuns();
const NS = 'default';
const WIDGETS: GroupVersionResource = { group: 'example.com', version: 'v1', resource: 'widgets' };
const TYPES: ResourceType[] = [RESOURCES.configmaps, RESOURCES.deployments, RESOURCES.customresourcedefinitions];

const refTo = (o: KubeObject, apiVersion: string, kind: string, block = false): OwnerReference => ({
  apiVersion,
  kind,
  name: o.metadata?.name ?? '',
  uid: o.metadata?.uid ?? '',
  ...(block ? { blockOwnerDeletion: true } : {}),
});
const gone = (read: () => Promise<unknown>) => () => notFound(read);
const widget = (h: Harness, name: string, ownerReferences: OwnerReference[] = []) =>
  h.client.create<KubeObject>(WIDGETS, NS, {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, ownerReferences },
  } as KubeObject);
const getWidget = (h: Harness, name: string) => () => h.client.get<KubeObject>(WIDGETS, NS, name);

/** createRandomCustomResourceDefinition: a namespaced Widget CRD, Established. */
async function createWidgets(h: Harness): Promise<void> {
  await h.client.create(RESOURCES.customresourcedefinitions, undefined, {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  });
  await waitFor(async () => {
    const crd = await h.client.get(RESOURCES.customresourcedefinitions, undefined, 'widgets.example.com');
    return (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
  });
}

/** A gc following the CRDs, started once the Widget CRD is there (its monitor added from the CRD informer). */
async function setup(): Promise<Harness> {
  const h = await harness('in-process');
  await createWidgets(h);
  await runs.start(
    h,
    (factory) =>
      new GarbageCollector({
        factory,
        client: h.client,
        clock: h.server.clock,
        resources: TYPES,
        customResources: true,
      }),
  );
  return h;
}

describe('GarbageCollector: custom resources', () => {
  it('deletes a custom dependent of a custom owner deleted in the foreground (TestCustomResourceCascadingDeletion)', async () => {
    const h = await setup();
    const owner = await widget(h, 'owner');
    await widget(h, 'dependent', [refTo(owner, 'example.com/v1', 'Widget')]);
    await h.client.delete(WIDGETS, NS, 'owner', { propagationPolicy: 'Foreground' });
    await waitFor(gone(getWidget(h, 'owner')));
    expect(await notFound(getWidget(h, 'dependent'))).toBe(true);
  });

  it('core and custom in both directions, in the foreground (TestMixedRelationships)', async () => {
    const h = await setup();
    const customOwner = await widget(h, 'owner');
    await h.client.create(RESOURCES.configmaps, NS, {
      metadata: { name: 'core-dependent', ownerReferences: [refTo(customOwner, 'example.com/v1', 'Widget')] },
    });
    const coreOwner = await h.client.create(RESOURCES.configmaps, NS, { metadata: { name: 'core-owner' } });
    await widget(h, 'custom-dependent', [refTo(coreOwner, 'v1', 'ConfigMap')]);
    await h.client.delete(WIDGETS, NS, 'owner', { propagationPolicy: 'Foreground' });
    await waitFor(gone(getWidget(h, 'owner')));
    await waitFor(gone(() => h.client.get(RESOURCES.configmaps, NS, 'core-dependent')));
    await h.client.delete(RESOURCES.configmaps, NS, 'core-owner', { propagationPolicy: 'Foreground' });
    await waitFor(gone(() => h.client.get(RESOURCES.configmaps, NS, 'core-owner')));
    await waitFor(gone(getWidget(h, 'custom-dependent')));
  });

  it('a custom dependent of a Deployment: deleted in the background, its reference dropped by JSON merge patch when orphaned', async () => {
    const h = await setup();
    const deployment = (name: string) =>
      h.client.create(RESOURCES.deployments, NS, {
        metadata: { name },
        spec: {
          selector: { matchLabels: { app: name } },
          template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      });
    const bg = await deployment('bg');
    const orphaner = await deployment('or');
    await widget(h, 'of-bg', [refTo(bg, 'apps/v1', 'Deployment', true)]);
    await widget(h, 'of-or', [refTo(orphaner, 'apps/v1', 'Deployment', true)]);
    await h.client.delete(RESOURCES.deployments, NS, 'bg', { propagationPolicy: 'Background' });
    await waitFor(gone(getWidget(h, 'of-bg')));
    await h.client.delete(RESOURCES.deployments, NS, 'or', { propagationPolicy: 'Orphan' });
    await waitFor(gone(() => h.client.get(RESOURCES.deployments, NS, 'or')));
    expect((await getWidget(h, 'of-or')()).metadata?.ownerReferences).toBeUndefined();
  });

  it('follows a CRD made after it started, and a CRD deleted while its objects own others (TestCRDDeletionCascading)', async () => {
    const h = await harness('in-process');
    await runs.start(
      h,
      (factory) =>
        new GarbageCollector({
          factory,
          client: h.client,
          clock: h.server.clock,
          resources: TYPES,
          customResources: true,
        }),
    );
    // Two passes, as the Go test: the CRD made again under the same name works the same.
    for (const pass of [1, 2]) {
      await createWidgets(h);
      const owner = await widget(h, `owner-${pass}`);
      await h.client.create(RESOURCES.configmaps, NS, {
        metadata: { name: `dependent-${pass}`, ownerReferences: [refTo(owner, 'example.com/v1', 'Widget')] },
      });
      await h.client.delete(RESOURCES.customresourcedefinitions, undefined, 'widgets.example.com');
      await waitFor(
        gone(() => h.client.get(RESOURCES.customresourcedefinitions, undefined, 'widgets.example.com')),
        10_000,
      );
      await waitFor(
        gone(() => h.client.get(RESOURCES.configmaps, NS, `dependent-${pass}`)),
        10_000,
      );
    }
  }, 30_000);
});
