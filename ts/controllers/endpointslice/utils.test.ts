// k8s.io/endpointslice utils_test.go (v0.32): TestNewEndpointSlice, TestPodToEndpoint,
// TestServiceControllerKey, TestGetEndpointPorts, TestSetEndpointSliceLabels,
// TestSupportedServiceAddressType, Test_hintsEnabled; and getSliceToFill, getEndpointSlicePrefix.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, Service } from '../../api/types/core/v1.js';
import type { EndpointSlice } from '../../api/types/discovery/v1.js';
import { newPod, newService } from './testing.js';
import {
  getAddressTypesForService,
  getEndpointPorts,
  getEndpointSlicePrefix,
  getSliceToFill,
  hintsEnabled,
  isIPv6String,
  LABEL_MANAGED_BY,
  LABEL_SERVICE_NAME,
  newEndpointSlice,
  podToEndpoint,
  serviceControllerKey,
  setEndpointSliceLabels,
} from './utils.js';

const NS = 'test';
const CONTROLLER = 'endpointslice-controller.k8s.io';

describe('newEndpointSlice (TestNewEndpointSlice)', () => {
  it('names, owns and labels the slice for the Service', () => {
    const { svc, meta } = newService('foo', NS);
    svc.spec = { ...svc.spec, clusterIP: '10.0.0.1' };
    svc.metadata = { ...svc.metadata, labels: { foo: 'bar' } };
    expect(newEndpointSlice(svc, meta, CONTROLLER)).toEqual({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        labels: { foo: 'bar', [LABEL_SERVICE_NAME]: 'foo', [LABEL_MANAGED_BY]: CONTROLLER },
        generateName: 'foo-',
        namespace: NS,
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'Service',
            name: 'foo',
            uid: 'test-foo',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      ports: meta.ports,
      addressType: 'IPv4',
      endpoints: [],
    });
  });

  it('labels a headless Service’s slice', () => {
    const { svc, meta } = newService('foo', NS);
    svc.spec = { ...svc.spec, clusterIP: 'None' };
    expect(newEndpointSlice(svc, meta, CONTROLLER).metadata?.labels?.['service.kubernetes.io/headless']).toBe('');
  });

  it('prefixes generateName with `<name>-` (getEndpointSlicePrefix)', () => {
    expect(getEndpointSlicePrefix('foo')).toBe('foo-');
    // Too long with the dash to be a valid generateName: the name alone.
    expect(getEndpointSlicePrefix('a'.repeat(253))).toBe('a'.repeat(253));
  });
});

