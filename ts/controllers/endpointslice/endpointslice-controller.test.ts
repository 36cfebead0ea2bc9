// The EndpointSlice controller against a real in-process apiserver: the facts of
// pkg/controller/endpointslice/endpointslice_controller_test.go (v1.32) — its syncs driven one at
// a time, as the Go tests drive them — then the controller running, with pods' status set by the
// test (there is no kubelet) and the garbage collector beside it.
import { afterEach, describe, expect, it } from 'vitest';
import type { Pod, PodStatus, Service } from '../../api/types/core/v1.js';
import type { EndpointSlice } from '../../api/types/discovery/v1.js';
import type { Client } from '../../client/client.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import type { Controller } from '../framework/controller.js';
import { GarbageCollector } from '../garbagecollector/garbage-collector.js';
import { kubernetesServiceObjects } from '../kubernetesservice/kubernetes-service-controller.js';
import { waitFor } from '../testing/controller-runs.js';
import { CONTROLLER_NAME, EndpointSliceController } from './endpointslice-controller.js';
import { recordingClient } from './testing.js';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from './utils.js';

const NS = 'default';

const running: Array<{ factory: SharedInformerFactory; controllers: Controller[] }> = [];
afterEach(async () => {
  for (const { factory, controllers } of running.splice(0)) {
    for (const c of controllers) await c.stop();
    await factory.shutdown();
  }
});

interface Env {
  h: Harness;
  c: EndpointSliceController;
  factory: SharedInformerFactory;
  /** The controller's client's slice writes. */
  actions: string[];
  /** syncService once the informers hold what the apiserver holds. */
  sync(name: string): Promise<void>;
  slices(): Promise<EndpointSlice[]>;
}

/** A controller on informers of a fresh apiserver with node-1 (not run unless `run`). */
async function env(
  options: {
    run?: boolean;
    maxEndpointsPerSlice?: number;
    gc?: boolean;
    onError?: (err: unknown, key: string) => void;
    batchMs?: number;
  } = {},
): Promise<Env> {
  const h = await harness('in-process');
  await h.client.create(RESOURCES.nodes, undefined, { metadata: { name: 'node-1' } });
  const { client, actions } = recordingClient(h.client);
  const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const c = new EndpointSliceController({
    factory,
    client,
    clock: h.server.clock,
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    ...(options.batchMs === undefined ? {} : { endpointUpdatesBatchPeriodMs: options.batchMs }),
    ...(options.maxEndpointsPerSlice === undefined ? {} : { maxEndpointsPerSlice: options.maxEndpointsPerSlice }),
  });
  const controllers: Controller[] = [c];
  if (options.gc === true) {
    controllers.push(
      new GarbageCollector({
        factory,
        client: h.client,
        clock: h.server.clock,
        resources: [RESOURCES.services, RESOURCES.endpointslices],
      }),
    );
  }
  running.push({ factory, controllers });
  factory.start();
  if (options.run === true) for (const ctl of controllers) await ctl.run();
  else await factory.waitForCacheSync();
  const slices = async () => (await h.client.list(RESOURCES.endpointslices, { namespace: NS })).items;
  return {
    h,
    c,
    factory,
    actions,
    slices,
    sync: async (name) => {
      await cachesSynced(h.client, factory);
      await c.syncService(`${NS}/${name}`);
    },
  };
}

/** Waits until the informers hold exactly the apiserver's pods, Services, slices and nodes. */
async function cachesSynced(client: Client, factory: SharedInformerFactory): Promise<void> {
  for (const gvr of [RESOURCES.pods, RESOURCES.services, RESOURCES.endpointslices, RESOURCES.nodes]) {
    const stored = (await client.list(gvr)).items.map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`);
    const informer = factory.informerFor(gvr);
    await eventually(() => {
      const cached = informer
        .getIndexer()
        .list()
        .map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`);
      return JSON.stringify(cached.sort()) === JSON.stringify([...stored].sort());
    });
  }
}

/** A pod labelled foo=bar on node-1, then its status as the kubelet would write it. */
async function createPod(
  h: Harness,
  name: string,
  status: PodStatus | undefined,
  extra: Partial<Pod> = {},
): Promise<Pod> {
  const pod = await h.client.create(RESOURCES.pods, NS, {
    metadata: { name, labels: { foo: 'bar' }, ...extra.metadata },
    spec: { containers: [{ name: 'container-1', image: 'x' }], nodeName: 'node-1', ...extra.spec },
  });
  if (status === undefined) return pod;
  return h.client.updateStatus(RESOURCES.pods, NS, { ...pod, status });
}

