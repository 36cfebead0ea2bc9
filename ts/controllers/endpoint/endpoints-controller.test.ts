// The Endpoints controller against a real in-process apiserver: the facts of
// pkg/controller/endpoint/endpoints_controller_test.go (v1.32) — its syncs driven one at a time,
// pods' status set by the test (there is no kubelet) — then the controller running.
import { afterEach, describe, expect, it } from 'vitest';
import type { Endpoints, Pod, PodStatus, Service } from '../../api/types/core/v1.js';
import type { Client } from '../../client/client.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import { recordingClient } from '../endpointslice/testing.js';
import { kubernetesServiceObjects } from '../kubernetesservice/kubernetes-service-controller.js';
import { notFound, waitFor } from '../testing/controller-runs.js';
import {
  capacityAnnotationSetCorrectly,
  EndpointsController,
  podToEndpointAddressForService,
  subsetsEqualIgnoreResourceVersion,
  truncateEndpoints,
} from './endpoints-controller.js';

const NS = 'other';
const TRIGGER = 'endpoints.kubernetes.io/last-change-trigger-time';
const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';

const running: Array<{ factory: SharedInformerFactory; c: EndpointsController }> = [];
afterEach(async () => {
  for (const { factory, c } of running.splice(0)) {
    await c.stop();
    await factory.shutdown();
  }
});

interface Env {
  h: Harness;
  c: EndpointsController;
  factory: SharedInformerFactory;
  actions: string[];
  sync(name: string, namespace?: string): Promise<void>;
  endpoints(name: string, namespace?: string): Promise<Endpoints>;
}

async function env(options: { run?: boolean; batchMs?: number } = {}): Promise<Env> {
  const h = await harness('in-process');
  for (const name of [NS, 'blah']) await h.client.create(RESOURCES.namespaces, undefined, { metadata: { name } });
  const { client, actions } = recordingClient(h.client);
  const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const c = new EndpointsController({
    factory,
    client,
    clock: h.server.clock,
    ...(options.batchMs === undefined ? {} : { endpointUpdatesBatchPeriodMs: options.batchMs }),
  });
  running.push({ factory, c });
  factory.start();
  if (options.run === true) await c.run();
  else await factory.waitForCacheSync();
  return {
    h,
    c,
    factory,
    actions,
    sync: async (name, namespace = NS) => {
      await cachesSynced(h.client, factory);
      await c.syncService(`${namespace}/${name}`);
    },
    endpoints: (name, namespace = NS) => h.client.get(RESOURCES.endpoints, namespace, name),
  };
}

async function cachesSynced(client: Client, factory: SharedInformerFactory): Promise<void> {
  for (const gvr of [RESOURCES.pods, RESOURCES.services, RESOURCES.endpoints]) {
    const stored = (await client.list(gvr)).items.map(
      (o) => `${o.metadata?.namespace}/${o.metadata?.name}@${o.metadata?.resourceVersion}`,
    );
    const informer = factory.informerFor(gvr);
    await eventually(() => {
      const cached = informer
        .getIndexer()
        .list()
        .map((o) => `${o.metadata?.namespace}/${o.metadata?.name}@${o.metadata?.resourceVersion}`);
      return JSON.stringify(cached.sort()) === JSON.stringify([...stored].sort());
    });
  }
}

const status = (ip: string, ready: boolean, extra: Partial<PodStatus> = {}): PodStatus => ({
  phase: 'Running',
  podIP: ip,
  podIPs: [{ ip }],
  conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2024-05-01T12:00:00Z' }],
  ...extra,
});

/**
 * addPods: `nPods` ready and `nNotReady` not-ready pods `pod<i>` (`pod<i>` after the ready ones)
 * labelled foo=bar on node-1, IPs 1.2.3.<4+i>, container ports 8080+j for j < nPorts.
 */