describe('podToEndpoint (TestPodToEndpoint)', () => {
  const { svc } = newService('foo', NS);
  const publish: Service = { ...svc, spec: { ...svc.spec, publishNotReadyAddresses: true } };
  const node1: Node = { metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'us-central1-a' } } };
  const withUID = (pod: Pod): Pod => ({ ...pod, metadata: { ...pod.metadata, uid: `${pod.metadata?.name}-uid` } });
  const ready = withUID(newPod(1, NS, true));
  const unready = withUID(newPod(1, NS, false));
  const readyTerminating = withUID(newPod(1, NS, true, true));
  const unreadyTerminating = withUID(newPod(1, NS, false, true));
  const multiIP: Pod = {
    ...ready,
    status: { ...ready.status, podIPs: [{ ip: '1.2.3.4' }, { ip: '1234::5678:0000:0000:9abc:def0' }] },
  };
  const hostname: Pod = {
    ...ready,
    spec: { ...ready.spec, containers: [], subdomain: 'foo', hostname: 'example-hostname' },
  };
  const target = { kind: 'Pod', namespace: NS, name: 'pod1', uid: 'pod1-uid' };
  const base = { addresses: ['1.2.3.5'], nodeName: 'node-1', targetRef: target };
  const cases: Array<[string, Pod, Node | undefined, Service, object]> = [
    ['Ready pod', ready, undefined, svc, { ...base, conditions: { ready: true, serving: true, terminating: false } }],
    [
      'Ready pod + publishNotReadyAddresses',
      ready,
      undefined,
      publish,
      { ...base, conditions: { ready: true, serving: true, terminating: false } },
    ],
    [
      'Unready pod',
      unready,
      undefined,
      svc,
      { ...base, conditions: { ready: false, serving: false, terminating: false } },
    ],
    [
      'Unready pod + publishNotReadyAddresses',
      unready,
      undefined,
      publish,
      { ...base, conditions: { ready: true, serving: false, terminating: false } },
    ],
    [
      'Ready pod + node labels',
      ready,
      node1,
      svc,
      { ...base, zone: 'us-central1-a', conditions: { ready: true, serving: true, terminating: false } },
    ],
    [
      'Multi IP Ready pod + node labels',
      multiIP,
      node1,
      svc,
      {
        ...base,
        addresses: ['1.2.3.4'],
        zone: 'us-central1-a',
        conditions: { ready: true, serving: true, terminating: false },
      },
    ],
    [
      'Ready pod + hostname',
      hostname,
      node1,
      svc,
      {
        ...base,
        hostname: 'example-hostname',
        zone: 'us-central1-a',
        conditions: { ready: true, serving: true, terminating: false },
      },
    ],
    [
      'Ready terminating pod',
      readyTerminating,
      undefined,
      svc,
      { ...base, conditions: { ready: false, serving: true, terminating: true } },
    ],
    [
      'Not ready terminating pod',
      unreadyTerminating,
      undefined,
      svc,
      { ...base, conditions: { ready: false, serving: false, terminating: true } },
    ],
    [
      'Ready terminating pod + publishNotReadyAddresses',
      readyTerminating,
      undefined,
      publish,
      { ...base, conditions: { ready: true, serving: true, terminating: true } },
    ],
    [
      'Not ready terminating pod + publishNotReadyAddresses',
      unreadyTerminating,
      undefined,
      publish,
      { ...base, conditions: { ready: true, serving: false, terminating: true } },
    ],
  ];
  for (const [name, pod, node, service, want] of cases) {
    it(name, () => {
      expect(podToEndpoint(pod, node, service, 'IPv4')).toEqual(want);
    });
  }

  it('a hostname only when the subdomain is the Service, in its namespace (ShouldSetHostname)', () => {
    const other: Pod = { ...hostname, spec: { ...hostname.spec, containers: [], subdomain: 'bar' } };
    expect(podToEndpoint(other, undefined, svc, 'IPv4').hostname).toBeUndefined();
  });
});

describe('serviceControllerKey (TestServiceControllerKey)', () => {
  it('is namespace/service-name, and refuses a slice without the label', () => {
    expect(() => serviceControllerKey({ addressType: 'IPv4', endpoints: [] })).toThrow(
      'EndpointSlice missing kubernetes.io/service-name label',
    );
    const slice: EndpointSlice = {
      metadata: { namespace: 'ns', labels: { [LABEL_SERVICE_NAME]: 'svc' } },
      addressType: 'IPv4',
      endpoints: [],
    };
    expect(serviceControllerKey(slice)).toBe('ns/svc');
  });
});

