// k8s.io/endpointslice util/controller_utils_test.go (v0.32): TestDetermineNeededServiceUpdates,
// TestShouldPodBeInEndpoints, TestShouldSetHostname, TestGetPodServiceMemberships,
// Test_podChanged, TestEndpointsEqualBeyondHash; and the endpoint set and port keys.
import { describe, expect, it } from 'vitest';
import type { Pod, Service } from '../../api/types/core/v1.js';
import type { Endpoint } from '../../api/types/discovery/v1.js';
import { Lister } from '../../client/informers/listers.js';
import { ThreadSafeStore } from '../../client/informers/thread-safe-store.js';
import {
  determineNeededServiceUpdates,
  EndpointSet,
  endpointsEqualBeyondHash,
  newPortMapKey,
  podEndpointsChanged,
  podServiceMemberships,
  servicesToUpdateOnPodChange,
  shouldPodBeInEndpoints,
  shouldSetHostname,
} from './endpoint-utils.js';

describe('determineNeededServiceUpdates (TestDetermineNeededServiceUpdates)', () => {
  const cases: Array<[string, string[], string[], boolean, string[]]> = [
    ['no services changed', ['a', 'b', 'c'], ['a', 'b', 'c'], false, []],
    [
      'all old services removed, new services added',
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
      false,
      ['a', 'b', 'c', 'd', 'e', 'f'],
    ],
    ['all old services removed, no new services added', ['a', 'b', 'c'], [], false, ['a', 'b', 'c']],
    ['no old services, but new services added', [], ['a', 'b', 'c'], false, ['a', 'b', 'c']],
    ['one service removed, one service added, two unchanged', ['a', 'b', 'c'], ['b', 'c', 'd'], false, ['a', 'd']],
    ['no services changed, pod changed', ['a', 'b', 'c'], ['a', 'b', 'c'], true, ['a', 'b', 'c']],
    ['one removed, one added, pod changed', ['a', 'b', 'c'], ['b', 'c', 'd'], true, ['a', 'b', 'c', 'd']],
  ];
  for (const [name, old, cur, podChanged, want] of cases) {
    it(name, () => {
      expect([...determineNeededServiceUpdates(new Set(old), new Set(cur), podChanged)].sort()).toEqual(want);
    });
  }
});

describe('shouldPodBeInEndpoints (TestShouldPodBeInEndpoints)', () => {
  const pod = (status: NonNullable<Pod['status']>, deleting = false): Pod => ({
    metadata: { name: 'p', ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) },
    spec: { containers: [] },
    status,
  });
  const cases: Array<[string, Pod, boolean, boolean]> = [
    ['Failed pod', pod({ phase: 'Failed', podIP: '1.2.3.4' }), false, false],
    ['Succeeded pod', pod({ phase: 'Succeeded', podIP: '1.2.3.4' }), false, false],
    ['Empty Pod IPs, Running pod', pod({ phase: 'Running', podIP: '', podIPs: [] }), false, false],
    ['Terminating Pod with includeTerminating=false', pod({ phase: 'Running', podIP: '1.2.3.4' }, true), false, false],
    ['Pending pod', pod({ phase: 'Pending', podIP: '1.2.3.4' }), false, true],
    ['Unknown pod', pod({ phase: 'Unknown', podIP: '1.2.3.4' }), false, true],
    ['Running pod', pod({ phase: 'Running', podIP: '1.2.3.4' }), false, true],
    [
      'Multiple Pod IPs, Running pod',
      pod({ phase: 'Running', podIPs: [{ ip: '1.2.3.4' }, { ip: '1234::5678:0000:0000:9abc:def0' }] }),
      false,
      true,
    ],
    ['Terminating Pod with includeTerminating=true', pod({ phase: 'Running', podIP: '1.2.3.4' }, true), true, true],
  ];
  for (const [name, p, includeTerminating, want] of cases) {
    it(name, () => expect(shouldPodBeInEndpoints(p, includeTerminating)).toBe(want));
  }
});

describe('shouldSetHostname (TestShouldSetHostname)', () => {
  const pod = (hostname: string, subdomain: string, namespace = 'default'): Pod => ({
    metadata: { name: 'p', namespace },
    spec: { containers: [], hostname, subdomain },
  });
  const svc = (name: string, namespace = 'default'): Service => ({ metadata: { name, namespace } });
  it('needs a hostname, the Service as subdomain, and the same namespace', () => {
    expect(shouldSetHostname(pod('', ''), svc('foo'))).toBe(false);
    expect(shouldSetHostname(pod('foo-pod', 'bar'), svc('foo'))).toBe(false);
    expect(shouldSetHostname(pod('', 'foo'), svc('foo'))).toBe(false);
    expect(shouldSetHostname(pod('foo-pod', 'foo'), svc('foo'))).toBe(true);
    expect(shouldSetHostname(pod('foo-pod', 'foo', 'other'), svc('foo'))).toBe(false);
  });
});

