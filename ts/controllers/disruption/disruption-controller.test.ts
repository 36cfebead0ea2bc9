// The disruption controller against a real in-process apiserver: the facts of
// pkg/controller/disruption/disruption_test.go (v1.32) — each sync driven by the test once the
// informers hold what the apiserver holds, as the Go tests call dc.sync — then the controller
// running on its own (the recheck of disruptedPods, the stale DisruptionTarget condition).
import { afterEach, describe, expect, it } from 'vitest';
import { getScaledValueFromIntOrPercent } from '../../api/intstr.js';
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import type { Pod } from '../../api/types/core/v1.js';
import type { PodDisruptionBudget, PodDisruptionBudgetSpec } from '../../api/types/policy/v1.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES, type ResourceType } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import { waitFor } from '../testing/controller-runs.js';
import { DisruptionController, labelSelectorString } from './disruption-controller.js';

const NS = 'default';
const fooBar = { foo: 'bar' };

interface Setup {
  h: Harness;
  dc: DisruptionController;
  factory: SharedInformerFactory;
  /** The PDB's key synced once the informers have what the apiserver has. */
  sync(key?: string): Promise<void>;
}

const running: Array<{ factory: SharedInformerFactory; dc: DisruptionController; run: boolean }> = [];
afterEach(async () => {
  for (const { factory, dc } of running.splice(0)) {
    await dc.stop();
    await factory.shutdown();
  }
});

const WATCHED: readonly ResourceType[] = [
  RESOURCES.pods,
  RESOURCES.poddisruptionbudgets,
  RESOURCES.replicasets,
  RESOURCES.deployments,
  RESOURCES.statefulsets,
];

/** A controller on informers of a fresh apiserver (not run: the test syncs). */
async function setup(options: { run?: boolean; customResources?: boolean } = {}): Promise<Setup> {
  const h = await harness('in-process');
  const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const dc = new DisruptionController({
    factory,
    client: h.client,
    clock: h.server.clock,
    ...(options.customResources ? { customResources: true } : {}),
  });
  running.push({ factory, dc, run: options.run ?? false });
  factory.start();
  await factory.waitForCacheSync();
  if (options.run) await dc.run();
  const sync = async (key = `${NS}/foobar`) => {
    // The informers caught up with every object of the watched kinds.
    for (const r of WATCHED) {
      const stored = await h.client.list<KubeObject>(r, { namespace: NS });
      const informer = factory.informerFor<KubeObject>(r);
      await eventually(() => {
        const cached = informer.lister().byNamespace(NS).list();
        return (
          cached.length === stored.items.length &&
          stored.items.every(
            (o) => informer.get(NS, o.metadata?.name ?? '')?.metadata?.resourceVersion === o.metadata?.resourceVersion,
          )
        );
      });
    }
    await dc.sync(key);
  };
  return { h, dc, factory, sync };
}

function pdbBody(spec: Partial<PodDisruptionBudgetSpec>): PodDisruptionBudget {
  return { metadata: { name: 'foobar' }, spec: { selector: { matchLabels: fooBar }, ...spec } };
}

const createPdb = (h: Harness, spec: Partial<PodDisruptionBudgetSpec>) =>
  h.client.create(RESOURCES.poddisruptionbudgets, NS, pdbBody(spec));

const ownerRef = (obj: KubeObject, apiVersion: string, kind: string): OwnerReference => ({
  apiVersion,
  kind,
  name: obj.metadata?.name ?? '',
  uid: obj.metadata?.uid ?? '',
  controller: true,
});

/** newPod: labelled foo=bar, Running and Ready unless told otherwise (the test writes its status). */
async function createPod(
  h: Harness,
  name: string,
  options: { owner?: OwnerReference; labels?: Record<string, string>; ready?: boolean; nodeName?: string } = {},
): Promise<Pod> {
  const pod = await h.client.create(RESOURCES.pods, NS, {
    metadata: {
      name,
      labels: options.labels ?? fooBar,
      ...(options.owner === undefined ? {} : { ownerReferences: [options.owner] }),
    },
    spec: {
      containers: [{ name: 'c', image: 'foo/bar' }],
      ...(options.nodeName ? { nodeName: options.nodeName } : {}),
    },
  });
  return setReady(h, pod, options.ready ?? true);
}

async function setReady(h: Harness, pod: Pod, ready: boolean): Promise<Pod> {
  const current = await h.client.get(RESOURCES.pods, NS, pod.metadata?.name ?? '');
  return h.client.updateStatus(RESOURCES.pods, NS, {
    ...current,
    status: { phase: 'Running', conditions: ready ? [{ type: 'Ready', status: 'True' }] : [] },
  });
}

