// PriorityQueue behaviour, after pkg/scheduler/backend/queue/scheduling_queue_test.go, all on a
// VirtualClock.

import { beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import {
  EventAssignedPodAdd,
  EventAssignedPodDelete,
  EventNodeAdd,
  EventNodeAllocatableChange,
  EventNodeLabelChange,
  EventNodeTaintChange,
  EventWildCard,
} from './events.js';
import type { PluginEventsTable } from './plugin-events.js';
import { backoffDuration, type QueuedPodInfo, SchedulingQueue, type SchedulingQueueError } from './scheduling-queue.js';
import { defaultPluginEvents } from './testing/default-plugin-events.js';

/** The default profile's events table, from the engine. */
let pluginEvents: PluginEventsTable;
beforeAll(async () => {
  pluginEvents = await defaultPluginEvents();
});

interface Pod {
  metadata: { name: string; namespace: string; labels?: Record<string, string>; resourceVersion?: string };
  spec: { priority?: number; nodeName?: string };
  status?: { phase?: string };
}

const pod = (name: string, priority = 0, labels?: Record<string, string>): Pod => ({
  metadata: { name, namespace: 'ns', ...(labels ? { labels } : {}) },
  spec: { priority },
});

function setup(start = 0) {
  const clock = new VirtualClock(start);
  const queue = new SchedulingQueue<Pod>({ clock, pluginEvents });
  return { clock, queue };
}

/** Pops a pod and fails it with `plugins`, in its own cycle. */
function fail(queue: SchedulingQueue<Pod>, plugins: string[] = ['NodeResourcesFit']): QueuedPodInfo<Pod> {
  const info = queue.tryPop();
  if (!info) throw new Error('activeQ is empty');
  for (const p of plugins) info.unschedulablePlugins.add(p);
  queue.addUnschedulableIfNotPresent(info, queue.schedulingCycle());
  return info;
}

describe('activeQ order (PrioritySort)', () => {
  it('pops higher priority first, then the earlier timestamp', () => {
    const { clock, queue } = setup();
    queue.add(pod('low', 1));
    clock.advance(1);
    queue.add(pod('high-late', 10));
    clock.advance(1);
    queue.add(pod('mid-early', 5));
    clock.advance(1);
    queue.add(pod('mid-late', 5));
    queue.add(pod('high-later', 10));
    expect(queue.pending().active).toEqual(['ns/high-late', 'ns/high-later', 'ns/mid-early', 'ns/mid-late', 'ns/low']);
    const popped = [1, 2, 3, 4, 5].map(() => queue.tryPop()?.key);
    expect(popped).toEqual(['ns/high-late', 'ns/high-later', 'ns/mid-early', 'ns/mid-late', 'ns/low']);
    expect(queue.schedulingCycle()).toBe(5);
  });

  it('a pod without spec.priority counts as priority 0', () => {
    const { queue } = setup();
    queue.add({ metadata: { name: 'none', namespace: 'ns' }, spec: {} });
    queue.add(pod('one', 1));
    expect(queue.tryPop()?.key).toBe('ns/one');
  });

  it('Pop counts the attempt, clears the rejecting plugins and records the first attempt time', () => {
    const { clock, queue } = setup(5_000);
    queue.add(pod('a'));
    const info = queue.tryPop();
    expect(info?.attempts).toBe(1);
    expect(info?.initialAttemptTimestamp).toBe(5_000);
    expect(queue.pending().inFlight).toEqual(['ns/a']);
    if (!info) return;
    info.unschedulablePlugins.add('NodeAffinity');
    queue.addUnschedulableIfNotPresent(info, queue.schedulingCycle());
    expect(queue.pending().inFlight).toEqual([]);
    clock.advance(1_000);
    queue.moveAllToActiveOrBackoffQueue(EventNodeAdd);
    const again = queue.tryPop();
    expect(again?.attempts).toBe(2);
    expect(again?.unschedulablePlugins.size).toBe(0);
    expect(again?.initialAttemptTimestamp).toBe(5_000);
  });
});

describe('backoff', () => {
  it('initial × 2^(attempts−1), capped at max', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 30].map((a) => backoffDuration(a, 1_000, 10_000))).toEqual([
      0, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000,
    ]);
  });

  it('a pod failing again and again waits 1, 2, 4, 8, 10, 10 s in backoffQ', () => {
    const { clock, queue } = setup();
    queue.run();
    queue.add(pod('p'));
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      fail(queue, []); // no rejecting plugin: straight to backoffQ
      expect(queue.locate('ns/p')).toBe('backoff');
      let waited = 0;
      while (queue.locate('ns/p') !== 'active') {
        clock.advance(1_000);
        waited += 1_000;
      }
      waits.push(waited / 1_000);
    }
    expect(waits).toEqual([1, 2, 4, 8, 10, 10]);
    queue.close();
  });

  it('honours configured durations', () => {
    const clock = new VirtualClock();
    const queue = new SchedulingQueue<Pod>({ clock, pluginEvents, podInitialBackoffMs: 2_000, podMaxBackoffMs: 3_000 });
    queue.add(pod('p'));
    const info = fail(queue, []);
    expect(queue.backoffExpiry(info)).toBe(2_000);
    queue.flushBackoffQCompleted();
    expect(queue.locate('ns/p')).toBe('backoff');
    clock.advance(2_000);
    queue.flushBackoffQCompleted();
    expect(queue.locate('ns/p')).toBe('active');
    const second = fail(queue, []);
    expect(queue.backoffExpiry(second)).toBe(2_000 + 3_000);
  });
});

