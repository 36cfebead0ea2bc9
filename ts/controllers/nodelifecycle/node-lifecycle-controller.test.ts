// The node lifecycle controller against a real in-process apiserver: the facts of
// pkg/controller/nodelifecycle/node_lifecycle_controller_test.go (v1.32), one monitorNodeHealth /
// doNoExecuteTaintingPass at a time on the virtual clock (the Go tests' fakeNow).
import { afterEach, describe, expect, it } from 'vitest';
import { rfc3339, rfc3339Micro } from '../../api/time.js';
import type { NodeCondition, Taint } from '../../api/types/core/v1.js';
import type { Client } from '../../client/client.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import { waitFor } from '../testing/controller-runs.js';
import {
  NOT_READY_TAINT_TEMPLATE,
  NodeLifecycleController,
  type NodeLifecycleControllerOptions,
  UNREACHABLE_TAINT_TEMPLATE,
} from './node-lifecycle-controller.js';

const running: Array<{ factory: SharedInformerFactory; nlc: NodeLifecycleController }> = [];
afterEach(async () => {
  for (const { factory, nlc } of running.splice(0)) {
    await nlc.stop();
    await factory.shutdown();
  }
});

// testRateLimiterQPS in the Go tests: tainting is not what they limit.
const TEST_QPS = 10_000;
const ZONE1 = {
  'topology.kubernetes.io/region': 'region1',
  'topology.kubernetes.io/zone': 'zone1',
  'failure-domain.beta.kubernetes.io/region': 'region1',
  'failure-domain.beta.kubernetes.io/zone': 'zone1',
};

interface Setup {
  h: Harness;
  nlc: NodeLifecycleController;
  factory: SharedInformerFactory;
  t0: number;
}

async function setup(
  options: Partial<NodeLifecycleControllerOptions> = {},
  wrap: (client: Client) => Client = (c) => c,
): Promise<Setup> {
  const h = await harness('in-process');
  await h.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'kube-node-lease' } });
  const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const nlc = new NodeLifecycleController({
    factory,
    client: wrap(h.client),
    clock: h.server.clock,
    evictionLimiterQPS: TEST_QPS,
    secondaryEvictionLimiterQPS: TEST_QPS,
    ...options,
  });
  running.push({ factory, nlc });
  factory.start();
  await factory.waitForCacheSync();
  return { h, nlc, factory, t0: h.server.clock.now() };
}

const at = (s: Setup, offsetMs: number) => rfc3339(s.t0 + offsetMs);

const ready = (status: NodeCondition['status'], heartbeat: string, transition = heartbeat): NodeCondition => ({
  type: 'Ready',
  status,
  lastHeartbeatTime: heartbeat,
  lastTransitionTime: transition,
});

/** Waits until the controller's caches hold the node (pod, lease) at `rv`. */
async function cachedAt(
  s: Setup,
  resource: 'nodes' | 'pods' | 'leases',
  ns: string | undefined,
  name: string,
  rv: string,
) {
  const informer = s.factory.informerFor(RESOURCES[resource]);
  await eventually(() => informer.get(ns, name)?.metadata?.resourceVersion === rv);
}

interface NodeSpec {
  labels?: Record<string, string>;
  conditions?: NodeCondition[];
  taints?: Taint[];
  unschedulable?: boolean;
}

async function putNode(s: Setup, name: string, spec: NodeSpec): Promise<void> {
  const nodes = s.factory.informerFor(RESOURCES.nodes);
  let node = nodes.get(undefined, name)
    ? await s.h.client.get(RESOURCES.nodes, undefined, name)
    : await s.h.client.create(RESOURCES.nodes, undefined, {
        metadata: { name, labels: spec.labels ?? ZONE1 },
        spec: {
          ...(spec.taints ? { taints: spec.taints } : {}),
          ...(spec.unschedulable ? { unschedulable: true } : {}),
        },
      });
  if (spec.conditions !== undefined) {
    node = await s.h.client.updateStatus(RESOURCES.nodes, undefined, {
      ...node,
      status: { conditions: spec.conditions },
    });
  }
  await cachedAt(s, 'nodes', undefined, name, node.metadata?.resourceVersion ?? '');
}

