// The garbage collector across scopes: the facts of test/integration/garbagecollector's
// TestClusterScopedOwners and TestCrossNamespaceReferences, and of garbagecollector_test.go's
// TestConflictingData cases "bad child in ns1 -> owner in ns2" and "bad cluster-scoped child ->
// owner in ns1" (v1.32), against a real in-process apiserver.
import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import type { CoreEvent } from '../../client/event-recorder.js';
import { RESOURCES, type ResourceType } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { controllerRuns, notFound, waitFor } from '../testing/controller-runs.js';
import { GarbageCollector } from './garbage-collector.js';

const runs = controllerRuns();
const TYPES: ResourceType[] = [
  RESOURCES.namespaces,
  RESOURCES.configmaps,
  RESOURCES.secrets,
  RESOURCES.nodes,
  RESOURCES.clusterroles,
  RESOURCES.priorityclasses,
];

const refTo = (
  o: KubeObject,
  apiVersion: string,
  kind: string,
  extra: Partial<OwnerReference> = {},
): OwnerReference => ({
  apiVersion,
  kind,
  name: o.metadata?.name ?? '',
  uid: o.metadata?.uid ?? '',
  ...extra,
});

async function start(h: Harness): Promise<GarbageCollector> {
  return runs.start(
    h,
    (factory) => new GarbageCollector({ factory, client: h.client, clock: h.server.clock, resources: TYPES }),
  );
}

const gone = (read: () => Promise<unknown>) => () => notFound(read);

/** The gc's Events of `reason`, as `type reason message involvedObject{kind=…,apiVersion=…}` (the Go test's shape). */
async function events(h: Harness, reason: string): Promise<string[]> {
  const list = await h.client.list<CoreEvent>(RESOURCES.events, {});
  return list.items
    .filter((e) => e.reason === reason)
    .map(
      (e) =>
        `${e.type} ${e.reason} ${e.message} involvedObject{kind=${e.involvedObject.kind},apiVersion=${e.involvedObject.apiVersion}} from ${e.source?.component}`,
    );
}

describe('GarbageCollector: cluster-scoped owners (TestClusterScopedOwners)', () => {
  it('keeps a ConfigMap owned by a live Node, deletes one whose Node is missing, keeps one of an unknown kind', async () => {
    const h = await harness('in-process');
    const node = await h.client.create(RESOURCES.nodes, undefined, { metadata: { name: 'node-valid' } });
    await h.client.create(RESOURCES.configmaps, 'default', {
      metadata: { name: 'cm-valid', ownerReferences: [refTo(node, 'v1', 'Node')] },
    });
    await h.client.create(RESOURCES.configmaps, 'default', {
      metadata: {
        name: 'cm-missing',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'missing-name', uid: 'missing-uid' }],
      },
    });
    await h.client.create(RESOURCES.configmaps, 'default', {
      metadata: {
        name: 'cm-invalid',
        ownerReferences: [
          { apiVersion: 'unknown.group/v1', kind: 'UnknownType', name: 'invalid-name', uid: 'invalid-uid' },
        ],
      },
    });
    await start(h);
    await waitFor(gone(() => h.client.get(RESOURCES.configmaps, 'default', 'cm-missing')));
    await new Promise((r) => setTimeout(r, 200));
    expect((await h.client.get(RESOURCES.configmaps, 'default', 'cm-valid')).metadata?.name).toBe('cm-valid');
    expect((await h.client.get(RESOURCES.configmaps, 'default', 'cm-invalid')).metadata?.name).toBe('cm-invalid');
    // The Node goes: its namespaced dependent follows (the cluster-scoped owner looked up at the cluster scope).
    await h.client.delete(RESOURCES.nodes, undefined, 'node-valid');
    await waitFor(gone(() => h.client.get(RESOURCES.configmaps, 'default', 'cm-valid')));
  });

  it('collects cluster-scoped dependents of a cluster-scoped owner: background, foreground, orphan', async () => {
    const h = await harness('in-process');
    const owners = await Promise.all(
      ['bg', 'fg', 'or'].map((name) =>
        h.client.create(RESOURCES.clusterroles, undefined, { metadata: { name: `owner-${name}` } }),
      ),
    );
    for (const owner of owners) {
      await h.client.create(RESOURCES.priorityclasses, undefined, {
        metadata: {
          name: `dep-${owner.metadata?.name}`,
          ownerReferences: [refTo(owner, 'rbac.authorization.k8s.io/v1', 'ClusterRole', { blockOwnerDeletion: true })],
        },
        value: 1000,
      });
    }
    await start(h);
    const dep = (owner: string) => () => h.client.get(RESOURCES.priorityclasses, undefined, `dep-owner-${owner}`);
    await h.client.delete(RESOURCES.clusterroles, undefined, 'owner-bg', { propagationPolicy: 'Background' });
    await waitFor(gone(dep('bg')));
    await h.client.delete(RESOURCES.clusterroles, undefined, 'owner-fg', { propagationPolicy: 'Foreground' });
    await waitFor(gone(dep('fg')));
    await waitFor(gone(() => h.client.get(RESOURCES.clusterroles, undefined, 'owner-fg')));
    await h.client.delete(RESOURCES.clusterroles, undefined, 'owner-or', { propagationPolicy: 'Orphan' });
    await waitFor(gone(() => h.client.get(RESOURCES.clusterroles, undefined, 'owner-or')));
    expect((await dep('or')()).metadata?.ownerReferences).toBeUndefined();
  });
});

