// The replication manager against a real in-process apiserver: the facts of
// test/integration/replicationcontroller/replicationcontroller_test.go (v1.32; 1.32 has no unit
// test of its own in pkg/controller/replication beyond its condition helpers) where the
// ReplicationController differs from the ReplicaSet — its ControllerRef kind, its Events' source,
// its map selector, its status on the RC — and a sync driven with a FakePodControl for the
// ReplicaFailure condition.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import type { Pod, ReplicationController } from '../../api/types/core/v1.js';
import type { CoreEvent } from '../../client/event-recorder.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import { getControllerOf } from '../framework/controller-ref-manager.js';
import { REPLICATION_CONTROLLER_CONTROLLER } from '../framework/names.js';
import { controllerRuns, waitFor } from '../testing/controller-runs.js';
import { FakePodControl } from '../testing/fake-pod-control.js';
import { ReplicationManager } from './replication-controller.js';

const NS = 'default';
const labelMap = { foo: 'bar' };
const runs = controllerRuns();

/** newRC of the integration test: selector and template labels foo=bar. */
const newRC = (name: string, replicas: number): ReplicationController => ({
  metadata: { name },
  spec: {
    replicas,
    selector: labelMap,
    template: { metadata: { labels: labelMap }, spec: { containers: [{ name: 'fake-name', image: 'fakeimage' }] } },
  },
});

/** newMatchingPod: an orphan with the RC's labels. */
const newMatchingPod = (name: string, ownerReferences: OwnerReference[] = []): Pod => ({
  metadata: { name, labels: labelMap, ownerReferences },
  spec: { containers: [{ name: 'fake-name', image: 'fakeimage' }] },
});

const live = (pod: KubeObject): boolean => (pod.metadata?.deletionTimestamp ?? null) === null;
const pods = async (h: Harness) => (await h.client.list(RESOURCES.pods, { namespace: NS })).items.filter(live);
const rcOf = (h: Harness, name: string) => h.client.get(RESOURCES.replicationcontrollers, NS, name);

async function running(): Promise<{ h: Harness; rm: ReplicationManager }> {
  const h = await harness('in-process');
  const rm = await runs.start(
    h,
    (factory) => new ReplicationManager({ factory, client: h.client, clock: h.server.clock }),
  );
  return { h, rm };
}

/** waitRCStable: status.replicas reached spec.replicas. */
async function waitRCStable(h: Harness, name: string): Promise<void> {
  await waitFor(async () => {
    const rc = await rcOf(h, name);
    return rc.status?.replicas === rc.spec?.replicas;
  });
}