async function getNode(s: Setup, name: string) {
  return s.h.client.get(RESOURCES.nodes, undefined, name);
}

/** Re-reads the node into the cache (after the controller wrote it). */
async function resync(s: Setup, name: string): Promise<void> {
  const node = await getNode(s, name);
  await cachedAt(s, 'nodes', undefined, name, node.metadata?.resourceVersion ?? '');
}

async function monitor(s: Setup, names: string[]): Promise<void> {
  await s.nlc.monitorNodeHealth();
  for (const n of names) await resync(s, n);
}

/**
 * doNoExecuteTaintingPass, three times 1 ms apart: a bucket of burst 1 gives one token per instant,
 * and the virtual clock stands still where Go's real one moves on between nodes.
 */
async function taintPass(s: Setup, names: string[], rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    if (i > 0) s.h.server.clock.advance(1);
    await s.nlc.doNoExecuteTaintingPass();
  }
  for (const n of names) await resync(s, n);
}

const taintKeys = (taints: readonly Taint[] | undefined) => (taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();

const stripTimes = (conditions: readonly NodeCondition[] | undefined) =>
  (conditions ?? []).map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }));

async function events(s: Setup, namespace = 'default'): Promise<Array<[string, string, string]>> {
  await s.nlc.flushEvents();
  const list = await s.h.client.list(RESOURCES.events, { namespace });
  return list.items.map((e) => [e.reason ?? '', e.message ?? '', e.involvedObject?.uid ?? '']);
}

