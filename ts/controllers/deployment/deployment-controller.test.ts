// End to end on the in-process apiserver: the controller alone (no ReplicaSet controller), the
// test playing the ReplicaSets' status as their pods would make it.
import { afterEach, describe, expect, it } from 'vitest';
import { isConflict, isInvalid } from '../../api/status.js';
import type { Deployment, DeploymentCondition, ReplicaSet } from '../../api/types/apps/v1.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { controllerRuns, waitFor } from '../testing/controller-runs.js';
import { DeploymentController } from './deployment-controller.js';
import { computeHash } from './util/hash.js';

const runs = controllerRuns();
/** Keys dropped after maxRetries failures: none expected. */
const errors: string[] = [];
const NS = 'default';
afterEach(() => {
  expect(errors.splice(0)).toEqual([]);
});

async function start(h: Harness): Promise<DeploymentController> {
  return runs.start(
    h,
    (factory) =>
      new DeploymentController({
        factory,
        client: h.client,
        clock: h.server.clock,
        onError: (err, key) => errors.push(`${key}: ${String(err)}`),
      }),
  );
}

/** waitFor, moving the virtual clock a little each poll so rate-limited retries (conflicts) run. */
function until(h: Harness, check: () => Promise<boolean>, ms = 3000): Promise<void> {
  return waitFor(async () => {
    h.server.clock.advance(10);
    return check();
  }, ms);
}

function deployment(name: string, replicas: number, spec: Partial<NonNullable<Deployment['spec']>> = {}): Deployment {
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
      ...spec,
    },
  };
}

const getD = (h: Harness, name: string) => h.client.get(RESOURCES.deployments, NS, name);

/** The Deployment's ReplicaSets (by controller reference), oldest first. */
async function setsOf(h: Harness, name: string): Promise<ReplicaSet[]> {
  const d = await getD(h, name);
  const list = await h.client.list(RESOURCES.replicasets, { namespace: NS });
  return list.items
    .filter((r) => r.metadata?.ownerReferences?.some((o) => o.controller === true && o.uid === d.metadata?.uid))
    .sort(
      (a, b) =>
        (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? '') ||
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    );
}

/** The sets' spec.replicas by image. */
async function sizes(h: Harness, name: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const sets = (await setsOf(h, name)).map(
    (r) => [r.spec?.template?.spec?.containers[0]?.image ?? '', r.spec?.replicas ?? 0] as const,
  );
  // Keyed in image order, so JSON comparisons do not depend on creation order.
  for (const [image, replicas] of sets.sort(([a], [b]) => a.localeCompare(b))) out[image] = replicas;
  return out;
}