describe('moveAllToActiveOrBackoffQueue', () => {
  it('a pod rejected by NodeResourcesFit moves on NodeAdd but not on an unrelated event', () => {
    const { clock, queue } = setup();
    queue.add(pod('big'));
    fail(queue, ['NodeResourcesFit']);
    expect(queue.locate('ns/big')).toBe('unschedulable');
    clock.advance(10_000); // backoff over

    queue.moveAllToActiveOrBackoffQueue(EventNodeLabelChange); // registered (#109437), moves
    expect(queue.locate('ns/big')).toBe('active');
    fail(queue, ['NodeResourcesFit']);
    clock.advance(10_000);

    queue.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd); // a new pod only takes resources
    queue.moveAllToActiveOrBackoffQueue({ resource: 'StorageClass', actionType: 1 });
    expect(queue.locate('ns/big')).toBe('unschedulable');
    queue.moveAllToActiveOrBackoffQueue(EventNodeAdd);
    expect(queue.locate('ns/big')).toBe('active');
  });

  it('NodeAllocatable changes and assigned pod deletes help NodeResourcesFit; taints help TaintToleration', () => {
    const { clock, queue } = setup();
    queue.add(pod('fit'));
    queue.add(pod('taint'));
    fail(queue, ['NodeResourcesFit']);
    fail(queue, ['TaintToleration']);
    clock.advance(10_000);
    queue.moveAllToActiveOrBackoffQueue(EventNodeAllocatableChange);
    expect(queue.pending().unschedulable).toEqual(['ns/taint']);
    queue.moveAllToActiveOrBackoffQueue(EventAssignedPodDelete);
    expect(queue.pending().unschedulable).toEqual(['ns/taint']);
    queue.moveAllToActiveOrBackoffQueue(EventNodeTaintChange);
    expect(queue.pending().unschedulable).toEqual([]);
  });

  it('a moved pod still backing off goes to backoffQ, then activeQ at the next flush after expiry', () => {
    const { clock, queue } = setup();
    queue.run();
    queue.add(pod('p'));
    fail(queue, ['NodeAffinity']);
    clock.advance(500);
    queue.moveAllToActiveOrBackoffQueue(EventNodeAdd);
    expect(queue.locate('ns/p')).toBe('backoff');
    clock.advance(500); // the 1 s tick; backoff expired at 1 s
    expect(queue.locate('ns/p')).toBe('active');
    queue.close();
  });

  it('pods rejected by an unknown plugin, or by no plugin, move on any event', () => {
    const { clock, queue } = setup();
    queue.add(pod('custom'));
    fail(queue, ['MyOutOfTreePlugin']);
    clock.advance(10_000);
    queue.moveAllToActiveOrBackoffQueue({ resource: 'StorageClass', actionType: 1 });
    expect(queue.locate('ns/custom')).toBe('active');
  });

  it('a wildcard event moves every unschedulable pod', () => {
    const { clock, queue } = setup();
    queue.add(pod('a'));
    fail(queue, ['NodeName']);
    clock.advance(10_000);
    queue.moveAllToActiveOrBackoffQueue(EventWildCard);
    expect(queue.locate('ns/a')).toBe('active');
  });

  it('preCheck filters the pods considered', () => {
    const { clock, queue } = setup();
    queue.add(pod('yes', 0, { pick: 'y' }));
    queue.add(pod('no', 0, { pick: 'n' }));
    fail(queue, ['NodeAffinity']);
    fail(queue, ['NodeAffinity']);
    clock.advance(10_000);
    queue.moveAllToActiveOrBackoffQueue(EventNodeAdd, (p) => p.metadata.labels?.pick === 'y');
    expect(queue.pending()).toMatchObject({ active: ['ns/yes'], unschedulable: ['ns/no'] });
  });
});

