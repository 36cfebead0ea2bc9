// k8s.io/endpointslice util/trigger_time_tracker_test.go (v0.32), case for case.
import { describe, expect, it } from 'vitest';
import type { Pod, Service } from '../../api/types/core/v1.js';
import { rfc3339Nano, TriggerTimeTracker } from './trigger-time-tracker.js';

const t = (i: number) => Date.UTC(2019, 0, 1, 0, 0, i);
const [t0, t1, t2, t3, t4, t5] = [0, 1, 2, 3, 4, 5].map(t) as [number, number, number, number, number, number];
const NS = 'ttNamespace1';
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const service = (created: number): Service => ({
  metadata: { namespace: NS, name: 'my-service', creationTimestamp: iso(created) },
});
const pod = (name: string, ready: number): Pod => ({
  metadata: { namespace: NS, name },
  status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(ready) }] },
});

describe('TriggerTimeTracker', () => {
  it('a new Service without pods: its creation (TestNewServiceNoPods)', () => {
    expect(new TriggerTimeTracker().computeEndpointLastChangeTriggerTime(NS, service(t2), [])).toBe(t2);
  });

  it('a new Service with older and newer pods: its creation (TestNewServiceExistingPods)', () => {
    const pods = [pod('pod1', t0), pod('pod2', t1), pod('pod3', t5)];
    expect(new TriggerTimeTracker().computeEndpointLastChangeTriggerTime(NS, service(t3), pods)).toBe(t3);
  });

  it('pods added: the earliest of their Ready times (TestPodsAdded)', () => {
    const tr = new TriggerTimeTracker();
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), [])).toBe(t0);
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), [pod('pod1', t2), pod('pod2', t1)])).toBe(t1);
  });

  it('pods updated: the earliest changed one (TestPodsUpdated)', () => {
    const tr = new TriggerTimeTracker();
    const pod3 = pod('pod3', t3);
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), [pod('pod1', t1), pod('pod2', t2), pod3])).toBe(t0);
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), [pod('pod1', t5), pod('pod2', t4), pod3])).toBe(t4);
  });

  it('nothing changed: none (TestPodsUpdatedNoOp)', () => {
    const tr = new TriggerTimeTracker();
    const pods = [pod('pod1', t1), pod('pod2', t2), pod('pod3', t3)];
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), pods)).toBe(t0);
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), pods)).toBeUndefined();
  });

  it('a pod deleted then added: its Ready time (TestPodDeletedThenAdded)', () => {
    const tr = new TriggerTimeTracker();
    const pod1 = pod('pod1', t1);
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), [pod1, pod('pod2', t2)])).toBe(t0);
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), [pod1])).toBeUndefined();
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), [pod1, pod('pod2', t4)])).toBe(t4);
  });

  it('a Service deleted then added: the new creation (TestServiceDeletedThenAdded)', () => {
    const tr = new TriggerTimeTracker();
    const pods = [pod('pod1', t1), pod('pod2', t2)];
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), pods)).toBe(t0);
    tr.deleteService(NS, 'my-service');
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t3), pods)).toBe(t3);
  });

  it('a Service updated, its pods not: none (TestServiceUpdatedNoPodChange)', () => {
    const tr = new TriggerTimeTracker();
    const pods = [pod('pod1', t1), pod('pod2', t2)];
    expect(tr.computeEndpointLastChangeTriggerTime(NS, service(t0), pods)).toBe(t0);
    const updated: Service = { ...service(t0), spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] } };
    expect(tr.computeEndpointLastChangeTriggerTime(NS, updated, pods)).toBeUndefined();
  });

  it('formats as RFC3339Nano: no fraction for whole seconds, trailing zeros dropped', () => {
    expect(rfc3339Nano(t0)).toBe('2019-01-01T00:00:00Z');
    expect(rfc3339Nano(t0 + 250)).toBe('2019-01-01T00:00:00.25Z');
  });
});