describe('getEndpointPorts (TestGetEndpointPorts)', () => {
  const pod = (ports: Array<{ name: string; containerPort: number }>): Pod => ({
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', ports: ports.map((p) => ({ ...p, protocol: 'TCP' as const })) }] },
  });
  it('service with AppProtocol on one port', () => {
    const svc: Service = {
      spec: {
        ports: [
          { name: 'http', port: 80, targetPort: 80, protocol: 'TCP', appProtocol: 'example.com/custom-protocol' },
        ],
      },
    };
    expect(getEndpointPorts(svc, pod([]))).toEqual([
      { name: 'http', port: 80, protocol: 'TCP', appProtocol: 'example.com/custom-protocol' },
    ]);
  });
  it('service with named port and AppProtocol on one port', () => {
    const svc: Service = {
      spec: {
        ports: [
          { name: 'http', port: 80, targetPort: 80, protocol: 'TCP' },
          { name: 'https', port: 443, targetPort: 'https', protocol: 'TCP', appProtocol: 'https' },
        ],
      },
    };
    expect(getEndpointPorts(svc, pod([{ name: 'https', containerPort: 443 }]))).toEqual([
      { name: 'http', port: 80, protocol: 'TCP' },
      { name: 'https', port: 443, protocol: 'TCP', appProtocol: 'https' },
    ]);
  });
  it('a named port the pod lacks is left out; a headless Service without ports has none', () => {
    const svc: Service = { spec: { ports: [{ name: 'https', port: 443, targetPort: 'https', protocol: 'TCP' }] } };
    expect(getEndpointPorts(svc, pod([]))).toEqual([]);
    expect(getEndpointPorts({ spec: { clusterIP: 'None' } }, pod([]))).toEqual([]);
  });
  it('a sidecar’s named port counts (FindPort)', () => {
    const svc: Service = { spec: { ports: [{ name: 'm', port: 9, targetPort: 'metrics', protocol: 'TCP' }] } };
    const sidecar: Pod = {
      spec: {
        containers: [{ name: 'c' }],
        initContainers: [{ name: 's', restartPolicy: 'Always', ports: [{ name: 'metrics', containerPort: 9090 }] }],
      },
    };
    expect(getEndpointPorts(svc, sidecar)).toEqual([{ name: 'm', port: 9090, protocol: 'TCP' }]);
  });
});

describe('setEndpointSliceLabels (TestSetEndpointSliceLabels)', () => {
  const slice = (labels: Record<string, string>): EndpointSlice => ({
    metadata: { labels },
    addressType: 'IPv4',
    endpoints: [],
  });
  const svc = (labels: Record<string, string> | undefined, clusterIP = '1.1.1.1'): Service => ({
    metadata: { name: 'svc', ...(labels === undefined ? {} : { labels }) },
    spec: { clusterIP },
  });
  const reserved = { [LABEL_SERVICE_NAME]: 'svc', [LABEL_MANAGED_BY]: CONTROLLER };
  const cases: Array<[string, EndpointSlice, Service, Record<string, string>, boolean]> = [
    ['Service without labels and empty endpoint slice', slice({}), svc(undefined), reserved, false],
    [
      'Headless service with labels and empty endpoint slice',
      slice({}),
      svc({ foo: 'bar' }, 'None'),
      { foo: 'bar', 'service.kubernetes.io/headless': '', ...reserved },
      true,
    ],
    ['Service with labels and empty endpoint slice', slice({}), svc({ foo: 'bar' }), { foo: 'bar', ...reserved }, true],
    ['Slice with labels and service without labels', slice({ foo: 'bar' }), svc(undefined), reserved, true],
    [
      'Slice with headless label and service with ClusterIP',
      slice({ 'service.kubernetes.io/headless': '' }),
      svc(undefined),
      reserved,
      false,
    ],
    [
      'Slice with reserved labels and service with labels',
      slice({ [LABEL_SERVICE_NAME]: 'x', [LABEL_MANAGED_BY]: 'y' }),
      svc({ foo: 'bar' }),
      { foo: 'bar', ...reserved },
      true,
    ],
    [
      'Update Service labels and slice with same labels',
      slice({ foo: 'bar' }),
      svc({ foo: 'bar' }),
      { foo: 'bar', ...reserved },
      false,
    ],
    [
      'Service with reserved labels',
      slice({}),
      svc({ [LABEL_SERVICE_NAME]: 'bad', 'service.kubernetes.io/headless': 'x' }),
      reserved,
      false,
    ],
  ];
  for (const [name, s, service, want, updated] of cases) {
    it(name, () => {
      expect(setEndpointSliceLabels(s, service, CONTROLLER)).toEqual({ labels: want, updated });
    });
  }
});

