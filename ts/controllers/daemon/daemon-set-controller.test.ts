// The DaemonSet controller against a real in-process apiserver: the facts of
// pkg/controller/daemon/daemon_controller_test.go and update_test.go (v1.32), its syncs driven one
// at a time with a FakePodControl (passing the writes on to the apiserver, as the Go tests' fake
// adds to its pod store), the expectations cleared between syncs as clearExpectations does.
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonSet, DaemonSetUpdateStrategy } from '../../api/types/apps/v1.js';
import type { Node, Pod, PodSpec, Taint } from '../../api/types/core/v1.js';
import { EventRecorder } from '../../client/event-recorder.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import { computeHash } from '../deployment/util/hash.js';
import { RealPodControl } from '../framework/pod-control.js';
import { controllerRuns, waitFor } from '../testing/controller-runs.js';
import { FakePodControl } from '../testing/fake-pod-control.js';
import { DaemonSetsController, failedPodsBackoffKey } from './daemon-set-controller.js';
import { getTargetNodeName } from './util.js';

const NS = 'default';
const simpleDaemonSetLabel = { name: 'simple-daemon', type: 'production' };
const simpleNodeLabel = { color: 'blue', speed: 'fast' };

const newDaemonSet = (
  name: string,
  spec: Partial<PodSpec> = {},
  extra: Partial<DaemonSet['spec']> = {},
): DaemonSet => ({
  metadata: { name },
  spec: {
    selector: { matchLabels: simpleDaemonSetLabel },
    template: {
      metadata: { labels: simpleDaemonSetLabel },
      spec: { containers: [{ name: 'c', image: 'foo/bar' }], ...spec },
    },
    ...extra,
  },
});

interface Setup {
  h: Harness;
  dsc: DaemonSetsController;
  podControl: FakePodControl;
  key: string;
  /** Waits for the informers to hold what the apiserver holds, clears the records, syncs. */
  sync(): Promise<void>;
  /** sync, then [creates, deletes] asked. */
  expectSync(creates: number, deletes: number): Promise<void>;
  ds(): Promise<DaemonSet>;
}

const running: Array<{ factory: SharedInformerFactory; dsc: DaemonSetsController }> = [];
afterEach(async () => {
  for (const { factory, dsc } of running.splice(0)) {
    await dsc.stop();
    await factory.shutdown();
  }
});

async function addNodes(h: Harness, start: number, n: number, labels: Record<string, string> = {}, taints?: Taint[]) {
  for (let i = start; i < start + n; i++) {
    const node: Node = { metadata: { name: `node-${i}`, labels }, spec: taints === undefined ? {} : { taints } };
    await h.client.create(RESOURCES.nodes, undefined, node);
  }
}

async function addPods(
  h: Harness,
  ds: DaemonSet,
  nodeName: string,
  n: number,
  phase?: 'Failed' | 'Succeeded',
  labels: Record<string, string> = simpleDaemonSetLabel,
) {
  for (let i = 0; i < n; i++) {
    const pod = await h.client.create(RESOURCES.pods, NS, {
      metadata: {
        generateName: `${nodeName}-`,
        // newPod: the current hash on it, as if the controller had made it.
        labels: { ...labels, 'controller-revision-hash': computeHash(ds.spec?.template, ds.status?.collisionCount) },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'DaemonSet',
            name: ds.metadata?.name ?? '',
            uid: ds.metadata?.uid ?? '',
            controller: true,
          },
        ],
      },
      spec: { nodeName, containers: [{ name: 'c', image: 'foo/bar' }] },
    } as Pod);
    if (phase !== undefined) await h.client.updateStatus(RESOURCES.pods, NS, { ...pod, status: { phase } });
  }
}

/** markPodsReady: every pod Running and Ready. */
async function markPodsReady(h: Harness): Promise<void> {
  const now = new Date(h.server.clock.now() - 1000).toISOString();
  for (const pod of (await h.client.list(RESOURCES.pods, { namespace: NS })).items) {
    await h.client.updateStatus(RESOURCES.pods, NS, {
      ...pod,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] },
    });
  }
}