const template = (labels: Record<string, string>) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'foo/bar' }] },
});

const createRs = (h: Harness, name: string, replicas: number, labels = fooBar) =>
  h.client.create(RESOURCES.replicasets, NS, {
    metadata: { name, labels },
    spec: { replicas, selector: { matchLabels: labels }, template: template(labels) },
  });

const createDeployment = (h: Harness, name: string, replicas: number, labels = fooBar) =>
  h.client.create(RESOURCES.deployments, NS, {
    metadata: { name },
    spec: { replicas, selector: { matchLabels: labels }, template: template(labels) },
  });

const createSs = (h: Harness, name: string, replicas: number, labels = fooBar) =>
  h.client.create(RESOURCES.statefulsets, NS, {
    metadata: { name },
    spec: { replicas, serviceName: 'svc', selector: { matchLabels: labels }, template: template(labels) },
  });

const createRc = (h: Harness, name: string, replicas: number, labels = fooBar) =>
  h.client.create(RESOURCES.replicationcontrollers, NS, {
    metadata: { name },
    spec: { replicas, selector: labels, template: template(labels) },
  });

const getPdb = (h: Harness, name = 'foobar') => h.client.get(RESOURCES.poddisruptionbudgets, NS, name);

/** VerifyPdbStatus: the counts, disruptedPods, observedGeneration = generation, and DisruptionAllowed matching. */
async function verifyPdbStatus(
  h: Harness,
  disruptionsAllowed: number,
  currentHealthy: number,
  desiredHealthy: number,
  expectedPods: number,
  disruptedPods: Record<string, string> = {},
): Promise<void> {
  const pdb = await getPdb(h);
  const { conditions, ...status } = pdb.status ?? {
    disruptionsAllowed: -1,
    currentHealthy: -1,
    desiredHealthy: -1,
    expectedPods: -1,
  };
  expect({ disruptedPods: {}, ...status }).toEqual({
    disruptionsAllowed,
    currentHealthy,
    desiredHealthy,
    expectedPods,
    disruptedPods,
    observedGeneration: pdb.metadata?.generation,
  });
  const cond = conditions?.find((c) => c.type === 'DisruptionAllowed');
  expect(cond?.status).toBe(disruptionsAllowed > 0 ? 'True' : 'False');
}

const allowed = async (h: Harness) => (await getPdb(h)).status?.disruptionsAllowed;

/** verifyEventEmitted: an Event of `reason` recorded (written through the apiserver). */
async function eventReasons(h: Harness, reason: string): Promise<KubeObject[]> {
  let found: KubeObject[] = [];
  await waitFor(async () => {
    const events = await h.client.list(RESOURCES.events, { namespace: NS });
    found = events.items.filter((e) => (e as { reason?: string }).reason === reason);
    return found.length > 0;
  });
  return found;
}

