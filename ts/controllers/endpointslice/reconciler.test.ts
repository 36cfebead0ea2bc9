// The reconciler against a real in-process apiserver: the facts of k8s.io/endpointslice
// reconciler_test.go (v0.32) — pods built in memory as its newPod builds them, slices written
// through the apiserver and counted as its fake clientset's actions.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, Service } from '../../api/types/core/v1.js';
import type { EndpointSlice } from '../../api/types/discovery/v1.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { EndpointSliceTracker } from './endpointslice-tracker.js';
import { placeholderSliceEqual, Reconciler } from './reconciler.js';
import { newEmptyEndpointSlice, newPod, newService, nodeLister, recordingClient } from './testing.js';
import { rfc3339Nano } from './trigger-time-tracker.js';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME, newEndpointSlice, podToEndpoint } from './utils.js';

const NS = 'test';
const CONTROLLER = 'endpointslice-controller.k8s.io';
const NODE_1: Node = { metadata: { name: 'node-1' } };
// newService's Service has no ClusterIP (as newServiceAndEndpointMeta's): its slices are labelled headless.
const HEADLESS = { 'service.kubernetes.io/headless': '' };

interface Setup {
  h: Harness;
  r: Reconciler;
  tracker: EndpointSliceTracker;
  actions: string[];
  /** The slices the apiserver holds in the namespace. */
  fetch(): Promise<EndpointSlice[]>;
  /** Stores `slices` (not counted as actions), answering them as stored. */
  create(slices: EndpointSlice[]): Promise<EndpointSlice[]>;
}

async function setup(options: { max?: number; nodes?: Node[] } = {}): Promise<Setup> {
  const h = await harness('in-process');
  await h.client.create(RESOURCES.namespaces, undefined, { metadata: { name: NS } });
  const { client, actions } = recordingClient(h.client);
  const tracker = new EndpointSliceTracker();
  const r = new Reconciler({
    client,
    nodes: nodeLister(options.nodes ?? [NODE_1]),
    maxEndpointsPerSlice: options.max ?? 100,
    tracker,
    controllerName: CONTROLLER,
  });
  return {
    h,
    r,
    tracker,
    actions,
    fetch: async () => (await h.client.list(RESOURCES.endpointslices, { namespace: NS })).items,
    create: async (slices) => {
      const out: EndpointSlice[] = [];
      for (const s of slices) out.push(await h.client.create(RESOURCES.endpointslices, NS, s));
      return out;
    },
  };
}

/** 250 (or n) pods, every third not ready. */
const manyPods = (n: number): Pod[] => Array.from({ length: n }, (_, i) => newPod(i, NS, i % 3 !== 0));
const lengths = (slices: readonly EndpointSlice[]): number[] =>
  slices.map((s) => s.endpoints.length).sort((a, b) => a - b);
const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