function serviceLister(services: Service[]): Lister<Service> {
  const store = new ThreadSafeStore<Service>();
  for (const s of services) store.add(`${s.metadata?.namespace}/${s.metadata?.name}`, s);
  return new Lister(store);
}

describe('podServiceMemberships (TestGetPodServiceMemberships)', () => {
  const services = serviceLister([
    { metadata: { name: 'svc-0', namespace: 'default' }, spec: { selector: { foo: 'bar' } } },
    { metadata: { name: 'svc-1', namespace: 'default' }, spec: { selector: { foo: 'bar', app: 'web' } } },
    { metadata: { name: 'svc-2', namespace: 'other' }, spec: { selector: { foo: 'bar' } } },
    { metadata: { name: 'svc-3', namespace: 'default' }, spec: {} },
  ]);
  const pod = (labels: Record<string, string>, namespace = 'default'): Pod => ({
    metadata: { name: 'p', namespace, labels },
  });
  it('the Services of its namespace whose selector matches its labels', () => {
    expect([...podServiceMemberships(services, pod({ foo: 'bar' }))]).toEqual(['default/svc-0']);
    expect([...podServiceMemberships(services, pod({ foo: 'bar', app: 'web' }))].sort()).toEqual([
      'default/svc-0',
      'default/svc-1',
    ]);
    expect([...podServiceMemberships(services, pod({ foo: 'bar' }, 'other'))]).toEqual(['other/svc-2']);
    expect([...podServiceMemberships(services, pod({}))]).toEqual([]);
  });
});