describe('DisruptionController syncs (disruption_test.go)', () => {
  it('counts every pod of the namespace for an empty selector (TestNoSelector)', async () => {
    const s = await setup();
    await createPdb(s.h, { minAvailable: 3, selector: {} });
    await s.sync();
    await verifyPdbStatus(s.h, 0, 0, 3, 0);
    await createPod(s.h, 'yo-yo-yo', { labels: { other: 'x' } });
    await s.sync();
    await verifyPdbStatus(s.h, 0, 1, 3, 1);
  });

  it('counts up as pods come, and down as one turns unready (TestUnavailable)', async () => {
    const s = await setup();
    await createPdb(s.h, { minAvailable: 3 });
    await s.sync();
    const pods: Pod[] = [];
    for (let i = 0; i < 4; i++) {
      await verifyPdbStatus(s.h, 0, i, 3, i);
      pods.push(await createPod(s.h, `yo-yo-yo-${i}`));
      await s.sync();
    }
    await verifyPdbStatus(s.h, 1, 4, 3, 4);
    await setReady(s.h, pods[0] as Pod, false);
    await s.sync();
    await verifyPdbStatus(s.h, 0, 3, 3, 4);
  });

  it('an integer maxUnavailable allows nothing for pods without a controller (TestIntegerMaxUnavailable)', async () => {
    const s = await setup();
    await createPdb(s.h, { maxUnavailable: 1 });
    await s.sync();
    expect(await allowed(s.h)).toBe(0);
    await createPod(s.h, 'naked');
    await s.sync();
    expect(await allowed(s.h)).toBe(0);
    const [event] = await eventReasons(s.h, 'UnmanagedPods');
    expect(event).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'PodDisruptionBudget', name: 'foobar', apiVersion: 'policy/v1' },
      source: { component: 'controllermanager' },
      message:
        'Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{foo: bar,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
    });
  });

  it('follows the ReplicaSet scale for an integer maxUnavailable (TestIntegerMaxUnavailableWithScaling)', async () => {
    const s = await setup();
    await createPdb(s.h, { maxUnavailable: 2 });
    const rs = await createRs(s.h, 'rs', 7);
    await createPod(s.h, 'pod', { owner: ownerRef(rs, 'apps/v1', 'ReplicaSet') });
    await s.sync();
    await verifyPdbStatus(s.h, 0, 1, 5, 7);
    await s.h.client.scale(RESOURCES.replicasets, NS, 'rs', 5);
    await s.sync();
    await verifyPdbStatus(s.h, 0, 1, 3, 5);
  });

  it('follows the ReplicaSet scale for a percentage maxUnavailable (TestPercentageMaxUnavailableWithScaling)', async () => {
    const s = await setup();
    await createPdb(s.h, { maxUnavailable: '30%' });
    const rs = await createRs(s.h, 'rs', 7);
    await createPod(s.h, 'pod', { owner: ownerRef(rs, 'apps/v1', 'ReplicaSet') });
    await s.sync();
    await verifyPdbStatus(s.h, 0, 1, 4, 7);
    await s.h.client.scale(RESOURCES.replicasets, NS, 'rs', 3);
    await s.sync();
    await verifyPdbStatus(s.h, 0, 1, 2, 3);
  });

  it('a percentage minAvailable allows nothing for a naked pod, without a sync error (TestNakedPod, TestStatusForUnmanagedPod, TestTotalUnmanagedPods)', async () => {
    const s = await setup();
    await createPdb(s.h, { minAvailable: '28%' });
    await s.sync();
    expect(await allowed(s.h)).toBe(0);
    const pod = await createPod(s.h, 'unmanaged');
    await s.sync();
    expect(await allowed(s.h)).toBe(0);
    await eventReasons(s.h, 'UnmanagedPods');
    const pdb = await getPdb(s.h);
    expect(pdb.status?.conditions?.map((c) => c.reason)).toEqual(['InsufficientPods']);
    expect((await s.dc.getExpectedScale(pdb, [pod])).unmanagedPods).toEqual(['unmanaged']);
  });

  it('a controller no finder knows fails the sync safe (TestUnsupportedControllerPod)', async () => {
    const s = await setup();
    await createPdb(s.h, { minAvailable: '28%' });
    await s.sync();
    await createPod(s.h, 'naked', {
      owner: {
        apiVersion: 'apps.test.io/v1',
        kind: 'TestWorkload',
        name: 'fake-controller',
        uid: 'b7329742-8daa-493a-8881-6ca07139172b',
        controller: true,
      },
    });
    await s.sync();
    expect(await allowed(s.h)).toBe(0);
    const [event] = await eventReasons(s.h, 'CalculateExpectedPodCountFailed');
    expect(event).toMatchObject({
      type: 'Warning',
      message:
        'Failed to calculate the number of expected pods: no matches for kind "TestWorkload" in version "apps.test.io/v1"',
    });
    const cond = (await getPdb(s.h)).status?.conditions?.[0];
    expect(cond).toMatchObject({
      type: 'DisruptionAllowed',
      status: 'False',
      reason: 'SyncFailed',
      message: 'no matches for kind "TestWorkload" in version "apps.test.io/v1"',
      observedGeneration: 1,
    });
  });

  it('counts the scale of a ReplicaSet without a Deployment (TestReplicaSet)', async () => {
    const s = await setup();
    await createPdb(s.h, { minAvailable: '20%' });
    const rs = await createRs(s.h, 'rs', 10);
    await createPod(s.h, 'pod', { owner: ownerRef(rs, 'apps/v1', 'ReplicaSet') });
    await s.sync();
    await verifyPdbStatus(s.h, 0, 1, 2, 10);
  });

  it('reads any other kind through its scale subresource (TestScaleResource)', async () => {
    const s = await setup();
    await createPdb(s.h, { maxUnavailable: 5 });
    // A Deployment named directly by the pods: no lister finder takes it, the scale finder does.
    const d = await createDeployment(s.h, 'workload', 10);
    for (let i = 0; i < 4; i++) await createPod(s.h, `pod-${i}`, { owner: ownerRef(d, 'apps/v1', 'Deployment') });
    await s.sync();
    await verifyPdbStatus(s.h, 0, 4, 5, 10);
  });

  it('maps custom kinds through their CRDs, and their scale subresource (TestScaleResource, TestScaleFinderNoResource)', async () => {
    const s = await setup({ customResources: true });
    const crd = (plural: string, kind: string, scale: boolean) =>
      s.h.client.create(RESOURCES.customresourcedefinitions, undefined, {
        metadata: { name: `${plural}.example.com` },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { plural, kind },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: {
                    spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
                    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
                  },
                },
              },
              ...(scale
                ? {
                    subresources: {
                      status: {},
                      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
                    },
                  }
                : {}),
            },
          ],
        },
      });
    await crd('widgets', 'Widget', true);
    await crd('gadgets', 'Gadget', false);
    const crds = s.factory.informerFor(RESOURCES.customresourcedefinitions);
    await eventually(
      () =>
        crds
          .lister()
          .list()
          .filter((c) => (c.status?.conditions ?? []).some((x) => x.type === 'Established' && x.status === 'True'))
          .length === 2,
      5000,
    );
    const widgets = { group: 'example.com', version: 'v1', resource: 'widgets' };
    const widget = await s.h.client.create<KubeObject>(widgets, NS, {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { replicas: 10 },
    } as KubeObject);
    await createPdb(s.h, { maxUnavailable: 5 });
    for (let i = 0; i < 4; i++)
      await createPod(s.h, `pod-${i}`, { owner: ownerRef(widget, 'example.com/v1', 'Widget') });
    await s.sync();
    // replicas − pods (6) is not below maxUnavailable (5): nothing allowed.
    await verifyPdbStatus(s.h, 0, 4, 5, 10);
    // A kind whose CRD declares no scale subresource.
    await expect(
      s.dc.getScaleController({ apiVersion: 'example.com/v1', kind: 'Gadget', name: 'g', uid: 'u' }, NS),
    ).rejects.toThrow('gadgets.example.com does not implement the scale subresource');
  }, 15_000);

  it('refuses a reference to a kind without scale (TestScaleFinderNoResource)', async () => {
    const s = await setup();
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u1', controller: true };
    await expect(s.dc.getScaleController(ref, NS)).rejects.toThrow(
      'configmaps does not implement the scale subresource',
    );
    const d = await createDeployment(s.h, 'd', 3);
    expect(
      await s.dc.getScaleController({ ...ownerRef(d, 'apps/v1', 'Deployment'), uid: 'other' }, NS),
    ).toBeUndefined();
    expect(await s.dc.getScaleController(ownerRef(d, 'apps/v1', 'Deployment'), NS)).toEqual({
      uid: d.metadata?.uid,
      scale: 3,
    });
  });

  it('counts a controller once, however many pods it has (TestMultipleControllers)', async () => {
    const s = await setup();
    await createPdb(s.h, { minAvailable: '1%' });
    const rs = await createRs(s.h, 'rs-1', 1);
    await createPod(s.h, 'pod-0');
    await createPod(s.h, 'pod-1');
    await s.sync();
    // No controllers yet: nothing allowed.
    expect(await allowed(s.h)).toBe(0);
    for (const name of ['pod-0', 'pod-1']) {
      const pod = await s.h.client.get(RESOURCES.pods, NS, name);
      await s.h.client.update(RESOURCES.pods, NS, {
        ...pod,
        metadata: { ...pod.metadata, ownerReferences: [ownerRef(rs, 'apps/v1', 'ReplicaSet')] },
      });
    }
    await s.sync();
    // One controller of scale 1, two healthy pods, 1% of 1 rounds up to 1: one disruption.
    await verifyPdbStatus(s.h, 1, 2, 1, 1);
  });

  it('counts the scale of a ReplicationController (TestReplicationController)', async () => {
    // The budget matches foo=bar; the RC and its pods {foo=bar, baz=quux}.
    const labels = { foo: 'bar', baz: 'quux' };
    const s = await setup();
    // 34% of 3 rounds up to 2.
    await createPdb(s.h, { minAvailable: '34%' });
    const rc = await createRc(s.h, 'rc', 3, labels);
    await s.sync();
    // With no pods the PDB knows nothing of the RC yet ("a known bug").
    await verifyPdbStatus(s.h, 0, 0, 0, 0);
    for (let i = 0; i < 3; i++) {
      await createPod(s.h, `foobar-${i}`, { owner: ownerRef(rc, 'v1', 'ReplicationController'), labels });
      await s.sync();
      if (i < 2) await verifyPdbStatus(s.h, 0, i + 1, 2, 3);
      else await verifyPdbStatus(s.h, 1, 3, 2, 3);
    }
    // A rogue pod with only foo=bar matches the budget and has no controller: still healthy.
    await createPod(s.h, 'rogue');
    await s.sync();
    expect(await allowed(s.h)).toBe(2);
  });

  it('counts the scale of a StatefulSet (TestStatefulSetController)', async () => {
    const labels = { foo: 'bar', baz: 'quux' };
    const s = await setup();
    // 34% of 3 rounds up to 2.
    await createPdb(s.h, { minAvailable: '34%' });
    const ss = await createSs(s.h, 'ss', 3, labels);
    await s.sync();
    // With no pods the PDB knows nothing of the StatefulSet yet.
    await verifyPdbStatus(s.h, 0, 0, 0, 0);
    for (let i = 0; i < 3; i++) {
      await createPod(s.h, `foobar-${i}`, { owner: ownerRef(ss, 'apps/v1', 'StatefulSet'), labels });
      await s.sync();
      if (i < 2) await verifyPdbStatus(s.h, 0, i + 1, 2, 3);
      else await verifyPdbStatus(s.h, 1, 3, 2, 3);
    }
    // A rogue pod without a controller still counts as healthy (TestReplicationController's rogue).
    await createPod(s.h, 'rogue');
    await s.sync();
    expect(await allowed(s.h)).toBe(2);
  });

  it('adds the scales of two controllers, a Deployment through its ReplicaSet (TestTwoControllers)', async () => {
    const ssLabels = { foo: 'bar', baz: 'quux' };
    const dLabels = { foo: 'bar', baz: 'quuux' };
    const collectionSize = 11;
    const minimumOne = 4; // 28% of 11, rounded up
    const minimumTwo = 7; // 28% of 22, rounded up
    const s = await setup();
    await createPdb(s.h, { minAvailable: '28%' });
    const ss = await createSs(s.h, 'ss', collectionSize, ssLabels);
    await s.sync();
    await verifyPdbStatus(s.h, 0, 0, 0, 0);
    const pods: Pod[] = [];
    let unavailablePods = collectionSize - minimumOne - 1;
    for (let i = 1; i <= collectionSize; i++) {
      const pod = await createPod(s.h, `quux-${i}`, {
        owner: ownerRef(ss, 'apps/v1', 'StatefulSet'),
        labels: ssLabels,
        ready: i > unavailablePods,
      });
      pods.push(pod);
      await s.sync();
      if (i <= unavailablePods) await verifyPdbStatus(s.h, 0, 0, minimumOne, collectionSize);
      else if (i - unavailablePods <= minimumOne)
        await verifyPdbStatus(s.h, 0, i - unavailablePods, minimumOne, collectionSize);
      else await verifyPdbStatus(s.h, 1, i - unavailablePods, minimumOne, collectionSize);
    }
    const d = await createDeployment(s.h, 'd', collectionSize, dLabels);
    await s.sync();
    await verifyPdbStatus(s.h, 1, minimumOne + 1, minimumOne, collectionSize);
    const rs = await s.h.client.create(RESOURCES.replicasets, NS, {
      metadata: { name: 'rs', labels: dLabels, ownerReferences: [ownerRef(d, 'apps/v1', 'Deployment')] },
      spec: { replicas: collectionSize, selector: { matchLabels: dLabels }, template: template(dLabels) },
    });
    await s.sync();
    await verifyPdbStatus(s.h, 1, minimumOne + 1, minimumOne, collectionSize);
    unavailablePods = 2 * collectionSize - (minimumTwo + 2) - unavailablePods;
    for (let i = 1; i <= collectionSize; i++) {
      const pod = await createPod(s.h, `quuux-${i}`, {
        owner: ownerRef(rs, 'apps/v1', 'ReplicaSet'),
        labels: dLabels,
        ready: i > unavailablePods,
      });
      pods.push(pod);
      await s.sync();
      if (i <= unavailablePods) await verifyPdbStatus(s.h, 0, minimumOne + 1, minimumTwo, 2 * collectionSize);
      else if (i - unavailablePods <= minimumTwo - (minimumOne + 1))
        await verifyPdbStatus(s.h, 0, minimumOne + 1 + (i - unavailablePods), minimumTwo, 2 * collectionSize);
      else
        await verifyPdbStatus(
          s.h,
          i - unavailablePods - (minimumTwo - (minimumOne + 1)),
          minimumOne + 1 + (i - unavailablePods),
          minimumTwo,
          2 * collectionSize,
        );
    }
    // One pod down still allows a disruption, two do not; one back allows one again.
    await verifyPdbStatus(s.h, 2, 2 + minimumTwo, minimumTwo, 2 * collectionSize);
    await setReady(s.h, pods[collectionSize - 1] as Pod, false);
    await s.sync();
    await verifyPdbStatus(s.h, 1, 1 + minimumTwo, minimumTwo, 2 * collectionSize);
    await setReady(s.h, pods[collectionSize - 2] as Pod, false);
    await s.sync();
    await verifyPdbStatus(s.h, 0, minimumTwo, minimumTwo, 2 * collectionSize);
    await setReady(s.h, pods[collectionSize - 1] as Pod, true);
    await s.sync();
    await verifyPdbStatus(s.h, 1, 1 + minimumTwo, minimumTwo, 2 * collectionSize);
  });

  it('does nothing for a PDB that does not exist (TestPDBNotExist)', async () => {
    const s = await setup();
    await createPdb(s.h, { minAvailable: '67%' });
    await expect(s.sync(`${NS}/notExist`)).resolves.toBeUndefined();
  });

  it('keeps only the disruptedPods still waiting, and does not count them healthy (TestUpdateDisruptedPods)', async () => {
    const s = await setup();
    const now = s.h.server.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
    const pdb = await createPdb(s.h, { minAvailable: 1 });
    await s.h.client.updateStatus(RESOURCES.poddisruptionbudgets, NS, {
      ...pdb,
      status: {
        disruptionsAllowed: 0,
        currentHealthy: 0,
        desiredHealthy: 0,
        expectedPods: 0,
        disruptedPods: {
          p1: iso(now), // removed: its deletion started
          p2: iso(now - 3 * 60_000), // removed: expired
          p3: iso(now - 60_000), // kept: untouched
          notthere: iso(now), // removed: no such pod
        },
      },
    });
    // p1 is on a node, so its DELETE is graceful: it stays, marked.
    await createPod(s.h, 'p1', { nodeName: 'node-1' });
    await s.h.client.delete(RESOURCES.pods, NS, 'p1');
    await createPod(s.h, 'p2');
    await createPod(s.h, 'p3');
    await s.sync();
    await verifyPdbStatus(s.h, 0, 1, 1, 3, { p3: iso(now - 60_000) });
    const [event] = await eventReasons(s.h, 'NotDeleted');
    // The PDB named by its namespace twice, as Kubernetes words it.
    expect(event).toMatchObject({
      involvedObject: { kind: 'Pod', name: 'p2' },
      message: "Pod was expected by PDB default/default to be deleted but it wasn't",
    });
  });

  it('keeps other conditions of the status (TestKeepExistingPDBConditionDuringSync)', async () => {
    const s = await setup();
    const pdb = await createPdb(s.h, { minAvailable: 3, selector: {} });
    await s.h.client.updateStatus(RESOURCES.poddisruptionbudgets, NS, {
      ...pdb,
      status: {
        disruptionsAllowed: 0,
        currentHealthy: 0,
        desiredHealthy: 0,
        expectedPods: 0,
        conditions: [
          {
            type: 'ExistingTestCondition',
            status: 'True',
            message: 'This is a test condition',
            reason: 'Test',
            lastTransitionTime: '2024-12-31T00:00:00Z',
          },
        ],
      },
    });
    await s.sync();
    const conditions = (await getPdb(s.h)).status?.conditions ?? [];
    expect(conditions.map((c) => c.type)).toEqual(['ExistingTestCondition', 'DisruptionAllowed']);
    expect(conditions[1]).toEqual({
      type: 'DisruptionAllowed',
      status: 'False',
      reason: 'InsufficientPods',
      message: '',
      lastTransitionTime: '2025-01-01T00:00:00Z',
      observedGeneration: 1,
    });
  });

  it('records NoPods for a PDB matching nothing, and MultiplePodDisruptionBudgets on a pod of two', async () => {
    const s = await setup();
    await createPdb(s.h, { minAvailable: 1 });
    await s.sync();
    const [noPods] = await eventReasons(s.h, 'NoPods');
    expect(noPods).toMatchObject({ type: 'Normal', message: 'No matching pods found' });
    await s.h.client.create(RESOURCES.poddisruptionbudgets, NS, {
      ...pdbBody({ minAvailable: 1 }),
      metadata: { name: 'aaa' },
    });
    await eventually(() => s.factory.informerFor(RESOURCES.poddisruptionbudgets).lister().list().length === 2);
    await createPod(s.h, 'pod');
    const [multiple] = await eventReasons(s.h, 'MultiplePodDisruptionBudgets');
    expect(multiple).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'Pod', name: 'pod' },
      message: 'Pod "default"/"pod" matches multiple PodDisruptionBudgets.  Chose "aaa" arbitrarily.',
    });
  });
});