describe('Reconciler (reconciler_test.go)', () => {
  it('creates one empty placeholder slice for a Service without pods (TestReconcileEmpty)', async () => {
    const s = await setup();
    const { svc } = newService('foo', NS);
    await s.r.reconcile(svc, [], [], Date.now());
    expect(s.actions).toEqual(['create endpointslices']);
    const [slice, ...rest] = await s.fetch();
    expect(rest).toHaveLength(0);
    expect(slice?.metadata?.name).toMatch(/^foo-/);
    expect(slice?.metadata?.labels).toEqual({
      ...HEADLESS,
      [LABEL_SERVICE_NAME]: 'foo',
      [LABEL_MANAGED_BY]: CONTROLLER,
    });
    expect(slice?.metadata?.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Service', name: 'foo', uid: 'test-foo', controller: true, blockOwnerDeletion: true },
    ]);
    expect(slice?.addressType).toBe('IPv4');
    expect(slice?.endpoints ?? []).toEqual([]);
    expect(slice?.ports ?? []).toEqual([]);
    // Tracked at the generation the apiserver gave it.
    expect(s.tracker.generationsFor(slice as EndpointSlice)?.get(slice?.metadata?.uid ?? '')).toBe(1);
  });

  describe('one pod (TestReconcile1Pod)', () => {
    const pod = (): Pod => {
      const p = newPod(1, NS, true);
      p.metadata = { ...p.metadata, uid: 'pod-uid' };
      return p;
    };
    const zonedNode: Node = {
      metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'us-central1-a' } },
    };

    it('IPv4 Service, IPv4 pod: one endpoint with conditions, node, zone, targetRef; the trigger time', async () => {
      const s = await setup({ nodes: [zonedNode] });
      const { svc } = newService('foo', NS);
      const trigger = Date.UTC(2024, 4, 1, 12, 0, 0, 250);
      await s.r.reconcile(svc, [pod()], [], trigger);
      const slices = await s.fetch();
      expect(slices).toHaveLength(1);
      const slice = slices[0] as EndpointSlice;
      expect(slice.addressType).toBe('IPv4');
      expect(slice.ports).toEqual([{ name: 'foo', port: 80, protocol: 'TCP' }]);
      expect(slice.endpoints).toEqual([
        {
          addresses: ['1.2.3.5'],
          conditions: { ready: true, serving: true, terminating: false },
          nodeName: 'node-1',
          zone: 'us-central1-a',
          targetRef: { kind: 'Pod', namespace: NS, name: 'pod1', uid: 'pod-uid' },
        },
      ]);
      expect(slice.metadata?.annotations).toEqual({
        'endpoints.kubernetes.io/last-change-trigger-time': '2024-05-01T12:00:00.25Z',
      });
    });

    it('IPv6 Service, IPv4-only pod: an empty IPv6 placeholder', async () => {
      const s = await setup();
      const { svc } = newService('foo', NS);
      svc.spec = { ...svc.spec, ipFamilies: ['IPv6'] };
      await s.r.reconcile(svc, [pod()], [], undefined);
      const slices = await s.fetch();
      expect(slices.map((x) => [x.addressType, x.endpoints.length])).toEqual([['IPv6', 0]]);
    });

    it('dual-stack Service, dual-stack pod: one slice per family', async () => {
      const s = await setup();
      const { svc } = newService('foo', NS);
      svc.spec = { ...svc.spec, ipFamilies: ['IPv4', 'IPv6'] };
      const p = pod();
      p.status = { ...p.status, podIPs: [{ ip: '1.2.3.5' }, { ip: '1234::5678:0000:0000:9abc:def0' }] };
      await s.r.reconcile(svc, [p], [], undefined);
      const slices = (await s.fetch()).map((x) => [x.addressType, x.endpoints.map((e) => e.addresses)]);
      expect(slices.sort()).toEqual([
        ['IPv4', [['1.2.3.5']]],
        ['IPv6', [['1234::5678:0000:0000:9abc:def0']]],
      ]);
    });

    it('headless Service without ipFamilies: both families (an old apiserver)', async () => {
      const s = await setup();
      const { svc } = newService('foo', NS);
      svc.spec = { ...svc.spec, clusterIP: 'None' };
      delete svc.spec.ipFamilies;
      await s.r.reconcile(svc, [pod()], [], undefined);
      const slices = await s.fetch();
      expect(slices.map((x) => [x.addressType, x.endpoints.length]).sort()).toEqual([
        ['IPv4', 1],
        ['IPv6', 0],
      ]);
      // The headless label.
      expect(slices[0]?.metadata?.labels?.['service.kubernetes.io/headless']).toBe('');
    });

    it('a terminating pod is kept: not ready, serving as Ready says, terminating', async () => {
      const s = await setup();
      const { svc } = newService('foo', NS);
      await s.r.reconcile(svc, [newPod(1, NS, true, true)], [], undefined);
      expect((await s.fetch())[0]?.endpoints[0]?.conditions).toEqual({
        ready: false,
        serving: true,
        terminating: true,
      });
    });

    it('a pod whose subdomain is the Service carries its hostname', async () => {
      const s = await setup();
      const { svc } = newService('foo', NS);
      const p = pod();
      p.spec = { ...p.spec, containers: p.spec?.containers ?? [], hostname: 'web-0', subdomain: 'foo' };
      await s.r.reconcile(svc, [p], [], undefined);
      expect((await s.fetch())[0]?.endpoints[0]?.hostname).toBe('web-0');
    });
  });

  describe('one existing slice and no pods (TestReconcile1EndpointSlice)', () => {
    it('no existing placeholder: one is created', async () => {
      const s = await setup();
      await s.r.reconcile(newService('foo', NS).svc, [], [], undefined);
      expect(s.actions).toEqual(['create endpointslices']);
    });

    it('an existing placeholder that is the same: nothing written', async () => {
      const s = await setup();
      const { svc } = newService('foo', NS);
      const existing = await s.create([newEndpointSlice(svc, { ports: [], addressType: 'IPv4' }, CONTROLLER)]);
      await s.r.reconcile(svc, [], existing, undefined);
      expect(s.actions).toEqual([]);
      const slices = await s.fetch();
      expect(slices).toHaveLength(1);
      expect(slices[0]?.metadata?.name).toMatch(/^foo/);
    });

    it('an existing placeholder that is different: recycled by an update', async () => {
      const s = await setup();
      const { svc, meta } = newService('foo', NS);
      const empty = newEmptyEndpointSlice(1, NS, meta, svc);
      empty.metadata = { ...empty.metadata, labels: { bar: 'baz' } };
      const existing = await s.create([empty]);
      await s.r.reconcile(svc, [], existing, undefined);
      expect(s.actions).toEqual(['update endpointslices']);
      const slices = await s.fetch();
      expect(slices.map((x) => [x.metadata?.name, x.ports ?? [], x.endpoints, x.metadata?.labels])).toEqual([
        ['foo-1', [], [], { ...HEADLESS, [LABEL_SERVICE_NAME]: 'foo', [LABEL_MANAGED_BY]: CONTROLLER }],
      ]);
    });
  });

  it('compares placeholders by namespace, labels, owners and content only (TestPlaceHolderSliceCompare)', () => {
    const empty = (): EndpointSlice => ({ addressType: 'IPv4', endpoints: [] });
    expect(placeholderSliceEqual(empty(), empty())).toBe(true);
    expect(
      placeholderSliceEqual({ ...empty(), metadata: { name: 'foo' } }, { ...empty(), metadata: { name: 'bar' } }),
    ).toBe(true);
    expect(
      placeholderSliceEqual(
        { ...empty(), metadata: { labels: { foo: 'true' } } },
        { ...empty(), metadata: { labels: { bar: 'true' } } },
      ),
    ).toBe(false);
    expect(
      placeholderSliceEqual(
        { ...empty(), metadata: { creationTimestamp: '1970-01-01T00:00:01Z' } },
        { ...empty(), metadata: { creationTimestamp: '1970-01-01T00:00:02Z' } },
      ),
    ).toBe(true);
    expect(placeholderSliceEqual(empty(), { ...empty(), addressType: 'IPv6' })).toBe(false);
  });

  it('marks not-ready pods ready with publishNotReadyAddresses (TestReconcile1EndpointSlicePublishNotReadyAddresses)', async () => {
    const s = await setup();
    const { svc } = newService('foo', NS);
    svc.spec = { ...svc.spec, publishNotReadyAddresses: true };
    await s.r.reconcile(svc, manyPods(50), [], undefined);
    const slices = await s.fetch();
    expect(lengths(slices)).toEqual([50]);
    for (const ep of slices[0]?.endpoints ?? []) expect(ep.conditions?.ready).toBe(true);
  });

  it('creates full slices for many pods (TestReconcileManyPods)', async () => {
    const s = await setup();
    await s.r.reconcile(newService('foo', NS).svc, manyPods(250), [], Date.now());
    expect(s.actions).toEqual(['create endpointslices', 'create endpointslices', 'create endpointslices']);
    expect(lengths(await s.fetch())).toEqual([50, 100, 100]);
  });

  /** Slices holding pods i, i+step, … (podToEndpoint with an empty node, as the Go tests build them). */
  function preexisting(
    svc: Service,
    meta: ReturnType<typeof newService>['meta'],
    pods: Pod[],
    n: number,
    from: number,
  ) {
    const slice = newEmptyEndpointSlice(n, NS, meta, svc);
    for (let i = from; i < pods.length - 4; i += 4) {
      slice.endpoints.push(podToEndpoint(pods[i] as Pod, { metadata: {} }, svc, 'IPv4'));
    }
    return slice;
  }

  it('drops the rest into the slice closest to full (TestReconcileEndpointSlicesSomePreexisting)', async () => {
    const s = await setup();
    const { svc, meta } = newService('foo', NS);
    const pods = manyPods(250);
    const existing = await s.create([preexisting(svc, meta, pods, 1, 1), preexisting(svc, meta, pods, 2, 3)]);
    expect(lengths(existing)).toEqual([61, 62]);
    await s.r.reconcile(svc, pods, existing, Date.now());
    // 1 create (100) + 1 update (62 → 89), in that order.
    expect(s.actions).toEqual(['create endpointslices', 'update endpointslices']);
    expect(lengths(await s.fetch())).toEqual([61, 89, 100]);
  });

  it('creates rather than splitting the rest over two slices (TestReconcileEndpointSlicesSomePreexistingWorseAllocation)', async () => {
    const s = await setup();
    const { svc, meta } = newService('foo', NS);
    const pods = manyPods(300);
    const existing = await s.create([preexisting(svc, meta, pods, 1, 1), preexisting(svc, meta, pods, 2, 3)]);
    await s.r.reconcile(svc, pods, existing, Date.now());
    expect(s.actions).toEqual(['create endpointslices', 'create endpointslices']);
    expect(lengths(await s.fetch())).toEqual([52, 74, 74, 100]);
  });

  it('updates every slice when the target port changes (TestReconcileEndpointSlicesUpdating)', async () => {
    const s = await setup();
    const { svc } = newService('foo', NS);
    const pods = manyPods(250);
    await s.r.reconcile(svc, pods, [], Date.now());
    const first = await s.fetch();
    expect(lengths(first)).toEqual([50, 100, 100]);
    s.actions.length = 0;
    svc.spec = { ...svc.spec, ports: [{ targetPort: 81, protocol: 'TCP', name: 'foo', port: 80 }] };
    await s.r.reconcile(svc, pods, first, Date.now());
    expect(s.actions).toEqual(['update endpointslices', 'update endpointslices', 'update endpointslices']);
    const after = await s.fetch();
    expect(lengths(after)).toEqual([50, 100, 100]);
    for (const slice of after) expect(slice.ports).toEqual([{ name: 'foo', port: 81, protocol: 'TCP' }]);
  });

  it('copies the Service labels, ignoring its reserved ones (TestReconcileEndpointSlicesServicesLabelsUpdating, …ReservedLabels)', async () => {
    const s = await setup();
    const { svc } = newService('foo', NS);
    const pods = manyPods(250);
    await s.r.reconcile(svc, pods, [], Date.now());
    s.actions.length = 0;
    svc.metadata = {
      ...svc.metadata,
      labels: { [LABEL_SERVICE_NAME]: 'bad', [LABEL_MANAGED_BY]: 'actor', 'service.kubernetes.io/headless': 'invalid' },
    };
    await s.r.reconcile(svc, pods, await s.fetch(), Date.now());
    expect(s.actions).toEqual([]);
    svc.metadata = { ...svc.metadata, labels: { foo: 'bar' } };
    await s.r.reconcile(svc, pods, await s.fetch(), Date.now());
    expect(s.actions).toEqual(['update endpointslices', 'update endpointslices', 'update endpointslices']);
    for (const slice of await s.fetch()) {
      expect(slice.metadata?.labels).toEqual({
        foo: 'bar',
        ...HEADLESS,
        [LABEL_SERVICE_NAME]: 'foo',
        [LABEL_MANAGED_BY]: CONTROLLER,
      });
    }
  });

  it('repacks 10 thin slices into 3 by recycling (TestReconcileEndpointSlicesRecycling)', async () => {
    const s = await setup();
    const { svc, meta } = newService('foo', NS);
    const pods = manyPods(300);
    const thin: EndpointSlice[] = [];
    pods.forEach((pod, i) => {
      if (i % 30 === 0) thin.push(newEmptyEndpointSlice(i / 30, NS, meta, svc));
      thin[thin.length - 1]?.endpoints.push(podToEndpoint(pod, { metadata: {} }, svc, 'IPv4'));
    });
    const existing = await s.create(thin);
    // Every pod is in a slice: nothing to do.
    await s.r.reconcile(svc, pods, existing, Date.now());
    expect(s.actions).toEqual([]);
    svc.spec = { ...svc.spec, ports: [{ targetPort: 81, protocol: 'TCP', name: 'foo', port: 80 }] };
    await s.r.reconcile(svc, pods, existing, Date.now());
    // 3 updates (the creates recycled into slices to delete) + 7 deletes.
    expect(s.actions.filter((a) => a === 'update endpointslices')).toHaveLength(3);
    expect(s.actions.filter((a) => a === 'delete endpointslices')).toHaveLength(7);
    expect(s.actions).toHaveLength(10);
    expect(lengths(await s.fetch())).toEqual([100, 100, 100]);
  });

  it('adds new endpoints to the fuller of the slices being updated (TestReconcileEndpointSlicesUpdatePacking)', async () => {
    const s = await setup();
    const { svc, meta } = newService('foo', NS);
    const pods: Pod[] = [];
    const slice1 = newEmptyEndpointSlice(1, NS, meta, svc);
    for (let i = 0; i < 80; i++) {
      const pod = newPod(i, NS, true);
      slice1.endpoints.push(podToEndpoint(pod, { metadata: {} }, svc, 'IPv4'));
      pods.push(pod);
    }
    const slice2 = newEmptyEndpointSlice(2, NS, meta, svc);
    for (let i = 100; i < 120; i++) {
      const pod = newPod(i, NS, true);
      slice2.endpoints.push(podToEndpoint(pod, { metadata: {} }, svc, 'IPv4'));
      pods.push(pod);
    }
    const existing = await s.create([slice1, slice2]);
    // Every tenth pod not ready: both slices are updated.
    pods.forEach((pod, i) => {
      if (i % 10 === 0) pod.status = { ...pod.status, conditions: [{ type: 'Ready', status: 'False' }] };
    });
    for (let i = 200; i < 215; i++) pods.push(newPod(i, NS, true));
    await s.r.reconcile(svc, pods, existing, Date.now());
    expect(s.actions).toEqual(['update endpointslices', 'update endpointslices']);
    expect(lengths(await s.fetch())).toEqual([20, 95]);
  });

  it('replaces slices of an address type the Service does not serve (TestReconcileEndpointSlicesReplaceDeprecated)', async () => {
    // Go's case is the deprecated "IP" type, which the apiserver no longer accepts on create; an
    // IPv6 slice of an IPv4 Service goes the same way (getAddressTypesForService does not list it).
    const s = await setup();
    const { svc, meta } = newService('foo', NS);
    const pods: Pod[] = [];
    const slice1 = newEmptyEndpointSlice(1, NS, { ...meta, addressType: 'IPv6' }, svc);
    for (let i = 0; i < 80; i++) {
      pods.push(newPod(i, NS, true));
      slice1.endpoints.push({ addresses: [`fd00::${i + 1}`], conditions: { ready: true } });
    }
    const slice2 = newEmptyEndpointSlice(2, NS, { ...meta, addressType: 'IPv6' }, svc);
    for (let i = 100; i < 150; i++) {
      pods.push(newPod(i, NS, true));
      slice2.endpoints.push({ addresses: [`fd00::${i + 1}`], conditions: { ready: true } });
    }
    const existing = await s.create([slice1, slice2]);
    await s.r.reconcile(svc, pods, existing, Date.now());
    expect(s.actions.filter((a) => a === 'delete endpointslices')).toHaveLength(2);
    const slices = await s.fetch();
    expect(lengths(slices)).toEqual([30, 100]);
    for (const slice of slices) expect(slice.addressType).toBe('IPv4');
  });

  describe('Service recreation (TestReconcileEndpointSlicesRecreation)', () => {
    for (const owned of [true, false]) {
      it(
        owned ? 'slice owned by the Service: no change' : 'slice owned by another Service UID: create + delete',
        async () => {
          const s = await setup();
          const { svc, meta } = newService('foo', NS);
          const pod = newPod(1, NS, true);
          const slice = newEmptyEndpointSlice(1, NS, meta, svc);
          slice.endpoints.push(podToEndpoint(pod, { metadata: {} }, { spec: {} }, 'IPv4'));
          const ref = slice.metadata?.ownerReferences?.[0];
          if (!owned && ref !== undefined) ref.uid = 'different';
          const existing = await s.create([slice]);
          await s.r.reconcile(svc, [pod], existing, Date.now());
          if (owned) {
            expect(s.actions).toEqual([]);
          } else {
            expect(s.actions).toEqual(['create endpointslices', 'delete endpointslices']);
            expect(await s.fetch()).toHaveLength(1);
          }
        },
      );
    }
  });

  it('groups pods by the port their named target resolves to (TestReconcileEndpointSlicesNamedPorts)', async () => {
    const s = await setup();
    const svc: Service = {
      metadata: { name: 'named-port-example', namespace: NS, uid: 'named-uid' },
      spec: {
        ports: [{ targetPort: 'http', protocol: 'TCP', port: 80 }],
        selector: { foo: 'bar' },
        ipFamilies: ['IPv4'],
      },
    };
    const pods = manyPods(300).map((pod, i) => {
      pod.spec = {
        ...pod.spec,
        containers: [
          { name: 'container-1', ports: [{ name: 'http', containerPort: 8080 + (i % 5), protocol: 'TCP' }] },
        ],
      };
      return pod;
    });
    await s.r.reconcile(svc, pods, [], Date.now());
    expect(s.actions).toHaveLength(5);
    const slices = await s.fetch();
    expect(lengths(slices)).toEqual([60, 60, 60, 60, 60]);
    expect(sorted(slices.map((x) => x.ports?.[0]?.port ?? 0))).toEqual([8080, 8081, 8082, 8083, 8084]);
    for (const slice of slices) {
      expect(slice.addressType).toBe('IPv4');
      expect(slice.ports).toEqual([{ name: '', port: slice.ports?.[0]?.port, protocol: 'TCP' }]);
    }
  });

  describe('maxEndpointsPerSlice (TestReconcileMaxEndpointsPerSlice)', () => {
    const cases: Array<[number, number[]]> = [
      [50, [50, 50, 50, 50, 50]],
      [80, [10, 80, 80, 80]],
      [150, [100, 150]],
      [250, [250]],
      [500, [250]],
    ];
    for (const [max, want] of cases) {
      it(`${max}: ${want.join(', ')}`, async () => {
        const s = await setup({ max });
        await s.r.reconcile(newService('foo', NS).svc, manyPods(250), [], Date.now());
        expect(lengths(await s.fetch())).toEqual(want);
      });
    }
  });

  it('removes endpoints of pods that went, in place (TestReconcileEndpointSlicesMetrics)', async () => {
    const s = await setup();
    const { svc } = newService('foo', NS);
    const pods = Array.from({ length: 20 }, (_, i) => newPod(i, NS, true));
    await s.r.reconcile(svc, pods, [], Date.now());
    expect(s.actions).toEqual(['create endpointslices']);
    await s.r.reconcile(svc, pods.slice(0, 10), await s.fetch(), Date.now());
    expect(s.actions).toEqual(['create endpointslices', 'update endpointslices']);
    expect(lengths(await s.fetch())).toEqual([10]);
  });

  describe('a Service being deleted (TestReconcilerFinalizeSvcDeletionTimestamp)', () => {
    it('creates nothing, but updates and deletes go through', async () => {
      const s = await setup();
      const { svc, meta } = newService('foo', NS);
      const toUpdate = newEmptyEndpointSlice(1, NS, meta, svc);
      toUpdate.endpoints.push(podToEndpoint(newPod(1, NS, true), { metadata: {} }, svc, 'IPv4'));
      const toDelete = newEmptyEndpointSlice(
        2,
        NS,
        { ...meta, ports: [{ name: 'other', port: 9, protocol: 'TCP' }] },
        svc,
      );
      toDelete.endpoints.push(podToEndpoint(newPod(2, NS, true), { metadata: {} }, svc, 'IPv4'));
      const existing = await s.create([toUpdate, toDelete]);
      svc.metadata = { ...svc.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' };
      // pod1 went unready (an update; pod3, new, joins that slice), pod2's port mapping is gone
      // (a delete): both go through.
      await s.r.reconcile(svc, [newPod(1, NS, false), newPod(3, NS, true)], existing, Date.now());
      expect(s.actions).toEqual(['update endpointslices', 'delete endpointslices']);
      const slices = await s.fetch();
      expect(slices.map((x) => x.metadata?.name).sort()).toEqual(['foo-1']);
      expect(lengths(slices)).toEqual([2]);
    });

    it('with no slice to recycle, the creates are skipped', async () => {
      const s = await setup();
      const { svc } = newService('foo', NS);
      svc.metadata = { ...svc.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' };
      await s.r.reconcile(svc, [newPod(1, NS, true)], [], Date.now());
      expect(s.actions).toEqual([]);
      expect(await s.fetch()).toEqual([]);
    });
  });

  describe('a pod whose node is missing (TestReconcilerPodMissingNode)', () => {
    const node0: Node = { metadata: { name: 'node-0' } };
    const node1: Node = { metadata: { name: 'node-1' } };
    const pods = (): Pod[] =>
      [newPod(0, NS, true), newPod(1, NS, true)].map((pod, i) => {
        pod.spec = { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: `node-${i}` };
        return pod;
      });
    const cases = [
      {
        name: 'create, publishNotReady false',
        publish: false,
        nodes: [node0],
        existing: false,
        want: [1],
        actions: ['create endpointslices'],
        error: true,
      },
      {
        name: 'create, publishNotReady true',
        publish: true,
        nodes: [node0],
        existing: false,
        want: [2],
        actions: ['create endpointslices'],
        error: false,
      },
      {
        name: 'update, publishNotReady false',
        publish: false,
        nodes: [node0],
        existing: true,
        want: [1],
        actions: ['update endpointslices'],
        error: true,
      },
      {
        name: 'update, publishNotReady true, all nodes missing',
        publish: true,
        nodes: [],
        existing: true,
        want: [2],
        actions: [],
        error: false,
      },
      {
        name: 'update, publishNotReady true',
        publish: true,
        nodes: [node0],
        existing: true,
        want: [2],
        actions: [],
        error: false,
      },
      // Every endpoint goes: the slice is recycled into the empty placeholder, updated not deleted.
      {
        name: 'update, publishNotReady false, no nodes',
        publish: false,
        nodes: [],
        existing: true,
        want: [0],
        actions: ['update endpointslices'],
        error: true,
      },
    ];
    for (const tc of cases) {
      it(tc.name, async () => {
        const s = await setup({ nodes: tc.nodes });
        const { svc, meta } = newService('foo', NS);
        svc.spec = { ...svc.spec, publishNotReadyAddresses: tc.publish };
        const existing: EndpointSlice[] = [];
        if (tc.existing) {
          const slice = newEmptyEndpointSlice(1, NS, meta, svc);
          const [pod0, pod1] = pods() as [Pod, Pod];
          slice.endpoints.push(podToEndpoint(pod0, node0, svc, 'IPv4'), podToEndpoint(pod1, node1, svc, 'IPv4'));
          existing.push(...(await s.create([slice])));
        }
        const run = s.r.reconcile(svc, pods(), existing, Date.now());
        if (tc.error)
          await expect(run).rejects.toThrow('skipping Pod pod1 for Service test/foo: Node node-1 Not Found');
        else await run;
        expect(s.actions).toEqual(tc.actions);
        expect(lengths(await s.fetch())).toEqual(tc.want);
      });
    }
  });

  describe('trafficDistribution (TestReconcile_TrafficDistribution)', () => {
    const zoned = (zone: string): Node => ({
      metadata: { name: `node-${zone}`, labels: { 'topology.kubernetes.io/zone': zone } },
    });
    const pods = (): Pod[] =>
      ['zone-a', 'zone-b', 'zone-a'].map((zone, i) => {
        const pod = newPod(i, NS, i !== 2);
        pod.spec = { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: `node-${zone}` };
        return pod;
      });

    it('PreferClose: each ready endpoint hinted for its own zone, not-ready ones left unhinted', async () => {
      const s = await setup({ nodes: [zoned('zone-a'), zoned('zone-b')] });
      const { svc } = newService('foo', NS);
      svc.spec = { ...svc.spec, trafficDistribution: 'PreferClose' };
      await s.r.reconcile(svc, pods(), [], Date.now());
      const eps = (await s.fetch())[0]?.endpoints ?? [];
      expect(eps.map((e) => [e.targetRef?.name, e.hints])).toEqual([
        ['pod0', { forZones: [{ name: 'zone-a' }] }],
        ['pod1', { forZones: [{ name: 'zone-b' }] }],
        ['pod2', undefined],
      ]);
      // Unset again: the hints go, by an update of the otherwise unchanged slice.
      s.actions.length = 0;
      delete svc.spec?.trafficDistribution;
      await s.r.reconcile(svc, pods(), await s.fetch(), Date.now());
      expect(s.actions).toEqual(['update endpointslices']);
      for (const e of (await s.fetch())[0]?.endpoints ?? []) expect(e.hints).toBeUndefined();
    });

    it('the topology annotation wins over trafficDistribution: no hints (topology-aware hints are not computed)', async () => {
      const s = await setup({ nodes: [zoned('zone-a'), zoned('zone-b')] });
      const { svc } = newService('foo', NS);
      svc.spec = { ...svc.spec, trafficDistribution: 'PreferClose' };
      svc.metadata = { ...svc.metadata, annotations: { 'service.kubernetes.io/topology-mode': 'Auto' } };
      await s.r.reconcile(svc, pods(), [], Date.now());
      for (const e of (await s.fetch())[0]?.endpoints ?? []) expect(e.hints).toBeUndefined();
    });
  });

  it('tracks what it wrote: created and updated generations, deletions expected', async () => {
    const s = await setup();
    const { svc } = newService('foo', NS);
    await s.r.reconcile(svc, [newPod(1, NS, true)], [], Date.now());
    const [created] = await s.fetch();
    expect(s.tracker.shouldSync(created as EndpointSlice)).toBe(false);
    await s.r.reconcile(svc, [newPod(1, NS, false)], [created as EndpointSlice], Date.now());
    const [updated] = await s.fetch();
    expect(updated?.metadata?.generation).toBe(2);
    expect(s.tracker.shouldSync(updated as EndpointSlice)).toBe(false);
    expect(s.tracker.staleSlices(svc, [created as EndpointSlice])).toBe(true);
    expect(s.tracker.staleSlices(svc, [updated as EndpointSlice])).toBe(false);
  });

  it('writes the trigger time, or clears it when there is none', async () => {
    const s = await setup();
    const { svc } = newService('foo', NS);
    await s.r.reconcile(svc, [newPod(1, NS, true)], [], Date.UTC(2024, 0, 2, 3, 4, 5));
    const [first] = await s.fetch();
    expect(first?.metadata?.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toBe(
      rfc3339Nano(Date.UTC(2024, 0, 2, 3, 4, 5)),
    );
    await s.r.reconcile(svc, [newPod(1, NS, false)], [first as EndpointSlice], undefined);
    const [second] = await s.fetch();
    expect(second?.metadata?.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toBeUndefined();
  });

  it('skips pods without an IP and terminal pods', async () => {
    const s = await setup();
    const { svc } = newService('foo', NS);
    const noIP = newPod(1, NS, true);
    noIP.status = { conditions: [{ type: 'Ready', status: 'True' }] };
    const failed = newPod(2, NS, true);
    failed.status = { ...failed.status, phase: 'Failed' };
    const succeeded = newPod(3, NS, true);
    succeeded.status = { ...succeeded.status, phase: 'Succeeded' };
    await s.r.reconcile(svc, [noIP, failed, succeeded, newPod(4, NS, true)], [], undefined);
    const slices = await s.fetch();
    expect(slices.flatMap((x) => x.endpoints.map((e) => e.targetRef?.name))).toEqual(['pod4']);
  });
});
