// The pod garbage collector against a real in-process apiserver: the facts of
// pkg/controller/podgc/gc_controller_test.go (v1.32), one gc() pass at a time.
import { afterEach, describe, expect, it } from 'vitest';
import type { PodPhase } from '../../api/types/core/v1.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import { PodGCController, QUARANTINE_TIME_MS } from './gc-controller.js';

const NS = 'default';
const running: Array<{ factory: SharedInformerFactory; gc: PodGCController }> = [];
afterEach(async () => {
  for (const { factory, gc } of running.splice(0)) {
    await gc.stop();
    await factory.shutdown();
  }
});

interface PodSpec {
  name: string;
  phase: PodPhase;
  reason?: string;
  nodeName?: string;
  deleting?: boolean;
}

/** Nodes and pods stored (one virtual hour apart, as the Go test's creation times), and a collector on them (not run). */
async function setup(pods: PodSpec[], options: { threshold?: number; nodes?: string[] } = {}) {
  const h = await harness('in-process');
  for (const name of options.nodes ?? ['node']) {
    await h.client.create(RESOURCES.nodes, undefined, { metadata: { name } });
  }
  for (const p of pods) {
    h.server.clock.advance(3_600_000);
    const created = await h.client.create(RESOURCES.pods, NS, {
      metadata: { name: p.name, ...(p.deleting ? { finalizers: ['example.com/hold'] } : {}) },
      spec: { containers: [{ name: 'c', image: 'x' }], nodeName: p.nodeName ?? 'node' },
    });
    await h.client.updateStatus(RESOURCES.pods, NS, {
      ...created,
      status: { phase: p.phase, ...(p.reason === undefined ? {} : { reason: p.reason }) },
    });
    if (p.deleting) await h.client.delete(RESOURCES.pods, NS, p.name, { gracePeriodSeconds: 0 });
  }
  const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const gc = new PodGCController({
    factory,
    client: h.client,
    clock: h.server.clock,
    ...(options.threshold === undefined ? {} : { terminatedPodThreshold: options.threshold }),
  });
  running.push({ factory, gc });
  factory.start();
  await factory.waitForCacheSync();
  const pods$ = factory.informerFor(RESOURCES.pods);
  await eventually(() => pods$.getIndexer().list().length === pods.length);
  return { h, gc, nodes: factory.informerFor(RESOURCES.nodes) };
}

/** The pods deleted: gone, or (held by a finalizer) marked for deletion by the collector with grace 0. */
async function remaining(h: Harness): Promise<string[]> {
  const items = (await h.client.list(RESOURCES.pods, { namespace: NS })).items;
  return items.map((p) => p.metadata?.name ?? '').sort();
}