describe('finders (TestBasicFinderFunctions, TestDeploymentFinderFunction)', () => {
  it('finds ReplicaSets and StatefulSets by group, kind and uid', async () => {
    const s = await setup();
    const rs = await createRs(s.h, 'rs', 10);
    const ss = await createSs(s.h, 'ss', 14);
    await s.sync();
    const ref = (obj: KubeObject, apiVersion: string, kind: string) => ownerRef(obj, apiVersion, kind);
    expect(s.dc.getPodReplicaSet(ref(rs, 'apps/v1', 'ReplicaSet'), NS)).toEqual({ uid: rs.metadata?.uid, scale: 10 });
    expect(s.dc.getPodReplicaSet(ref(rs, 'invalid/v1', 'ReplicaSet'), NS)).toBeUndefined();
    expect(s.dc.getPodReplicaSet({ ...ref(rs, 'apps/v1', 'ReplicaSet'), uid: 'other' }, NS)).toBeUndefined();
    expect(s.dc.getPodStatefulSet(ref(ss, 'apps/v1', 'StatefulSet'), NS)).toEqual({ uid: ss.metadata?.uid, scale: 14 });
    expect(s.dc.getPodStatefulSet(ref(ss, 'apps/v1', 'ReplicaSet'), NS)).toBeUndefined();
  });

  it('finds a ReplicationController in the empty group only (TestBasicFinderFunctions)', async () => {
    const s = await setup();
    const rc = await createRc(s.h, 'rc', 12);
    await eventually(() => s.factory.informerFor(RESOURCES.replicationcontrollers).lister().list().length === 1);
    const ref = (apiVersion: string) => ownerRef(rc, apiVersion, 'ReplicationController');
    expect(s.dc.getPodReplicationController(ref('/v1'), NS)).toEqual({ uid: rc.metadata?.uid, scale: 12 });
    expect(s.dc.getPodReplicationController(ref('v1'), NS)).toEqual({ uid: rc.metadata?.uid, scale: 12 });
    expect(s.dc.getPodReplicationController(ref('apps/v1'), NS)).toBeUndefined();
    expect(s.dc.getPodReplicationController({ ...ref('v1'), uid: 'other' }, NS)).toBeUndefined();
  });

  it('finds a Deployment through its ReplicaSet, and skips such a ReplicaSet itself', async () => {
    const s = await setup();
    const d = await createDeployment(s.h, 'd', 10);
    const rs = await s.h.client.create(RESOURCES.replicasets, NS, {
      metadata: { name: 'rs', ownerReferences: [ownerRef(d, 'apps/v1', 'Deployment')] },
      spec: { replicas: 5, selector: { matchLabels: fooBar }, template: template(fooBar) },
    });
    await s.sync();
    const ref = ownerRef(rs, 'apps/v1', 'ReplicaSet');
    expect(s.dc.getPodDeployment(ref, NS)).toEqual({ uid: d.metadata?.uid, scale: 10 });
    expect(s.dc.getPodDeployment({ ...ref, apiVersion: 'extensions/v1beta1' }, NS)).toEqual({
      uid: d.metadata?.uid,
      scale: 10,
    });
    expect(s.dc.getPodDeployment({ ...ref, apiVersion: 'invalid/v1' }, NS)).toBeUndefined();
    expect(s.dc.getPodReplicaSet(ref, NS)).toBeUndefined();
  });

  it('scales an int or percentage as intstr does, rounding up', () => {
    expect(getScaledValueFromIntOrPercent(3, 10, true)).toBe(3);
    expect(getScaledValueFromIntOrPercent('28%', 11, true)).toBe(4);
    expect(getScaledValueFromIntOrPercent('34%', 3, true)).toBe(2);
    expect(() => getScaledValueFromIntOrPercent('3', 10, true)).toThrow(
      'invalid value for IntOrString: invalid type: string is not a percentage',
    );
    expect(labelSelectorString({ matchExpressions: [{ key: 'k', operator: 'In', values: ['a', 'b'] }] })).toBe(
      '&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[a b],},},}',
    );
  });
});