async function addPods(h: Harness, namespace: string, nPods: number, nPorts: number, nNotReady = 0): Promise<Pod[]> {
  const out: Pod[] = [];
  for (let i = 0; i < nPods + nNotReady; i++) {
    const pod = await h.client.create(RESOURCES.pods, namespace, {
      metadata: { name: `pod${i}`, labels: { foo: 'bar' } },
      spec: {
        nodeName: 'node-1',
        containers: [
          {
            name: 'c',
            image: 'x',
            ports: Array.from({ length: nPorts }, (_, j) => ({
              name: `port${j}`,
              containerPort: 8080 + j,
              protocol: 'TCP' as const,
            })),
          },
        ],
      },
    });
    const ip = `1.2.${3 + Math.floor((4 + i) / 256)}.${(4 + i) % 256}`;
    out.push(await h.client.updateStatus(RESOURCES.pods, namespace, { ...pod, status: status(ip, i < nPods) }));
  }
  return out;
}

const ref = (pod: Pod) => ({
  kind: 'Pod',
  namespace: pod.metadata?.namespace,
  name: pod.metadata?.name,
  uid: pod.metadata?.uid,
});
const addr = (pod: Pod) => ({ ip: pod.status?.podIP ?? '', nodeName: 'node-1', targetRef: ref(pod) });

async function createService(
  h: Harness,
  name: string,
  spec: Partial<Service['spec']>,
  namespace = NS,
  labels?: Record<string, string>,
) {
  return h.client.create(RESOURCES.services, namespace, {
    metadata: { name, ...(labels === undefined ? {} : { labels }) },
    spec: { ports: [{ port: 80 }], ...spec },
  });
}

