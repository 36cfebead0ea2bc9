// The ReplicaSet controller, against a real in-process apiserver: the facts of
// pkg/controller/replicaset/replica_set_test.go (v1.32) — its syncs driven one at a time with a
// FakePodControl, as the Go tests drive them — then the controller running with real pods.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import type { ReplicaSet } from '../../api/types/apps/v1.js';
import type { Pod, PodPhase } from '../../api/types/core/v1.js';
import type { CoreEvent } from '../../client/event-recorder.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import { waitFor } from '../testing/controller-runs.js';
import { FakePodControl } from '../testing/fake-pod-control.js';
import { getPodsToDelete, ReplicaSetController } from './replica-set-controller.js';

const NS = 'default';
const labelMap = { foo: 'bar' };

const replicaSet = (name: string, replicas: number, extra: Partial<ReplicaSet['spec']> = {}): ReplicaSet => ({
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: labelMap },
    template: { metadata: { labels: labelMap }, spec: { containers: [{ name: 'c', image: 'foo/bar' }] } },
    ...extra,
  },
});

interface Setup {
  h: Harness;
  rs: ReplicaSet;
  rsc: ReplicaSetController;
  podControl: FakePodControl;
  /** The key, and the sync of it once the informers have what the apiserver has. */
  key: string;
  sync(): Promise<void>;
}

const running: Array<{ factory: SharedInformerFactory; rsc: ReplicaSetController }> = [];
afterEach(async () => {
  for (const { factory, rsc } of running.splice(0)) {
    await rsc.stop();
    await factory.shutdown();
  }
});

/** A ReplicaSet stored, a controller on informers of it with a FakePodControl (not run: the test syncs). */
async function setup(rsBody: ReplicaSet, options: { burstReplicas?: number } = {}): Promise<Setup> {
  const h = await harness('in-process');
  const rs = await h.client.create(RESOURCES.replicasets, NS, rsBody);
  return setupWith(h, rs, [], options);
}

/** newPod: owned by `rs` (or an orphan); its status is the apiserver's (Pending) until the test sets it. */
function newPod(name: string, rs: ReplicaSet | undefined, extra: Partial<Pod['spec']> = {}): Pod {
  return {
    metadata: {
      name,
      labels: labelMap,
      ...(rs === undefined
        ? {}
        : {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'ReplicaSet',
                name: rs.metadata?.name ?? '',
                uid: rs.metadata?.uid ?? '',
                controller: true,
              },
            ],
          }),
    },
    spec: { containers: [{ name: 'c', image: 'foo/bar' }], ...extra },
  };
}

