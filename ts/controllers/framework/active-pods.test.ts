import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/types/core/v1.js';
import {
  activePodsWithRanksLess,
  deletionCost,
  filterActivePods,
  isPodActive,
  POD_DELETION_COST_ANNOTATION,
  sortActivePods,
  sortActivePodsWithRanks,
} from './active-pods.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const now = iso(NOW);
const then = iso(Date.parse('2024-04-01T12:00:00Z')); // now.AddDate(0, -1, 0)
const hoursAgo = (h: number) => iso(NOW - h * 3_600_000);

/** A seeded shuffle (the Go tests sort 20 random permutations). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

// controller_utils_test.go (v1.32)
describe('filterActivePods (TestActivePodFiltering)', () => {
  it('keeps the pods not Succeeded, not Failed and not being deleted', () => {
    const pod = (name: string, status: NonNullable<Pod['status']>, deleting = false): Pod => ({
      metadata: { name, ...(deleting ? { deletionTimestamp: now } : {}) },
      status,
    });
    const pods = [
      pod('pod-0', { phase: 'Succeeded' }),
      pod('pod-1', { phase: 'Failed' }),
      pod('pod-2', { phase: 'Running' }),
      pod('pod-3', { phase: 'Pending' }),
      pod('pod-4', { phase: 'Running' }, true),
      pod('pod-5', {}),
    ];
    expect(filterActivePods(pods).map((p) => p.metadata?.name)).toEqual(['pod-2', 'pod-3', 'pod-5']);
    expect(isPodActive(pods[4] as Pod)).toBe(false);
  });
});

describe('ActivePods (TestSortingActivePods)', () => {
  const ready = (lastTransitionTime?: string) => ({
    type: 'Ready',
    status: 'True',
    ...(lastTransitionTime === undefined ? {} : { lastTransitionTime }),
  });
  const restarts = (...counts: number[]) =>
    counts.map((restartCount, i) => ({
      name: `c${i}`,
      ready: true,
      restartCount,
      image: 'x',
      imageID: '',
    }));
  const pods: Pod[] = [
    { metadata: { name: 'unscheduled' }, spec: { nodeName: '', containers: [] }, status: { phase: 'Pending' } },
    {
      metadata: { name: 'scheduledButPending' },
      spec: { nodeName: 'bar', containers: [] },
      status: { phase: 'Pending' },
    },
    { metadata: { name: 'unknownPhase' }, spec: { nodeName: 'foo', containers: [] }, status: { phase: 'Unknown' } },
    {
      metadata: { name: 'runningButNotReady' },
      spec: { nodeName: 'foo', containers: [] },
      status: { phase: 'Running' },
    },
    {
      metadata: { name: 'runningNoLastTransitionTime' },
      spec: { nodeName: 'foo', containers: [] },
      status: { phase: 'Running', conditions: [ready()], containerStatuses: restarts(3, 0) },
    },
    {
      metadata: { name: 'runningWithLastTransitionTime' },
      spec: { nodeName: 'foo', containers: [] },
      status: { phase: 'Running', conditions: [ready(now)], containerStatuses: restarts(3, 0) },
    },
    {
      metadata: { name: 'runningLongerTime' },
      spec: { nodeName: 'foo', containers: [] },
      status: { phase: 'Running', conditions: [ready(then)], containerStatuses: restarts(3, 0) },
    },
    {
      metadata: { name: 'lowerContainerRestartCount', creationTimestamp: now },
      spec: { nodeName: 'foo', containers: [] },
      status: { phase: 'Running', conditions: [ready(then)], containerStatuses: restarts(2, 1) },
    },
    {
      metadata: { name: 'oldest', creationTimestamp: then },
      spec: { nodeName: 'foo', containers: [] },
      status: { phase: 'Running', conditions: [ready(then)], containerStatuses: restarts(2, 1) },
    },
  ];

  it('sorts by active pod, whatever the order it starts in', () => {
    const want = pods.map((p) => p.metadata?.name);
    for (let seed = 1; seed <= 20; seed++) {
      expect(sortActivePods(shuffled(pods, seed)).map((p) => p.metadata?.name)).toEqual(want);
    }
  });

  it('sorts by the restart count of sidecars when the regular containers tie', () => {
    const sidecarPod = (name: string, sidecarRestarts: number): Pod => ({
      metadata: { name },
      spec: {
        nodeName: 'foo',
        initContainers: [{ name: 'sidecar', restartPolicy: 'Always' }],
        containers: [{ name: 'main' }],
      },
      status: {
        phase: 'Running',
        conditions: [ready(then)],
        containerStatuses: [{ name: 'main', ready: true, restartCount: 1, image: 'x', imageID: '' }],
        initContainerStatuses: [
          { name: 'sidecar', ready: true, restartCount: sidecarRestarts, image: 'x', imageID: '' },
        ],
      },
    });
    const sorted = sortActivePods([sidecarPod('fewer', 1), sidecarPod('more', 5)]);
    expect(sorted.map((p) => p.metadata?.name)).toEqual(['more', 'fewer']);
  });
});

describe('ActivePodsWithRanks (TestSortingActivePodsWithRanks)', () => {
  const pod = (
    name: string,
    nodeName: string,
    phase: 'Pending' | 'Unknown' | 'Running',
    isReady: boolean,
    restarts: number,
    readySince: string | undefined,
    created: string | undefined,
    annotations?: Record<string, string>,
  ): Pod => ({
    metadata: {
      name,
      ...(created === undefined ? {} : { creationTimestamp: created }),
      ...(annotations === undefined ? {} : { annotations }),
    },
    spec: { nodeName, containers: [] },
    status: {
      phase,
      ...(isReady
        ? {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                ...(readySince === undefined ? {} : { lastTransitionTime: readySince }),
              },
            ],
          }
        : {}),
      containerStatuses: [{ name: 'c', ready: isReady, restartCount: restarts, image: 'x', imageID: '' }],
    },
  });
  const unscheduledPod = pod('unscheduled', '', 'Pending', false, 0, undefined, undefined);
  const scheduledPendingPod = pod('pending', 'node', 'Pending', false, 0, undefined, undefined);
  const unknownPhasePod = pod('unknown-phase', 'node', 'Unknown', false, 0, undefined, undefined);
  const runningNotReadyPod = pod('not-ready', 'node', 'Running', false, 0, undefined, undefined);
  const runningReadyNoLastTransitionTimePod = pod(
    'ready-no-last-transition-time',
    'node',
    'Running',
    true,
    0,
    undefined,
    undefined,
  );
  const runningReadyNow = pod('ready-now', 'node', 'Running', true, 0, now, now);
  const runningReadyThen = pod('ready-then', 'node', 'Running', true, 0, then, then);
  const runningReadyNowHighRestarts = pod('ready-high-restarts', 'node', 'Running', true, 10, now, now);
  const runningReadyNowCreatedThen = pod('ready-now-created-then', 'node', 'Running', true, 0, now, then);
  const lowPodDeletionCost = pod('low-deletion-cost', 'node', 'Running', true, 0, now, then, {
    [POD_DELETION_COST_ANNOTATION]: '10',
  });
  const highPodDeletionCost = pod('high-deletion-cost', 'node', 'Running', true, 0, now, then, {
    [POD_DELETION_COST_ANNOTATION]: '100',
  });
  const unscheduled5Hours = pod('unscheduled-5-hours', '', 'Pending', false, 0, hoursAgo(5), hoursAgo(5));
  const unscheduled8Hours = pod('unscheduled-10-hours', '', 'Pending', false, 0, hoursAgo(8), hoursAgo(8));
  const ready2Hours = pod('ready-2-hours', '', 'Running', true, 0, hoursAgo(2), then);
  const ready5Hours = pod('ready-5-hours', '', 'Running', true, 0, hoursAgo(5), then);
  const ready10Hours = pod('ready-10-hours', '', 'Running', true, 0, hoursAgo(8), then);

  it.each([
    [unscheduledPod, unscheduledPod],
    [scheduledPendingPod, scheduledPendingPod],
    [unknownPhasePod, unknownPhasePod],
    [runningNotReadyPod, runningNotReadyPod],
    [runningReadyNow, runningReadyNow],
    [runningReadyThen, runningReadyThen],
    [runningReadyNowHighRestarts, runningReadyNowHighRestarts],
    [runningReadyNowCreatedThen, runningReadyNowCreatedThen],
    // Logarithmic scale-down: about the same age is the same.
    [unscheduled5Hours, unscheduled8Hours],
    [ready5Hours, ready10Hours],
  ])('equality: %#', (p1, p2) => {
    expect(activePodsWithRanksLess(p1, p2, 1, 1, NOW) || activePodsWithRanksLess(p2, p1, 1, 1, NOW)).toBe(false);
  });

  it.each([
    [unscheduledPod, 1, scheduledPendingPod, 2],
    [unscheduledPod, 2, scheduledPendingPod, 1],
    [scheduledPendingPod, 1, unknownPhasePod, 2],
    [unknownPhasePod, 1, runningNotReadyPod, 2],
    [runningNotReadyPod, 1, runningReadyNoLastTransitionTimePod, 1],
    [runningReadyNoLastTransitionTimePod, 1, runningReadyNow, 1],
    [runningReadyNow, 2, runningReadyNoLastTransitionTimePod, 1],
    [runningReadyNow, 1, runningReadyThen, 1],
    [runningReadyNow, 2, runningReadyThen, 1],
    [runningReadyNowHighRestarts, 1, runningReadyNow, 1],
    [runningReadyNow, 2, runningReadyNowHighRestarts, 1],
    [runningReadyNow, 1, runningReadyNowCreatedThen, 1],
    [runningReadyNowCreatedThen, 2, runningReadyNow, 1],
    [lowPodDeletionCost, 2, highPodDeletionCost, 1],
    [ready2Hours, 1, ready5Hours, 1],
  ])('inequality: %#', (lesser, lesserRank, greater, greaterRank) => {
    expect(activePodsWithRanksLess(lesser, greater, lesserRank, greaterRank, NOW)).toBe(true);
    expect(activePodsWithRanksLess(greater, lesser, greaterRank, lesserRank, NOW)).toBe(false);
  });

  it('sorts pods with their ranks together', () => {
    const pods = [runningReadyThen, unscheduledPod, runningReadyNow];
    const ranks = [1, 1, 2];
    sortActivePodsWithRanks(pods, ranks, NOW);
    expect(pods.map((p) => p.metadata?.name)).toEqual(['unscheduled', 'ready-now', 'ready-then']);
    expect(ranks).toEqual([1, 2, 1]);
  });
});

describe('deletionCost (GetDeletionCostFromPodAnnotations)', () => {
  const withCost = (value: string): Pod => ({ metadata: { annotations: { [POD_DELETION_COST_ANNOTATION]: value } } });
  it.each([
    ['10', 10],
    ['-5', -5],
    ['0', 0],
    ['+10', 0],
    ['008', 0],
    ['1e3', 0],
    ['2147483648', 0],
    ['-2147483648', -2147483648],
    ['', 0],
  ])('%j → %d', (value, want) => {
    expect(deletionCost(withCost(value))).toBe(want);
  });
  it('is 0 without the annotation', () => {
    expect(deletionCost({ metadata: {} })).toBe(0);
  });
});
