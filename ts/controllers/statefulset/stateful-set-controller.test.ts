// The StatefulSet controller against a real in-process apiserver: the facts of
// pkg/controller/statefulset/stateful_set_control_test.go and stateful_set_test.go (v1.32) —
// OrderedReady and Parallel creation and scaling, failed pods replaced, start ordinals, rolling
// updates with partitions, OnDelete, rollback to an equal revision, history limits, identity
// repair, refused creates — its syncs driven one at a time once the informers hold what the
// apiserver holds; pods do not run, so the tests mark them Running and Ready as Go's do.
import { afterEach, describe, expect, it } from 'vitest';
import type { StatefulSet } from '../../api/types/apps/v1.js';
import type { Event, PersistentVolumeClaim, Pod } from '../../api/types/core/v1.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import { waitFor } from '../testing/controller-runs.js';
import { StatefulSetController } from './stateful-set-controller.js';

const NS = 'default';
const labels = { app: 'nginx' };

function newSet(replicas: number, extra: Partial<StatefulSet['spec']> = {}): StatefulSet {
  return {
    metadata: { name: 'web' },
    spec: {
      replicas,
      serviceName: 'nginx',
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] } },
      ...extra,
    } as StatefulSet['spec'] & {},
  };
}

interface Setup {
  h: Harness;
  ssc: StatefulSetController;
  key: string;
  /** Waits until the informers hold what the apiserver holds, then syncs once. */
  sync(): Promise<void>;
}

const running: Array<{ factory: SharedInformerFactory; ssc: StatefulSetController }> = [];
afterEach(async () => {
  for (const { factory, ssc } of running.splice(0)) {
    await ssc.stop();
    await factory.shutdown();
  }
});

async function setup(body: StatefulSet, h?: Harness): Promise<Setup> {
  const hh = h ?? (await harness('in-process'));
  await hh.client.create(RESOURCES.statefulsets, NS, body);
  const factory = new SharedInformerFactory(hh.client, { clock: hh.server.clock });
  const ssc = new StatefulSetController({ factory, client: hh.client, clock: hh.server.clock });
  running.push({ factory, ssc });
  factory.start();
  await factory.waitForCacheSync();
  const key = `${NS}/${body.metadata?.name ?? ''}`;
  const rv = (o: { metadata?: { resourceVersion?: string } }) => o.metadata?.resourceVersion ?? '';
  const sync = async () => {
    const pods = await hh.client.list(RESOURCES.pods, { namespace: NS });
    const revisions = await hh.client.list(RESOURCES.controllerrevisions, { namespace: NS });
    const claims = await hh.client.list(RESOURCES.persistentvolumeclaims, { namespace: NS });
    const set = await hh.client.get(RESOURCES.statefulsets, NS, body.metadata?.name ?? '');
    const same = (cached: readonly { metadata?: { resourceVersion?: string } }[], stored: typeof cached) =>
      cached.map(rv).sort().join() === stored.map(rv).sort().join();
    await eventually(
      () =>
        same(ssc.pods.getIndexer().list(), pods.items) &&
        same(ssc.revisions.getIndexer().list(), revisions.items) &&
        same(factory.informerFor(RESOURCES.persistentvolumeclaims).getIndexer().list(), claims.items) &&
        ssc.sets.get(NS, body.metadata?.name ?? '')?.metadata?.resourceVersion === rv(set),
    );
    await ssc.sync(key);
  };
  return { h: hh, ssc, key, sync };
}

const WWW: PersistentVolumeClaim = {
  metadata: { name: 'www' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};

const claimNames = async (h: Harness): Promise<string[]> =>
  (await h.client.list(RESOURCES.persistentvolumeclaims, { namespace: NS })).items
    .map((c) => c.metadata?.name ?? '')
    .sort();

const podNames = async (h: Harness): Promise<string[]> =>
  (await h.client.list(RESOURCES.pods, { namespace: NS })).items
    .filter((p) => (p.metadata?.deletionTimestamp ?? null) === null)
    .map((p) => p.metadata?.name ?? '')
    .sort();

const getPod = (h: Harness, name: string): Promise<Pod> => h.client.get(RESOURCES.pods, NS, name);
const getSet = (h: Harness): Promise<StatefulSet> => h.client.get(RESOURCES.statefulsets, NS, 'web');

/** Marks pods Running and Ready (a second ago), as the Go tests' setPodRunning + setPodReady. */
async function markReady(h: Harness, ...names: string[]): Promise<void> {
  const at = new Date(h.server.clock.now() - 1000).toISOString();
  for (const name of names) {
    const pod = await getPod(h, name);
    await h.client.updateStatus(RESOURCES.pods, NS, {
      ...pod,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }] },
    });
  }
}