async function retrying(write: () => Promise<unknown>): Promise<void> {
  for (;;) {
    try {
      await write();
      return;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
}

/** What the ReplicaSet controller would report once `ready` pods are ready (and available). */
async function setStatus(h: Harness, name: string, replicas: number, ready = replicas): Promise<void> {
  await retrying(async () => {
    const r = await h.client.get(RESOURCES.replicasets, NS, name);
    r.status = {
      replicas,
      fullyLabeledReplicas: replicas,
      readyReplicas: ready,
      availableReplicas: ready,
      observedGeneration: r.metadata?.generation ?? 0,
    };
    await h.client.updateStatus(RESOURCES.replicasets, NS, r);
  });
}

/** Every set of the Deployment reports its spec.replicas ready. */
async function allReady(h: Harness, name: string): Promise<void> {
  for (const r of await setsOf(h, name)) await setStatus(h, r.metadata?.name ?? '', r.spec?.replicas ?? 0);
}

async function updateD(h: Harness, name: string, change: (d: Deployment) => void): Promise<void> {
  await retrying(async () => {
    const d = await getD(h, name);
    change(d);
    await h.client.update(RESOURCES.deployments, NS, d);
  });
}

const setImage = (image: string) => (d: Deployment) => {
  const c = d.spec?.template.spec?.containers[0];
  if (c) c.image = image;
};

const condition = (d: Deployment, type: string): DeploymentCondition | undefined =>
  d.status?.conditions?.find((c) => c.type === type);

/** Waits until the sets have these sizes, and checks they stay so a little longer. */
async function settlesTo(h: Harness, name: string, expected: Record<string, number>): Promise<void> {
  try {
    await until(h, async () => JSON.stringify(await sizes(h, name)) === JSON.stringify(expected));
  } catch (err) {
    throw new Error(`sizes ${JSON.stringify(await sizes(h, name))}, wanted ${JSON.stringify(expected)}`, {
      cause: err,
    });
  }
  await new Promise((r) => setTimeout(r, 50));
  h.server.clock.advance(100);
  await new Promise((r) => setTimeout(r, 50));
  expect(await sizes(h, name)).toEqual(expected);
}

describe('DeploymentController', () => {
  it('creates the ReplicaSet `<name>-<hash>`, owned, labelled, annotated, sized; status follows the set', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.deployments, NS, deployment('web', 3));
    await start(h);
    await until(h, async () => (await setsOf(h, 'web')).length === 1);
    const d = await getD(h, 'web');
    const hash = computeHash(d.spec?.template);
    const [r] = await setsOf(h, 'web');
    expect(r?.metadata?.name).toBe(`web-${hash}`);
    expect(r?.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(r?.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        uid: d.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    // 25% of 3: surge rounds up to 1.
    expect(r?.metadata?.annotations).toEqual({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    expect(r?.spec?.replicas).toBe(3);
    expect(r?.spec?.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash } });
    expect(r?.spec?.template?.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    await until(
      h,
      async () => (await getD(h, 'web')).metadata?.annotations?.['deployment.kubernetes.io/revision'] === '1',
    );
    await until(h, async () => condition(await getD(h, 'web'), 'Available')?.status === 'False');
    expect((await getD(h, 'web')).status).toMatchObject({ observedGeneration: 1, unavailableReplicas: 3 });

    await setStatus(h, `web-${hash}`, 3);
    await until(h, async () => condition(await getD(h, 'web'), 'Progressing')?.reason === 'NewReplicaSetAvailable');
    const done = await getD(h, 'web');
    expect(done.status).toMatchObject({
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
    expect(done.status?.unavailableReplicas).toBeUndefined();
    expect(condition(done, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
    expect(condition(done, 'Progressing')).toMatchObject({
      status: 'True',
      message: `ReplicaSet "web-${hash}" has successfully progressed.`,
    });
    const events = await h.client.list(RESOURCES.events, { namespace: NS });
    expect(events.items.map((e) => `${e.reason} ${e.message}`)).toContain(
      `ScalingReplicaSet Scaled up replica set web-${hash} from 0 to 3`,
    );
  });

  it('rolls out a new template step by step within maxSurge and maxUnavailable', async () => {
    const h = await harness('in-process');
    await h.client.create(
      RESOURCES.deployments,
      NS,
      deployment('roll', 4, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } }),
    );
    await start(h);
    await settlesTo(h, 'roll', { 'nginx:1': 4 });
    await allReady(h, 'roll');
    await until(h, async () => condition(await getD(h, 'roll'), 'Progressing')?.reason === 'NewReplicaSetAvailable');

    await updateD(h, 'roll', setImage('nginx:2'));
    // 5 pods at most; the new ones not ready yet, so only the one unavailable allowed goes.
    await settlesTo(h, 'roll', { 'nginx:1': 3, 'nginx:2': 2 });
    await allReady(h, 'roll');
    await settlesTo(h, 'roll', { 'nginx:1': 1, 'nginx:2': 4 });
    await allReady(h, 'roll');
    await settlesTo(h, 'roll', { 'nginx:1': 0, 'nginx:2': 4 });
    await allReady(h, 'roll');
    await until(h, async () => condition(await getD(h, 'roll'), 'Progressing')?.reason === 'NewReplicaSetAvailable');
    const d = await getD(h, 'roll');
    expect(d.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(d.status).toMatchObject({ replicas: 4, updatedReplicas: 4, availableReplicas: 4, observedGeneration: 2 });
    const byImage = async (image: string) =>
      (await setsOf(h, 'roll')).find((r) => r.spec?.template?.spec?.containers[0]?.image === image);
    const old = await byImage('nginx:1');
    const cur = await byImage('nginx:2');
    expect(old?.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(cur?.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('2');

    // Back to the first template (what `kubectl rollout undo` does): the old set is the new one again.
    await updateD(h, 'roll', setImage('nginx:1'));
    await settlesTo(h, 'roll', { 'nginx:1': 2, 'nginx:2': 3 });
    const back = await byImage('nginx:1');
    expect(back?.metadata?.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '3',
      'deployment.kubernetes.io/revision-history': '1',
    });
  });

  it('scales proportionally when resized mid-rollout', async () => {
    const h = await harness('in-process');
    await h.client.create(
      RESOURCES.deployments,
      NS,
      deployment('prop', 10, {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } },
      }),
    );
    await start(h);
    await settlesTo(h, 'prop', { 'nginx:1': 10 });
    await allReady(h, 'prop');
    await updateD(h, 'prop', setImage('nginx:2'));
    // 13 at most: 3 new; 2 unavailable allowed, but the 3 new are unavailable: none of the old go.
    await settlesTo(h, 'prop', { 'nginx:1': 8, 'nginx:2': 5 });
    // 10 → 20: the max grows from 13 to 23, each set keeps its share (8/13, 5/13 of 23).
    await updateD(h, 'prop', (d) => {
      if (d.spec) d.spec.replicas = 20;
    });
    await settlesTo(h, 'prop', { 'nginx:1': 14, 'nginx:2': 9 });
    for (const r of await setsOf(h, 'prop')) {
      expect(r.metadata?.annotations).toMatchObject({
        'deployment.kubernetes.io/desired-replicas': '20',
        'deployment.kubernetes.io/max-replicas': '23',
      });
    }
  });

  it('paused: scales but does not roll out; resumed: rolls out', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.deployments, NS, deployment('pause', 2));
    await start(h);
    await settlesTo(h, 'pause', { 'nginx:1': 2 });
    await allReady(h, 'pause');
    await updateD(h, 'pause', (d) => {
      if (d.spec) d.spec.paused = true;
    });
    await until(h, async () => condition(await getD(h, 'pause'), 'Progressing')?.reason === 'DeploymentPaused');
    expect(condition(await getD(h, 'pause'), 'Progressing')).toMatchObject({
      status: 'Unknown',
      message: 'Deployment is paused',
    });
    await updateD(h, 'pause', (d) => {
      setImage('nginx:2')(d);
      if (d.spec) d.spec.replicas = 3;
    });
    await settlesTo(h, 'pause', { 'nginx:1': 3 });
    await until(h, async () => (await getD(h, 'pause')).status?.observedGeneration === 3);

    await updateD(h, 'pause', (d) => {
      if (d.spec) d.spec.paused = false;
    });
    await until(h, async () => Object.keys(await sizes(h, 'pause')).length === 2);
    // maxSurge 25% of 3 rounds up to 1, maxUnavailable down to 0: one pod at a time.
    await settlesTo(h, 'pause', { 'nginx:1': 3, 'nginx:2': 1 });
    await allReady(h, 'pause');
    await settlesTo(h, 'pause', { 'nginx:1': 2, 'nginx:2': 2 });
    await allReady(h, 'pause');
    await settlesTo(h, 'pause', { 'nginx:1': 1, 'nginx:2': 3 });
    await allReady(h, 'pause');
    await settlesTo(h, 'pause', { 'nginx:1': 0, 'nginx:2': 3 });
    await allReady(h, 'pause');
    await until(h, async () => condition(await getD(h, 'pause'), 'Progressing')?.reason === 'NewReplicaSetAvailable');
  });

  it('Recreate: old sets to 0, the new one only once their pods are gone; old sets over the history limit deleted', async () => {
    const h = await harness('in-process');
    await h.client.create(
      RESOURCES.deployments,
      NS,
      deployment('re', 2, { strategy: { type: 'Recreate' }, revisionHistoryLimit: 0 }),
    );
    await start(h);
    await settlesTo(h, 're', { 'nginx:1': 2 });
    await allReady(h, 're');
    await updateD(h, 're', setImage('nginx:2'));
    await settlesTo(h, 're', { 'nginx:1': 0 });
    // Status still reports the old pods: no new set yet.
    const [old] = await setsOf(h, 're');
    await setStatus(h, old?.metadata?.name ?? '', 0);
    await settlesTo(h, 're', { 'nginx:1': 0, 'nginx:2': 2 });
    await allReady(h, 're');
    // Complete: the old set, beyond revisionHistoryLimit 0, is deleted.
    await until(h, async () => JSON.stringify(await sizes(h, 're')) === JSON.stringify({ 'nginx:2': 2 }));
    await until(h, async () => condition(await getD(h, 're'), 'Progressing')?.reason === 'NewReplicaSetAvailable');
  });

  it('Recreate: an old pod still running holds the new set back until it is deleted', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.deployments, NS, deployment('hold', 1, { strategy: { type: 'Recreate' } }));
    await start(h);
    await settlesTo(h, 'hold', { 'nginx:1': 1 });
    const [old] = await setsOf(h, 'hold');
    await h.client.create(RESOURCES.pods, NS, {
      metadata: {
        name: 'hold-pod',
        labels: { ...(old?.spec?.template?.metadata?.labels ?? {}) },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: old?.metadata?.name ?? '',
            uid: old?.metadata?.uid ?? '',
            controller: true,
          },
        ],
      },
      spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
    });
    await updateD(h, 'hold', setImage('nginx:2'));
    await settlesTo(h, 'hold', { 'nginx:1': 0 });
    // The set reports no replicas, but its pod is still there (Pending counts as running).
    await setStatus(h, old?.metadata?.name ?? '', 0);
    await settlesTo(h, 'hold', { 'nginx:1': 0 });
    await h.client.delete(RESOURCES.pods, NS, 'hold-pod', { gracePeriodSeconds: 0 });
    await settlesTo(h, 'hold', { 'nginx:1': 0, 'nginx:2': 1 });
  });

  it('Progressing turns False ProgressDeadlineExceeded once the deadline passes on the clock', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.deployments, NS, deployment('slow', 1, { progressDeadlineSeconds: 30 }));
    await start(h);
    await settlesTo(h, 'slow', { 'nginx:1': 1 });
    await until(h, async () => condition(await getD(h, 'slow'), 'Progressing')?.reason === 'NewReplicaSetCreated');
    expect(condition(await getD(h, 'slow'), 'Progressing')?.status).toBe('True');
    h.server.clock.advance(32_000);
    await until(h, async () => condition(await getD(h, 'slow'), 'Progressing')?.reason === 'ProgressDeadlineExceeded');
    const [r] = await setsOf(h, 'slow');
    expect(condition(await getD(h, 'slow'), 'Progressing')).toMatchObject({
      status: 'False',
      message: `ReplicaSet "${r?.metadata?.name ?? ''}" has timed out progressing.`,
    });
    // Pods becoming available later still complete it.
    await allReady(h, 'slow');
    await until(h, async () => condition(await getD(h, 'slow'), 'Progressing')?.reason === 'NewReplicaSetAvailable');
  });

  it('copies the ReplicaSet’s ReplicaFailure condition', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.deployments, NS, deployment('fail', 1));
    await start(h);
    await settlesTo(h, 'fail', { 'nginx:1': 1 });
    const [r] = await setsOf(h, 'fail');
    await retrying(async () => {
      const cur = await h.client.get(RESOURCES.replicasets, NS, r?.metadata?.name ?? '');
      cur.status = {
        replicas: 0,
        conditions: [
          {
            type: 'ReplicaFailure',
            status: 'True',
            reason: 'FailedCreate',
            message: 'quota',
            lastTransitionTime: '2025-01-01T00:00:00Z',
          },
        ],
      };
      await h.client.updateStatus(RESOURCES.replicasets, NS, cur);
    });
    await until(h, async () => condition(await getD(h, 'fail'), 'ReplicaFailure') !== undefined);
    expect(condition(await getD(h, 'fail'), 'ReplicaFailure')).toEqual({
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: 'quota',
      lastUpdateTime: '2025-01-01T00:00:00Z',
      lastTransitionTime: '2025-01-01T00:00:00Z',
    });
  });

  it('a hash collision bumps collisionCount and the set gets another name', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.deployments, NS, deployment('coll', 1, { paused: true }));
    await start(h);
    await until(h, async () => (await getD(h, 'coll')).status?.observedGeneration === 1);
    const d = await getD(h, 'coll');
    const hash = computeHash(d.spec?.template);
    // Someone else's set under the name the Deployment's would take, with another template.
    await h.client.create(RESOURCES.replicasets, NS, {
      metadata: { name: `coll-${hash}`, labels: { other: 'x' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { other: 'x' } },
        template: { metadata: { labels: { other: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      },
    });
    await updateD(h, 'coll', (x) => {
      if (x.spec) x.spec.paused = false;
    });
    await until(h, async () => (await setsOf(h, 'coll')).length === 1);
    const after = await getD(h, 'coll');
    expect(after.status?.collisionCount).toBe(1);
    expect((await setsOf(h, 'coll'))[0]?.metadata?.name).toBe(`coll-${computeHash(after.spec?.template, 1)}`);
    // The other set is left alone.
    const other = await h.client.get(RESOURCES.replicasets, NS, `coll-${hash}`);
    expect(other.metadata?.ownerReferences).toBeUndefined();
  });

  it('adopts a matching orphan (as its new set), leaves one another controller owns', async () => {
    const h = await harness('in-process');
    const d = deployment('adopt', 2);
    const template = d.spec?.template ?? {};
    // An orphan with the Deployment's template.
    await h.client.create(RESOURCES.replicasets, NS, {
      metadata: { name: 'adopt-orphan', labels: { app: 'adopt' } },
      spec: { replicas: 2, selector: { matchLabels: { app: 'adopt' } }, template },
    });
    // One owned by someone else, matching too.
    const owner = await h.client.create(RESOURCES.configmaps, NS, { metadata: { name: 'owner' } });
    await h.client.create(RESOURCES.replicasets, NS, {
      metadata: {
        name: 'adopt-theirs',
        labels: { app: 'adopt' },
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '', controller: true },
        ],
      },
      spec: { replicas: 1, selector: { matchLabels: { app: 'adopt' } }, template },
    });
    await h.client.create(RESOURCES.deployments, NS, d);
    await start(h);
    await until(h, async () => (await setsOf(h, 'adopt')).length === 1).catch(async (err) => {
      const all = await h.client.list(RESOURCES.replicasets, { namespace: NS });
      throw new Error(JSON.stringify(all.items.map((r) => [r.metadata?.name, r.metadata?.ownerReferences])), {
        cause: err,
      });
    });
    await until(
      h,
      async () => (await setsOf(h, 'adopt'))[0]?.metadata?.annotations?.['deployment.kubernetes.io/revision'] === '1',
    );
    const sets = await setsOf(h, 'adopt');
    expect(sets.map((r) => r.metadata?.name)).toEqual(['adopt-orphan']);
    expect(sets[0]?.spec?.replicas).toBe(2);
    const theirs = await h.client.get(RESOURCES.replicasets, NS, 'adopt-theirs');
    expect(theirs.metadata?.ownerReferences?.map((o) => o.kind)).toEqual(['ConfigMap']);
    expect(theirs.spec?.replicas).toBe(1);
  });

  it('releases a set whose labels stop matching, and makes another (the name taken: a collision)', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.deployments, NS, deployment('rel', 1));
    await start(h);
    await until(h, async () => (await setsOf(h, 'rel')).length === 1);
    const [first] = await setsOf(h, 'rel');
    const name = first?.metadata?.name ?? '';
    await retrying(async () => {
      const r = await h.client.get(RESOURCES.replicasets, NS, name);
      if (r.metadata) r.metadata.labels = { app: 'elsewhere' };
      await h.client.update(RESOURCES.replicasets, NS, r);
    });
    await until(
      h,
      async () => (await h.client.get(RESOURCES.replicasets, NS, name)).metadata?.ownerReferences === undefined,
    );
    await until(h, async () => (await setsOf(h, 'rel')).length === 1);
    const d = await getD(h, 'rel');
    expect(d.status?.collisionCount).toBe(1);
    expect((await setsOf(h, 'rel'))[0]?.metadata?.name).toBe(`rel-${computeHash(d.spec?.template, 1)}`);
  });

  it('a Deployment being deleted only has its status synced (no rollout)', async () => {
    const h = await harness('in-process');
    const d = deployment('gone', 1);
    d.metadata = { ...d.metadata, finalizers: ['example.com/hold'] };
    await h.client.create(RESOURCES.deployments, NS, d);
    await start(h);
    await until(h, async () => (await setsOf(h, 'gone')).length === 1);
    await h.client.delete(RESOURCES.deployments, NS, 'gone');
    await updateD(h, 'gone', setImage('nginx:2'));
    const generation = (await getD(h, 'gone')).metadata?.generation;
    await until(h, async () => (await getD(h, 'gone')).status?.observedGeneration === generation);
    await new Promise((r) => setTimeout(r, 50));
    expect(await sizes(h, 'gone')).toEqual({ 'nginx:1': 1 });
    await updateD(h, 'gone', (x) => {
      if (x.metadata) x.metadata.finalizers = [];
    });
  });

  it('an orphan added while running is adopted; a deleted set is made again', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.deployments, NS, deployment('late', 1));
    await start(h);
    await until(h, async () => (await setsOf(h, 'late')).length === 1);
    // An old-template orphan matching the selector: adopted as an old set, and scaled down.
    await h.client.create(RESOURCES.replicasets, NS, {
      metadata: { name: 'late-orphan', labels: { app: 'late' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'late' } },
        template: { metadata: { labels: { app: 'late' } }, spec: { containers: [{ name: 'c', image: 'nginx:0' }] } },
      },
    });
    await until(h, async () => (await setsOf(h, 'late')).length === 2);
    await allReady(h, 'late');
    await settlesTo(h, 'late', { 'nginx:0': 0, 'nginx:1': 1 });
    const current = (await setsOf(h, 'late')).find((r) => r.metadata?.name !== 'late-orphan');
    await h.client.delete(RESOURCES.replicasets, NS, current?.metadata?.name ?? '');
    await until(h, async () => {
      const again = (await setsOf(h, 'late')).find((r) => r.metadata?.name === current?.metadata?.name);
      return again !== undefined && again.metadata?.uid !== current?.metadata?.uid;
    });
  });

  it('the apiserver refuses a Deployment whose selector does not match its template, or is empty', async () => {
    const h = await harness('in-process');
    const bad = deployment('bad', 1);
    if (bad.spec) bad.spec.selector = { matchLabels: { app: 'other' } };
    await expect(h.client.create(RESOURCES.deployments, NS, bad)).rejects.toSatisfy(isInvalid);
    const empty = deployment('empty', 1);
    if (empty.spec) empty.spec.selector = {};
    await expect(h.client.create(RESOURCES.deployments, NS, empty)).rejects.toSatisfy(isInvalid);
  });
});
