import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import type { Pod } from '../../api/types/core/v1.js';
import { type Client, RESOURCES, SharedInformerFactory } from '../../client/index.js';
import {
  eventually,
  type Harness,
  harness,
  TRANSPORT_KINDS,
  type TransportKind,
} from '../../client/testing/harness.js';
import type { Kubewasm } from '../../wasm/kubewasm.js';
import { loadKubewasm } from '../../wasm/node.js';
import { type CycleResult, Scheduler, truncateMessage } from './scheduler.js';

let kubewasm: Kubewasm;
beforeAll(async () => {
  kubewasm = await loadKubewasm();
});

// scheduler_perf's node-default and pod-default templates.
const node = (name: string, cpu = '4') => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { capacity: { cpu, memory: '32Gi', pods: '110' }, allocatable: { cpu, memory: '32Gi', pods: '110' } },
});
const pod = (name: string, cpu = '100m', extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: {
    containers: [
      { name: 'pause', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu, memory: '500Mi' } } },
    ],
    ...extra,
  },
});

interface Setup {
  h: Harness;
  client: Client;
  scheduler: Scheduler;
  errors: Array<{ err: unknown; context: string }>;
  cycles: CycleResult[];
}

let running: Setup | undefined;
afterEach(async () => {
  await running?.scheduler.stop();
  // Event writes (and anything else outside a cycle) must not have failed silently.
  expect(running?.errors ?? []).toEqual([]);
  running = undefined;
});

async function setup(
  nodes: KubeObject[],
  kind: TransportKind = 'in-process',
  wrap: (c: Client) => Client = (c) => c,
): Promise<Setup> {
  const h = await harness(kind);
  const client = wrap(h.client);
  for (const n of nodes) await createNode(client, n);
  const errors: Setup['errors'] = [];
  const scheduler = new Scheduler({
    client,
    kubewasm,
    clock: h.server.clock,
    seed: 1n,
    onError: (err, context) => errors.push({ err, context }),
  });
  const cycles: CycleResult[] = [];
  scheduler.onCycle((r) => cycles.push(r));
  await scheduler.start();
  running = { h, client, scheduler, errors, cycles };
  return running;
}

/** Creates a node with its status (the status subresource, in case create drops it). */
async function createNode(client: Client, n: KubeObject): Promise<void> {
  const created = await client.create(RESOURCES.nodes, undefined, n);
  if (JSON.stringify(created.status) !== JSON.stringify(n.status)) {
    await client.updateStatus(RESOURCES.nodes, undefined, { ...created, status: n.status });
  }
}

async function getPod(client: Client, name: string): Promise<Pod> {
  return client.get<Pod>(RESOURCES.pods, 'default', name);
}

interface CoreEvent extends KubeObject {
  involvedObject: { kind: string; name: string; namespace: string };
  reason: string;
  message: string;
  type: string;
  count: number;
  source: { component: string };
  firstTimestamp: string;
  lastTimestamp: string;
}

async function eventsFor(client: Client, podName: string): Promise<CoreEvent[]> {
  const list = await client.list<CoreEvent>(RESOURCES.events, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject.name === podName);
}

/** Real-time polling for an async condition (the apiserver answers in-process, in microtasks). */
async function until(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  let ok = false;
  const poll = async () => {
    ok = await check();
  };
  await poll();
  await eventually(() => {
    if (!ok) void poll();
    return ok;
  }, ms);
}