async function setPhase(h: Harness, name: string, phase: 'Failed' | 'Succeeded' | 'Pending'): Promise<void> {
  const pod = await getPod(h, name);
  await h.client.updateStatus(RESOURCES.pods, NS, { ...pod, status: { phase } });
}

/** Syncs, marking each new pod ready, until the set has `n` pods all ready. */
async function scaleUpReady(s: Setup, n: number): Promise<void> {
  for (let i = 0; i < 3 * n + 3; i++) {
    await s.sync();
    const names = await podNames(s.h);
    const notReady: string[] = [];
    for (const name of names) {
      if ((await getPod(s.h, name)).status?.phase !== 'Running') notReady.push(name);
    }
    if (notReady.length > 0) await markReady(s.h, ...notReady);
    else if (names.length === n) {
      await s.sync();
      return;
    }
  }
  throw new Error('did not scale up');
}

const events = async (s: Setup): Promise<Event[]> => {
  await s.ssc.recorder.flush();
  return (await s.h.client.list(RESOURCES.events, { namespace: NS })).items as Event[];
};
const eventLines = async (s: Setup): Promise<string[]> =>
  (await events(s)).map((e) => `${e.type} ${e.reason}: ${e.message}`);

describe('OrderedReady', () => {
  it('creates pods one at a time, each Running and Ready before the next (TestStatefulSetControlScaleUp)', async () => {
    const s = await setup(newSet(3));
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0']);
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0']);
    // Running but not Ready is still not enough.
    await setPhase(s.h, 'web-0', 'Pending');
    const pod = await getPod(s.h, 'web-0');
    await s.h.client.updateStatus(RESOURCES.pods, NS, { ...pod, status: { phase: 'Running' } });
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0']);
    await markReady(s.h, 'web-0');
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1']);
    await markReady(s.h, 'web-1');
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1', 'web-2']);
    await markReady(s.h, 'web-2');
    await s.sync();

    const web1 = await getPod(s.h, 'web-1');
    const set = await getSet(s.h);
    expect(web1.metadata?.labels).toEqual({
      app: 'nginx',
      'statefulset.kubernetes.io/pod-name': 'web-1',
      'apps.kubernetes.io/pod-index': '1',
      'controller-revision-hash': set.status?.updateRevision,
    });
    expect(web1.spec?.hostname).toBe('web-1');
    expect(web1.spec?.subdomain).toBe('nginx');
    expect(web1.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', name: 'web', controller: true });
    expect(set.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      observedGeneration: 1,
      collisionCount: 0,
    });
    expect(set.status?.currentRevision).toBe(set.status?.updateRevision);
    expect(set.status?.updateRevision).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    const revisions = (await s.h.client.list(RESOURCES.controllerrevisions, { namespace: NS })).items;
    expect(revisions.map((r) => [r.metadata?.name, r.revision])).toEqual([[set.status?.updateRevision, 1]]);
    expect(await eventLines(s)).toEqual(
      expect.arrayContaining([
        'Normal SuccessfulCreate: create Pod web-0 in StatefulSet web successful',
        'Normal SuccessfulCreate: create Pod web-1 in StatefulSet web successful',
        'Normal SuccessfulCreate: create Pod web-2 in StatefulSet web successful',
      ]),
    );
  });

  it('waits for minReadySeconds before the next pod', async () => {
    const s = await setup(newSet(2, { minReadySeconds: 30 }));
    await s.sync();
    // Ready just now: not yet available.
    const pod = await getPod(s.h, 'web-0');
    const now = new Date(s.h.server.clock.now()).toISOString();
    await s.h.client.updateStatus(RESOURCES.pods, NS, {
      ...pod,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] },
    });
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0']);
    expect((await getSet(s.h)).status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
    s.h.server.clock.advance(31_000);
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1']);
    expect((await getSet(s.h)).status).toMatchObject({ readyReplicas: 1, availableReplicas: 1 });
  });

  it('scales down from the highest ordinal, one at a time, waiting for the ones left (TestStatefulSetControlScaleDown)', async () => {
    const s = await setup(newSet(5));
    await scaleUpReady(s, 5);
    await s.h.client.patch(RESOURCES.statefulsets, NS, 'web', 'merge', { spec: { replicas: 3 } });
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1', 'web-2', 'web-3']);
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(await eventLines(s)).toEqual(
      expect.arrayContaining([
        'Normal SuccessfulDelete: delete Pod web-4 in StatefulSet web successful',
        'Normal SuccessfulDelete: delete Pod web-3 in StatefulSet web successful',
      ]),
    );
    await s.sync();
    expect((await getSet(s.h)).status).toMatchObject({ replicas: 3, readyReplicas: 3 });
  });

  it('does not scale down while a remaining pod is unhealthy (the condemned wait for their predecessors)', async () => {
    const s = await setup(newSet(3));
    await scaleUpReady(s, 3);
    await s.h.client.patch(RESOURCES.statefulsets, NS, 'web', 'merge', { spec: { replicas: 1 } });
    await setPhase(s.h, 'web-0', 'Pending');
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1', 'web-2']);
    await markReady(s.h, 'web-0');
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1']);
  });

  it('deletes a failed pod and makes it again (TestStatefulSetControlReplacesPods)', async () => {
    const s = await setup(newSet(3));
    await scaleUpReady(s, 3);
    const uid = (await getPod(s.h, 'web-1')).metadata?.uid;
    await setPhase(s.h, 'web-1', 'Failed');
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-2']);
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1', 'web-2']);
    expect((await getPod(s.h, 'web-1')).metadata?.uid).not.toBe(uid);
    // A succeeded pod is replaced too.
    await markReady(s.h, 'web-1');
    await setPhase(s.h, 'web-2', 'Succeeded');
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1']);
  });

  it('names pods from spec.ordinals.start (StatefulSetStartOrdinal)', async () => {
    const s = await setup(newSet(2, { ordinals: { start: 3 } }));
    await scaleUpReady(s, 2);
    expect(await podNames(s.h)).toEqual(['web-3', 'web-4']);
    expect((await getPod(s.h, 'web-4')).metadata?.labels?.['apps.kubernetes.io/pod-index']).toBe('4');
    // Moving the start: the pods outside the range are condemned, the new range made.
    await s.h.client.patch(RESOURCES.statefulsets, NS, 'web', 'merge', { spec: { ordinals: { start: 4 } } });
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-3', 'web-4', 'web-5']);
    await markReady(s.h, 'web-5');
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-4', 'web-5']);
  });
});