describe('getAddressTypesForService (TestSupportedServiceAddressType)', () => {
  const svc = (spec: NonNullable<Service['spec']>): Service => ({ spec });
  it('from ipFamilies; without them, the ClusterIP family; headless without them: both', () => {
    expect(getAddressTypesForService(svc({ ipFamilies: ['IPv4'] }))).toEqual(['IPv4']);
    expect(getAddressTypesForService(svc({ ipFamilies: ['IPv6'] }))).toEqual(['IPv6']);
    expect(getAddressTypesForService(svc({ ipFamilies: ['IPv6', 'IPv4'] }))).toEqual(['IPv4', 'IPv6']);
    expect(getAddressTypesForService(svc({ clusterIP: '10.0.0.10' }))).toEqual(['IPv4']);
    expect(getAddressTypesForService(svc({ clusterIP: '2000::1' }))).toEqual(['IPv6']);
    expect(getAddressTypesForService(svc({ clusterIP: 'None' }))).toEqual(['IPv4', 'IPv6']);
    expect(getAddressTypesForService(svc({}))).toEqual(['IPv4', 'IPv6']);
  });

  it('reads IPv4-mapped IPv6 addresses as IPv4 (utilnet.IsIPv6String)', () => {
    expect(isIPv6String('::ffff:1.2.3.4')).toBe(false);
    expect(isIPv6String('2000::1')).toBe(true);
    expect(isIPv6String('1.2.3.4')).toBe(false);
    expect(isIPv6String('not-an-ip')).toBe(false);
  });
});

describe('hintsEnabled (Test_hintsEnabled)', () => {
  const cases: Array<[Record<string, string>, boolean]> = [
    [{}, false],
    [{ 'topology-hints': 'enabled' }, false],
    [{ 'service.kubernetes.io/topology-aware-hints': 'enabled' }, false],
    [{ 'service.kubernetes.io/topology-aware-hints': 'aUto' }, false],
    [{ 'service.kubernetes.io/topology-aware-hints': 'auto' }, true],
    [{ 'service.kubernetes.io/topology-aware-hints': 'Auto' }, true],
    [{ 'service.kubernetes.io/topology-aware-hints': 'disabled' }, false],
    [{ 'service.kubernetes.io/topology-mode': 'aUto' }, false],
    [{ 'service.kubernetes.io/topology-mode': 'auto' }, true],
    [{ 'service.kubernetes.io/topology-mode': 'Auto' }, true],
    [{ 'service.kubernetes.io/topology-mode': 'disabled' }, false],
    // Both: the deprecated annotation wins.
    [
      { 'service.kubernetes.io/topology-aware-hints': 'disabled', 'service.kubernetes.io/topology-mode': 'Auto' },
      false,
    ],
    [{ 'service.kubernetes.io/topology-aware-hints': 'Auto', 'service.kubernetes.io/topology-mode': 'disabled' }, true],
  ];
  for (const [annotations, want] of cases) {
    it(`${JSON.stringify(annotations)} → ${want}`, () => expect(hintsEnabled(annotations)).toBe(want));
  }
});

describe('getSliceToFill (reconciler_test.go getSliceToFill cases)', () => {
  const slice = (n: number) => ({ endpoints: new Array<number>(n).fill(0) });
  it('the slice left closest to full, undefined when none fits', () => {
    expect(getSliceToFill([], 1, 100)).toBeUndefined();
    const fits = [slice(95), slice(90), slice(50)];
    expect(getSliceToFill(fits, 10, 100)).toBe(fits[1]);
    expect(getSliceToFill(fits, 5, 100)).toBe(fits[0]);
    expect(getSliceToFill([slice(95), slice(99)], 10, 100)).toBeUndefined();
    const tie = [slice(50), slice(50)];
    expect(getSliceToFill(tie, 10, 100)).toBe(tie[0]);
  });
});