async function setPhase(h: Harness, name: string, phase: string, ready: boolean): Promise<void> {
  const pod = await h.client.get(RESOURCES.pods, NS, name);
  await h.client.updateStatus(RESOURCES.pods, NS, {
    ...pod,
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
}

const status = async (h: Harness, name: string) => (await h.client.get(RESOURCES.replicasets, NS, name)).status;

describe('ReplicaSetController syncs (replica_set_test.go)', () => {
  it('does nothing when it has its replicas (TestSyncReplicaSetDoesNothing)', async () => {
    const h = await harness('in-process');
    const rs = await h.client.create(RESOURCES.replicasets, NS, replicaSet('foobar', 2));
    const s = await setupWith(h, rs, [newPod('pod0', rs), newPod('pod1', rs)]);
    await s.sync();
    expect([s.podControl.templates.length, s.podControl.deletePodNames.length, s.podControl.patches.length]).toEqual([
      0, 0, 0,
    ]);
    expect(await status(h, 'foobar')).toMatchObject({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 });
  });

  it('stops creating at the first failed slow-start batch (TestSyncReplicaSetCreateFailures)', async () => {
    const s = await setup(replicaSet('foobar', 100));
    s.podControl.createLimit = 10;
    await expect(s.sync()).rejects.toThrow('not creating pod, limit 10 already reached');
    expect(s.podControl.templates).toHaveLength(10);
    // Batches 1, 2, 4, 8: the one that failed is the last tried.
    expect(s.podControl.createCallCount).toBe(15);
    // The pods never tried are not expected; the 10 made are.
    expect(s.rsc.expectations.getExpectations(s.key)?.getExpectations()).toEqual([10, 0]);
    const conditions = (await status(s.h, 'foobar'))?.conditions ?? [];
    expect(conditions.map(({ lastTransitionTime: _t, ...c }) => c)).toEqual([
      {
        type: 'ReplicaFailure',
        status: 'True',
        reason: 'FailedCreate',
        message: 'not creating pod, limit 10 already reached (create call 11)',
      },
    ]);
  });

  it('waits for its expectations before creating again (TestSyncReplicaSetDormancy)', async () => {
    const h = await harness('in-process');
    const rs = await h.client.create(RESOURCES.replicasets, NS, replicaSet('foobar', 2));
    const s = await setupWith(h, rs, [newPod('pod0', rs)]);
    await s.sync();
    expect(s.podControl.templates).toHaveLength(1);
    // The create is not observed yet: no second one.
    s.podControl.clear();
    await s.sync();
    expect(s.podControl.templates).toHaveLength(0);
    // Observed (here: by hand); the next create fails, and is no longer expected.
    s.rsc.expectations.creationObserved(s.key);
    s.podControl.err = new Error('fake Error');
    await expect(s.sync()).rejects.toThrow('fake Error');
    expect(s.podControl.templates).toHaveLength(1);
    expect(s.rsc.expectations.satisfiedExpectations(s.key)).toBe(true);
    // So the sync after it tries again at once.
    s.podControl.clear();
    s.podControl.err = undefined;
    await s.sync();
    expect(s.podControl.templates).toHaveLength(1);
  });

  it('creates and deletes at most burstReplicas a sync, waiting for each (TestControllerBurstReplicas)', async () => {
    const s = await setup(replicaSet('foobar', 12), { burstReplicas: 5 });
    await s.sync();
    expect(s.podControl.templates).toHaveLength(5);
    expect(s.rsc.expectations.getExpectations(s.key)?.getExpectations()).toEqual([5, 0]);
    s.podControl.clear();
    await s.sync();
    expect(s.podControl.templates).toHaveLength(0);
    for (let i = 0; i < 5; i++) s.rsc.expectations.creationObserved(s.key);
    await s.sync();
    expect(s.podControl.templates).toHaveLength(5);
  });

  it('expects each deletion once by pod key, whether seen as a graceful update or a delete', async () => {
    const h = await harness('in-process');
    const rs = await h.client.create(RESOURCES.replicasets, NS, replicaSet('foobar', 0));
    const s = await setupWith(h, rs, [newPod('pod0', rs), newPod('pod1', rs)], {
      burstReplicas: 5,
    });
    await s.sync();
    expect(s.podControl.deletePodNames.sort()).toEqual(['pod0', 'pod1']);
    expect([...(s.rsc.expectations.getUIDs(s.key) ?? [])].sort()).toEqual(['default/pod0', 'default/pod1']);
    // pod0 really goes (the fake deleted nothing): observed once, however it is reported.
    await h.client.delete(RESOURCES.pods, NS, 'pod0');
    await waitFor(async () => s.rsc.expectations.getExpectations(s.key)?.getExpectations()[1] === 1);
    expect([...(s.rsc.expectations.getUIDs(s.key) ?? [])]).toEqual(['default/pod1']);
  });

  it('deletes the pods getPodsToDelete ranks first', async () => {
    const h = await harness('in-process');
    const rs = await h.client.create(RESOURCES.replicasets, NS, replicaSet('foobar', 1));
    const s = await setupWith(h, rs, [
      newPod('running-ready', rs, { nodeName: 'n1' }),
      newPod('unscheduled', rs),
      newPod('running-not-ready', rs, { nodeName: 'n2' }),
    ]);
    await setPhase(h, 'running-ready', 'Running', true);
    await setPhase(h, 'running-not-ready', 'Running', false);
    await s.sync();
    expect(s.podControl.deletePodNames.sort()).toEqual(['running-not-ready', 'unscheduled']);
  });

  it('adopts matching orphans and leaves pods another controller owns (TestPodControllerLookup, TestDoNotPatchPodWithOtherControlRef)', async () => {
    const h = await harness('in-process');
    const rs = await h.client.create(RESOURCES.replicasets, NS, replicaSet('foobar', 2));
    const other = { ...newPod('theirs', undefined) };
    other.metadata = {
      ...other.metadata,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'other', uid: 'other-uid', controller: true },
      ],
    };
    const s = await setupWith(h, rs, [newPod('orphan', undefined), other]);
    await s.sync();
    // The orphan adopted through the uid-guarded patch; the other's pod not touched, not counted.
    expect(s.podControl.patches.map((p) => JSON.parse(p) as unknown)).toEqual([
      {
        metadata: {
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              name: 'foobar',
              uid: rs.metadata?.uid,
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
          uid: (await h.client.get(RESOURCES.pods, NS, 'orphan')).metadata?.uid,
        },
      },
    ]);
    expect(s.podControl.templates).toHaveLength(1);
  });

  it('releases an owned pod that stopped matching, and replaces it', async () => {
    const h = await harness('in-process');
    const rs = await h.client.create(RESOURCES.replicasets, NS, replicaSet('foobar', 1));
    const pod = newPod('relabelled', rs);
    pod.metadata = { ...pod.metadata, labels: { foo: 'other' } };
    const s = await setupWith(h, rs, [pod]);
    await s.sync();
    expect(s.podControl.patches.map((p) => JSON.parse(p) as unknown)).toEqual([
      {
        metadata: {
          uid: (await h.client.get(RESOURCES.pods, NS, 'relabelled')).metadata?.uid,
          ownerReferences: [{ $patch: 'delete', uid: rs.metadata?.uid }],
        },
      },
    ]);
    expect(s.podControl.templates).toHaveLength(1);
  });

  it('neither adopts nor creates while being deleted (TestDoNotAdoptOrCreateIfBeingDeleted)', async () => {
    const h = await harness('in-process');
    const rs = await h.client.create(RESOURCES.replicasets, NS, {
      ...replicaSet('foobar', 2),
      metadata: { name: 'foobar', finalizers: ['example.com/hold'] },
    });
    await h.client.delete(RESOURCES.replicasets, NS, 'foobar');
    const s = await setupWith(h, rs, [newPod('orphan', undefined)]);
    await s.sync();
    expect([s.podControl.templates.length, s.podControl.patches.length]).toEqual([0, 0]);
  });

  it('fails the sync, creating nothing, when an adoption fails (TestPatchPodFails)', async () => {
    const h = await harness('in-process');
    const rs = await h.client.create(RESOURCES.replicasets, NS, replicaSet('foobar', 2));
    const s = await setupWith(h, rs, [newPod('pod1', undefined), newPod('pod2', undefined)]);
    s.podControl.err = new Error('fake Error');
    // Every pod tried; the failures together (one message, as utilerrors' aggregate dedupes).
    await expect(s.sync()).rejects.toThrow(/^fake Error$/);
    expect(s.podControl.patches).toHaveLength(2);
    expect(s.podControl.templates).toHaveLength(0);
  });

  it('counts a pod available after minReadySeconds, and syncs again then', async () => {
    const h = await harness('in-process');
    const rs = await h.client.create(RESOURCES.replicasets, NS, replicaSet('foobar', 1, { minReadySeconds: 10 }));
    const s = await setupWith(h, rs, [newPod('pod0', rs)]);
    const pod = await h.client.get(RESOURCES.pods, NS, 'pod0');
    const since = new Date(h.server.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    await h.client.updateStatus(RESOURCES.pods, NS, {
      ...pod,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] },
    });
    await s.sync();
    expect(await status(h, 'foobar')).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
    h.server.clock.advance(10_001);
    await s.sync();
    expect(await status(h, 'foobar')).toMatchObject({ readyReplicas: 1, availableReplicas: 1 });
  });
});