async function setup(h: Harness, dsBody: DaemonSet): Promise<Setup> {
  const created = await h.client.create(RESOURCES.daemonsets, NS, dsBody);
  const name = created.metadata?.name ?? '';
  const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const podControl = new FakePodControl(
    new RealPodControl(h.client, new EventRecorder({ client: h.client, clock: h.server.clock, component: 'test' })),
  );
  const dsc = new DaemonSetsController({ factory, client: h.client, clock: h.server.clock, podControl });
  running.push({ factory, dsc });
  factory.start();
  await factory.waitForCacheSync();
  const key = `${NS}/${name}`;
  const pods = factory.informerFor(RESOURCES.pods);
  const sets = factory.informerFor(RESOURCES.daemonsets);
  const revisions = factory.informerFor(RESOURCES.controllerrevisions);
  const nodes = factory.informerFor(RESOURCES.nodes);
  const sync = async () => {
    const storedPods = await h.client.list(RESOURCES.pods, { namespace: NS });
    const storedRevisions = await h.client.list(RESOURCES.controllerrevisions, { namespace: NS });
    const storedNodes = await h.client.list(RESOURCES.nodes);
    const ds = await h.client.get(RESOURCES.daemonsets, NS, name);
    const rv = (o: { metadata?: { resourceVersion?: string } }) => o.metadata?.resourceVersion ?? '';
    const same = (cached: readonly { metadata?: { resourceVersion?: string } }[], stored: typeof cached) =>
      cached.map(rv).sort().join() === stored.map(rv).sort().join();
    await eventually(
      () =>
        same(pods.getIndexer().list(), storedPods.items) &&
        same(revisions.getIndexer().list(), storedRevisions.items) &&
        same(nodes.getIndexer().list(), storedNodes.items) &&
        sets.get(NS, name)?.metadata?.resourceVersion === ds.metadata?.resourceVersion,
    );
    podControl.templates.length = 0;
    podControl.deletePodNames.length = 0;
    podControl.createCallCount = 0;
    await dsc.syncDaemonSet(key);
  };
  const s: Setup = {
    h,
    dsc,
    podControl,
    key,
    sync,
    async expectSync(creates, deletes) {
      dsc.expectations.deleteExpectations(key);
      await sync();
      expect([podControl.templates.length, podControl.deletePodNames.length]).toEqual([creates, deletes]);
    },
    ds: () => h.client.get(RESOURCES.daemonsets, NS, name),
  };
  return s;
}

const targets = (s: Setup) => s.podControl.templates.map((t) => getTargetNodeName({ spec: t.spec } as Pod)).sort();