const running_ = (ip: string, ready: boolean, extraIPs: string[] = []): PodStatus => ({
  phase: 'Running',
  podIP: ip,
  podIPs: [{ ip }, ...extraIPs.map((x) => ({ ip: x }))],
  conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2024-05-01T12:00:00Z' }],
});

/** createService: `name` selecting foo=bar, port 80. */
async function createService(h: Harness, name: string, spec: Partial<Service['spec']> = {}): Promise<Service> {
  return h.client.create(RESOURCES.services, NS, {
    metadata: { name },
    spec: { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 80, protocol: 'TCP' }], ...spec },
  });
}

describe('EndpointSliceController syncs (endpointslice_controller_test.go)', () => {
  it('leaves a Service without a selector alone (TestSyncServiceNoSelector)', async () => {
    const e = await env();
    await e.h.client.create(RESOURCES.services, NS, {
      metadata: { name: 'testing-1' },
      spec: { ports: [{ port: 80, targetPort: 80 }] },
    });
    await e.sync('testing-1');
    expect(e.actions).toEqual([]);
  });

  it('gives ExternalName Services no slices (TestServiceExternalNameTypeSync)', async () => {
    const e = await env();
    await createPod(e.h, 'pod1', running_('10.0.0.1', true));
    const cases: Array<Partial<Service['spec']>> = [
      { type: 'ExternalName', externalName: 'example.com', selector: { foo: 'bar' }, ports: [{ port: 80 }] },
      { type: 'ExternalName', externalName: 'example.com', ports: [{ port: 80 }] },
      { type: 'ExternalName', externalName: 'example.com', selector: { foo: 'bar' } },
      { type: 'ExternalName', externalName: 'example.com' },
    ];
    for (const [i, spec] of cases.entries()) {
      await e.h.client.create(RESOURCES.services, NS, { metadata: { name: `testing-${i}` }, spec });
      await e.sync(`testing-${i}`);
    }
    expect(e.actions).toEqual([]);
    expect(await e.slices()).toEqual([]);
  });

  it('creates nothing for a Service being deleted (TestSyncServicePendingDeletion)', async () => {
    const e = await env();
    await e.h.client.create(RESOURCES.services, NS, {
      metadata: { name: 'testing-1', finalizers: ['example.com/hold'] },
      spec: { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 80 }] },
    });
    await e.h.client.delete(RESOURCES.services, NS, 'testing-1');
    await e.sync('testing-1');
    expect(e.actions).toEqual([]);
  });

  it('gives a Service selecting no pods one empty placeholder (TestSyncServiceWithSelector)', async () => {
    const e = await env();
    const svc = await createService(e.h, 'testing-1');
    await e.sync('testing-1');
    expect(e.actions).toEqual(['create endpointslices']);
    const [slice, ...rest] = await e.slices();
    expect(rest).toEqual([]);
    expect(slice?.metadata?.name).toMatch(/^testing-1-/);
    expect(slice?.metadata?.labels?.[LABEL_SERVICE_NAME]).toBe('testing-1');
    expect(slice?.ports ?? []).toEqual([]);
    expect(slice?.endpoints ?? []).toEqual([]);
    // A Service seen for the first time: its creation is the trigger.
    expect(slice?.metadata?.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toBe(
      svc.metadata?.creationTimestamp,
    );
  });

  it('does nothing for a Service that is gone (TestSyncServiceMissing)', async () => {
    const e = await env();
    await createService(e.h, 'stillthere');
    await e.sync('notthere');
    expect(e.actions).toEqual([]);
  });

  it('selects pods by the Service selector (TestSyncServicePodSelection)', async () => {
    const e = await env();
    const pod1 = await createPod(e.h, 'pod1', running_('10.0.0.1', true));
    await createPod(e.h, 'pod2', running_('10.0.0.2', true), { metadata: { name: 'pod2', labels: { foo: 'boo' } } });
    await createService(e.h, 'testing-1');
    await e.sync('testing-1');
    expect(e.actions).toEqual(['create endpointslices']);
    const [slice] = await e.slices();
    expect(slice?.endpoints.map((ep) => ep.targetRef)).toEqual([
      { kind: 'Pod', namespace: NS, name: 'pod1', uid: pod1.metadata?.uid },
    ]);
    expect(slice?.metadata?.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toBeTruthy();
  });

  it('ignores a managed slice pending deletion (TestSyncServiceEndpointSlicePendingDeletion)', async () => {
    const e = await env();
    const svc = await createService(e.h, 'testing-1');
    await e.sync('testing-1');
    await e.h.client.create(RESOURCES.endpointslices, NS, {
      metadata: {
        name: 'epslice-1',
        finalizers: ['example.com/hold'],
        ownerReferences: [ownerRef(svc)],
        labels: { [LABEL_SERVICE_NAME]: 'testing-1', [LABEL_MANAGED_BY]: CONTROLLER_NAME },
      },
      addressType: 'IPv4',
      endpoints: [],
    });
    await e.h.client.delete(RESOURCES.endpointslices, NS, 'epslice-1');
    e.actions.length = 0;
    await e.sync('testing-1');
    expect(e.actions).toEqual([]);
  });

  it('reconciles only the slices labelled for it and managed by it (TestSyncServiceEndpointSliceLabelSelection)', async () => {
    const e = await env();
    const svc = await createService(e.h, 'testing-1');
    const slice = (name: string, labels: Record<string, string>, owned: boolean): EndpointSlice => ({
      metadata: { name, labels, ...(owned ? { ownerReferences: [ownerRef(svc)] } : {}) },
      addressType: 'IPv4',
      endpoints: [],
    });
    const managed = { [LABEL_SERVICE_NAME]: 'testing-1', [LABEL_MANAGED_BY]: CONTROLLER_NAME };
    for (const s of [
      slice('matching-1', managed, true),
      slice('matching-2', managed, true),
      slice('partially-matching-1', { [LABEL_SERVICE_NAME]: 'testing-1' }, false),
      slice('not-matching-1', { [LABEL_SERVICE_NAME]: 'something-else', [LABEL_MANAGED_BY]: CONTROLLER_NAME }, false),
      slice('not-matching-2', { [LABEL_SERVICE_NAME]: 'testing-1', [LABEL_MANAGED_BY]: 'something-else' }, false),
    ]) {
      await e.h.client.create(RESOURCES.endpointslices, NS, s);
    }
    await e.sync('testing-1');
    // The two matching: one updated into the placeholder, the other deleted.
    expect(e.actions).toEqual(['update endpointslices', 'delete endpointslices']);
    expect((await e.slices()).map((s) => s.metadata?.name).sort()).toEqual([
      'matching-1',
      'not-matching-1',
      'not-matching-2',
      'partially-matching-1',
    ]);
  });

  it('queues the Service when a slice leaves its management (TestOnEndpointSliceUpdate)', async () => {
    const errors: string[] = [];
    const e = await env({ run: true, onError: (err, key) => errors.push(`${key}: ${String(err)}`) });
    await createService(e.h, 'testing-1');
    await waitFor(async () => (await e.slices()).length === 1);
    const [ours] = await e.slices();
    // Handed to another manager: the Service is queued, after the 1 s minimum delay.
    await e.h.client.update(RESOURCES.endpointslices, NS, {
      ...(ours as EndpointSlice),
      metadata: { ...ours?.metadata, labels: { ...ours?.metadata?.labels, [LABEL_MANAGED_BY]: 'something-else' } },
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(errors).toEqual([]);
    e.h.server.clock.advance(1000);
    // As in Kubernetes, the tracker still holds the slice it wrote, which is no longer listed as
    // its own: the sync is refused as stale (and retried) rather than writing a second slice.
    await eventually(() => errors.length > 0);
    expect(errors[0]).toBe('default/testing-1: StaleInformerCacheError: EndpointSlice informer cache is out of date');
    expect(await e.slices()).toHaveLength(1);
  });

  describe('endpoints of the selected pods (TestSyncService)', () => {
    const ports = [
      { name: 'tcp-example', port: 80, targetPort: 80, protocol: 'TCP' as const },
      { name: 'udp-example', port: 161, targetPort: 161, protocol: 'UDP' as const },
      { name: 'sctp-example', port: 3456, targetPort: 3456, protocol: 'SCTP' as const },
    ];
    // Kubernetes' order: by the md5 of each port's dump — udp 64c57f…, sctp 88d8d3…, tcp c7ced2…
    // as Go computes them (the Go test compares without order).
    const wantPorts = [
      { name: 'udp-example', port: 161, protocol: 'UDP' },
      { name: 'sctp-example', port: 3456, protocol: 'SCTP' },
      { name: 'tcp-example', port: 80, protocol: 'TCP' },
    ];
    const conditions = (ready: boolean, serving: boolean, terminating: boolean) => ({ ready, serving, terminating });

    async function run(
      ipFamilies: Array<'IPv4' | 'IPv6'>,
      pods: Array<{ name: string; status: PodStatus; terminating?: boolean }>,
    ) {
      const e = await env();
      const made: Pod[] = [];
      for (const p of pods) {
        const pod = await createPod(
          e.h,
          p.name,
          p.status,
          p.terminating === true
            ? { metadata: { name: p.name, labels: { foo: 'bar' }, finalizers: ['example.com/hold'] } }
            : {},
        );
        if (p.terminating === true) await e.h.client.delete(RESOURCES.pods, NS, p.name);
        made.push(pod);
      }
      const svc = await createService(e.h, 'foobar', {
        ports,
        ipFamilies,
        ipFamilyPolicy: ipFamilies.length > 1 ? 'RequireDualStack' : 'SingleStack',
      });
      await e.sync('foobar');
      expect(e.actions).toEqual(['create endpointslices']);
      const slices = await e.slices();
      expect(slices).toHaveLength(1);
      const slice = slices[0] as EndpointSlice;
      expect(slice.metadata?.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toBe(
        svc.metadata?.creationTimestamp,
      );
      expect(slice.ports).toEqual(wantPorts);
      const uids = new Map(made.map((p) => [p.metadata?.name, p.metadata?.uid]));
      return {
        slice,
        ref: (name: string) => ({ kind: 'Pod', namespace: NS, name, uid: uids.get(name) }),
      };
    }

    it('pods with multiple IPs and an IPv4 Service: their IPv4 addresses', async () => {
      const { slice, ref } = await run(
        ['IPv4'],
        [
          { name: 'pod0', status: running_('10.0.0.1', true) },
          { name: 'pod1', status: running_('10.0.0.2', true, ['fd08::5678:0000:0000:9abc:def0']) },
        ],
      );
      expect(slice.addressType).toBe('IPv4');
      expect(slice.endpoints).toEqual([
        {
          addresses: ['10.0.0.1'],
          conditions: conditions(true, true, false),
          targetRef: ref('pod0'),
          nodeName: 'node-1',
        },
        {
          addresses: ['10.0.0.2'],
          conditions: conditions(true, true, false),
          targetRef: ref('pod1'),
          nodeName: 'node-1',
        },
      ]);
    });

    it('pods with multiple IPs and an IPv6 Service: only the pod with an IPv6 address', async () => {
      const e = await env();
      // The in-process apiserver serves one family: the Service is the Go test's own, in memory.
      await createPod(e.h, 'pod0', running_('10.0.0.1', true));
      const pod1 = await createPod(e.h, 'pod1', running_('10.0.0.2', true, ['fd08::5678:0000:0000:9abc:def0']));
      const svc: Service = {
        metadata: { name: 'foobar', namespace: NS, uid: 'foobar-uid' },
        spec: { ports, selector: { foo: 'bar' }, ipFamilies: ['IPv6'] },
      };
      await cachesSynced(e.h.client, e.factory);
      const pods = e.factory.informerFor(RESOURCES.pods).lister().byNamespace(NS).list();
      await e.c.reconciler.reconcile(svc, pods, [], undefined);
      const [slice] = await e.slices();
      expect(slice?.addressType).toBe('IPv6');
      expect(slice?.endpoints).toEqual([
        {
          addresses: ['fd08::5678:0000:0000:9abc:def0'],
          conditions: conditions(true, true, false),
          targetRef: { kind: 'Pod', namespace: NS, name: 'pod1', uid: pod1.metadata?.uid },
          nodeName: 'node-1',
        },
      ]);
    });

    it('terminating pods: not ready, still serving, terminating', async () => {
      const { slice, ref } = await run(
        ['IPv4'],
        [
          { name: 'pod0', status: running_('10.0.0.1', true) },
          { name: 'pod1', status: running_('10.0.0.2', true), terminating: true },
        ],
      );
      expect(slice.endpoints).toEqual([
        {
          addresses: ['10.0.0.1'],
          conditions: conditions(true, true, false),
          targetRef: ref('pod0'),
          nodeName: 'node-1',
        },
        {
          addresses: ['10.0.0.2'],
          conditions: conditions(false, true, true),
          targetRef: ref('pod1'),
          nodeName: 'node-1',
        },
      ]);
    });

    it('not-ready terminating pods: neither ready nor serving', async () => {
      const { slice, ref } = await run(
        ['IPv4'],
        [
          { name: 'pod0', status: running_('10.0.0.1', true) },
          { name: 'pod1', status: running_('10.0.0.2', false), terminating: true },
        ],
      );
      expect(slice.endpoints).toEqual([
        {
          addresses: ['10.0.0.1'],
          conditions: conditions(true, true, false),
          targetRef: ref('pod0'),
          nodeName: 'node-1',
        },
        {
          addresses: ['10.0.0.2'],
          conditions: conditions(false, false, true),
          targetRef: ref('pod1'),
          nodeName: 'node-1',
        },
      ]);
    });

    it('a ready and a not-ready pod with the same IP: two endpoints', async () => {
      const { slice, ref } = await run(
        ['IPv4'],
        [
          { name: 'pod0', status: running_('10.0.0.1', true) },
          { name: 'pod1', status: running_('10.0.0.1', false) },
        ],
      );
      expect(slice.endpoints).toEqual([
        {
          addresses: ['10.0.0.1'],
          conditions: conditions(true, true, false),
          targetRef: ref('pod0'),
          nodeName: 'node-1',
        },
        {
          addresses: ['10.0.0.1'],
          conditions: conditions(false, false, false),
          targetRef: ref('pod1'),
          nodeName: 'node-1',
        },
      ]);
    });

    it('two ready pods with the same IP: both, not hidden', async () => {
      const { slice, ref } = await run(
        ['IPv4'],
        [
          { name: 'pod0', status: running_('10.0.0.1', true) },
          { name: 'pod1', status: running_('10.0.0.1', true) },
        ],
      );
      expect(slice.endpoints.map((ep) => [ep.targetRef, ep.conditions])).toEqual([
        [ref('pod0'), conditions(true, true, false)],
        [ref('pod1'), conditions(true, true, false)],
      ]);
    });
  });

  it('refuses a sync on a slice cache older than its own writes (TestSyncServiceStaleInformer)', async () => {
    const e = await env();
    await createService(e.h, 'testing-1');
    await e.sync('testing-1');
    const [slice] = await e.slices();
    // The tracker holds a newer generation than the cache: the informer is behind.
    e.c.tracker.update({ ...(slice as EndpointSlice), metadata: { ...slice?.metadata, generation: 5 } });
    await expect(e.c.syncService(`${NS}/testing-1`)).rejects.toThrow('EndpointSlice informer cache is out of date');
    expect(e.actions).toEqual(['create endpointslices']);
  });

  it('validates maxEndpointsPerSlice as --max-endpoints-per-slice does (1 to 1000)', async () => {
    await expect(env({ maxEndpointsPerSlice: 0 })).rejects.toThrow(
      'max-endpoints-per-slice must not be less than 1, but got 0',
    );
    await expect(env({ maxEndpointsPerSlice: 1001 })).rejects.toThrow(
      'max-endpoints-per-slice must not be more than 1000, but got 1001',
    );
  });
});

describe('EndpointSliceController running', () => {
  it('follows its pods: IPs, readiness, deletion; pods without IPs skipped', async () => {
    const e = await env({ run: true });
    await createService(e.h, 'web');
    await createPod(e.h, 'pending', undefined);
    await waitFor(async () => (await e.slices()).length === 1);
    expect((await e.slices())[0]?.endpoints ?? []).toEqual([]);
    // The "kubelet" reports an IP, not ready yet.
    const pod = await e.h.client.get(RESOURCES.pods, NS, 'pending');
    await e.h.client.updateStatus(RESOURCES.pods, NS, { ...pod, status: running_('10.0.0.9', false) });
    await waitFor(async () => (await e.slices())[0]?.endpoints.length === 1);
    expect((await e.slices())[0]?.endpoints[0]?.conditions).toEqual({
      ready: false,
      serving: false,
      terminating: false,
    });
    const notReady = await e.h.client.get(RESOURCES.pods, NS, 'pending');
    await e.h.client.updateStatus(RESOURCES.pods, NS, { ...notReady, status: running_('10.0.0.9', true) });
    await waitFor(async () => (await e.slices())[0]?.endpoints[0]?.conditions?.ready === true);
    await e.h.client.delete(RESOURCES.pods, NS, 'pending', { gracePeriodSeconds: 0 });
    await waitFor(async () => (await e.slices())[0]?.endpoints.length === 0);
  });

  it('puts back a slice a user edited, and one a user deleted, after the 1 s delay', async () => {
    const e = await env({ run: true });
    await createService(e.h, 'web');
    await createPod(e.h, 'pod0', running_('10.0.0.1', true));
    await waitFor(async () => (await e.slices())[0]?.endpoints.length === 1);
    const [slice] = await e.slices();
    await e.h.client.update(RESOURCES.endpointslices, NS, { ...(slice as EndpointSlice), endpoints: [] });
    await new Promise((r) => setTimeout(r, 50));
    expect((await e.slices())[0]?.endpoints).toEqual([]);
    e.h.server.clock.advance(1000);
    await waitFor(async () => (await e.slices())[0]?.endpoints.length === 1);

    await e.h.client.delete(RESOURCES.endpointslices, NS, slice?.metadata?.name ?? '');
    await waitFor(async () => (await e.slices()).length === 0);
    e.h.server.clock.advance(1000);
    await waitFor(async () => (await e.slices())[0]?.endpoints.length === 1);
  });

  it("leaves the apiserver's `kubernetes` Service and its EndpointSlice alone", async () => {
    const e = await env({ run: true });
    const { service, slice } = kubernetesServiceObjects({
      clusterIP: '10.96.0.1',
      port: 6443,
      publicIP: '192.168.1.10',
    });
    await e.h.client.create(RESOURCES.services, NS, { ...service, spec: { ...service.spec, clusterIP: undefined } });
    const stored = await e.h.client.create(RESOURCES.endpointslices, NS, slice);
    await createService(e.h, 'web');
    await waitFor(async () => (await e.slices()).length === 2);
    e.h.server.clock.advance(5000);
    await new Promise((r) => setTimeout(r, 50));
    const after = await e.h.client.get(RESOURCES.endpointslices, NS, 'kubernetes');
    expect(after.metadata?.resourceVersion).toBe(stored.metadata?.resourceVersion);
    expect(e.actions).toEqual(['create endpointslices']);
  });

  it('the slices of a deleted Service go with it (the garbage collector, by ownerReference)', async () => {
    const e = await env({ run: true, gc: true });
    await createService(e.h, 'web');
    await waitFor(async () => (await e.slices()).length === 1);
    expect((await e.slices())[0]?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Service',
      name: 'web',
      controller: true,
      blockOwnerDeletion: true,
    });
    await e.h.client.delete(RESOURCES.services, NS, 'web');
    await waitFor(async () => (await e.slices()).length === 0);
  });

  it('holds pod changes for the batch period (TestPodAddsBatching, TestPodUpdatesBatching)', async () => {
    const e = await env({ run: true, batchMs: 5000 });
    await createService(e.h, 'web');
    await waitFor(async () => (await e.slices()).length === 1);
    await createPod(e.h, 'pod0', running_('10.0.0.1', true));
    await new Promise((r) => setTimeout(r, 50));
    expect((await e.slices())[0]?.endpoints).toEqual([]);
    e.h.server.clock.advance(5000);
    await waitFor(async () => (await e.slices())[0]?.endpoints.length === 1);
  });

  it('splits a large Service into slices of maxEndpointsPerSlice', async () => {
    const e = await env({ run: true, maxEndpointsPerSlice: 3 });
    for (let i = 0; i < 7; i++) await createPod(e.h, `pod${i}`, running_(`10.0.0.${i + 1}`, true));
    await createService(e.h, 'web');
    await waitFor(async () => {
      const slices = await e.slices();
      return slices.reduce((n, s) => n + s.endpoints.length, 0) === 7;
    });
    expect((await e.slices()).map((s) => s.endpoints.length).sort()).toEqual([1, 3, 3]);
  });
});

function ownerRef(svc: Service) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    name: svc.metadata?.name ?? '',
    uid: svc.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}