describe('EndpointsController syncs (endpoints_controller_test.go)', () => {
  it('leaves the Endpoints of a Service without a selector alone (TestSyncEndpointsItemsPreserveNoSelector)', async () => {
    const e = await env();
    await e.h.client.create(RESOURCES.endpoints, NS, {
      metadata: { name: 'foo' },
      subsets: [{ addresses: [{ ip: '6.7.8.9' }], ports: [{ port: 1000 }] }],
    });
    await createService(e.h, 'foo', {});
    await e.sync('foo');
    expect(e.actions).toEqual([]);
  });

  it("leaves the apiserver's `kubernetes` Endpoints alone, also at start (checkLeftoverEndpoints)", async () => {
    const h = await harness('in-process');
    const { service, endpoints } = kubernetesServiceObjects({
      clusterIP: '10.96.0.1',
      port: 6443,
      publicIP: '192.168.1.10',
    });
    await h.client.create(RESOURCES.services, 'default', {
      ...service,
      spec: { ...service.spec, clusterIP: undefined },
    });
    const stored = await h.client.create(RESOURCES.endpoints, 'default', endpoints);
    const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const c = new EndpointsController({ factory, client: h.client, clock: h.server.clock });
    running.push({ factory, c });
    factory.start();
    await c.run();
    await new Promise((r) => setTimeout(r, 50));
    const after = await h.client.get(RESOURCES.endpoints, 'default', 'kubernetes');
    expect(after.metadata?.resourceVersion).toBe(stored.metadata?.resourceVersion);
  });

  for (const [name, subsets] of [
    ['nil', undefined],
    ['empty', []],
  ] as const) {
    it(`writes nothing when the existing Endpoints has ${name} subsets and no pod is selected (TestSyncEndpointsExisting${name === 'nil' ? 'Nil' : 'Empty'}Subsets)`, async () => {
      const e = await env();
      await e.h.client.create(RESOURCES.endpoints, NS, {
        metadata: { name: 'foo' },
        ...(subsets === undefined ? {} : { subsets: [...subsets] }),
      });
      await createService(e.h, 'foo', { selector: { foo: 'bar' } });
      await e.sync('foo');
      expect(e.actions).toEqual([]);
    });
  }

  it('creates empty Endpoints for a Service selecting nothing (TestSyncEndpointsNewNoSubsets)', async () => {
    const e = await env();
    await createService(e.h, 'foo', { selector: { foo: 'bar' } });
    await e.sync('foo');
    expect(e.actions).toEqual(['create endpoints']);
    expect((await e.endpoints('foo')).subsets ?? []).toEqual([]);
  });

  it('deletes Endpoints without a Service at start (TestCheckLeftoverEndpoints), but not leader-election records', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.namespaces, undefined, { metadata: { name: NS } });
    await h.client.create(RESOURCES.endpoints, NS, {
      metadata: { name: 'foo' },
      subsets: [{ addresses: [{ ip: '6.7.8.9' }], ports: [{ port: 1000 }] }],
    });
    await h.client.create(RESOURCES.endpoints, NS, {
      metadata: { name: 'lock', annotations: { 'control-plane.alpha.kubernetes.io/leader': '{}' } },
    });
    const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const c = new EndpointsController({ factory, client: h.client, clock: h.server.clock });
    running.push({ factory, c });
    factory.start();
    await c.run();
    await waitFor(() => notFound(() => h.client.get(RESOURCES.endpoints, NS, 'foo')));
    expect((await h.client.get(RESOURCES.endpoints, NS, 'lock')).metadata?.name).toBe('lock');
  });

  for (const protocol of ['TCP', 'UDP', 'SCTP'] as const) {
    it(`carries the port's protocol (TestSyncEndpointsProtocol${protocol})`, async () => {
      const e = await env();
      await e.h.client.create(RESOURCES.endpoints, NS, {
        metadata: { name: 'foo', labels: { foo: 'bar' } },
        subsets: [],
      });
      const [pod] = await addPods(e.h, NS, 1, 1);
      await createService(e.h, 'foo', { selector: {}, ports: [{ port: 80, targetPort: 8080, protocol }] }, NS, {
        foo: 'bar',
      });
      // selector {} is dropped by the apiserver (omitempty): give one that selects the pod.
      const svc = await e.h.client.get(RESOURCES.services, NS, 'foo');
      await e.h.client.update(RESOURCES.services, NS, { ...svc, spec: { ...svc.spec, selector: { foo: 'bar' } } });
      await e.sync('foo');
      expect(e.actions).toEqual(['update endpoints']);
      const ep = await e.endpoints('foo');
      expect(ep.subsets).toEqual([{ addresses: [addr(pod as Pod)], ports: [{ name: '', port: 8080, protocol }] }]);
      expect(ep.metadata?.labels).toEqual({ foo: 'bar' });
    });
  }

  it('keeps the headless label it put on a headless Service (TestSyncEndpointsHeadlessServiceLabel)', async () => {
    const e = await env();
    await e.h.client.create(RESOURCES.endpoints, NS, {
      metadata: { name: 'foo', labels: { 'service.kubernetes.io/headless': '' } },
      subsets: [],
    });
    await createService(e.h, 'foo', { selector: { foo: 'bar' }, clusterIP: 'None' });
    await e.sync('foo');
    expect(e.actions).toEqual([]);
  });

  it('gives ExternalName Services no Endpoints (TestSyncServiceExternalNameType)', async () => {
    const e = await env();
    await addPods(e.h, NS, 1, 1);
    await createService(e.h, 'foo', { type: 'ExternalName', externalName: 'example.com', selector: { foo: 'bar' } });
    await e.sync('foo');
    expect(e.actions).toEqual([]);
  });

  it('treats an empty selector as none, as the apiserver stores it (TestSyncEndpointsItemsEmptySelectorSelectsAll)', async () => {
    // Go's test puts selector {} straight into the informer; through Kubernetes' apiserver the
    // empty map is not kept (omitempty), so the Service has no selector and gets no Endpoints.
    const e = await env();
    await addPods(e.h, NS, 1, 1);
    await createService(e.h, 'foo', { selector: {}, ports: [{ name: 'port0', port: 80, targetPort: 8080 }] });
    await e.sync('foo');
    expect(e.actions).toEqual([]);
  });

  it('lists not-ready pods as notReadyAddresses, ready ones as addresses (…SelectsAllNotReady, …SelectsAllMixed)', async () => {
    const e = await env();
    const pods = await addPods(e.h, NS, 1, 1, 1);
    await createService(e.h, 'foo', {
      selector: { foo: 'bar' },
      ports: [{ name: 'port0', port: 80, targetPort: 8080 }],
    });
    await e.sync('foo');
    expect((await e.endpoints('foo')).subsets).toEqual([
      {
        addresses: [addr(pods[0] as Pod)],
        notReadyAddresses: [addr(pods[1] as Pod)],
        ports: [{ name: 'port0', port: 8080, protocol: 'TCP' }],
      },
    ]);
  });

  it('replaces the subsets of an existing Endpoints (TestSyncEndpointsItemsPreexisting)', async () => {
    const e = await env();
    await e.h.client.create(RESOURCES.endpoints, NS, {
      metadata: { name: 'foo', labels: { foo: 'bar' } },
      subsets: [{ addresses: [{ ip: '6.7.8.9', nodeName: 'node-1' }], ports: [{ port: 1000 }] }],
    });
    const [pod] = await addPods(e.h, NS, 1, 1);
    await createService(e.h, 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 8080 }] }, NS, {
      foo: 'bar',
    });
    await e.sync('foo');
    expect(e.actions).toEqual(['update endpoints']);
    expect((await e.endpoints('foo')).subsets).toEqual([
      { addresses: [addr(pod as Pod)], ports: [{ name: '', port: 8080, protocol: 'TCP' }] },
    ]);
  });

  it('writes nothing when the Endpoints is already right (TestSyncEndpointsItemsPreexistingIdentical)', async () => {
    const e = await env();
    const [pod] = await addPods(e.h, NS, 1, 1);
    await createService(e.h, 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 8080 }] });
    await e.sync('foo');
    expect(e.actions).toEqual(['create endpoints']);
    await e.sync('foo');
    expect(e.actions).toEqual(['create endpoints']);
    // A pod change endpoints do not show (its resourceVersion only) changes nothing either
    // (TestSyncEndpointsWithPodResourceVersionUpdateOnly).
    await e.h.client.update(RESOURCES.pods, NS, {
      ...(pod as Pod),
      metadata: { ...pod?.metadata, annotations: { a: 'b' } },
    });
    await e.sync('foo');
    expect(e.actions).toEqual(['create endpoints']);
  });

  it('puts every selected pod in one subset per port set, and only those of its namespace (TestSyncEndpointsItems)', async () => {
    const e = await env();
    const pods = await addPods(e.h, NS, 3, 2);
    await addPods(e.h, 'blah', 5, 2);
    await createService(e.h, 'foo', {
      selector: { foo: 'bar' },
      clusterIP: 'None',
      ports: [
        { name: 'port0', port: 80, protocol: 'TCP', targetPort: 8080 },
        { name: 'port1', port: 88, protocol: 'TCP', targetPort: 8088 },
      ],
    });
    await e.sync('foo');
    const ep = await e.endpoints('foo');
    expect(ep.subsets).toEqual([
      {
        addresses: pods.map(addr),
        // Ordered by hash, as SortSubsets orders them.
        ports: expect.arrayContaining([
          { name: 'port0', port: 8080, protocol: 'TCP' },
          { name: 'port1', port: 8088, protocol: 'TCP' },
        ]),
      },
    ]);
    expect(ep.metadata?.labels).toEqual({ 'service.kubernetes.io/headless': '' });
  });

  it("copies the Service's labels, and follows their changes (TestSyncEndpointsItemsWithLabels, …PreexistingLabelsChange)", async () => {
    const e = await env();
    await addPods(e.h, NS, 1, 1);
    const svc = await createService(
      e.h,
      'foo',
      { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 8080 }] },
      NS,
      {
        foo: 'bar',
        bar: 'baz',
      },
    );
    await e.sync('foo');
    expect((await e.endpoints('foo')).metadata?.labels).toEqual({ foo: 'bar', bar: 'baz' });
    await e.h.client.update(RESOURCES.services, NS, { ...svc, metadata: { ...svc.metadata, labels: { foo: 'bar' } } });
    await e.sync('foo');
    expect(e.actions).toEqual(['create endpoints', 'update endpoints']);
    expect((await e.endpoints('foo')).metadata?.labels).toEqual({ foo: 'bar' });
  });

  it('gives a headless Service its pods and the headless label (TestSyncEndpointsHeadlessService)', async () => {
    const e = await env();
    const [pod] = await addPods(e.h, NS, 1, 1);
    await createService(
      e.h,
      'foo',
      { selector: { foo: 'bar' }, clusterIP: 'None', ports: [{ port: 80, targetPort: 8080 }] },
      NS,
      {
        a: 'b',
      },
    );
    await e.sync('foo');
    const ep = await e.endpoints('foo');
    expect(ep.metadata?.labels).toEqual({ a: 'b', 'service.kubernetes.io/headless': '' });
    expect(ep.subsets).toEqual([{ addresses: [addr(pod as Pod)], ports: [{ name: '', port: 8080, protocol: 'TCP' }] }]);
  });

  for (const phase of ['Failed', 'Succeeded'] as const) {
    it(`leaves out ${phase} pods (TestSyncEndpointsItemsExcludeNotReadyPodsWith…Phase${phase})`, async () => {
      const e = await env();
      const [pod] = await addPods(e.h, NS, 1, 1);
      await e.h.client.updateStatus(RESOURCES.pods, NS, { ...(pod as Pod), status: { ...pod?.status, phase } });
      await createService(e.h, 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 8080 }] });
      await e.sync('foo');
      expect((await e.endpoints('foo')).subsets ?? []).toEqual([]);
    });
  }

  it('lists the pods of a headless Service without ports, without ports (TestSyncEndpointsHeadlessWithoutPort)', async () => {
    const e = await env();
    const [pod] = await addPods(e.h, NS, 1, 1);
    await e.h.client.create(RESOURCES.services, NS, {
      metadata: { name: 'foo' },
      spec: { selector: { foo: 'bar' }, clusterIP: 'None' },
    });
    await e.sync('foo');
    expect((await e.endpoints('foo')).subsets).toEqual([{ addresses: [addr(pod as Pod)] }]);
  });

  it('skips pods without an IP, and keeps terminating ones out unless publishNotReadyAddresses', async () => {
    const e = await env();
    await e.h.client.create(RESOURCES.pods, NS, {
      metadata: { name: 'pending', labels: { foo: 'bar' } },
      spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'x' }] },
    });
    await addPods(e.h, NS, 1, 1);
    const current = await e.h.client.get(RESOURCES.pods, NS, 'pod0');
    await e.h.client.update(RESOURCES.pods, NS, {
      ...current,
      metadata: { ...current.metadata, finalizers: ['example.com/hold'] },
    });
    await e.h.client.delete(RESOURCES.pods, NS, 'pod0');
    await createService(e.h, 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 8080 }] });
    await e.sync('foo');
    expect((await e.endpoints('foo')).subsets ?? []).toEqual([]);
    await createService(e.h, 'bar', {
      selector: { foo: 'bar' },
      publishNotReadyAddresses: true,
      ports: [{ port: 80, targetPort: 8080 }],
    });
    await e.sync('bar');
    expect((await e.endpoints('bar')).subsets?.[0]?.addresses?.map((a) => a.targetRef?.name)).toEqual(['pod0']);
  });

  it('exports the trigger time: the Service creation, then the pods’ Ready transitions, else none (TestLastTriggerChangeTimeAnnotation*)', async () => {
    const e = await env();
    const svc = await createService(e.h, 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 8080 }] });
    await e.sync('foo');
    expect((await e.endpoints('foo')).metadata?.annotations?.[TRIGGER]).toBe(svc.metadata?.creationTimestamp);
    const [pod] = await addPods(e.h, NS, 1, 1);
    await e.h.client.updateStatus(RESOURCES.pods, NS, {
      ...(pod as Pod),
      status: {
        ...pod?.status,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-06-01T00:00:00Z' }],
      },
    });
    await e.sync('foo');
    expect((await e.endpoints('foo')).metadata?.annotations?.[TRIGGER]).toBe('2024-06-01T00:00:00Z');
    // A change with no new trigger (the pod's labels): the annotation is cleared.
    const cur = await e.h.client.get(RESOURCES.pods, NS, 'pod0');
    await e.h.client.updateStatus(RESOURCES.pods, NS, {
      ...cur,
      status: { ...cur.status, podIP: '1.2.3.99', podIPs: [{ ip: '1.2.3.99' }] },
    });
    await e.sync('foo');
    const ep = await e.endpoints('foo');
    expect(ep.subsets?.[0]?.addresses?.[0]?.ip).toBe('1.2.3.99');
    expect(ep.metadata?.annotations?.[TRIGGER]).toBeUndefined();
  });

  it('deletes the Endpoints of a Service that is gone (TestSyncEndpointsServiceNotFound)', async () => {
    const e = await env();
    await e.h.client.create(RESOURCES.endpoints, NS, { metadata: { name: 'foo' }, subsets: [] });
    await e.sync('foo');
    expect(e.actions).toEqual(['delete endpoints']);
    expect(await notFound(() => e.endpoints('foo'))).toBe(true);
  });

  it('truncates past 1000 addresses, ready ones first, with the over-capacity annotation (TestSyncServiceOverCapacity)', async () => {
    const e = await env();
    // maxCapacity - 3 ready and 4 not ready: 997 ready kept, 3 not ready.
    await addPods(e.h, NS, 997, 1, 4);
    await createService(e.h, 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 8080 }] });
    await e.sync('foo');
    const ep = await e.endpoints('foo');
    expect(ep.subsets?.map((s) => [s.addresses?.length ?? 0, s.notReadyAddresses?.length ?? 0])).toEqual([[997, 3]]);
    expect(ep.metadata?.annotations?.[OVER_CAPACITY]).toBe('truncated');
    // Back under capacity: the annotation goes.
    for (let i = 997; i < 1001; i++) await e.h.client.delete(RESOURCES.pods, NS, `pod${i}`, { gracePeriodSeconds: 0 });
    await e.sync('foo');
    expect((await e.endpoints('foo')).metadata?.annotations?.[OVER_CAPACITY]).toBeUndefined();
  }, 60_000);
});

