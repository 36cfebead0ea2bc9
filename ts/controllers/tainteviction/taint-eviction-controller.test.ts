// The taint eviction controller against a real in-process apiserver: the facts of
// pkg/controller/tainteviction/taint_eviction_test.go (v1.32), tolerationSeconds run out on the
// virtual clock.
import { describe, expect, it } from 'vitest';
import type { Pod, Taint, Toleration } from '../../api/types/core/v1.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, type Harness, harness } from '../../client/testing/harness.js';
import { controllerRuns, notFound, waitFor } from '../testing/controller-runs.js';
import { getMinTolerationTime, TaintEvictionController } from './taint-eviction-controller.js';

const NS = 'default';
const runs = controllerRuns();

/** createNoExecuteTaint(index). */
const taint = (i: number): Taint => ({ key: `testTaint${i}`, value: `test${i}`, effect: 'NoExecute' });
/** addToleration(pod, index, duration): duration < 0 is forever. */
const toleration = (i: number, seconds: number): Toleration => ({
  key: `testTaint${i}`,
  value: `test${i}`,
  effect: 'NoExecute',
  ...(seconds < 0 ? {} : { tolerationSeconds: seconds }),
});

interface Setup {
  h: Harness;
  tec: TaintEvictionController;
  factory: SharedInformerFactory;
}

async function setup(): Promise<Setup> {
  const h = await harness('in-process');
  let factory: SharedInformerFactory | undefined;
  const tec = await runs.start(h, (f) => {
    factory = f;
    return new TaintEvictionController({ factory: f, client: h.client, clock: h.server.clock });
  });
  if (factory === undefined) throw new Error('no factory');
  return { h, tec, factory };
}

async function setNode(s: Setup, name: string, taints: Taint[]): Promise<void> {
  const nodes = s.factory.informerFor(RESOURCES.nodes);
  const existing = nodes.get(undefined, name);
  if (existing === undefined) {
    await s.h.client.create(RESOURCES.nodes, undefined, { metadata: { name }, spec: { taints } });
  } else {
    await s.h.client.patch(RESOURCES.nodes, undefined, name, 'merge', { spec: { taints } });
  }
  const want = JSON.stringify(taints);
  await eventually(() => JSON.stringify(nodes.get(undefined, name)?.spec?.taints ?? []) === want);
  await s.tec.idle();
}

async function createPod(s: Setup, name: string, nodeName: string, tolerations: Toleration[] = []): Promise<void> {
  await s.h.client.create(RESOURCES.pods, NS, {
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'x' }], ...(nodeName ? { nodeName } : {}), tolerations },
  });
  const pods = s.factory.informerFor(RESOURCES.pods);
  await eventually(() => pods.get(NS, name) !== undefined);
  await s.tec.idle();
}

/** Deleted: gone, or marked for deletion (a pod bound to a node is deleted gracefully). */
async function deleted(s: Setup, name: string): Promise<boolean> {
  try {
    const pod = await s.h.client.get(RESOURCES.pods, NS, name);
    return pod.metadata?.deletionTimestamp !== undefined;
  } catch (err) {
    return notFound(() => Promise.reject(err));
  }
}

async function evictionEvents(s: Setup): Promise<string[]> {
  await s.tec.idle();
  const events = await s.h.client.list(RESOURCES.events, { namespace: NS });
  return events.items.filter((e) => e.reason === 'TaintManagerEviction').map((e) => e.message ?? '');
}

async function advance(s: Setup, ms: number): Promise<void> {
  s.h.server.clock.advance(ms);
  await s.tec.idle();
}