describe('DaemonSetsController syncs (daemon_controller_test.go)', () => {
  it('launches a pod per node, each pinned by node affinity (TestSimpleDaemonSetLaunchesPods, TestSimpleDaemonSetScheduleDaemonSetPodsLaunchesPods)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 5);
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(5, 0);
    expect(targets(s)).toEqual(['node-0', 'node-1', 'node-2', 'node-3', 'node-4']);
    const template = s.podControl.templates[0];
    expect(template?.spec?.nodeName).toBeUndefined();
    expect(template?.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [expect.any(String)] }] }],
    });
    expect(template?.spec?.tolerations?.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
    // One ControllerRevision, `<ds>-<hash>`, revision 1, its hash on the pods.
    const revisions = (await h.client.list(RESOURCES.controllerrevisions, { namespace: NS })).items;
    expect(revisions).toHaveLength(1);
    const hash = revisions[0]?.metadata?.labels?.['controller-revision-hash'] ?? '';
    expect(revisions[0]?.metadata?.name).toBe(`foo-${hash}`);
    expect(revisions[0]?.revision).toBe(1);
    expect(revisions[0]?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'DaemonSet',
      name: 'foo',
      controller: true,
    });
    expect(template?.metadata?.labels).toEqual({
      ...simpleDaemonSetLabel,
      'pod-template-generation': '1',
      'controller-revision-hash': hash,
    });
  });

  it('does nothing without nodes (TestNoNodesDoesNothing)', async () => {
    const h = await harness('in-process');
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(0, 0);
    expect((await s.ds()).status).toMatchObject({ desiredNumberScheduled: 0, observedGeneration: 1 });
  });

  it('launches on a not-ready node (TestNotReadyNodeDaemonDoesLaunchPod)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1, {}, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]);
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(1, 0);
  });

  it('deals with existing pods: makes the missing, deletes the extras (TestDealsWithExistingPods)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 5);
    const s = await setup(h, newDaemonSet('foo'));
    const ds = await s.ds();
    await addPods(h, ds, 'node-1', 1);
    await addPods(h, ds, 'node-2', 2);
    await addPods(h, ds, 'node-3', 5);
    // Owned but no longer selected: released, not counted.
    await addPods(h, ds, 'node-4', 2, undefined, { name: 'simple-daemon', type: 'test' });
    await s.expectSync(2, 5);
    expect(targets(s)).toEqual(['node-0', 'node-4']);
  });

  it('launches only where the nodeSelector matches, deleting the others (TestSelectorDaemonLaunchesPods, TestSelectorDaemonDeletesUnselectedPods)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 4);
    await addNodes(h, 4, 3, simpleNodeLabel);
    const s = await setup(h, newDaemonSet('foo', { nodeSelector: simpleNodeLabel }));
    const ds = await s.ds();
    await addPods(h, ds, 'node-0', 2);
    await addPods(h, ds, 'node-1', 1);
    await addPods(h, ds, 'node-4', 1);
    await s.expectSync(2, 3);
    expect(targets(s)).toEqual(['node-5', 'node-6']);
  });

  it('launches by node name and node affinity (TestNameDaemonSetLaunchesPods, TestNodeAffinityDaemonLaunchesPods, TestBadNameDaemonSetDoesNothing)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 4);
    await addNodes(h, 4, 3, simpleNodeLabel);
    const byName = await setup(h, newDaemonSet('foo', { nodeName: 'node-0' }));
    await byName.expectSync(1, 0);
    expect(targets(byName)).toEqual(['node-0']);
    const badName = await setup(h, newDaemonSet('bar', { nodeName: 'node-10' }));
    await badName.expectSync(0, 0);
    const affinity = await setup(
      h,
      newDaemonSet('baz', {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'color', operator: 'In', values: ['blue'] }] }],
            },
          },
        },
      }),
    );
    await affinity.expectSync(3, 0);
    expect(targets(affinity)).toEqual(['node-4', 'node-5', 'node-6']);
  });

  it('respects taints: no pod where intolerant, one where tolerating (TestTaintedNodeDaemonDoesNotLaunchIntolerantPod, TestTaintedNodeDaemonLaunchesToleratePod)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1, {}, [{ key: 'dedicated', value: 'master', effect: 'NoSchedule' }]);
    const intolerant = await setup(h, newDaemonSet('foo'));
    await intolerant.expectSync(0, 0);
    const tolerant = await setup(
      h,
      newDaemonSet('bar', {
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'master', effect: 'NoSchedule' }],
      }),
    );
    await tolerant.expectSync(1, 0);
  });

  it('keeps a running pod on a NoSchedule node, evicts it from a NoExecute one (TestNoScheduleTaintedDoesntEvicitRunningIntolerantPod, TestNoExecuteTaintedDoesEvicitRunningIntolerantPod)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1, {}, [{ key: 'dedicated', value: 'master', effect: 'NoSchedule' }]);
    await addNodes(h, 1, 1, {}, [{ key: 'dedicated', value: 'master', effect: 'NoExecute' }]);
    const s = await setup(h, newDaemonSet('foo'));
    const ds = await s.ds();
    await addPods(h, ds, 'node-0', 1);
    await addPods(h, ds, 'node-1', 1);
    await s.expectSync(0, 1);
    expect(s.podControl.deletePodNames[0]).toMatch(/^node-1-/);
    await s.expectSync(0, 0);
    // node-0's pod stays, misscheduled (it would not be started there); node-1's is misscheduled
    // until its kubelet is done with the graceful deletion — not deleted again meanwhile.
    expect((await s.ds()).status).toMatchObject({ desiredNumberScheduled: 0, numberMisscheduled: 2 });
  });

  it('does not touch pods being deleted (TestDaemonSetRespectsTermination)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1, simpleNodeLabel);
    const s = await setup(h, newDaemonSet('foo'));
    const ds = await s.ds();
    await addPods(h, ds, 'node-0', 1);
    const [pod] = (await h.client.list(RESOURCES.pods, { namespace: NS })).items;
    await h.client.patch(RESOURCES.pods, NS, pod?.metadata?.name ?? '', 'merge', {
      metadata: { finalizers: ['test.kubewasm.io/hold'] },
    });
    await h.client.delete(RESOURCES.pods, NS, pod?.metadata?.name ?? '', { gracePeriodSeconds: 0 });
    await s.expectSync(0, 0);
  });

  it('kills failed pods, and extras, once per back-off (TestDaemonKillFailedPods, TestDaemonKillFailedPodsBackoff)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1);
    const s = await setup(h, newDaemonSet('foo'));
    const ds = await s.ds();
    await addPods(h, ds, 'node-0', 1, 'Failed');
    await addPods(h, ds, 'node-0', 3);
    // The failed pod, and 2 of the 3 running.
    await s.expectSync(0, 3);
    // Keyed by the observedGeneration the sync saw (none yet).
    const key = failedPodsBackoffKey(ds, 'node-0');
    expect(s.dsc.failedPodsBackoff.get(key)).toBe(1000);
    expect(s.dsc.failedPodsBackoff.isInBackOffSinceUpdate(key, h.server.clock.now())).toBe(true);
  });

  it('deletes succeeded pods', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1);
    const s = await setup(h, newDaemonSet('foo'));
    await addPods(h, await s.ds(), 'node-0', 1, 'Succeeded');
    await s.expectSync(0, 1);
  });

  it('deletes unscheduled pods of nodes that are gone (TestDeleteUnscheduledPodForNotExistingNode)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1);
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(1, 0);
    await h.client.delete(RESOURCES.nodes, undefined, 'node-0');
    await s.expectSync(0, 1);
  });

  it('counts ready and available pods, and observes the generation (TestNumberReadyStatus, TestObservedGeneration)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 2, simpleNodeLabel);
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(2, 0);
    expect((await s.ds()).status).toMatchObject({
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberReady: 0,
      numberAvailable: 0,
      numberUnavailable: 2,
      updatedNumberScheduled: 2,
      numberMisscheduled: 0,
      observedGeneration: 1,
    });
    await markPodsReady(h);
    await s.expectSync(0, 0);
    expect((await s.ds()).status).toMatchObject({ numberReady: 2, numberAvailable: 2, numberUnavailable: 0 });
  });

  it('warns and does nothing for a DaemonSet being deleted (TestDontDoAnythingIfBeingDeleted)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1);
    const s = await setup(h, {
      ...newDaemonSet('foo'),
      metadata: { name: 'foo', finalizers: ['test.kubewasm.io/hold'] },
    });
    await h.client.delete(RESOURCES.daemonsets, NS, 'foo');
    await s.expectSync(0, 0);
  });
});