describe('GarbageCollector: references across namespaces', () => {
  it('deletes a child naming a namespaced owner of another namespace, with OwnerRefInvalidNamespace; the valid children stay (TestCrossNamespaceReferences)', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'a' } });
    const parent = await h.client.create(RESOURCES.configmaps, 'default', { metadata: { name: 'parent' } });
    for (let i = 0; i < 3; i++) {
      await h.client.create(RESOURCES.secrets, 'default', {
        metadata: { name: `child-${i}`, ownerReferences: [refTo(parent, 'v1', 'ConfigMap', { controller: false })] },
      });
    }
    await start(h);
    // The bad child is observed after the parent (the "owner first" order).
    await h.client.create(RESOURCES.secrets, 'a', {
      metadata: { name: 'invalid-child', ownerReferences: [refTo(parent, 'v1', 'ConfigMap', { controller: false })] },
    });
    await waitFor(gone(() => h.client.get(RESOURCES.secrets, 'a', 'invalid-child')));
    await waitFor(async () => (await events(h, 'OwnerRefInvalidNamespace')).length === 1);
    expect(await events(h, 'OwnerRefInvalidNamespace')).toEqual([
      `Warning OwnerRefInvalidNamespace ownerRef [v1/ConfigMap, namespace: a, name: parent, uid: ${parent.metadata?.uid}] does not exist in namespace "a" involvedObject{kind=Secret,apiVersion=v1} from garbage-collector-controller`,
    ]);
    const event = (await h.client.list<CoreEvent>(RESOURCES.events, { namespace: 'a' })).items[0];
    expect(event?.involvedObject).toMatchObject({ namespace: 'a', name: 'invalid-child' });
    expect((await h.client.list(RESOURCES.secrets, { namespace: 'default' })).items).toHaveLength(3);
  });

  it('leaves a cluster-scoped child naming a namespaced owner, with OwnerRefInvalidNamespace ("bad cluster-scoped child")', async () => {
    const h = await harness('in-process');
    const owner = await h.client.create(RESOURCES.configmaps, 'default', { metadata: { name: 'cm-owner' } });
    await h.client.create(RESOURCES.clusterroles, undefined, {
      metadata: { name: 'bad-child', ownerReferences: [refTo(owner, 'v1', 'ConfigMap')] },
    });
    await start(h);
    await waitFor(async () => (await events(h, 'OwnerRefInvalidNamespace')).length === 1);
    expect(await events(h, 'OwnerRefInvalidNamespace')).toEqual([
      `Warning OwnerRefInvalidNamespace ownerRef [v1/ConfigMap, namespace: , name: cm-owner, uid: ${owner.metadata?.uid}] does not exist in namespace "" involvedObject{kind=ClusterRole,apiVersion=rbac.authorization.k8s.io/v1} from garbage-collector-controller`,
    ]);
    // Recorded in "default", as client-go records an Event of a cluster-scoped object.
    expect((await h.client.list<CoreEvent>(RESOURCES.events, { namespace: 'default' })).items).toHaveLength(1);
    // Neither now nor once the owner is gone is it collected: the reference cannot be resolved.
    await h.client.delete(RESOURCES.configmaps, 'default', 'cm-owner');
    await new Promise((r) => setTimeout(r, 300));
    expect((await h.client.get(RESOURCES.clusterroles, undefined, 'bad-child')).metadata?.ownerReferences).toHaveLength(
      1,
    );
  });
});