describe('PodGCController (gc_controller_test.go)', () => {
  const terminated: Array<[string, PodSpec[], number, string[]]> = [
    [
      'delete pod a which is PodFailed and pod b which is PodSucceeded',
      [
        { name: 'a', phase: 'Failed' },
        { name: 'b', phase: 'Succeeded' },
        { name: 'c', phase: 'Failed' },
      ],
      1,
      ['a', 'b'],
    ],
    [
      'threshold = 0, disables terminated pod deletion',
      [
        { name: 'a', phase: 'Failed' },
        { name: 'b', phase: 'Succeeded' },
      ],
      0,
      [],
    ],
    [
      'threshold = 1, delete pod b which is PodSucceeded',
      [
        { name: 'a', phase: 'Running' },
        { name: 'b', phase: 'Succeeded' },
        { name: 'c', phase: 'Failed' },
      ],
      1,
      ['b'],
    ],
    [
      'threshold = 1, delete pod a which is PodFailed',
      [
        { name: 'a', phase: 'Failed' },
        { name: 'b', phase: 'Succeeded' },
      ],
      1,
      ['a'],
    ],
    [
      "threshold = 5, don't delete pod",
      [
        { name: 'a', phase: 'Failed' },
        { name: 'b', phase: 'Succeeded' },
      ],
      5,
      [],
    ],
    [
      'evicted pods go first',
      [
        { name: 'a', phase: 'Failed' },
        { name: 'b', phase: 'Succeeded' },
        { name: 'c', phase: 'Failed', reason: 'Evicted' },
      ],
      1,
      ['a', 'c'],
    ],
    [
      'evicted pods go first, running ones never',
      [
        { name: 'a', phase: 'Running' },
        { name: 'b', phase: 'Succeeded' },
        { name: 'c', phase: 'Failed', reason: 'Evicted' },
      ],
      1,
      ['c'],
    ],
  ];
  it.each(terminated)('TestGCTerminated: %s', async (_name, pods, threshold, deleted) => {
    const { h, gc } = await setup(pods, { threshold });
    await gc.gc();
    const left = await remaining(h);
    expect(pods.map((p) => p.name).filter((n) => !left.includes(n))).toEqual(deleted);
  });

  it('deletes the pods of a node gone for the quarantine time, marked Failed by DeletionByPodGC (TestGCOrphaned)', async () => {
    const { h, gc } = await setup(
      [
        { name: 'on-gone', phase: 'Running', nodeName: 'gone' },
        { name: 'on-node', phase: 'Running', nodeName: 'node' },
      ],
      { threshold: 0 },
    );
    // Held by a finalizer, so its last status can be read after the delete.
    await h.client.patch(RESOURCES.pods, NS, 'on-gone', 'merge', { metadata: { finalizers: ['example.com/hold'] } });
    await gc.gc();
    expect(await remaining(h)).toEqual(['on-gone', 'on-node']);
    h.server.clock.advance(QUARANTINE_TIME_MS);
    await gc.gc();
    const pod = await h.client.get(RESOURCES.pods, NS, 'on-gone');
    expect(pod.metadata?.deletionTimestamp).toBeDefined();
    expect(pod.metadata?.deletionGracePeriodSeconds).toBe(0);
    expect(pod.status?.phase).toBe('Failed');
    expect(pod.status?.conditions?.map(({ lastTransitionTime: _t, ...c }) => c)).toEqual([
      { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' },
    ]);
    expect((await h.client.get(RESOURCES.pods, NS, 'on-node')).metadata?.deletionTimestamp).toBeUndefined();
  });

  it('keeps the pods of a node that appears within the quarantine (TestGCOrphaned, node created later)', async () => {
    const { h, gc } = await setup([{ name: 'early', phase: 'Pending', nodeName: 'late' }], { threshold: 0 });
    await gc.gc();
    await h.client.create(RESOURCES.nodes, undefined, { metadata: { name: 'late' } });
    h.server.clock.advance(QUARANTINE_TIME_MS);
    await gc.gc();
    expect(await remaining(h)).toEqual(['early']);
  });

  it('deletes unscheduled pods being deleted, and terminating pods of out-of-service nodes only (TestGCUnscheduledTerminating, TestGCTerminating)', async () => {
    const { h, gc, nodes } = await setup(
      [
        { name: 'unscheduled', phase: 'Pending', nodeName: '', deleting: true },
        { name: 'on-untainted', phase: 'Running', nodeName: 'untainted', deleting: true },
        { name: 'on-oos', phase: 'Running', nodeName: 'oos', deleting: true },
      ],
      { threshold: 0, nodes: ['untainted', 'oos'] },
    );
    const node = await h.client.get(RESOURCES.nodes, undefined, 'oos');
    await h.client.update(RESOURCES.nodes, undefined, {
      ...node,
      spec: { taints: [{ key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' }] },
    });
    await eventually(() => (nodes.get(undefined, 'oos')?.spec?.taints ?? []).length === 1);
    await gc.gc();
    // Both collected pods are Failed and marked with grace 0 (their finalizer holds them).
    const graceZero = async (name: string) => {
      const pod = await h.client.get(RESOURCES.pods, NS, name);
      return [pod.status?.phase, pod.metadata?.deletionGracePeriodSeconds];
    };
    expect(await graceZero('unscheduled')).toEqual(['Failed', 0]);
    expect(await graceZero('on-oos')).toEqual(['Failed', 0]);
    expect((await h.client.get(RESOURCES.pods, NS, 'on-untainted')).status?.phase).toBe('Running');
  });
});