describe('DaemonSetsController rolling updates (update_test.go)', () => {
  const updateTemplate = async (s: Setup, strategy: DaemonSetUpdateStrategy) => {
    const ds = await s.ds();
    const spec = ds.spec as NonNullable<DaemonSet['spec']>;
    const containers = spec.template.spec?.containers ?? [];
    await s.h.client.update(RESOURCES.daemonsets, NS, {
      ...ds,
      spec: {
        ...spec,
        updateStrategy: strategy,
        template: {
          ...spec.template,
          spec: { ...spec.template.spec, containers: [{ ...containers[0], name: 'c', image: 'foo2/bar2' }] },
        },
      },
    } as DaemonSet);
  };

  it('replaces maxUnavailable pods at a time (TestDaemonSetUpdatesPods)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 5);
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(5, 0);
    await markPodsReady(h);
    await updateTemplate(s, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } });
    await s.expectSync(0, 2);
    await s.expectSync(2, 0);
    await markPodsReady(h);
    await s.expectSync(0, 2);
    await s.expectSync(2, 0);
    await markPodsReady(h);
    await s.expectSync(0, 1);
    await s.expectSync(1, 0);
    await markPodsReady(h);
    await s.expectSync(0, 0);
    const status = (await s.ds()).status;
    expect(status).toMatchObject({ updatedNumberScheduled: 5, numberAvailable: 5, observedGeneration: 2 });
    // Two revisions: the old one kept (history limit 10), the new one revision 2.
    const revisions = (await h.client.list(RESOURCES.controllerrevisions, { namespace: NS })).items;
    expect(revisions.map((r) => r.revision).sort()).toEqual([1, 2]);
  });

  it('surges maxSurge nodes at a time (TestDaemonSetUpdatesPodsWithMaxSurge)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 5);
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(5, 0);
    await markPodsReady(h);
    await updateTemplate(s, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 2 } });
    await s.expectSync(2, 0);
    await s.expectSync(0, 0);
    await markPodsReady(h);
    await s.expectSync(2, 2);
    await s.expectSync(0, 0);
    await markPodsReady(h);
    await s.expectSync(1, 2);
    await s.expectSync(0, 0);
    await markPodsReady(h);
    await s.expectSync(0, 1);
    await s.expectSync(0, 0);
  });

  it('does not replace pods for OnDelete, and replaces a deleted one with the new template', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 2);
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(2, 0);
    await markPodsReady(h);
    await updateTemplate(s, { type: 'OnDelete' });
    await s.expectSync(0, 0);
    expect((await s.ds()).status).toMatchObject({ updatedNumberScheduled: 0 });
    const [pod] = (await h.client.list(RESOURCES.pods, { namespace: NS })).items;
    await h.client.delete(RESOURCES.pods, NS, pod?.metadata?.name ?? '');
    await s.expectSync(1, 0);
    expect(s.podControl.templates[0]?.spec?.containers[0]?.image).toBe('foo2/bar2');
  });

  it('keeps at most revisionHistoryLimit old revisions not in use', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1);
    const s = await setup(
      h,
      newDaemonSet('foo', {}, { revisionHistoryLimit: 1, updateStrategy: { type: 'OnDelete' } }),
    );
    await s.expectSync(1, 0);
    for (const image of ['a', 'b', 'c']) {
      const ds = await s.ds();
      const spec = ds.spec as NonNullable<DaemonSet['spec']>;
      await h.client.update(RESOURCES.daemonsets, NS, {
        ...ds,
        spec: { ...spec, template: { ...spec.template, spec: { containers: [{ name: 'c', image }] } } },
      } as DaemonSet);
      await s.expectSync(0, 0);
    }
    // Each sync: old beyond the limit deleted, oldest first, revision 1 kept as the pod runs it
    // (it counts against the limit all the same); 4 is current.
    const revisions = (await h.client.list(RESOURCES.controllerrevisions, { namespace: NS })).items;
    expect(revisions.map((r) => r.revision).sort()).toEqual([1, 4]);
  });
});