describe('TaintEvictionController (taint_eviction_test.go)', () => {
  it('TestGetMinTolerationTime', () => {
    expect(getMinTolerationTime([])).toBe(0);
    expect(getMinTolerationTime([{ key: 'k' }])).toBe(-1);
    expect(getMinTolerationTime([{ tolerationSeconds: 1 }, { tolerationSeconds: 2 }])).toBe(1000);
    expect(getMinTolerationTime([{ tolerationSeconds: 2 }, { tolerationSeconds: 1 }])).toBe(1000);
    expect(getMinTolerationTime([{}, { tolerationSeconds: 1 }])).toBe(1000);
    expect(getMinTolerationTime([{ tolerationSeconds: 0 }, { tolerationSeconds: 5 }])).toBe(0);
  });

  const createCases: Array<[string, string, Toleration[], Taint[], boolean]> = [
    ['not scheduled - ignore', '', [], [taint(1)], false],
    ['scheduled on untainted Node', 'node1', [], [], false],
    ['schedule on tainted Node', 'node1', [], [taint(1)], true],
    ['schedule on tainted Node with finite toleration', 'node1', [toleration(1, 100)], [taint(1)], false],
    ['schedule on tainted Node with infinite toleration', 'node1', [toleration(1, -1)], [taint(1)], false],
    ['schedule on tainted Node with infinite invalid toleration', 'node1', [toleration(2, -1)], [taint(1)], true],
  ];
  it.each(createCases)('TestCreatePod: %s', async (_d, nodeName, tolerations, taints, expectDelete) => {
    const s = await setup();
    await setNode(s, 'node1', taints);
    await createPod(s, 'pod1', nodeName, tolerations);
    if (expectDelete) {
      await waitFor(() => deleted(s, 'pod1'));
      const pod = await s.h.client.get(RESOURCES.pods, NS, 'pod1');
      expect(pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
        status: 'True',
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
      });
      expect(await evictionEvents(s)).toEqual(['Marking for deletion Pod default/pod1']);
    } else {
      expect(await deleted(s, 'pod1')).toBe(false);
    }
  });

  it('TestCreatePod: a finite toleration runs out after tolerationSeconds', async () => {
    const s = await setup();
    await setNode(s, 'node1', [taint(1)]);
    await createPod(s, 'pod1', 'node1', [toleration(1, 100)]);
    await advance(s, 99_999);
    expect(await deleted(s, 'pod1')).toBe(false);
    await advance(s, 1);
    await waitFor(() => deleted(s, 'pod1'));
  });

  it('TestDeletePod: a deleted pod cancels its scheduled deletion', async () => {
    const s = await setup();
    await setNode(s, 'node1', [taint(1)]);
    await createPod(s, 'pod1', 'node1', [toleration(1, 100)]);
    expect(s.tec.taintEvictionQueue.getWorkerUnsafe('default/pod1')).toBeDefined();
    await s.h.client.delete(RESOURCES.pods, NS, 'pod1', { gracePeriodSeconds: 0 });
    await waitFor(async () => s.factory.informerFor(RESOURCES.pods).get(NS, 'pod1') === undefined);
    await s.tec.idle();
    expect(s.tec.taintEvictionQueue.getWorkerUnsafe('default/pod1')).toBeUndefined();
    expect(await evictionEvents(s)).toEqual(['Cancelling deletion of Pod default/pod1']);
  });

  it('TestUpdatePod: scheduling onto a tainted Node (with and without toleration)', async () => {
    const s = await setup();
    await setNode(s, 'node1', [taint(1)]);
    await createPod(s, 'pod1', '');
    await createPod(s, 'pod2', '', [toleration(1, -1)]);
    await s.h.client.bind(NS, 'pod1', 'node1');
    await s.h.client.bind(NS, 'pod2', 'node1');
    await waitFor(() => deleted(s, 'pod1'));
    await s.tec.idle();
    expect(await deleted(s, 'pod2')).toBe(false);
  });

  it('TestUpdatePod: lengthening a toleration does not postpone the deletion', async () => {
    const s = await setup();
    await setNode(s, 'node1', [taint(1)]);
    await createPod(s, 'pod1', 'node1', [toleration(1, 1)]);
    // Tolerations may only be added to: a longer toleration of the same taint put first (so it is
    // the one used), half a second later — the new trigger is later than the scheduled one, kept.
    await advance(s, 500);
    const pod = await s.h.client.get(RESOURCES.pods, NS, 'pod1');
    await s.h.client.update(RESOURCES.pods, NS, {
      ...pod,
      spec: {
        ...pod.spec,
        containers: pod.spec?.containers ?? [],
        tolerations: [toleration(1, 100), toleration(1, 1)],
      },
    } as Pod);
    await eventually(() => s.factory.informerFor(RESOURCES.pods).get(NS, 'pod1')?.spec?.tolerations?.length === 2);
    await s.tec.idle();
    expect(s.tec.taintEvictionQueue.getWorkerUnsafe('default/pod1')?.fireAt).toBe(s.h.server.clock.now() + 500);
    await advance(s, 500);
    await waitFor(() => deleted(s, 'pod1'));
  });

  const nodeCases: Array<[string, Toleration[], Taint[], Taint[], boolean, number]> = [
    ['Added taint, expect node patched and deleted', [], [], [taint(1)], true, 0],
    ['Added tolerated taint', [toleration(1, 100)], [], [taint(1)], false, 0],
    ['Only one added taint tolerated', [toleration(1, 100)], [], [taint(1), taint(2)], true, 0],
    ['Taint removed', [toleration(1, 1)], [taint(1)], [], false, 1_500],
    [
      'Pod with multiple tolerations are evicted when first one runs out',
      [toleration(1, 1), toleration(2, 100)],
      [],
      [taint(1), taint(2)],
      true,
      1_000,
    ],
  ];
  it.each(nodeCases)('TestUpdateNode: %s', async (_d, tolerations, oldTaints, newTaints, expectDelete, sleep) => {
    const s = await setup();
    await setNode(s, 'node1', oldTaints);
    await createPod(s, 'pod1', 'node1', tolerations);
    await setNode(s, 'node1', newTaints);
    if (sleep > 0) await advance(s, sleep);
    if (expectDelete) {
      await waitFor(() => deleted(s, 'pod1'));
    } else {
      expect(await deleted(s, 'pod1')).toBe(false);
    }
  });

  it('TestUpdateNodeWithMultipleTaints: queued only while a temporarily tolerated taint is there', async () => {
    const s = await setup();
    const tolerations: Toleration[] = [
      { key: 'testTaint1', operator: 'Exists', effect: 'NoExecute' },
      { key: 'testTaint2', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    ];
    await setNode(s, 'node1', []);
    await createPod(s, 'pod1', 'node1', tolerations);
    const queued = () => s.tec.taintEvictionQueue.getWorkerUnsafe('default/pod1') !== undefined;
    expect(queued()).toBe(false);
    await setNode(s, 'node1', [taint(1)]);
    expect(queued()).toBe(false);
    await setNode(s, 'node1', [taint(1), taint(2)]);
    expect(queued()).toBe(true);
    await setNode(s, 'node1', [taint(1)]);
    expect(queued()).toBe(false);
    await advance(s, 60_000);
    expect(await deleted(s, 'pod1')).toBe(false);
  });

  it('TestUpdateNodeWithMultiplePods: each pod at its own time', async () => {
    const s = await setup();
    await setNode(s, 'node1', []);
    await createPod(s, 'pod1', 'node1');
    await createPod(s, 'pod2', 'node1', [toleration(1, 1)]);
    await createPod(s, 'pod3', 'node1', [toleration(1, -1)]);
    await setNode(s, 'node1', [taint(1)]);
    await waitFor(() => deleted(s, 'pod1'));
    expect(await deleted(s, 'pod2')).toBe(false);
    await advance(s, 1_000);
    await waitFor(() => deleted(s, 'pod2'));
    expect(await deleted(s, 'pod3')).toBe(false);
  });

  it('TestEventualConsistency: a pod scheduled onto a node already tainted is handled as the node is', async () => {
    const s = await setup();
    await setNode(s, 'node1', []);
    await createPod(s, 'pod1', 'node1');
    await createPod(s, 'pod2', '', [toleration(1, 100)]);
    await setNode(s, 'node1', [taint(1)]);
    await waitFor(() => deleted(s, 'pod1'));
    await s.h.client.bind(NS, 'pod2', 'node1');
    await eventually(() => s.factory.informerFor(RESOURCES.pods).get(NS, 'pod2')?.spec?.nodeName === 'node1');
    await s.tec.idle();
    expect(await deleted(s, 'pod2')).toBe(false);
    await advance(s, 100_000);
    await waitFor(() => deleted(s, 'pod2'));
  });

  it('the taint going cancels the deletion with an event (TestPodDeletionEvent)', async () => {
    const s = await setup();
    await setNode(s, 'node1', [taint(1)]);
    await createPod(s, 'pod1', 'node1', [toleration(1, 100)]);
    await setNode(s, 'node1', []);
    expect(await evictionEvents(s)).toEqual(['Cancelling deletion of Pod default/pod1']);
    await advance(s, 200_000);
    expect(await deleted(s, 'pod1')).toBe(false);
  });
});