describe('NodeLifecycleController (node_lifecycle_controller_test.go)', () => {
  it('TestMonitorNodeHealthUpdateStatus: a node that never posted status is Unknown after the startup grace period', async () => {
    const s = await setup();
    await putNode(s, 'node0', {});
    await monitor(s, ['node0']);
    expect((await getNode(s, 'node0')).status?.conditions ?? []).toEqual([]);
    s.h.server.clock.advance(60_000);
    await monitor(s, ['node0']);
    expect((await getNode(s, 'node0')).status?.conditions ?? []).toEqual([]);
    s.h.server.clock.advance(1_000);
    await monitor(s, ['node0']);
    const node = await getNode(s, 'node0');
    const never = { status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' };
    expect(node.status?.conditions).toEqual(
      ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
        type,
        ...never,
        lastHeartbeatTime: at(s, 0),
        lastTransitionTime: at(s, 61_000),
      })),
    );
  });

  it('TestMonitorNodeHealthUpdateStatus: a Ready node whose status is not updated for the grace period turns Unknown', async () => {
    const s = await setup();
    await putNode(s, 'node0', {
      conditions: [
        ready('True', at(s, 0)),
        { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: at(s, 0), lastTransitionTime: at(s, 0) },
      ],
    });
    await putNode(s, 'node1', { conditions: [ready('True', at(s, 0))] });
    await monitor(s, ['node0', 'node1']);
    s.h.server.clock.advance(40_000);
    // node1 keeps posting; node0 does not.
    await putNode(s, 'node1', { conditions: [ready('True', at(s, 40_000), at(s, 0))] });
    await monitor(s, ['node0', 'node1']);
    s.h.server.clock.advance(11_000);
    await monitor(s, ['node0', 'node1']);
    const node0 = await getNode(s, 'node0');
    expect(node0.status?.conditions).toEqual([
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastHeartbeatTime: at(s, 0),
        lastTransitionTime: at(s, 51_000),
      },
      {
        type: 'MemoryPressure',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastHeartbeatTime: at(s, 0),
        lastTransitionTime: at(s, 51_000),
      },
      ...['DiskPressure', 'PIDPressure'].map((type) => ({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        lastHeartbeatTime: node0.metadata?.creationTimestamp,
        lastTransitionTime: at(s, 51_000),
      })),
    ]);
    expect(stripTimes((await getNode(s, 'node1')).status?.conditions)).toEqual([
      { type: 'Ready', status: 'True', reason: undefined, message: undefined },
    ]);
  });

  it('TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: a renewed lease keeps a node healthy; without it, Unknown and its pods not ready', async () => {
    const s = await setup();
    await putNode(s, 'node0', { conditions: [ready('True', at(s, 0))] });
    await putNode(s, 'node1', { conditions: [ready('True', at(s, 0))] });
    const lease = await s.h.client.create(RESOURCES.leases, 'kube-node-lease', {
      metadata: { name: 'node0' },
      spec: { holderIdentity: 'node0', leaseDurationSeconds: 40, renewTime: rfc3339Micro(s.t0) },
    });
    await cachedAt(s, 'leases', 'kube-node-lease', 'node0', lease.metadata?.resourceVersion ?? '');
    const pod = await s.h.client.create(RESOURCES.pods, 'default', {
      metadata: { name: 'pod0' },
      spec: { containers: [{ name: 'c', image: 'x' }], nodeName: 'node1' },
    });
    const withReady = await s.h.client.updateStatus(RESOURCES.pods, 'default', {
      ...pod,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(s, 0) }] },
    });
    await cachedAt(s, 'pods', 'default', 'pod0', withReady.metadata?.resourceVersion ?? '');
    await monitor(s, ['node0', 'node1']);
    s.h.server.clock.advance(40_000);
    const renewed = await s.h.client.update(RESOURCES.leases, 'kube-node-lease', {
      ...lease,
      spec: { ...lease.spec, renewTime: rfc3339Micro(s.t0 + 40_000) },
    });
    await cachedAt(s, 'leases', 'kube-node-lease', 'node0', renewed.metadata?.resourceVersion ?? '');
    await monitor(s, ['node0', 'node1']);
    s.h.server.clock.advance(11_000);
    await monitor(s, ['node0', 'node1']);
    expect((await getNode(s, 'node0')).status?.conditions?.[0]?.status).toBe('True');
    expect((await getNode(s, 'node1')).status?.conditions?.[0]).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
    });
    const marked = await s.h.client.get(RESOURCES.pods, 'default', 'pod0');
    expect(marked.status?.conditions?.find((c) => c.type === 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      lastTransitionTime: at(s, 51_000),
    });
    const evs = await events(s);
    expect(evs.filter(([r]) => r === 'NodeNotReady').map(([r, m]) => [r, m])).toEqual([
      ['NodeNotReady', 'Node node1 status is now: NodeNotReady'],
      ['NodeNotReady', 'Node is not ready'],
    ]);
    // The lease stops too: node0 goes Unknown a grace period after its last renewal.
    s.h.server.clock.advance(40_000);
    await monitor(s, ['node0', 'node1']);
    expect((await getNode(s, 'node0')).status?.conditions?.[0]?.status).toBe('Unknown');
  });

  it('TestMonitorNodeHealthMarkPodsNotReadyRetry: pods that could not be marked are marked at the next pass', async () => {
    let failPodStatus = 0;
    // The node-controller client, with pod status writes failing while failPodStatus > 0.
    const wrap = (client: Client): Client =>
      new Proxy(client, {
        get(target, prop, receiver) {
          if (prop === 'updateStatus') {
            return async (...args: Parameters<Client['updateStatus']>) => {
              if (args[0] === RESOURCES.pods && failPodStatus > 0) {
                failPodStatus--;
                throw new Error('injected pod status failure');
              }
              return target.updateStatus(...args);
            };
          }
          const value: unknown = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    const s = await setup({}, wrap);
    await putNode(s, 'node0', { conditions: [ready('True', at(s, 0))] });
    const pod = await s.h.client.create(RESOURCES.pods, 'default', {
      metadata: { name: 'pod0' },
      spec: { containers: [{ name: 'c', image: 'x' }], nodeName: 'node0' },
    });
    const withReady = await s.h.client.updateStatus(RESOURCES.pods, 'default', {
      ...pod,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(s, 0) }] },
    });
    await cachedAt(s, 'pods', 'default', 'pod0', withReady.metadata?.resourceVersion ?? '');
    await monitor(s, ['node0']);
    s.h.server.clock.advance(51_000);
    failPodStatus = 1;
    await monitor(s, ['node0']);
    const readyOf = async () =>
      (await s.h.client.get(RESOURCES.pods, 'default', 'pod0')).status?.conditions?.find((c) => c.type === 'Ready')
        ?.status;
    expect((await getNode(s, 'node0')).status?.conditions?.[0]?.status).toBe('Unknown');
    expect(await readyOf()).toBe('True');
    await monitor(s, ['node0']);
    expect(await readyOf()).toBe('False');
  });

  it('TestApplyNoExecuteTaints: unreachable and not-ready NoExecute taints, removed when the node is Ready again', async () => {
    const s = await setup();
    const long = rfc3339(s.t0 - 3_600_000);
    await putNode(s, 'node0', { conditions: [ready('Unknown', long)] });
    await putNode(s, 'node1', { conditions: [ready('True', at(s, 0))] });
    await putNode(s, 'node2', { conditions: [ready('False', at(s, 0))] });
    await monitor(s, ['node0', 'node1', 'node2']);
    await taintPass(s, ['node0', 'node1', 'node2']);
    expect(taintKeys((await getNode(s, 'node0')).spec?.taints)).toEqual(['node.kubernetes.io/unreachable:NoExecute']);
    expect(taintKeys((await getNode(s, 'node1')).spec?.taints)).toEqual([]);
    const node2 = await getNode(s, 'node2');
    expect(node2.spec?.taints).toEqual([{ ...NOT_READY_TAINT_TEMPLATE, timeAdded: at(s, 0) }]);
    // node2 is Ready again: the taint comes off.
    s.h.server.clock.advance(10_000);
    await putNode(s, 'node2', { conditions: [ready('True', at(s, 10_000))] });
    await monitor(s, ['node0', 'node1', 'node2']);
    expect(taintKeys((await getNode(s, 'node2')).spec?.taints)).toEqual([]);
    expect(s.nlc.zoneNoExecuteTainter.get(`region1:\x00:zone1`)?.queue.has('node2')).toBe(false);
  });

  it('TestApplyNoExecuteTaintsToNodesEnqueueTwice: nodes added later are tainted; a node Ready again leaves the queue', async () => {
    const s = await setup();
    const long = rfc3339(s.t0 - 3_600_000);
    const all = ['node0', 'node1', 'node2', 'node3', 'node4', 'node5'];
    await putNode(s, 'node0', { conditions: [ready('Unknown', long)] });
    await putNode(s, 'node1', { conditions: [ready('True', at(s, 0))] });
    await putNode(s, 'node2', { conditions: [ready('False', long)] });
    await monitor(s, all.slice(0, 3));
    await monitor(s, all.slice(0, 3));
    await taintPass(s, all.slice(0, 3));
    expect(taintKeys((await getNode(s, 'node0')).spec?.taints)).toEqual(['node.kubernetes.io/unreachable:NoExecute']);
    expect(taintKeys((await getNode(s, 'node2')).spec?.taints)).toEqual(['node.kubernetes.io/not-ready:NoExecute']);
    s.h.server.clock.advance(1_000);
    await putNode(s, 'node0', { conditions: [ready('True', at(s, 1_000))] });
    await putNode(s, 'node3', { conditions: [ready('Unknown', long)] });
    await putNode(s, 'node4', { conditions: [ready('True', at(s, 1_000))] });
    await putNode(s, 'node5', { conditions: [ready('False', long)] });
    await monitor(s, all);
    await monitor(s, all);
    await taintPass(s, all);
    expect(taintKeys((await getNode(s, 'node0')).spec?.taints)).toEqual([]);
    expect(taintKeys((await getNode(s, 'node3')).spec?.taints)).toEqual(['node.kubernetes.io/unreachable:NoExecute']);
    expect(taintKeys((await getNode(s, 'node5')).spec?.taints)).toEqual(['node.kubernetes.io/not-ready:NoExecute']);
  });

  it('TestSwapUnreachableNotReadyTaints: Ready flipping between Unknown and False swaps the taints at once', async () => {
    const s = await setup();
    const long = rfc3339(s.t0 - 3_600_000);
    await putNode(s, 'node0', { conditions: [ready('Unknown', long)] });
    await putNode(s, 'node1', { conditions: [ready('False', long)] });
    await putNode(s, 'node2', { conditions: [ready('True', at(s, 0))] });
    await monitor(s, ['node0', 'node1', 'node2']);
    await taintPass(s, ['node0', 'node1', 'node2']);
    expect(taintKeys((await getNode(s, 'node0')).spec?.taints)).toEqual(['node.kubernetes.io/unreachable:NoExecute']);
    expect(taintKeys((await getNode(s, 'node1')).spec?.taints)).toEqual(['node.kubernetes.io/not-ready:NoExecute']);
    s.h.server.clock.advance(1_000);
    await putNode(s, 'node0', { conditions: [ready('False', at(s, 1_000))] });
    await putNode(s, 'node1', { conditions: [ready('Unknown', at(s, 1_000))] });
    await putNode(s, 'node2', { conditions: [ready('True', at(s, 1_000), at(s, 0))] });
    await monitor(s, ['node0', 'node1', 'node2']);
    expect(taintKeys((await getNode(s, 'node0')).spec?.taints)).toEqual(['node.kubernetes.io/not-ready:NoExecute']);
    expect(taintKeys((await getNode(s, 'node1')).spec?.taints)).toEqual(['node.kubernetes.io/unreachable:NoExecute']);
  });

  it('TestTaintsNodeByCondition: NoSchedule taints follow the conditions and spec.unschedulable', async () => {
    const s = await setup();
    const cases: Array<[string, NodeSpec, string[]]> = [
      [
        'NetworkUnavailable is true',
        { conditions: [ready('True', at(s, 0)), cond('NetworkUnavailable', 'True')] },
        ['node.kubernetes.io/network-unavailable:NoSchedule'],
      ],
      [
        'NetworkUnavailable and MemoryPressure are true',
        { conditions: [ready('True', at(s, 0)), cond('NetworkUnavailable', 'True'), cond('MemoryPressure', 'True')] },
        ['node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/network-unavailable:NoSchedule'],
      ],
      ['Ready is false', { conditions: [ready('False', at(s, 0))] }, ['node.kubernetes.io/not-ready:NoSchedule']],
      ['Ready is unknown', { conditions: [ready('Unknown', at(s, 0))] }, ['node.kubernetes.io/unreachable:NoSchedule']],
      [
        'Unschedulable is true',
        { unschedulable: true, conditions: [ready('True', at(s, 0))] },
        ['node.kubernetes.io/unschedulable:NoSchedule'],
      ],
      [
        'a stale condition taint goes, others stay',
        {
          conditions: [ready('True', at(s, 0))],
          taints: [
            { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
            { key: 'example.com/other', effect: 'NoSchedule' },
          ],
        },
        ['example.com/other:NoSchedule'],
      ],
    ];
    let i = 0;
    for (const [, spec, want] of cases) {
      const name = `node${i++}`;
      await putNode(s, name, spec);
      await s.nlc.doNoScheduleTaintingPass(name);
      expect(taintKeys((await getNode(s, name)).spec?.taints)).toEqual(want);
    }
  });

  it('TestNodeEventGeneration: RegisteredNode, naming the node by uid', async () => {
    const s = await setup();
    await putNode(s, 'node0', { conditions: [ready('Unknown', at(s, 0))] });
    await monitor(s, ['node0']);
    const uid = (await getNode(s, 'node0')).metadata?.uid ?? '';
    expect(await events(s)).toEqual([['RegisteredNode', 'Node node0 event: Registered Node node0 in Controller', uid]]);
    await s.h.client.delete(RESOURCES.nodes, undefined, 'node0');
    await eventually(() => s.factory.informerFor(RESOURCES.nodes).get(undefined, 'node0') === undefined);
    await s.nlc.monitorNodeHealth();
    expect((await events(s)).map(([r, m]) => [r, m])).toEqual([
      ['RegisteredNode', 'Node node0 event: Registered Node node0 in Controller'],
      ['RemovingNode', 'Node node0 event: Removing Node node0 from Controller'],
    ]);
  });

  it('ComputeZoneState: FullDisruption with none Ready, PartialDisruption from 3 not Ready at 55 %', async () => {
    const s = await setup();
    const c = (status: NodeCondition['status']) => ready(status, at(s, 0));
    expect(s.nlc.computeZoneState([c('False'), undefined])).toEqual([2, 'FullDisruption']);
    expect(s.nlc.computeZoneState([c('True'), c('False'), c('False')])).toEqual([2, 'Normal']);
    expect(s.nlc.computeZoneState([c('True'), c('False'), c('Unknown'), undefined])).toEqual([3, 'PartialDisruption']);
    expect(
      s.nlc.computeZoneState([c('True'), c('True'), c('False'), c('False'), c('False'), c('True'), c('True')]),
    ).toEqual([3, 'Normal']);
    expect(s.nlc.reducedQPSFunc(50)).toBe(0);
    expect(s.nlc.reducedQPSFunc(51)).toBe(Math.fround(TEST_QPS));
  });

  it('zone states: every zone fully disrupted stops tainting and lifts the NoExecute taints; one Ready node restores it', async () => {
    const s = await setup({ evictionLimiterQPS: 0.1, secondaryEvictionLimiterQPS: 0.01 });
    const long = rfc3339(s.t0 - 3_600_000);
    await putNode(s, 'node0', { conditions: [ready('Unknown', long)], taints: [{ ...UNREACHABLE_TAINT_TEMPLATE }] });
    await putNode(s, 'node1', { conditions: [ready('False', long)] });
    await monitor(s, ['node0', 'node1']);
    const zone = 'region1:\x00:zone1';
    expect(s.nlc.zoneStates.get(zone)).toBe('FullDisruption');
    expect(s.nlc.zoneNoExecuteTainter.get(zone)?.currentLimiter().qps()).toBe(0);
    expect(taintKeys((await getNode(s, 'node0')).spec?.taints)).toEqual([]);
    await taintPass(s, ['node0', 'node1']);
    expect(taintKeys((await getNode(s, 'node1')).spec?.taints)).toEqual([]);
    // A Ready node: the zone is Normal again, at --node-eviction-rate.
    s.h.server.clock.advance(1_000);
    await putNode(s, 'node2', { conditions: [ready('True', at(s, 1_000))] });
    await monitor(s, ['node0', 'node1', 'node2']);
    expect(s.nlc.zoneStates.get(zone)).toBe('Normal');
    expect(s.nlc.zoneNoExecuteTainter.get(zone)?.currentLimiter().qps()).toBe(Math.fround(0.1));
    // One node tainted per 10 s (burst 1); the bucket swapped in for the never-accepting one starts empty.
    await monitor(s, ['node0', 'node1', 'node2']);
    await taintPass(s, ['node0', 'node1']);
    const tainted = async () =>
      (await Promise.all(['node0', 'node1'].map((n) => getNode(s, n)))).filter((n) => (n.spec?.taints ?? []).length > 0)
        .length;
    expect(await tainted()).toBe(0);
    s.h.server.clock.advance(10_000);
    await taintPass(s, ['node0', 'node1']);
    expect(await tainted()).toBe(1);
    s.h.server.clock.advance(5_000);
    await taintPass(s, ['node0', 'node1']);
    expect(await tainted()).toBe(1);
    s.h.server.clock.advance(5_000);
    await taintPass(s, ['node0', 'node1']);
    expect(await tainted()).toBe(2);
  });

  it('zone states: PartialDisruption above --large-cluster-size-threshold taints at the secondary rate; each zone on its own', async () => {
    const s = await setup({ evictionLimiterQPS: 0.1, secondaryEvictionLimiterQPS: 0.01, largeClusterThreshold: 3 });
    const long = rfc3339(s.t0 - 3_600_000);
    const zone = (z: string) => ({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': z });
    // Zones a and c: 3 of 4 not Ready (75 % ≥ 55 %), 4 nodes above the threshold of 3. Zone b: its one
    // node not Ready, fully disrupted while other zones are not (so at the normal rate).
    const nodes: Array<[string, string, NodeCondition['status']]> = [
      ['a0', 'a', 'True'],
      ['a1', 'a', 'False'],
      ['a2', 'a', 'Unknown'],
      ['a3', 'a', 'False'],
      ['b0', 'b', 'False'],
      ['c0', 'c', 'True'],
      ['c1', 'c', 'False'],
      ['c2', 'c', 'False'],
      ['c3', 'c', 'False'],
    ];
    for (const [name, z, status] of nodes) {
      await putNode(s, name, { labels: zone(z), conditions: [ready(status, status === 'True' ? at(s, 0) : long)] });
    }
    await monitor(
      s,
      nodes.map(([n]) => n),
    );
    const key = (z: string) => `r:\x00:${z}`;
    expect(s.nlc.zoneStates.get(key('a'))).toBe('PartialDisruption');
    expect(s.nlc.zoneNoExecuteTainter.get(key('a'))?.currentLimiter().qps()).toBe(Math.fround(0.01));
    expect(s.nlc.zoneStates.get(key('b'))).toBe('FullDisruption');
    expect(s.nlc.zoneNoExecuteTainter.get(key('b'))?.currentLimiter().qps()).toBe(Math.fround(0.1));
    expect(s.nlc.zoneStates.get(key('c'))).toBe('PartialDisruption');
    expect(s.nlc.zoneNoExecuteTainter.get(key('c'))?.currentLimiter().qps()).toBe(Math.fround(0.01));
    // Two of a's not-Ready nodes Ready again: Normal, at --node-eviction-rate.
    s.h.server.clock.advance(1_000);
    await putNode(s, 'a1', { conditions: [ready('True', at(s, 1_000))] });
    await putNode(s, 'a2', { conditions: [ready('True', at(s, 1_000))] });
    await monitor(
      s,
      nodes.map(([n]) => n),
    );
    expect(s.nlc.zoneStates.get(key('a'))).toBe('Normal');
    expect(s.nlc.zoneNoExecuteTainter.get(key('a'))?.currentLimiter().qps()).toBe(Math.fround(0.1));
  });

  it('zone states: PartialDisruption in a zone at or under --large-cluster-size-threshold stops its tainting', async () => {
    const s = await setup({ evictionLimiterQPS: 0.1, secondaryEvictionLimiterQPS: 0.01 });
    const long = rfc3339(s.t0 - 3_600_000);
    const names = ['n0', 'n1', 'n2', 'n3'];
    for (const [i, name] of names.entries()) {
      await putNode(s, name, { conditions: [ready(i === 0 ? 'True' : 'False', i === 0 ? at(s, 0) : long)] });
    }
    await monitor(s, names);
    const zone = 'region1:\x00:zone1';
    expect(s.nlc.zoneStates.get(zone)).toBe('PartialDisruption');
    expect(s.nlc.zoneNoExecuteTainter.get(zone)?.currentLimiter().qps()).toBe(0);
    await taintPass(s, names);
    for (const name of names) expect(taintKeys((await getNode(s, name)).spec?.taints)).toEqual([]);
  });

  it('TestReconcileNodeLabels: the beta OS and arch labels follow the GA ones', async () => {
    const s = await setup();
    const cases: Array<[Record<string, string>, Record<string, string>]> = [
      [{}, {}],
      [{ 'kubernetes.io/os': 'linux' }, { 'kubernetes.io/os': 'linux', 'beta.kubernetes.io/os': 'linux' }],
      [
        { 'kubernetes.io/os': 'linux', 'beta.kubernetes.io/os': 'windows', 'kubernetes.io/arch': 'amd64' },
        {
          'kubernetes.io/os': 'linux',
          'beta.kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          'beta.kubernetes.io/arch': 'amd64',
        },
      ],
      [{ 'beta.kubernetes.io/os': 'linux' }, { 'beta.kubernetes.io/os': 'linux' }],
    ];
    let i = 0;
    for (const [labels, want] of cases) {
      const name = `node${i++}`;
      await putNode(s, name, { labels });
      await s.nlc.reconcileNodeLabels(name);
      expect((await getNode(s, name)).metadata?.labels ?? {}).toEqual(want);
    }
  });

  it('Test_isNodeExcludedFromDisruptionChecks: an excluded node is not counted in its zone', async () => {
    const s = await setup();
    const long = rfc3339(s.t0 - 3_600_000);
    await putNode(s, 'node0', {
      conditions: [ready('True', at(s, 0))],
      labels: { ...ZONE1, 'node.kubernetes.io/exclude-disruption': '' },
    });
    await putNode(s, 'node1', { conditions: [ready('False', long)] });
    await monitor(s, ['node0', 'node1']);
    // Only node1 counts: the zone is fully disrupted, so no NoExecute tainting.
    expect(s.nlc.zoneStates.get('region1:\x00:zone1')).toBe('FullDisruption');
  });

  it('TestProcessPodMarkPodNotReady: a pod bound to a node that is not Ready is marked not ready', async () => {
    const s = await setup();
    const long = rfc3339(s.t0 - 3_600_000);
    await putNode(s, 'node0', { conditions: [ready('False', long)] });
    await putNode(s, 'node1', { conditions: [ready('True', at(s, 0))] });
    await s.nlc.run();
    await eventually(() => s.nlc.zoneStates.get('region1:\x00:zone1') === 'Normal');
    for (const [name, node] of [
      ['on-not-ready', 'node0'],
      ['on-ready', 'node1'],
    ] as const) {
      const pod = await s.h.client.create(RESOURCES.pods, 'default', {
        metadata: { name },
        spec: { containers: [{ name: 'c', image: 'x' }] },
      });
      await s.h.client.updateStatus(RESOURCES.pods, 'default', {
        ...pod,
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(s, 0) }] },
      });
      await s.h.client.bind('default', name, node);
    }
    const readyOf = async (name: string) =>
      (await s.h.client.get(RESOURCES.pods, 'default', name)).status?.conditions?.find((c) => c.type === 'Ready')
        ?.status;
    await waitFor(async () => (await readyOf('on-not-ready')) === 'False');
    expect(await readyOf('on-ready')).toBe('True');
  });

  it('run(): the periodic monitor taints a node that stopped posting, and the node workers add NoSchedule taints', async () => {
    const s = await setup();
    await putNode(s, 'node0', {
      conditions: [ready('True', at(s, 0))],
      labels: { ...ZONE1, 'kubernetes.io/os': 'linux' },
    });
    await putNode(s, 'node1', { conditions: [ready('True', at(s, 0))] });
    await s.nlc.run();
    // The node worker reconciles the beta OS label.
    await eventually(
      () =>
        s.factory.informerFor(RESOURCES.nodes).get(undefined, 'node0')?.metadata?.labels?.['beta.kubernetes.io/os'] ===
        'linux',
    );
    const done = () =>
      taintKeys(s.factory.informerFor(RESOURCES.nodes).get(undefined, 'node0')?.spec?.taints).join() ===
      'node.kubernetes.io/unreachable:NoExecute,node.kubernetes.io/unreachable:NoSchedule';
    // node1 posts every 10 s; node0 never again. Time moves 100 ms at a time (the tainting period).
    let t = 0;
    while (!done() && t < 90_000) {
      s.h.server.clock.advance(100);
      t += 100;
      if (t % 10_000 === 0) await putNode(s, 'node1', { conditions: [ready('True', at(s, t), at(s, 0))] });
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(done()).toBe(true);
    // Unknown at the first pass after 50 s; tainted at the next.
    expect(t).toBeGreaterThan(55_000);
    expect(t).toBeLessThan(62_000);
    expect(taintKeys(s.factory.informerFor(RESOURCES.nodes).get(undefined, 'node1')?.spec?.taints)).toEqual([]);
  });
});

function cond(type: string, status: NodeCondition['status']): NodeCondition {
  return { type, status, lastHeartbeatTime: '2025-01-01T00:00:00Z', lastTransitionTime: '2025-01-01T00:00:00Z' };
}