describe('moveRequestCycle', () => {
  it('a move request during the cycle sends the failed pod to backoffQ instead of unschedulablePods', () => {
    const { queue } = setup();
    queue.add(pod('a'));
    queue.add(pod('b'));
    const a = queue.tryPop();
    if (!a) throw new Error('empty');
    const cycleA = queue.schedulingCycle();
    queue.moveAllToActiveOrBackoffQueue(EventNodeAdd); // arrives while a is being scheduled
    a.unschedulablePlugins.add('NodeResourcesFit');
    queue.addUnschedulableIfNotPresent(a, cycleA);
    expect(queue.locate('ns/a')).toBe('backoff');

    // b's cycle starts after the move request: it goes to unschedulablePods.
    fail(queue, ['NodeResourcesFit']);
    expect(queue.locate('ns/b')).toBe('unschedulable');
  });

  it('an event no plugin registered for is not a move request', () => {
    const { queue } = setup();
    queue.add(pod('a'));
    const a = queue.tryPop();
    if (!a) throw new Error('empty');
    queue.moveAllToActiveOrBackoffQueue({ resource: 'CSIDriver', actionType: 1 }); // CSIDriver/Add: nobody
    a.unschedulablePlugins.add('NodeResourcesFit');
    queue.addUnschedulableIfNotPresent(a, queue.schedulingCycle());
    expect(queue.locate('ns/a')).toBe('unschedulable');
  });

  it('re-adding a queued pod throws E_ALREADY_QUEUED', () => {
    const { queue } = setup();
    queue.add(pod('a'));
    const a = queue.tryPop();
    if (!a) throw new Error('empty');
    queue.add(pod('a')); // e.g. an update while in flight re-adds it to activeQ
    a.unschedulablePlugins.add('NodeName');
    expect(() => queue.addUnschedulableIfNotPresent(a, queue.schedulingCycle())).toThrowError(
      expect.objectContaining({ code: 'E_ALREADY_QUEUED' }) as SchedulingQueueError,
    );
    expect(queue.pending().inFlight).toEqual([]);
  });
});

describe('activate', () => {
  it('moves pods from backoffQ and unschedulablePods to activeQ at once', () => {
    const { queue } = setup();
    queue.add(pod('b'));
    queue.add(pod('u'));
    fail(queue, []);
    fail(queue, ['NodeAffinity']);
    expect(queue.pending()).toMatchObject({ backoff: ['ns/b'], unschedulable: ['ns/u'] });
    queue.activate([pod('b'), pod('u'), pod('unknown')]);
    expect(queue.pending()).toMatchObject({ backoff: [], unschedulable: [] });
    expect(queue.pending().active.sort()).toEqual(['ns/b', 'ns/u']);
  });

  it('activating an in-flight pod is a move request: its failure goes to backoffQ', () => {
    const { queue } = setup();
    queue.add(pod('a'));
    const a = queue.tryPop();
    if (!a) throw new Error('empty');
    queue.activate([pod('a')]);
    a.unschedulablePlugins.add('NodeAffinity');
    queue.addUnschedulableIfNotPresent(a, queue.schedulingCycle());
    expect(queue.locate('ns/a')).toBe('backoff');
  });
});

describe('flushUnschedulablePodsLeftover', () => {
  it('pods unschedulable for more than 5 min move at the next 30 s tick', () => {
    const { clock, queue } = setup();
    queue.run();
    queue.add(pod('stuck'));
    fail(queue, ['NodeAffinity']);
    clock.advance(40_000);
    queue.add(pod('recent'));
    fail(queue, ['NodeAffinity']);
    clock.advance(260_000); // t = 300 s: stuck has waited exactly 5 min, not more
    expect(queue.pending().unschedulable.sort()).toEqual(['ns/recent', 'ns/stuck']);
    clock.advance(29_999);
    expect(queue.locate('ns/stuck')).toBe('unschedulable');
    clock.advance(1); // t = 330 s tick
    expect(queue.locate('ns/stuck')).toBe('active');
    expect(queue.locate('ns/recent')).toBe('unschedulable'); // 290 s at that tick
    clock.advance(30_000);
    expect(queue.locate('ns/recent')).toBe('active');
    queue.close();
  });

  it('close() stops the flushes', () => {
    const { clock, queue } = setup();
    queue.run();
    queue.add(pod('p'));
    fail(queue, []);
    queue.close();
    clock.advance(60_000);
    expect(queue.locate('ns/p')).toBe('backoff');
  });
});