describe('Scheduler', () => {
  it.each(TRANSPORT_KINDS)('binds every pending pod and records a Scheduled event for each (%s)', async (kind) => {
    const { client, h } = await setup([node('node-0'), node('node-1'), node('node-2')], kind);
    const names = Array.from({ length: 10 }, (_, i) => `pod-${i}`);
    for (const name of names) await client.create(RESOURCES.pods, 'default', pod(name));

    await until(async () => (await Promise.all(names.map((n) => getPod(client, n)))).every((p) => p.spec?.nodeName));
    const pods = await Promise.all(names.map((n) => getPod(client, n)));
    expect(new Set(pods.map((p) => p.spec?.nodeName))).toEqual(new Set(['node-0', 'node-1', 'node-2']));

    await until(async () => (await client.list(RESOURCES.events, { namespace: 'default' })).items.length >= 10);
    for (const p of pods) {
      const events = await eventsFor(client, p.metadata?.name ?? '');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        reason: 'Scheduled',
        type: 'Normal',
        message: `Successfully assigned default/${p.metadata?.name} to ${p.spec?.nodeName}`,
        count: 1,
        source: { component: 'default-scheduler' },
        involvedObject: { kind: 'Pod', name: p.metadata?.name, namespace: 'default', uid: p.metadata?.uid },
        firstTimestamp: new Date(h.server.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      });
      expect(events[0]?.metadata?.name).toMatch(new RegExp(`^${p.metadata?.name}\\.[0-9a-f]+$`));
    }
  });

  it('reports a pod too big for every node, then binds it once a big enough node appears', async () => {
    const { client, h, scheduler, cycles } = await setup([node('node-0'), node('node-1'), node('node-2')]);
    await client.create(RESOURCES.pods, 'default', pod('big', '6'));

    await until(async () => (await eventsFor(client, 'big')).length > 0);
    const [failed] = await eventsFor(client, 'big');
    expect(failed).toMatchObject({ reason: 'FailedScheduling', type: 'Warning', count: 1 });
    // kube-scheduler's FitError text, with DefaultPreemption's PostFilter part.
    expect(failed?.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
    expect(cycles.at(-1)).toMatchObject({ pod: 'default/big', result: 'unschedulable', plugins: ['NodeResourcesFit'] });
    expect((await getPod(client, 'big')).spec?.nodeName).toBeUndefined();
    expect(scheduler.pending().unschedulable).toEqual(['default/big']);

    // NodeAdd moves it out of unschedulablePods; it still backs off (1 s after its attempt).
    await createNode(client, node('node-big', '8'));
    await eventually(() => scheduler.pending().unschedulable.length === 0);
    expect(scheduler.pending().backoff).toEqual(['default/big']);
    h.server.clock.advance(1_000);

    await until(async () => (await getPod(client, 'big')).spec?.nodeName === 'node-big');
    await until(async () => (await eventsFor(client, 'big')).some((e) => e.reason === 'Scheduled'));
    const scheduled = (await eventsFor(client, 'big')).find((e) => e.reason === 'Scheduled');
    expect(scheduled?.message).toBe('Successfully assigned default/big to node-big');
  });

  it('frees a deleted pod’s capacity in the engine and retries the pod waiting for it', async () => {
    const { client, h, scheduler } = await setup([node('only')]);
    await client.create(RESOURCES.pods, 'default', pod('first', '3'));
    await until(async () => (await getPod(client, 'first')).spec?.nodeName === 'only');

    await client.create(RESOURCES.pods, 'default', pod('second', '3'));
    await until(async () => (await eventsFor(client, 'second')).some((e) => e.reason === 'FailedScheduling'));
    expect(scheduler.pending().unschedulable).toEqual(['default/second']);

    await client.delete(RESOURCES.pods, 'default', 'first', { gracePeriodSeconds: 0 });
    await eventually(() => scheduler.pending().unschedulable.length === 0);
    h.server.clock.advance(1_000);
    await until(async () => (await getPod(client, 'second')).spec?.nodeName === 'only');
  });

  it('keeps a pod its rejecting plugin cannot help through other events, and retries it on one it registered', async () => {
    const tainted = {
      ...node('tainted'),
      spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
    };
    const { client, h, scheduler, cycles } = await setup([tainted]);
    await client.create(RESOURCES.pods, 'default', pod('waiting'));
    await until(async () => (await eventsFor(client, 'waiting')).some((e) => e.reason === 'FailedScheduling'));
    expect(cycles.find((c) => c.pod === 'default/waiting')).toMatchObject({
      result: 'unschedulable',
      message:
        '0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      plugins: ['TaintToleration'],
    });

    // A bound pod coming and going is AssignedPodAdd and AssignedPodDelete: TaintToleration
    // registered neither. The pod created after them is scheduled once the informer has seen them.
    await client.create(RESOURCES.pods, 'default', pod('bound', '100m', { nodeName: 'tainted' }));
    await client.delete(RESOURCES.pods, 'default', 'bound', { gracePeriodSeconds: 0 });
    await client.create(RESOURCES.pods, 'default', pod('probe'));
    await eventually(() => cycles.some((c) => c.pod === 'default/probe'));
    expect(scheduler.pending().unschedulable).toContain('default/waiting');

    // The taint going away is NodeTaintChange, which TaintToleration registered (Node/UpdateNodeTaint).
    await client.patch(RESOURCES.nodes, undefined, 'tainted', 'merge', { spec: { taints: null } });
    await eventually(() => !scheduler.pending().unschedulable.includes('default/waiting'));
    h.server.clock.advance(1_000);
    await until(async () => (await getPod(client, 'waiting')).spec?.nodeName === 'tainted');
  });

  it('names no plugin for a pod that finds no nodes, so it only backs off', async () => {
    const { client, h, scheduler, cycles } = await setup([]);
    await client.create(RESOURCES.pods, 'default', pod('early'));
    await eventually(() => cycles.some((c) => c.pod === 'default/early'));
    expect(cycles[0]).toEqual({
      pod: 'default/early',
      result: 'unschedulable',
      message: 'no nodes available to schedule pods',
      plugins: [],
    });
    expect(scheduler.pending().backoff).toEqual(['default/early']);
    await createNode(client, node('node-0'));
    h.server.clock.advance(1_000);
    await until(async () => (await getPod(client, 'early')).spec?.nodeName === 'node-0');
  });

  // The victims have no grace period: no kubelet here would finish a graceful deletion.
  it('preempts a lower-priority pod through the API and binds the preemptor once it is gone', async () => {
    const { client, h, cycles } = await setup([node('only')]);
    await client.create(RESOURCES.pods, 'default', pod('low', '3', { priority: 0, terminationGracePeriodSeconds: 0 }));
    await until(async () => (await getPod(client, 'low')).spec?.nodeName === 'only');

    await client.create(RESOURCES.pods, 'default', pod('high', '3', { priority: 1000 }));
    await until(async () => (await client.list(RESOURCES.pods, { namespace: 'default' })).items.length === 1);
    expect(cycles.find((c) => c.pod === 'default/high')).toMatchObject({ result: 'unschedulable' });
    // The preemptor is nominated to the node its victims leave (handleSchedulingFailure → updatePod).
    await until(async () => (await getPod(client, 'high')).status?.nominatedNodeName === 'only');
    h.server.clock.advance(1_000);
    await until(async () => (await getPod(client, 'high')).spec?.nodeName === 'only');
    // Bound where it was nominated: the nomination stays, as kube-scheduler 1.32 leaves it.
    expect((await getPod(client, 'high')).status?.nominatedNodeName).toBe('only');
  });

  it('clears the nomination of a preemptor bound to another node', async () => {
    const { client, h } = await setup([node('only')]);
    await client.create(RESOURCES.pods, 'default', pod('low', '3', { priority: 0, terminationGracePeriodSeconds: 0 }));
    await until(async () => (await getPod(client, 'low')).spec?.nodeName === 'only');
    await client.create(RESOURCES.pods, 'default', pod('high', '3', { priority: 1000 }));
    await until(async () => (await getPod(client, 'high')).status?.nominatedNodeName === 'only');
    await until(async () => (await client.list(RESOURCES.pods, { namespace: 'default' })).items.length === 1);

    // An 8-CPU node scores higher (LeastAllocated, BalancedAllocation) than the freed 4-CPU one.
    await createNode(client, node('roomy', '8'));
    h.server.clock.advance(1_000);
    await until(async () => (await getPod(client, 'high')).spec?.nodeName === 'roomy');
    await until(async () => (await getPod(client, 'high')).status?.nominatedNodeName === undefined);
  });

  it('clears the nomination when a later attempt finds no preemption candidate', async () => {
    const { client, h } = await setup([node('only')]);
    await client.create(RESOURCES.pods, 'default', pod('low', '3', { priority: 0, terminationGracePeriodSeconds: 0 }));
    await until(async () => (await getPod(client, 'low')).spec?.nodeName === 'only');
    await client.create(RESOURCES.pods, 'default', pod('high', '3', { priority: 1000 }));
    await until(async () => (await getPod(client, 'high')).status?.nominatedNodeName === 'only');
    await until(async () => (await client.list(RESOURCES.pods, { namespace: 'default' })).items.length === 1);

    // A pod it may not preempt takes the node first.
    await client.create(RESOURCES.pods, 'default', pod('top', '3', { priority: 2000, nodeName: 'only' }));
    h.server.clock.advance(1_000);
    await until(async () => (await getPod(client, 'high')).status?.nominatedNodeName === undefined);
    const condition = (await getPod(client, 'high')).status?.conditions?.find((c) => c.type === 'PodScheduled');
    expect(condition?.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
  });

  it('writes PodScheduled=False with the FitError message through pods/status, once per change', async () => {
    const { client, h, scheduler } = await setup([node('node-0'), node('node-1')]);
    await client.create(RESOURCES.pods, 'default', pod('big', '6'));
    const condition = async () =>
      (await getPod(client, 'big')).status?.conditions?.find((c) => c.type === 'PodScheduled');
    await until(async () => (await condition()) !== undefined);
    const message =
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';
    const first = await condition();
    expect(first).toEqual({
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message,
      lastTransitionTime: new Date(h.server.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
    expect((await getPod(client, 'big')).status?.nominatedNodeName).toBeUndefined();
    const version = (await getPod(client, 'big')).metadata?.resourceVersion;

    // The same verdict again (flushed from unschedulablePods after 5 minutes): nothing to write.
    h.server.clock.advance(5 * 60_000 + 30_000);
    // The recorder may aggregate the repeated event into one with count 2.
    const attempts = async () => (await eventsFor(client, 'big')).reduce((n, e) => n + e.count, 0);
    await until(async () => (await attempts()) >= 2);
    expect((await getPod(client, 'big')).metadata?.resourceVersion).toBe(version);

    // A different verdict (a third node): the message changes, the transition time does not.
    await createNode(client, node('node-2', '2'));
    h.server.clock.advance(10_000);
    const changed = message.replaceAll('0/2', '0/3').replaceAll(': 2 ', ': 3 ');
    await until(async () => (await condition())?.message === changed);
    expect((await condition())?.lastTransitionTime).toBe(first?.lastTransitionTime);
    await scheduler.stop(); // every write in flight answers before stop() returns
  });

  it('truncates a long message as truncateMessage does', () => {
    expect(truncateMessage('x'.repeat(1024))).toBe('x'.repeat(1024));
    const cut = truncateMessage('y'.repeat(2000));
    expect(cut).toHaveLength(1024);
    expect(cut.endsWith('y ...')).toBe(true);
  });

  it('forgets the assumed pod when binding fails and retries it after backoff', async () => {
    let failures = 1;
    const { client, h, cycles } = await setup([node('only')], 'in-process', (c) => ({
      ...c,
      bind: (ns, name, target) =>
        failures-- > 0 ? Promise.reject(new Error('injected bind failure')) : c.bind(ns, name, target),
    }));
    // 3 of 4 CPUs: had the failed attempt's assumption stayed, the retry would not fit.
    await client.create(RESOURCES.pods, 'default', pod('p', '3'));
    await until(async () => (await eventsFor(client, 'p')).some((e) => e.reason === 'FailedScheduling'));
    const [failed] = await eventsFor(client, 'p');
    expect(failed?.message).toBe('Binding rejected: injected bind failure');
    expect(cycles[0]).toMatchObject({ pod: 'default/p', result: 'bind-failed', node: 'only' });

    h.server.clock.advance(1_000);
    await until(async () => (await getPod(client, 'p')).spec?.nodeName === 'only');
    expect(cycles.map((c) => c.result)).toEqual(['bind-failed', 'scheduled']);
  });

  it('does not schedule again a pod updated while its binding is in flight (skipPodSchedule)', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let binds = 0;
    const { client, cycles } = await setup([node('only')], 'in-process', (c) => ({
      ...c,
      bind: async (ns, name, target) => {
        binds++;
        await gate;
        return c.bind(ns, name, target);
      },
    }));
    await client.create(RESOURCES.pods, 'default', pod('p'));
    await eventually(() => binds === 1);
    // A label change re-queues the pod (it is in no queue while its binding is in flight).
    await client.patch(RESOURCES.pods, 'default', 'p', 'merge', { metadata: { labels: { a: 'b' } } });
    await eventually(() => cycles.some((c) => c.result === 'skipped'));
    release();
    await until(async () => (await getPod(client, 'p')).spec?.nodeName === 'only');
    await eventually(() => cycles.some((c) => c.result === 'scheduled'));
    expect(binds).toBe(1);
    expect(cycles.map((c) => c.result)).toEqual(['skipped', 'scheduled']);
  });

  it('counts a bound pod whose node it learns of only later', async () => {
    const { client } = await setup([]);
    await client.create(RESOURCES.pods, 'default', pod('early', '3', { nodeName: 'late' }));
    await createNode(client, node('late'));
    await client.create(RESOURCES.pods, 'default', pod('pending', '3'));
    await until(async () => (await eventsFor(client, 'pending')).some((e) => e.reason === 'FailedScheduling'));
    const [failed] = await eventsFor(client, 'pending');
    expect(failed?.message.startsWith('0/1 nodes are available: 1 Insufficient cpu.')).toBe(true);
  });

  it('ignores pods for another scheduler', async () => {
    const { client, cycles } = await setup([node('node-0')]);
    await client.create(RESOURCES.pods, 'default', pod('theirs', '100m', { schedulerName: 'other-scheduler' }));
    await client.create(RESOURCES.pods, 'default', pod('ours'));
    await until(async () => (await getPod(client, 'ours')).spec?.nodeName === 'node-0');

    expect((await getPod(client, 'theirs')).spec?.nodeName).toBeUndefined();
    expect(await eventsFor(client, 'theirs')).toEqual([]);
    expect(cycles.map((c) => c.pod)).toEqual(['default/ours']);
  });

  it('stops cleanly while idle, before starting and while syncing', async () => {
    const { scheduler } = await setup([node('node-0')]);
    expect(scheduler.state).toBe('running');
    await scheduler.stop();
    expect(scheduler.state).toBe('stopped');
    await scheduler.stop(); // idempotent; afterEach stops again

    const h = await harness('in-process');
    const never = new Scheduler({ client: h.client, kubewasm, clock: h.server.clock });
    await never.stop();
    expect(never.state).toBe('stopped');
    await never.start(); // a stopped scheduler does not start again

    // Stopped while its informers are still listing: start() must end too, not hang.
    const early = new Scheduler({ client: h.client, kubewasm, clock: h.server.clock });
    const starting = early.start();
    await early.stop();
    await starting;
    expect(early.state).toBe('stopped');
  });

  it("reads a shared factory's pod and node informers, and leaves them to their owner when it stops", async () => {
    const h = await harness('in-process');
    await createNode(h.client, node('node-0'));
    const informers = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const pods = informers.informerFor(RESOURCES.pods);
    const errors: unknown[] = [];
    const scheduler = new Scheduler({
      client: h.client,
      informers,
      kubewasm,
      clock: h.server.clock,
      onError: (e) => errors.push(e),
    });
    await scheduler.start();
    // One pod informer, two views of it: the queue's and the cache's.
    expect(pods.handlerCount()).toBe(2);
    await h.client.create(RESOURCES.pods, 'default', pod('p'));
    await eventually(() => pods.get('default', 'p')?.spec?.nodeName === 'node-0');
    await scheduler.stop();
    expect(pods.handlerCount()).toBe(0);
    expect(pods.isStopped()).toBe(false);
    await informers.shutdown();
    expect(errors).toEqual([]);
  });
});