describe('ReplicationManager running (replicationcontroller_test.go)', () => {
  it('is the replicationcontroller-controller', async () => {
    const { rm } = await running();
    expect(rm.name).toBe(REPLICATION_CONTROLLER_CONTROLLER);
  });

  it('makes pods named from the RC, controlled by v1 ReplicationController, with its Events and status', async () => {
    const { h, rm } = await running();
    const rc = await h.client.create(RESOURCES.replicationcontrollers, NS, newRC('nginx', 3));
    await waitFor(async () => (await pods(h)).length === 3 && (await rcOf(h, 'nginx')).status?.replicas === 3);
    for (const pod of await pods(h)) {
      expect(pod.metadata?.name).toMatch(/^nginx-[a-z0-9]{5}$/);
      expect(pod.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          name: 'nginx',
          uid: rc.metadata?.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    expect((await rcOf(h, 'nginx')).status).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 0,
      availableReplicas: 0,
      observedGeneration: 1,
    });
    // TestSpecReplicasChange: scaled down, the status follows the new generation.
    await h.client.patch(RESOURCES.replicationcontrollers, NS, 'nginx', 'merge', { spec: { replicas: 1 } });
    await waitFor(
      async () => (await pods(h)).length === 1 && (await rcOf(h, 'nginx')).status?.observedGeneration === 2,
    );
    await rm.stop();
    const events = (await h.client.list<CoreEvent>(RESOURCES.events, { namespace: NS })).items.filter(
      (e) => e.involvedObject.name === 'nginx',
    );
    expect(events.map((e) => e.involvedObject.kind)).toEqual(events.map(() => 'ReplicationController'));
    const reasons = events.map((e) => `${e.reason}:${e.source?.component}`);
    expect(reasons.filter((r) => r === 'SuccessfulCreate:replication-controller')).toHaveLength(3);
    expect(reasons.filter((r) => r === 'SuccessfulDelete:replication-controller')).toHaveLength(2);
  });

  // TestAdoption's table: the ownerReferences a pod starts with, and those it ends with.
  const adoption: [
    string,
    (rc: ReplicationController) => OwnerReference[],
    (rc: ReplicationController) => OwnerReference[],
  ][] = [
    [
      'pod refers rc as an owner, not a controller',
      (rc) => [{ uid: rc.metadata?.uid ?? '', name: 'rc', apiVersion: 'v1', kind: 'ReplicationController' }],
      (rc) => [
        {
          uid: rc.metadata?.uid ?? '',
          name: 'rc',
          apiVersion: 'v1',
          kind: 'ReplicationController',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    ],
    [
      "pod doesn't have owner references",
      () => [],
      (rc) => [
        {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          name: 'rc',
          uid: rc.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    ],
    [
      'pod refers rc as a controller',
      (rc) => [
        { uid: rc.metadata?.uid ?? '', name: 'rc', apiVersion: 'v1', kind: 'ReplicationController', controller: true },
      ],
      (rc) => [
        { uid: rc.metadata?.uid ?? '', name: 'rc', apiVersion: 'v1', kind: 'ReplicationController', controller: true },
      ],
    ],
    [
      'pod refers other rc as the controller, refers the rc as an owner',
      (rc) => [
        { uid: '1', name: 'anotherRC', apiVersion: 'v1', kind: 'ReplicationController', controller: true },
        { uid: rc.metadata?.uid ?? '', name: 'rc', apiVersion: 'v1', kind: 'ReplicationController' },
      ],
      (rc) => [
        { uid: '1', name: 'anotherRC', apiVersion: 'v1', kind: 'ReplicationController', controller: true },
        { uid: rc.metadata?.uid ?? '', name: 'rc', apiVersion: 'v1', kind: 'ReplicationController' },
      ],
    ],
  ];
  it.each(adoption)('TestAdoption: %s', async (_name, existing, expected) => {
    const h = await harness('in-process');
    const rc = await h.client.create(RESOURCES.replicationcontrollers, NS, newRC('rc', 1));
    await h.client.create(RESOURCES.pods, NS, newMatchingPod('pod', existing(rc)));
    await runs.start(h, (factory) => new ReplicationManager({ factory, client: h.client, clock: h.server.clock }));
    // Compared as the integration test compares them (reflect.DeepEqual): field for field, in order.
    await waitFor(async () => {
      const refs = (await h.client.get(RESOURCES.pods, NS, 'pod')).metadata?.ownerReferences ?? [];
      return isDeepStrictEqual(refs, expected(rc));
    });
  });

  it('releases a pod whose labels stop matching, adopts it again when they match (TestPodOrphaningAndAdoptionWhenLabelsChange)', async () => {
    const { h } = await running();
    const rc = await h.client.create(RESOURCES.replicationcontrollers, NS, newRC('rc', 1));
    await waitRCStable(h, 'rc');
    const [pod] = await pods(h);
    const name = pod?.metadata?.name ?? '';
    expect(getControllerOf(pod as Pod)?.uid).toBe(rc.metadata?.uid);
    await h.client.patch(RESOURCES.pods, NS, name, 'merge', {
      metadata: { labels: { foo: null, 'new-foo': 'new-bar' } },
    });
    await waitFor(async () => getControllerOf(await h.client.get(RESOURCES.pods, NS, name)) === undefined);
    // Released, and replaced: two pods now, one of them the RC's new one.
    await waitFor(async () => (await pods(h)).length === 2);
    await h.client.patch(RESOURCES.pods, NS, name, 'merge', { metadata: { labels: { foo: 'bar', 'new-foo': null } } });
    // Adopted again — then one of the two is extra and goes; the one left is the RC's.
    await waitFor(async () => {
      const now = await pods(h);
      return now.length === 1 && getControllerOf(now[0] as Pod)?.uid === rc.metadata?.uid;
    });
  });

  it('two RCs with one selector each keep their own replicas (TestOverlappingRCs)', async () => {
    const { h } = await running();
    for (const i of [1, 2]) {
      await h.client.create(RESOURCES.replicationcontrollers, NS, newRC(`rc-${i}`, i));
      await waitRCStable(h, `rc-${i}`);
    }
    expect(await pods(h)).toHaveLength(3);
    for (const i of [1, 2]) expect((await rcOf(h, `rc-${i}`)).status?.replicas).toBe(i);
  });

  it('replaces a deleting pod and a failed pod, keeping both (TestDeletingAndFailedPods)', async () => {
    const { h } = await running();
    await h.client.create(RESOURCES.replicationcontrollers, NS, newRC('rc', 2));
    await waitRCStable(h, 'rc');
    const [deleting, failed] = await pods(h);
    const deletingName = deleting?.metadata?.name ?? '';
    const failedName = failed?.metadata?.name ?? '';
    await h.client.patch(RESOURCES.pods, NS, deletingName, 'merge', {
      metadata: { finalizers: ['fake.example.com/blockDeletion'] },
    });
    await h.client.delete(RESOURCES.pods, NS, deletingName);
    const pod = await h.client.get(RESOURCES.pods, NS, failedName);
    await h.client.updateStatus(RESOURCES.pods, NS, { ...pod, status: { phase: 'Failed' } });
    await waitFor(async () => (await h.client.list(RESOURCES.pods, { namespace: NS })).items.length === 4);
    const names = (await h.client.list(RESOURCES.pods, { namespace: NS })).items.map((p) => p.metadata?.name);
    expect(names).toEqual(expect.arrayContaining([deletingName, failedName]));
    await h.client.patch(RESOURCES.pods, NS, deletingName, 'merge', { metadata: { finalizers: null } });
  });
});

describe('ReplicationManager sync (replica_set_test.go facts, as the RC)', () => {
  it('puts ReplicaFailure (FailedCreate) on the RC when creates fail, and takes it off when they work', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.replicationcontrollers, NS, newRC('rc', 2));
    const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const podControl = new FakePodControl();
    const rm = new ReplicationManager({ factory, client: h.client, clock: h.server.clock, podControl });
    factory.start();
    await factory.waitForCacheSync();
    const informer = factory.informerFor(RESOURCES.replicationcontrollers);
    const sync = async () => {
      const stored = await rcOf(h, 'rc');
      await eventually(() => informer.get(NS, 'rc')?.metadata?.resourceVersion === stored.metadata?.resourceVersion);
      await rm.syncReplicaSet(`${NS}/rc`);
    };
    try {
      podControl.err = new Error('fake Error');
      await expect(sync()).rejects.toThrow('fake Error');
      const conditions = (await rcOf(h, 'rc')).status?.conditions ?? [];
      expect(conditions.map(({ lastTransitionTime: _t, ...c }) => c)).toEqual([
        { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'fake Error' },
      ]);
      // The failed creates are no longer expected: the next sync tries again, and works.
      podControl.err = undefined;
      podControl.clear();
      await sync();
      expect(podControl.templates).toHaveLength(2);
      expect(podControl.templates[0]?.metadata?.labels).toEqual(labelMap);
      expect((await rcOf(h, 'rc')).status?.conditions).toBeUndefined();
    } finally {
      await rm.stop();
      await factory.shutdown();
    }
  });

  it('adopts a matching orphan with a patch naming the v1 ReplicationController, and creates none for it', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.pods, NS, newMatchingPod('orphan'));
    await h.client.create(RESOURCES.replicationcontrollers, NS, newRC('rc', 1));
    const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const podControl = new FakePodControl();
    const rm = new ReplicationManager({ factory, client: h.client, clock: h.server.clock, podControl });
    factory.start();
    await factory.waitForCacheSync();
    try {
      await eventually(() => factory.informerFor(RESOURCES.pods).getIndexer().list().length === 1);
      await rm.syncReplicaSet(`${NS}/rc`);
      expect(podControl.patches).toHaveLength(1);
      expect(JSON.parse(podControl.patches[0] ?? '{}')).toMatchObject({
        metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'rc' }] },
      });
      expect(podControl.templates).toHaveLength(0);
    } finally {
      await rm.stop();
      await factory.shutdown();
    }
  });
});