/** setup() for a ReplicaSet the test made already (its pods may name its uid). */
async function setupWith(
  h: Harness,
  rs: ReplicaSet,
  pods: Pod[],
  options: { burstReplicas?: number } = {},
): Promise<Setup> {
  for (const pod of pods) await h.client.create(RESOURCES.pods, NS, pod);
  const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const podControl = new FakePodControl();
  const rsc = new ReplicaSetController({
    factory,
    client: h.client,
    clock: h.server.clock,
    podControl,
    ...(options.burstReplicas === undefined ? {} : { burstReplicas: options.burstReplicas }),
  });
  running.push({ factory, rsc });
  factory.start();
  await factory.waitForCacheSync();
  const name = rs.metadata?.name ?? '';
  const key = `${NS}/${name}`;
  const podInformer = factory.informerFor(RESOURCES.pods);
  const sets = factory.informerFor(RESOURCES.replicasets);
  const sync = async () => {
    const stored = await h.client.list(RESOURCES.pods, { namespace: NS });
    const set = await h.client.get(RESOURCES.replicasets, NS, name);
    await eventually(
      () =>
        podInformer.getIndexer().list().length === stored.items.length &&
        sets.get(NS, name)?.metadata?.resourceVersion === set.metadata?.resourceVersion,
    );
    await rsc.syncReplicaSet(key);
  };
  return { h, rs, rsc, podControl, key, sync };
}