describe('Parallel', () => {
  it('creates every pod in one sync and deletes in parallel (TestStatefulSetControlBurstScaleUp/Down)', async () => {
    const s = await setup(newSet(4, { podManagementPolicy: 'Parallel' }));
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1', 'web-2', 'web-3']);
    await s.h.client.patch(RESOURCES.statefulsets, NS, 'web', 'merge', { spec: { replicas: 1 } });
    // Nothing is ready, and Parallel does not wait.
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0']);
  });
});

describe('updates', () => {
  const changeImage = (h: Harness, image: string) =>
    h.client.patch(RESOURCES.statefulsets, NS, 'web', 'strategic', {
      spec: { template: { spec: { containers: [{ name: 'nginx', image }] } } },
    });
  const images = async (h: Harness): Promise<string[]> => {
    const out: string[] = [];
    for (const name of await podNames(h)) out.push((await getPod(h, name)).spec?.containers[0]?.image ?? '');
    return out;
  };

  it('RollingUpdate: from the highest ordinal down, one at a time, waiting for each (TestStatefulSetControlRollingUpdate)', async () => {
    const s = await setup(newSet(3));
    await scaleUpReady(s, 3);
    const first = (await getSet(s.h)).status?.currentRevision;
    await changeImage(s.h, 'nginx:2');
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1']);
    let set = await getSet(s.h);
    expect(set.status?.currentRevision).toBe(first);
    expect(set.status?.updateRevision).not.toBe(first);
    expect(set.status).toMatchObject({ currentReplicas: 2, updatedReplicas: 0 });
    await s.sync();
    expect(await images(s.h)).toEqual(['nginx:1', 'nginx:1', 'nginx:2']);
    // web-2 is not ready: nothing else moves.
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-1', 'web-2']);
    await markReady(s.h, 'web-2');
    await s.sync();
    expect(await podNames(s.h)).toEqual(['web-0', 'web-2']);
    await s.sync();
    await markReady(s.h, 'web-1');
    await s.sync();
    await s.sync();
    await markReady(s.h, 'web-0');
    await s.sync();
    expect(await images(s.h)).toEqual(['nginx:2', 'nginx:2', 'nginx:2']);
    set = await getSet(s.h);
    // Complete: the update revision became current.
    expect(set.status).toMatchObject({ currentReplicas: 3, updatedReplicas: 3, readyReplicas: 3 });
    expect(set.status?.currentRevision).toBe(set.status?.updateRevision);
    const revisions = (await s.h.client.list(RESOURCES.controllerrevisions, { namespace: NS })).items;
    expect(revisions.map((r) => r.revision).sort()).toEqual([1, 2]);
  });

  it('a partition: only ordinals at or above it are updated (TestStatefulSetControlRollingUpdateWithPartition)', async () => {
    const s = await setup(newSet(4, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }));
    await scaleUpReady(s, 4);
    await changeImage(s.h, 'nginx:2');
    for (let i = 0; i < 8; i++) {
      await s.sync();
      const notReady = [];
      for (const n of await podNames(s.h)) if ((await getPod(s.h, n)).status?.phase !== 'Running') notReady.push(n);
      await markReady(s.h, ...notReady);
    }
    expect(await images(s.h)).toEqual(['nginx:1', 'nginx:1', 'nginx:2', 'nginx:2']);
    const set = await getSet(s.h);
    expect(set.status).toMatchObject({ currentReplicas: 2, updatedReplicas: 2, replicas: 4 });
    expect(set.status?.currentRevision).not.toBe(set.status?.updateRevision);
    // Lowering the partition carries on; a pod made below the partition gets the current revision.
    await s.h.client.delete(RESOURCES.pods, NS, 'web-0');
    await s.sync();
    expect(await images(s.h)).toEqual(['nginx:1', 'nginx:1', 'nginx:2', 'nginx:2']);
  });

  it('OnDelete: nothing replaced until deleted, then made at the update revision (TestStatefulSetControlOnDeleteUpdate)', async () => {
    const s = await setup(newSet(3, { updateStrategy: { type: 'OnDelete' } }));
    await scaleUpReady(s, 3);
    await changeImage(s.h, 'nginx:2');
    await s.sync();
    await s.sync();
    expect(await images(s.h)).toEqual(['nginx:1', 'nginx:1', 'nginx:1']);
    const set = await getSet(s.h);
    expect(set.status).toMatchObject({ currentReplicas: 3, updatedReplicas: 0 });
    await s.h.client.delete(RESOURCES.pods, NS, 'web-1');
    await s.sync();
    expect(await images(s.h)).toEqual(['nginx:1', 'nginx:2', 'nginx:1']);
    // The pod just made has no phase yet in that pass: counted by the next.
    await s.sync();
    expect((await getSet(s.h)).status).toMatchObject({ currentReplicas: 2, updatedReplicas: 1 });
  });

  it('rolling back to an equal revision renumbers it instead of making a new one', async () => {
    const s = await setup(newSet(1));
    await scaleUpReady(s, 1);
    const first = (await getSet(s.h)).status?.updateRevision;
    await changeImage(s.h, 'nginx:2');
    await s.sync();
    await s.sync();
    await markReady(s.h, 'web-0');
    await s.sync();
    await changeImage(s.h, 'nginx:1');
    await s.sync();
    const set = await getSet(s.h);
    expect(set.status?.updateRevision).toBe(first);
    const revisions = (await s.h.client.list(RESOURCES.controllerrevisions, { namespace: NS })).items;
    expect(revisions.find((r) => r.metadata?.name === first)?.revision).toBe(3);
    expect(revisions).toHaveLength(2);
  });

  it('revisionHistoryLimit: revisions no pod or status names are deleted oldest first', async () => {
    const s = await setup(newSet(1, { revisionHistoryLimit: 1, updateStrategy: { type: 'OnDelete' } }));
    await scaleUpReady(s, 1);
    for (const image of ['nginx:2', 'nginx:3', 'nginx:4']) {
      await changeImage(s.h, image);
      await s.sync();
    }
    await s.sync();
    const set = await getSet(s.h);
    const revisions = (await s.h.client.list(RESOURCES.controllerrevisions, { namespace: NS })).items;
    // Live: current (web-0's, revision 1) and update (4); of 2 and 3 one is kept, the older goes.
    expect(revisions.map((r) => r.revision).sort()).toEqual([1, 3, 4]);
    expect(set.status?.currentRevision).toBe(revisions.find((r) => r.revision === 1)?.metadata?.name);
  });
});