describe('DisruptionController running', () => {
  it('syncs PDBs from the pod and PDB events, and rechecks when a disruptedPods entry expires', async () => {
    const s = await setup({ run: true });
    const pdb = await createPdb(s.h, { minAvailable: 1 });
    await createPod(s.h, 'a');
    await createPod(s.h, 'b');
    await waitFor(async () => (await getPdb(s.h)).status?.disruptionsAllowed === 1);
    // An eviction's mark: b no longer counts as healthy until DeletionTimeout passes.
    const current = await getPdb(s.h);
    await s.h.client.updateStatus(RESOURCES.poddisruptionbudgets, NS, {
      ...current,
      status: {
        ...(current.status ?? pdb.status),
        disruptionsAllowed: 0,
        disruptedPods: { b: '2025-01-01T00:00:00Z' },
      } as PodDisruptionBudget['status'],
    });
    await waitFor(async () => (await getPdb(s.h)).status?.currentHealthy === 1);
    expect((await getPdb(s.h)).status?.disruptedPods).toEqual({ b: '2025-01-01T00:00:00Z' });
    // Two minutes later b was not deleted: the entry goes, b counts again.
    s.h.server.clock.advance(2 * 60_000 + 1000);
    await waitFor(async () => {
      // The recheck re-adds the key rate-limited (5 ms on the same clock).
      s.h.server.clock.advance(10);
      const st = (await getPdb(s.h)).status;
      return st?.currentHealthy === 2 && st.disruptedPods === undefined;
    });
    expect(await allowed(s.h)).toBe(1);
  });

  it('with the eviction subresource: one disruption taken, the evicted pod no longer healthy, the next refused', async () => {
    const s = await setup({ run: true });
    await createPdb(s.h, { minAvailable: 1 });
    // On a node: the eviction's delete is graceful, the pod stays marked (no kubelet finishes it).
    await createPod(s.h, 'a', { nodeName: 'node-1' });
    await createPod(s.h, 'b', { nodeName: 'node-1' });
    await waitFor(async () => (await getPdb(s.h)).status?.disruptionsAllowed === 1);
    const evict = (name: string) =>
      s.h.server.json('POST', `/api/v1/namespaces/${NS}/pods/${name}/eviction`, {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name },
      });
    expect((await evict('a')).status).toBe(201);
    // The controller sees a deleting: it leaves disruptedPods and counts one healthy pod.
    await waitFor(async () => {
      const st = (await getPdb(s.h)).status;
      return st?.currentHealthy === 1 && st.disruptedPods === undefined;
    });
    await verifyPdbStatus(s.h, 0, 1, 1, 2);
    const refused = await evict('b');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget foobar needs 1 healthy pods and has 1 currently',
          },
        ],
      },
    });
    // The evicted pod carries the condition, and being deleted it is not stale.
    const a = await s.h.client.get(RESOURCES.pods, NS, 'a');
    expect(a.status?.conditions?.find((c) => c.type === 'DisruptionTarget')?.reason).toBe('EvictionByEvictionAPI');
    expect(s.dc.nonTerminatingPodHasStaleDisruptionCondition(a)).toBeUndefined();
  });

  it('sets a stale DisruptionTarget condition back to False after two minutes (TestStalePodDisruption)', async () => {
    const s = await setup({ run: true });
    const pod = await createPod(s.h, 'foo');
    const now = '2025-01-01T00:00:00Z';
    await s.h.client.updateStatus(RESOURCES.pods, NS, {
      ...pod,
      status: {
        ...pod.status,
        conditions: [
          ...(pod.status?.conditions ?? []),
          { type: 'DisruptionTarget', status: 'True', lastTransitionTime: now, reason: 'EvictionByEvictionAPI' },
        ],
      },
    });
    const disruption = async () =>
      (await s.h.client.get(RESOURCES.pods, NS, 'foo')).status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    // In progress: a second before the timeout it is kept.
    await new Promise((r) => setTimeout(r, 50));
    s.h.server.clock.advance(2 * 60_000 - 1000);
    await new Promise((r) => setTimeout(r, 50));
    expect((await disruption())?.status).toBe('True');
    s.h.server.clock.advance(2000);
    await waitFor(async () => (await disruption())?.status === 'False');
    expect(await disruption()).toEqual({
      type: 'DisruptionTarget',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: '2025-01-01T00:02:01Z',
    });
  });
});