describe('DaemonSetsController surge and history (daemon_controller_test.go, update_test.go)', () => {
  /** One pod of `ds` on `nodeName`: current (with the hash) or old, Ready or not, created at the clock's now. */
  async function addPod(h: Harness, ds: DaemonSet, nodeName: string, prefix: string, current: boolean, ready: boolean) {
    const labels: Record<string, string> = { ...simpleDaemonSetLabel };
    if (current) labels['controller-revision-hash'] = computeHash(ds.spec?.template, ds.status?.collisionCount);
    const pod = await h.client.create(RESOURCES.pods, NS, {
      metadata: {
        generateName: prefix,
        labels,
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'DaemonSet',
            name: ds.metadata?.name ?? '',
            uid: ds.metadata?.uid ?? '',
            controller: true,
          },
        ],
      },
      spec: { nodeName, containers: [{ name: 'c', image: 'foo/bar' }] },
    } as Pod);
    if (ready) {
      await h.client.updateStatus(RESOURCES.pods, NS, {
        ...pod,
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      });
    }
    return pod;
  }

  it('keeps the oldest ready old pod beside the new one, deletes the other (TestSurgePreservesReadyOldPods)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 5);
    const s = await setup(
      h,
      newDaemonSet(
        'foo',
        {},
        { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } },
      ),
    );
    const ds = await s.ds();
    // Kept: the oldest, and ready.
    await addPod(h, ds, 'node-1', 'node-1-old-', false, true);
    h.server.clock.advance(10_000);
    // Deleted: not the oldest, though ready.
    const doomed = await addPod(h, ds, 'node-1', 'node-1-delete-', false, true);
    h.server.clock.advance(40_000);
    // Kept: the current hash.
    await addPod(h, ds, 'node-1', 'node-1-', true, false);
    await addPod(h, ds, 'node-2', 'node-2-', true, false);
    await s.expectSync(3, 1);
    expect(s.podControl.deletePodNames).toEqual([doomed.metadata?.name]);
    expect(targets(s)).toEqual(['node-0', 'node-3', 'node-4']);
  });

  it('deletes an unready old pod once a new one is there (TestSurgeDeletesUnreadyOldPods)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 5);
    const s = await setup(
      h,
      newDaemonSet(
        'foo',
        {},
        { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } },
      ),
    );
    const ds = await s.ds();
    const unready = await addPod(h, ds, 'node-1', 'node-1-old-', false, false);
    h.server.clock.advance(10_000);
    const notOldest = await addPod(h, ds, 'node-1', 'node-1-delete-', false, true);
    h.server.clock.advance(40_000);
    await addPod(h, ds, 'node-1', 'node-1-', true, false);
    await addPod(h, ds, 'node-2', 'node-2-', true, false);
    await s.expectSync(3, 2);
    expect([...s.podControl.deletePodNames].sort()).toEqual([unready.metadata?.name, notOldest.metadata?.name].sort());
  });

  it('changes nothing when only the strategy changed (TestDaemonSetUpdatesNoTemplateChanged)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 5);
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(5, 0);
    const ds = await s.ds();
    await h.client.update(RESOURCES.daemonsets, NS, {
      ...ds,
      spec: {
        ...(ds.spec as NonNullable<DaemonSet['spec']>),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } },
      },
    } as DaemonSet);
    await s.expectSync(0, 0);
    expect((await h.client.list(RESOURCES.controllerrevisions, { namespace: NS })).items).toHaveLength(1);
  });

  it('adopts a matching orphan revision, and takes it as current when its data match (TestControlledHistories)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1);
    const s = await setup(h, newDaemonSet('foo'));
    const ds = await s.ds();
    const data = { spec: { template: { ...(ds.spec?.template ?? {}), $patch: 'replace' } } };
    await h.client.create(RESOURCES.controllerrevisions, NS, {
      metadata: { name: 'foo-orphan', labels: { ...simpleDaemonSetLabel, 'controller-revision-hash': 'orphan' } },
      data,
      revision: 7,
    });
    await h.client.create(RESOURCES.controllerrevisions, NS, {
      metadata: { name: 'other', labels: { app: 'other' } },
      data: {},
      revision: 1,
    });
    await s.expectSync(1, 0);
    const revisions = (await h.client.list(RESOURCES.controllerrevisions, { namespace: NS })).items;
    expect(revisions.map((r) => [r.metadata?.name, r.metadata?.ownerReferences?.[0]?.name ?? null])).toEqual([
      ['foo-orphan', 'foo'],
      ['other', null],
    ]);
    // The adopted revision is the current one: its hash on the pod.
    expect(s.podControl.templates[0]?.metadata?.labels?.['controller-revision-hash']).toBe('orphan');
  });
});