describe('identity and refusals', () => {
  it('repairs a pod whose identity label was removed (updateIdentity, SuccessfulUpdate)', async () => {
    const s = await setup(newSet(1));
    await scaleUpReady(s, 1);
    await s.h.client.patch(RESOURCES.pods, NS, 'web-0', 'json', [
      { op: 'remove', path: '/metadata/labels/statefulset.kubernetes.io~1pod-name' },
    ]);
    await s.sync();
    expect((await getPod(s.h, 'web-0')).metadata?.labels?.['statefulset.kubernetes.io/pod-name']).toBe('web-0');
    expect(await eventLines(s)).toContain('Normal SuccessfulUpdate: update Pod web-0 in StatefulSet web successful');
  });

  it('adopts an orphan pod of its name and releases one whose name is not a member', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.pods, NS, {
      metadata: { name: 'web-0', labels },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] },
    });
    await h.client.create(RESOURCES.pods, NS, {
      metadata: { name: 'other-0', labels },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] },
    });
    const s = await setup(newSet(1), h);
    await s.sync();
    expect((await getPod(h, 'web-0')).metadata?.ownerReferences?.[0]?.name).toBe('web');
    expect((await getPod(h, 'other-0')).metadata?.ownerReferences).toBeUndefined();
  });

  it('a template the apiserver refuses: FailedCreate Events, retried with back-off, not in a hot loop', async () => {
    const h = await harness('in-process');
    // StatefulSet validation does not check the template's finalizers; pod validation refuses this one.
    const body = newSet(2);
    if (body.spec?.template.metadata !== undefined) body.spec.template.metadata.finalizers = ['nodomain'];
    const failures: string[] = [];
    await h.client.create(RESOURCES.statefulsets, NS, body);
    const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const ssc = new StatefulSetController({
      factory,
      client: h.client,
      clock: h.server.clock,
      onError: (err) => failures.push(err instanceof Error ? err.message : String(err)),
    });
    running.push({ factory, ssc });
    factory.start();
    await ssc.run(1);
    await waitFor(async () => failures.length >= 1);
    await new Promise((r) => setTimeout(r, 100));
    await ssc.recorder.flush();
    const failed = async () =>
      ((await h.client.list(RESOURCES.events, { namespace: NS })).items as Event[])
        .filter((e) => e.reason === 'FailedCreate')
        .reduce((n, e) => n + (e.count ?? 1), 0);
    // The rate limiter's 5 ms doubling: a handful of retries in 100 ms, not thousands.
    expect(failures.length).toBeLessThan(12);
    expect(await failed()).toBeLessThan(12);
    const [event] = ((await h.client.list(RESOURCES.events, { namespace: NS })).items as Event[]).filter(
      (e) => e.reason === 'FailedCreate',
    );
    expect(event?.type).toBe('Warning');
    expect(event?.message).toMatch(
      /^create Pod web-0 in StatefulSet web failed error: Pod "web-0" is invalid: metadata.finalizers/,
    );
    expect(failures[0]).toMatch(/^error syncing StatefulSet default\/web, requeuing: Pod "web-0" is invalid/);
    // OrderedReady: web-1 never tried.
    expect(await podNames(h)).toEqual([]);
    const set = await getSet(h);
    expect(set.status).toMatchObject({ replicas: 0, observedGeneration: 1 });
  });

  it('creates each claim before its pod, with the selector labels, and points the pod at it', async () => {
    const s = await setup(newSet(2, { volumeClaimTemplates: [WWW] }));
    await s.sync();
    const claim = await s.h.client.get(RESOURCES.persistentvolumeclaims, NS, 'www-web-0');
    expect(claim.metadata?.labels).toEqual(labels);
    expect(claim.spec).toMatchObject({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } });
    // whenDeleted and whenScaled default to Retain: no owner references.
    expect(claim.metadata?.ownerReferences).toBeUndefined();
    const pod = await s.h.client.get(RESOURCES.pods, NS, 'web-0');
    expect(pod.spec?.volumes).toContainEqual({ name: 'www', persistentVolumeClaim: { claimName: 'www-web-0' } });
    // OrderedReady: web-1's claim waits with web-1.
    expect(await claimNames(s.h)).toEqual(['www-web-0']);
    await markReady(s.h, 'web-0');
    await s.sync();
    expect(await claimNames(s.h)).toEqual(['www-web-0', 'www-web-1']);
  });

  it('whenDeleted: Delete gives the claims the set as owner; whenScaled: Delete gives a condemned pod’s claim its pod', async () => {
    const s = await setup(
      newSet(2, {
        podManagementPolicy: 'Parallel',
        volumeClaimTemplates: [WWW],
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
      }),
    );
    await s.sync();
    const set = await getSet(s.h);
    for (const name of ['www-web-0', 'www-web-1']) {
      const claim = await s.h.client.get(RESOURCES.persistentvolumeclaims, NS, name);
      expect(claim.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: set.metadata?.uid }),
      ]);
    }
    await markReady(s.h, 'web-0');
    await markReady(s.h, 'web-1');
    await s.h.client.patch(RESOURCES.statefulsets, NS, 'web', 'merge', { spec: { replicas: 1 } });
    await s.sync();
    await s.sync();
    const condemned = await s.h.client.get(RESOURCES.persistentvolumeclaims, NS, 'www-web-1');
    expect(condemned.metadata?.ownerReferences?.map((r) => `${r.kind}/${r.name}`)).toContain('Pod/web-1');
    const kept = await s.h.client.get(RESOURCES.persistentvolumeclaims, NS, 'www-web-0');
    expect(kept.metadata?.ownerReferences?.map((r) => `${r.kind}/${r.name}`)).toEqual(['StatefulSet/web']);
  });

  it('a claim the apiserver refuses: FailedCreate for the claim and for the pod, and no pod', async () => {
    const s = await setup(
      newSet(1, {
        // No storage request: PersistentVolumeClaim validation refuses it (422).
        volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'] } }],
      }),
    );
    await expect(s.sync()).rejects.toThrow(/^failed to create PVC www-web-0: /);
    expect(await podNames(s.h)).toEqual([]);
    const lines = await eventLines(s);
    expect(
      lines.some((l) =>
        l.startsWith('Warning FailedCreate: create Claim www-web-0 for Pod web-0 in StatefulSet web failed error: '),
      ),
    ).toBe(true);
    expect(
      lines.some((l) =>
        l.startsWith(
          'Warning FailedCreate: create Pod web-0 in StatefulSet web failed error: failed to create PVC www-web-0',
        ),
      ),
    ).toBe(true);
  });
});

describe('running', () => {
  it('runs with its workers: pods come up in order as they turn ready', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.statefulsets, NS, newSet(3));
    const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const ssc = new StatefulSetController({ factory, client: h.client, clock: h.server.clock });
    running.push({ factory, ssc });
    factory.start();
    await ssc.run();
    for (const name of ['web-0', 'web-1', 'web-2']) {
      await waitFor(async () => (await podNames(h)).includes(name));
      expect((await podNames(h)).at(-1)).toBe(name);
      await markReady(h, name);
    }
    await waitFor(async () => (await getSet(h)).status?.readyReplicas === 3);
  });
});