describe('getPodsToDelete (TestGetPodsToDelete)', () => {
  const pod = (name: string, nodeName: string, phase: PodPhase, ready?: boolean): Pod => ({
    metadata: { name, uid: `${name}-uid` },
    spec: { containers: [], ...(nodeName === '' ? {} : { nodeName }) },
    status: {
      phase,
      ...(ready === undefined ? {} : { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] }),
    },
  });
  const unscheduledPending = pod('unscheduled-pending-pod', '', 'Pending');
  const scheduledPending = pod('scheduled-pending-pod', 'fake-node', 'Pending');
  const scheduledRunningNotReady = pod('scheduled-running-not-ready-pod', 'fake-node', 'Running', false);
  const readyOnNode1 = pod('scheduled-running-ready-pod-on-node-1', 'fake-node-1', 'Running', true);
  const readyOnNode2 = pod('scheduled-running-ready-pod-on-node-2', 'fake-node-2', 'Running', true);
  const cases: Array<[string, Pod[], Pod[] | undefined, number, Pod[]]> = [
    ['len(pods) = 0 (i.e., diff = 0 too)', [], undefined, 0, []],
    [
      'diff = len(pods)',
      [scheduledRunningNotReady, readyOnNode1],
      undefined,
      2,
      [scheduledRunningNotReady, readyOnNode1],
    ],
    ['diff < len(pods)', [readyOnNode1, scheduledRunningNotReady], undefined, 1, [scheduledRunningNotReady]],
    [
      'various pod phases and conditions, diff = len(pods)',
      [readyOnNode1, readyOnNode1, readyOnNode2, scheduledRunningNotReady, scheduledPending, unscheduledPending],
      undefined,
      6,
      [readyOnNode1, readyOnNode1, readyOnNode2, scheduledRunningNotReady, scheduledPending, unscheduledPending],
    ],
    [
      'various pod phases and conditions, diff = len(pods), relatedPods empty',
      [readyOnNode1, readyOnNode1, readyOnNode2, scheduledRunningNotReady, scheduledPending, unscheduledPending],
      [],
      6,
      [readyOnNode1, readyOnNode1, readyOnNode2, scheduledRunningNotReady, scheduledPending, unscheduledPending],
    ],
    [
      'scheduled vs unscheduled, diff < len(pods)',
      [scheduledPending, unscheduledPending],
      undefined,
      1,
      [unscheduledPending],
    ],
    [
      'ready vs not-ready, diff < len(pods)',
      [readyOnNode1, scheduledRunningNotReady, scheduledRunningNotReady],
      undefined,
      2,
      [scheduledRunningNotReady, scheduledRunningNotReady],
    ],
    [
      'ready and colocated with another ready pod vs not colocated, diff < len(pods)',
      [readyOnNode1, readyOnNode2],
      [readyOnNode1, readyOnNode2, readyOnNode2],
      1,
      [readyOnNode2],
    ],
    [
      'pending vs running, diff < len(pods)',
      [scheduledPending, scheduledRunningNotReady],
      undefined,
      1,
      [scheduledPending],
    ],
    [
      'various pod phases and conditions, diff < len(pods)',
      [readyOnNode1, readyOnNode2, scheduledRunningNotReady, scheduledPending, unscheduledPending],
      undefined,
      3,
      [unscheduledPending, scheduledPending, scheduledRunningNotReady],
    ],
  ];
  it.each(cases)('%s', (_name, pods, related, diff, expected) => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(getPodsToDelete([...pods], related ?? pods, diff, now)).toEqual(expected);
  });
});

describe('ReplicaSetController running', () => {
  it('makes the replicas from the template, replaces a deleted pod, scales down, and tells it in Events', async () => {
    const h = await harness('in-process');
    const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const rsc = new ReplicaSetController({ factory, client: h.client, clock: h.server.clock });
    running.push({ factory, rsc });
    factory.start();
    await rsc.run();
    const rs = await h.client.create(RESOURCES.replicasets, NS, replicaSet('web', 3));
    const pods = async () => (await h.client.list(RESOURCES.pods, { namespace: NS })).items.filter(live);
    await waitFor(async () => (await pods()).length === 3 && (await status(h, 'web'))?.replicas === 3);
    const made = await pods();
    for (const pod of made) {
      expect(pod.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(pod.metadata?.labels).toEqual(labelMap);
      expect(pod.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid: rs.metadata?.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    expect(await status(h, 'web')).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 0,
      availableReplicas: 0,
      observedGeneration: 1,
    });

    // A pod deleted is replaced.
    await h.client.delete(RESOURCES.pods, NS, made[0]?.metadata?.name ?? '');
    await waitFor(async () => {
      const now = await pods();
      return now.length === 3 && !now.some((p) => p.metadata?.name === made[0]?.metadata?.name);
    });

    // Scaled to 1: two go.
    await h.client.patch(RESOURCES.replicasets, NS, 'web', 'merge', { spec: { replicas: 1 } });
    await waitFor(async () => (await pods()).length === 1 && (await status(h, 'web'))?.observedGeneration === 2);
    expect(await status(h, 'web')).toMatchObject({ replicas: 1, observedGeneration: 2 });

    await rsc.stop();
    const events = (await h.client.list<CoreEvent>(RESOURCES.events, { namespace: NS })).items.filter(
      (e) => e.involvedObject.name === 'web',
    );
    const reasons = events.map((e) => `${e.reason}:${e.source?.component}`);
    expect(reasons.filter((r) => r === 'SuccessfulCreate:replicaset-controller')).toHaveLength(4);
    expect(reasons.filter((r) => r === 'SuccessfulDelete:replicaset-controller')).toHaveLength(2);
  });
});

const live = (pod: KubeObject): boolean => (pod.metadata?.deletionTimestamp ?? null) === null;