describe('DaemonSetsController running', () => {
  const runs = controllerRuns();

  it('follows nodes coming, tainted NoExecute, and relabelled', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 2, simpleNodeLabel);
    await h.client.create(RESOURCES.daemonsets, NS, newDaemonSet('foo', { nodeSelector: simpleNodeLabel }));
    await runs.start(h, (factory) => new DaemonSetsController({ factory, client: h.client, clock: h.server.clock }));
    const placed = async () =>
      (await h.client.list(RESOURCES.pods, { namespace: NS })).items
        .filter((p) => (p.metadata?.deletionTimestamp ?? null) === null)
        .map((p) => getTargetNodeName(p))
        .sort()
        .join();
    await waitFor(async () => (await placed()) === 'node-0,node-1');
    await addNodes(h, 2, 1, simpleNodeLabel);
    await addNodes(h, 3, 1);
    await waitFor(async () => (await placed()) === 'node-0,node-1,node-2');
    // A NoExecute taint the pod does not tolerate: its pod goes.
    const n0 = await h.client.get(RESOURCES.nodes, undefined, 'node-0');
    await h.client.update(RESOURCES.nodes, undefined, { ...n0, spec: { taints: [{ key: 'k', effect: 'NoExecute' }] } });
    await waitFor(async () => (await placed()) === 'node-1,node-2');
    // A node relabelled to match gets one.
    const n3 = await h.client.get(RESOURCES.nodes, undefined, 'node-3');
    await h.client.update(RESOURCES.nodes, undefined, { ...n3, metadata: { ...n3.metadata, labels: simpleNodeLabel } });
    await waitFor(async () => (await placed()) === 'node-1,node-2,node-3');
    await waitFor(
      async () => (await h.client.get(RESOURCES.daemonsets, NS, 'foo')).status?.desiredNumberScheduled === 3,
    );
  });
});