describe('podEndpointsChanged (Test_podChanged)', () => {
  const base = (): Pod => ({
    metadata: { name: 'p', namespace: 'default', labels: {}, resourceVersion: '1' },
    spec: { containers: [], nodeName: 'node-1' },
    status: { conditions: [{ type: 'Ready', status: 'False' }] },
  });
  const cases: Array<[string, (old: Pod, cur: Pod) => void, boolean, boolean]> = [
    ['no changes', () => {}, false, false],
    [
      'change NodeName',
      (_o, n) => {
        n.spec = { ...n.spec, containers: [], nodeName: 'changed' };
      },
      false,
      false,
    ],
    [
      'change ResourceVersion',
      (_o, n) => {
        n.metadata = { ...n.metadata, resourceVersion: 'changed' };
      },
      false,
      false,
    ],
    [
      'add primary IPv4',
      (_o, n) => {
        n.status = { ...n.status, podIP: '1.2.3.4', podIPs: [{ ip: '1.2.3.4' }] };
      },
      true,
      false,
    ],
    [
      'modify primary IPv4',
      (o, n) => {
        o.status = { ...o.status, podIP: '1.2.3.4', podIPs: [{ ip: '1.2.3.4' }] };
        n.status = { ...n.status, podIP: '2.3.4.5', podIPs: [{ ip: '2.3.4.5' }] };
      },
      true,
      false,
    ],
    [
      'add secondary IP',
      (o, n) => {
        o.status = { ...o.status, podIPs: [{ ip: '1.2.3.4' }] };
        n.status = { ...n.status, podIPs: [{ ip: '1.2.3.4' }, { ip: 'fd00:10:96::1' }] };
      },
      true,
      false,
    ],
    [
      'modify secondary IP',
      (o, n) => {
        o.status = { ...o.status, podIPs: [{ ip: '1.2.3.4' }, { ip: 'fd00:10:96::1' }] };
        n.status = { ...n.status, podIPs: [{ ip: '1.2.3.4' }, { ip: 'fd00:10:96::2' }] };
      },
      true,
      false,
    ],
    [
      'remove secondary IP',
      (o, n) => {
        o.status = { ...o.status, podIPs: [{ ip: '1.2.3.4' }, { ip: 'fd00:10:96::1' }] };
        n.status = { ...n.status, podIPs: [{ ip: '1.2.3.4' }] };
      },
      true,
      false,
    ],
    [
      'change readiness',
      (_o, n) => {
        n.status = { ...n.status, conditions: [{ type: 'Ready', status: 'True' }] };
      },
      true,
      false,
    ],
    [
      'mark for deletion',
      (_o, n) => {
        n.metadata = { ...n.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' };
      },
      true,
      false,
    ],
    [
      'add label',
      (_o, n) => {
        n.metadata = { ...n.metadata, labels: { label: 'new' } };
      },
      false,
      true,
    ],
    [
      'modify label',
      (o, n) => {
        o.metadata = { ...o.metadata, labels: { label: 'old' } };
        n.metadata = { ...n.metadata, labels: { label: 'new' } };
      },
      false,
      true,
    ],
    [
      'remove label',
      (o) => {
        o.metadata = { ...o.metadata, labels: { label: 'old' } };
      },
      false,
      true,
    ],
    [
      'change hostname',
      (_o, n) => {
        n.spec = { ...n.spec, containers: [], hostname: 'h' };
      },
      false,
      true,
    ],
    [
      'change subdomain',
      (_o, n) => {
        n.spec = { ...n.spec, containers: [], subdomain: 's' };
      },
      false,
      true,
    ],
  ];
  for (const [name, modify, podChanged, labelsChanged] of cases) {
    it(name, () => {
      const old = base();
      const cur = base();
      modify(old, cur);
      expect(podEndpointsChanged(old, cur)).toEqual([podChanged, labelsChanged]);
    });
  }

  it('a resync (same resourceVersion) queues nothing; a label move queues both Services (GetServicesToUpdateOnPodChange)', () => {
    const services = serviceLister([
      { metadata: { name: 'a', namespace: 'default' }, spec: { selector: { app: 'a' } } },
      { metadata: { name: 'b', namespace: 'default' }, spec: { selector: { app: 'b' } } },
    ]);
    const old: Pod = { metadata: { name: 'p', namespace: 'default', labels: { app: 'a' }, resourceVersion: '1' } };
    expect([...servicesToUpdateOnPodChange(services, old, { ...old })]).toEqual([]);
    const moved: Pod = { metadata: { ...old.metadata, labels: { app: 'b' }, resourceVersion: '2' } };
    expect([...servicesToUpdateOnPodChange(services, old, moved)].sort()).toEqual(['default/a', 'default/b']);
  });
});

describe('endpointsEqualBeyondHash (TestEndpointsEqualBeyondHash)', () => {
  const ep = (extra: Partial<Endpoint> = {}): Endpoint => ({
    addresses: ['10.0.0.1'],
    conditions: { ready: true, serving: true, terminating: false },
    nodeName: 'node-1',
    zone: 'zone-a',
    targetRef: { kind: 'Pod', namespace: 'default', name: 'pod0', uid: 'uid', resourceVersion: '1' },
    ...extra,
  });
  it('compares what the key leaves out, targetRef resourceVersion aside', () => {
    expect(endpointsEqualBeyondHash(ep(), ep())).toBe(true);
    expect(
      endpointsEqualBeyondHash(
        ep(),
        ep({ targetRef: { kind: 'Pod', namespace: 'default', name: 'pod0', uid: 'uid', resourceVersion: '2' } }),
      ),
    ).toBe(true);
    expect(
      endpointsEqualBeyondHash(ep(), ep({ conditions: { ready: false, serving: true, terminating: false } })),
    ).toBe(false);
    expect(
      endpointsEqualBeyondHash(ep(), ep({ conditions: { ready: true, serving: false, terminating: false } })),
    ).toBe(false);
    expect(endpointsEqualBeyondHash(ep(), ep({ conditions: { ready: true, serving: true, terminating: true } }))).toBe(
      false,
    );
    expect(endpointsEqualBeyondHash(ep(), ep({ nodeName: 'node-2' }))).toBe(false);
    expect(endpointsEqualBeyondHash(ep(), ep({ zone: 'zone-b' }))).toBe(false);
    expect(
      endpointsEqualBeyondHash(
        ep(),
        ep({ targetRef: { kind: 'Pod', namespace: 'default', name: 'pod0', uid: 'other' } }),
      ),
    ).toBe(false);
  });
});

describe('EndpointSet and port keys (endpointset.go, NewPortMapKey)', () => {
  it('keys endpoints by sorted addresses, hostname and target', () => {
    const set = new EndpointSet();
    set.insert({ addresses: ['10.0.0.2', '10.0.0.1'], targetRef: { namespace: 'ns', name: 'p' } });
    expect(set.has({ addresses: ['10.0.0.1', '10.0.0.2'], targetRef: { namespace: 'ns', name: 'p' } })).toBe(true);
    expect(
      set.has({ addresses: ['10.0.0.1', '10.0.0.2'], hostname: 'h', targetRef: { namespace: 'ns', name: 'p' } }),
    ).toBe(false);
    expect(set.popAny()?.addresses).toEqual(['10.0.0.2', '10.0.0.1']);
    expect(set.size).toBe(0);
  });

  it('gives one key to a port set whatever its order, and sorts it in place', () => {
    const a = [
      { name: 'tcp-example', port: 80, protocol: 'TCP' as const },
      { name: 'udp-example', port: 161, protocol: 'UDP' as const },
    ];
    const b = [...a].reverse();
    expect(newPortMapKey(a)).toBe(newPortMapKey(b));
    expect(a).toEqual(b);
    expect(newPortMapKey([{ name: '', port: 80, protocol: 'TCP' }])).not.toBe(
      newPortMapKey([{ port: 80, protocol: 'TCP' }]),
    );
  });
});
