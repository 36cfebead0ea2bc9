import { describe, expect, it } from 'vitest';
import { SYSTEM_PRIORITY_CLASSES } from '../registry/scheduling/priorityclasses/strategy.js';
import { admissionServer, pod } from './testing/admission-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read and edit response documents freely
type Obj = Record<string, any>;

const pc = (name: string, value: number, extra: Obj = {}) => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
});

describe('Priority', () => {
  it('resolves priorityClassName into spec.priority and spec.preemptionPolicy', async () => {
    const s = await admissionServer();
    await s.json('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc('high', 1000, { preemptionPolicy: 'Never' }));
    const { status, body } = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('p', { priorityClassName: 'high' }),
    );
    expect(status).toBe(201);
    expect(body.spec).toMatchObject({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
  });

  it('gives a pod without a class priority 0 and PreemptLowerPriority, or the globalDefault class', async () => {
    const s = await admissionServer();
    const plain = await s.json('POST', '/api/v1/namespaces/default/pods', pod('a'));
    expect(plain.body.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect((plain.body.spec as Obj).priorityClassName).toBeUndefined();
    await s.json('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc('normal', 10, { globalDefault: true }));
    const defaulted = await s.json('POST', '/api/v1/namespaces/default/pods', pod('b'));
    expect(defaulted.body.spec).toMatchObject({
      priorityClassName: 'normal',
      priority: 10,
      preemptionPolicy: 'PreemptLowerPriority',
    });
  });

  it('refuses a class that does not exist, and a priority the user set that differs from the class', async () => {
    const s = await admissionServer();
    const missing = await s.json('POST', '/api/v1/namespaces/default/pods', pod('p', { priorityClassName: 'gold' }));
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "p" is forbidden: no PriorityClass with name gold was found',
    });
    const set = await s.json('POST', '/api/v1/namespaces/default/pods', pod('q', { priority: 5 }));
    expect(set.status).toBe(403);
    expect(set.body.message).toBe(
      'pods "q" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
    const policy = await s.json('POST', '/api/v1/namespaces/default/pods', pod('r', { preemptionPolicy: 'Never' }));
    expect(policy.body.message).toBe(
      'pods "r" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    );
    // The same value as the class's is accepted.
    expect((await s.json('POST', '/api/v1/namespaces/default/pods', pod('t', { priority: 0 }))).status).toBe(201);
    const list = await s.json('GET', '/api/v1/namespaces/default/pods');
    expect((list.body.items as Obj[]).map((p) => p.metadata.name)).toEqual(['t']);
  });

  it('keeps the stored priority on an update whose body has none', async () => {
    const s = await admissionServer();
    await s.json('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc('high', 1000));
    const { body: created } = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('p', { priorityClassName: 'high' }),
    );
    const next = structuredClone(created) as Obj;
    delete next.spec.priority;
    delete next.spec.preemptionPolicy;
    next.metadata.labels = { a: 'b' };
    const { status, body } = await s.json('PUT', '/api/v1/namespaces/default/pods/p', next);
    expect(status).toBe(200);
    expect(body.spec).toMatchObject({ priority: 1000, preemptionPolicy: 'PreemptLowerPriority' });
  });

  it('allows one globalDefault PriorityClass only', async () => {
    const s = await admissionServer();
    await s.json('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc('one', 1, { globalDefault: true }));
    const second = await s.json(
      'POST',
      '/apis/scheduling.k8s.io/v1/priorityclasses',
      pc('two', 2, { globalDefault: true }),
    );
    expect(second.status).toBe(403);
    expect(second.body.message).toBe(
      'priorityclasses.scheduling.k8s.io "two" is forbidden: PriorityClass one is already marked as default. Only one default can exist',
    );
    await s.json('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc('two', 2));
    const marked = await s.json(
      'PATCH',
      '/apis/scheduling.k8s.io/v1/priorityclasses/two',
      { globalDefault: true },
      {
        'Content-Type': 'application/merge-patch+json',
      },
    );
    expect(marked.status).toBe(403);
    expect(marked.body.message).toBe(
      'priorityclasses.scheduling.k8s.io "two" is forbidden: PriorityClass one is already marked as default. Only one default can exist',
    );
    // The default itself may be updated.
    const same = await s.json(
      'PATCH',
      '/apis/scheduling.k8s.io/v1/priorityclasses/one',
      { description: 'x' },
      {
        'Content-Type': 'application/merge-patch+json',
      },
    );
    expect(same.status).toBe(200);
  });

  it('lets any namespace use the system classes (1.32 has no kube-system-only rule)', async () => {
    const s = await admissionServer();
    for (const pc of SYSTEM_PRIORITY_CLASSES) {
      expect((await s.json('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc)).status).toBe(201);
    }
    const node = await s.json(
      'POST',
      '/api/v1/namespaces/team-a/pods',
      pod('n', { priorityClassName: 'system-node-critical' }),
    );
    expect(node.status).toBe(201);
    expect((node.body.spec as Obj).priority).toBe(2000001000);
    const cluster = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('c', { priorityClassName: 'system-cluster-critical' }),
    );
    expect((cluster.body.spec as Obj).priority).toBe(2000000000);
  });
});