describe('Pop', () => {
  it('blocks until Add, and returns undefined after close()', async () => {
    const { queue } = setup();
    let got: QueuedPodInfo<Pod> | undefined;
    const waiting = queue.pop().then((p) => {
      got = p;
    });
    await Promise.resolve();
    expect(got).toBeUndefined();
    queue.add(pod('a'));
    await waiting;
    expect(got?.key).toBe('ns/a');
    expect(queue.schedulingCycle()).toBe(1);

    const second = queue.pop();
    const third = queue.pop();
    queue.close();
    expect(await second).toBeUndefined();
    expect(await third).toBeUndefined();
    expect(await queue.pop()).toBeUndefined();
  });

  it('wakes when the backoff flush fills activeQ', async () => {
    const { clock, queue } = setup();
    queue.run();
    queue.add(pod('a'));
    fail(queue, []);
    const next = queue.pop();
    clock.advance(2_000);
    expect((await next)?.attempts).toBe(2);
    queue.close();
  });

  it('waiters are served in order, each with the then-highest pod', async () => {
    const { queue } = setup();
    const first = queue.pop();
    const second = queue.pop();
    queue.add(pod('x', 1));
    queue.add(pod('y', 2));
    expect((await first)?.key).toBe('ns/x');
    expect((await second)?.key).toBe('ns/y');
  });
});

describe('Update', () => {
  it('in activeQ: replaces the object and re-sorts by the new priority', () => {
    const { clock, queue } = setup();
    queue.add(pod('a', 1));
    clock.advance(1);
    queue.add(pod('b', 2));
    queue.update(pod('a', 1), pod('a', 3));
    expect(queue.pending().active).toEqual(['ns/a', 'ns/b']);
    expect(queue.get('ns/a')?.pod.spec.priority).toBe(3);
  });

  it('in backoffQ: replaces the object, stays in backoffQ', () => {
    const { queue } = setup();
    queue.add(pod('a'));
    fail(queue, []);
    queue.update(pod('a'), pod('a', 0, { x: '1' }));
    expect(queue.locate('ns/a')).toBe('backoff');
    expect(queue.get('ns/a')?.pod.metadata.labels).toEqual({ x: '1' });
  });

  it('in unschedulablePods: a real change moves the pod to backoffQ while backing off, else activeQ', () => {
    const { clock, queue } = setup();
    queue.add(pod('a'));
    queue.add(pod('b'));
    fail(queue, ['NodeAffinity']);
    fail(queue, ['NodeAffinity']);
    queue.update(pod('a'), pod('a', 0, { fixed: 'yes' }));
    expect(queue.locate('ns/a')).toBe('backoff');
    clock.advance(1_000);
    queue.update(pod('b'), pod('b', 0, { fixed: 'yes' }));
    expect(queue.locate('ns/b')).toBe('active');
  });

  it('in unschedulablePods: a status or resourceVersion change keeps the pod there, with the new object', () => {
    const { clock, queue } = setup();
    queue.add(pod('a'));
    fail(queue, ['NodeAffinity']);
    clock.advance(10_000);
    const newer: Pod = { ...pod('a'), status: { phase: 'Pending' } };
    newer.metadata.resourceVersion = '42';
    queue.update(pod('a'), newer);
    expect(queue.locate('ns/a')).toBe('unschedulable');
    expect(queue.get('ns/a')?.pod.metadata.resourceVersion).toBe('42');
  });

  it('a pod in no queue is added to activeQ', () => {
    const { queue } = setup();
    queue.update(undefined, pod('new'));
    expect(queue.locate('ns/new')).toBe('active');
  });
});

describe('Delete', () => {
  it('removes the pod from whichever sub-queue holds it', () => {
    const { clock, queue } = setup();
    for (const name of ['active', 'backoff', 'unsched', 'stays']) {
      queue.add(pod(name));
      clock.advance(1);
    }
    // Re-added last, 'active' now pops after the others: backoff, unsched, stays, active.
    const first = queue.tryPop();
    if (first) queue.add(first.pod);
    queue.delete(pod('active'));
    expect(queue.locate('ns/active')).toBeUndefined();

    fail(queue, []);
    expect(queue.locate('ns/backoff')).toBe('backoff');
    queue.delete(pod('backoff'));
    expect(queue.locate('ns/backoff')).toBeUndefined();

    fail(queue, ['NodeName']);
    expect(queue.locate('ns/unsched')).toBe('unschedulable');
    queue.delete(pod('unsched'));
    expect(queue.locate('ns/unsched')).toBeUndefined();

    queue.delete(pod('never-added'));
    expect(queue.pending()).toMatchObject({ active: ['ns/stays'], backoff: [], unschedulable: [] });
  });
});