describe('Endpoints helpers (endpoints_controller_test.go)', () => {
  it('truncates each subset to its share (TestTruncateEndpoints)', () => {
    const cases: Array<[number[], number[], number[], number[]]> = [
      [[], [], [], []],
      [
        [50, 100, 100, 100, 100],
        [50, 100, 100, 100, 100],
        [50, 100, 100, 100, 100],
        [50, 100, 100, 100, 100],
      ],
      [
        [100, 100, 100, 100, 100],
        [100, 100, 100, 100, 100],
        [100, 100, 100, 100, 100],
        [100, 100, 100, 100, 100],
      ],
      [
        [90, 110, 50, 10, 20],
        [101, 200, 200, 201, 298],
        [90, 110, 50, 10, 20],
        [73, 144, 144, 145, 214],
      ],
      [
        [205, 400, 402, 400, 693],
        [100, 200, 200, 200, 300],
        [98, 191, 192, 191, 328],
        [0, 0, 0, 0, 0],
      ],
    ];
    for (const [ready, notReady, wantReady, wantNotReady] of cases) {
      const endpoints: Endpoints = {
        subsets: ready.map((n, i) => ({
          addresses: Array.from({ length: n }, () => ({ ip: '' })),
          notReadyAddresses: Array.from({ length: notReady[i] ?? 0 }, () => ({ ip: '' })),
        })),
      };
      truncateEndpoints(endpoints);
      expect(endpoints.subsets?.map((s) => s.addresses?.length ?? 0)).toEqual(wantReady);
      expect(endpoints.subsets?.map((s) => s.notReadyAddresses?.length ?? 0)).toEqual(wantNotReady);
    }
  });

  it('knows when the capacity annotation is right', () => {
    const subsets = (n: number) => [{ addresses: Array.from({ length: n }, () => ({ ip: '1.1.1.1' })) }];
    expect(capacityAnnotationSetCorrectly(undefined, subsets(1000))).toBe(true);
    expect(capacityAnnotationSetCorrectly(undefined, subsets(1001))).toBe(false);
    expect(capacityAnnotationSetCorrectly({ [OVER_CAPACITY]: 'warning' }, subsets(10))).toBe(false);
  });

  it('picks the address of the Service family (TestPodToEndpointAddressForService)', () => {
    const pod: Pod = {
      metadata: { name: 'p', namespace: 'ns', uid: 'u' },
      spec: { containers: [], nodeName: 'n' },
      status: { podIP: '1.2.3.4', podIPs: [{ ip: '1.2.3.4' }, { ip: '2000::0' }] },
    };
    const v4only: Pod = { ...pod, status: { podIP: '1.2.3.4', podIPs: [{ ip: '1.2.3.4' }] } };
    const svc = (spec: NonNullable<Service['spec']>): Service => ({ metadata: { name: 's' }, spec });
    const ip = (s: Service, p: Pod) => podToEndpointAddressForService(s, p)?.ip;
    expect(ip(svc({ ipFamilies: ['IPv4'] }), pod)).toBe('1.2.3.4');
    expect(ip(svc({ ipFamilies: ['IPv6'] }), pod)).toBe('2000::0');
    expect(ip(svc({ ipFamilies: ['IPv6'] }), v4only)).toBeUndefined();
    // No ipFamilies (an old apiserver): the ClusterIP's family, or for a headless Service the podIP's.
    expect(ip(svc({ clusterIP: '10.0.0.1' }), pod)).toBe('1.2.3.4');
    expect(ip(svc({ clusterIP: '3000::1' }), pod)).toBe('2000::0');
    expect(ip(svc({ clusterIP: 'None' }), pod)).toBe('1.2.3.4');
    expect(podToEndpointAddressForService(svc({ ipFamilies: ['IPv4'] }), pod)).toEqual({
      ip: '1.2.3.4',
      nodeName: 'n',
      targetRef: { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u' },
    });
  });

  it('compares subsets ignoring targetRef resourceVersions (TestEndpointSubsetsEqualIgnoreResourceVersion)', () => {
    const subset = (rv: string, ip = '1.1.1.1') => [
      { addresses: [{ ip, targetRef: { kind: 'Pod', name: 'p', resourceVersion: rv } }], ports: [{ port: 80 }] },
    ];
    expect(subsetsEqualIgnoreResourceVersion(subset('1'), subset('2'))).toBe(true);
    expect(subsetsEqualIgnoreResourceVersion(subset('1'), subset('1', '2.2.2.2'))).toBe(false);
    expect(subsetsEqualIgnoreResourceVersion([{ addresses: [] }], [{}])).toBe(true);
  });
});

describe('EndpointsController running', () => {
  it('follows its pods and Services: created, readiness, Service deleted', async () => {
    const e = await env({ run: true });
    await createService(e.h, 'web', {
      selector: { foo: 'bar' },
      ports: [{ name: 'http', port: 80, targetPort: 8080 }],
    });
    await waitFor(async () => !(await notFound(() => e.endpoints('web'))));
    const [pod] = await addPods(e.h, NS, 0, 1, 1);
    await waitFor(async () => (await e.endpoints('web')).subsets?.[0]?.notReadyAddresses?.length === 1);
    await e.h.client.updateStatus(RESOURCES.pods, NS, {
      ...(await e.h.client.get(RESOURCES.pods, NS, 'pod0')),
      status: status(pod?.status?.podIP ?? '', true),
    });
    await waitFor(async () => (await e.endpoints('web')).subsets?.[0]?.addresses?.length === 1);
    // Deleted by a user: made again.
    await e.h.client.delete(RESOURCES.endpoints, NS, 'web');
    await waitFor(async () => (await e.endpoints('web').catch(() => undefined))?.subsets?.[0]?.addresses?.length === 1);
    await e.h.client.delete(RESOURCES.services, NS, 'web');
    await waitFor(() => notFound(() => e.endpoints('web')));
  });

  it('holds pod changes for the batch period (TestPodAddsBatching, TestPodUpdatesBatching, TestPodDeleteBatching)', async () => {
    const e = await env({ run: true, batchMs: 5000 });
    await createService(e.h, 'web', { selector: { foo: 'bar' }, ports: [{ port: 80, targetPort: 8080 }] });
    await waitFor(async () => !(await notFound(() => e.endpoints('web'))));
    await addPods(e.h, NS, 1, 1);
    await new Promise((r) => setTimeout(r, 50));
    expect((await e.endpoints('web')).subsets ?? []).toEqual([]);
    e.h.server.clock.advance(5000);
    await waitFor(async () => (await e.endpoints('web')).subsets?.[0]?.addresses?.length === 1);
    await e.h.client.delete(RESOURCES.pods, NS, 'pod0', { gracePeriodSeconds: 0 });
    await new Promise((r) => setTimeout(r, 50));
    expect((await e.endpoints('web')).subsets?.[0]?.addresses?.length).toBe(1);
    e.h.server.clock.advance(5000);
    await waitFor(async () => ((await e.endpoints('web')).subsets ?? []).length === 0);
  });
});