describe('DaemonSetsController create failures and status writes', () => {
  it('stops at the first failed slow-start batch and expects only what was made (TestSimpleDaemonSetPodCreateErrors)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 100);
    const s = await setup(h, newDaemonSet('foo'));
    s.podControl.createLimit = 10;
    s.dsc.expectations.deleteExpectations(s.key);
    await expect(s.sync()).rejects.toThrow('not creating pod, limit 10 already reached');
    expect(s.podControl.templates).toHaveLength(10);
    // Batches 1, 2, 4, 8: no more calls than those.
    expect(s.podControl.createCallCount).toBe(15);
    // The pods never tried are not expected: once the 10 made are observed, the expectations are met.
    await waitFor(async () => s.dsc.expectations.satisfiedExpectations(s.key));
    expect(s.dsc.expectations.getExpectations(s.key)?.getExpectations()).toEqual([0, 0]);
  });

  it('only writes the status while expectations are pending (TestDaemonSetPodCreateExpectationsError)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 2);
    const s = await setup(h, newDaemonSet('foo'));
    s.dsc.expectations.setExpectations(s.key, 1, 0);
    await s.sync();
    expect(s.podControl.createCallCount).toBe(0);
    // Not observed: the generation is not claimed either.
    expect((await s.ds()).status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 0 });
    expect((await s.ds()).status?.observedGeneration ?? 0).toBe(0);
  });

  it('writes the status only when it changed (TestStoreDaemonSetStatus)', async () => {
    const h = await harness('in-process');
    await addNodes(h, 0, 1);
    const s = await setup(h, newDaemonSet('foo'));
    await s.expectSync(1, 0);
    const first = await s.ds();
    expect(first.status).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1, observedGeneration: 1 });
    await s.expectSync(0, 0);
    expect((await s.ds()).metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
  });
});
