// k8s.io/endpointslice util/endpointslice_tracker_test.go (v0.32): TestEndpointSliceTrackerUpdate,
// …StaleSlices, …Deletion, …DeleteService.
import { describe, expect, it } from 'vitest';
import type { Service } from '../../api/types/core/v1.js';
import type { EndpointSlice } from '../../api/types/discovery/v1.js';
import { EndpointSliceTracker } from './endpointslice-tracker.js';

const slice = (uid: string, generation: number, service = 'svc1', namespace = 'ns1'): EndpointSlice => ({
  metadata: { name: `slice-${uid}`, namespace, uid, generation, labels: { 'kubernetes.io/service-name': service } },
  addressType: 'IPv4',
  endpoints: [],
});
const svc = (name = 'svc1', namespace = 'ns1'): Service => ({ metadata: { name, namespace } });

describe('EndpointSliceTracker', () => {
  it('syncs a slice it has not seen, or a newer generation than it wrote (TestEndpointSliceTrackerUpdate)', () => {
    const tracker = new EndpointSliceTracker();
    const s1 = slice('original', 1);
    expect(tracker.shouldSync(s1)).toBe(true);
    expect(tracker.has(s1)).toBe(false);
    tracker.update(s1);
    expect(tracker.has(s1)).toBe(true);
    expect(tracker.shouldSync(s1)).toBe(false);
    // The same slice, newer: someone else's change.
    expect(tracker.shouldSync(slice('original', 2))).toBe(true);
    // An older generation: no.
    tracker.update(slice('original', 3));
    expect(tracker.shouldSync(slice('original', 2))).toBe(false);
    // A different slice of the same Service, and one of another Service.
    expect(tracker.shouldSync(slice('other', 1))).toBe(true);
    expect(tracker.shouldSync(slice('original', 1, 'svc2'))).toBe(true);
  });

  describe('StaleSlices (TestEndpointSliceTrackerStaleSlices)', () => {
    const cases: Array<{
      name: string;
      tracked: Array<[string, number]>;
      deleted?: string[];
      provided: Array<[string, number]>;
      want: boolean;
    }> = [
      { name: 'empty tracker', tracked: [], provided: [], want: false },
      { name: 'empty slices', tracked: [['a', 1]], provided: [], want: true },
      { name: 'matching generation', tracked: [['a', 1]], provided: [['a', 1]], want: false },
      { name: 'newer generation provided', tracked: [['a', 1]], provided: [['a', 2]], want: false },
      { name: 'older generation provided', tracked: [['a', 2]], provided: [['a', 1]], want: true },
      {
        name: 'slice missing from the list',
        tracked: [
          ['a', 1],
          ['b', 1],
        ],
        provided: [['a', 1]],
        want: true,
      },
      { name: 'slice expected deleted, not listed', tracked: [['a', 1]], deleted: ['a'], provided: [], want: false },
      {
        name: 'slice expected deleted, still listed',
        tracked: [['a', 1]],
        deleted: ['a'],
        provided: [['a', 1]],
        want: true,
      },
    ];
    for (const tc of cases) {
      it(tc.name, () => {
        const tracker = new EndpointSliceTracker();
        for (const [uid, g] of tc.tracked) tracker.update(slice(uid, g));
        for (const uid of tc.deleted ?? []) tracker.expectDeletion(slice(uid, 1));
        expect(
          tracker.staleSlices(
            svc(),
            tc.provided.map(([uid, g]) => slice(uid, g)),
          ),
        ).toBe(tc.want);
      });
    }
  });

  it('tells expected deletions from others, forgetting both (TestEndpointSliceTrackerDeletion)', () => {
    const tracker = new EndpointSliceTracker();
    const s1 = slice('a', 1);
    tracker.update(s1);
    tracker.expectDeletion(s1);
    expect(tracker.has(s1)).toBe(true);
    // Expected: the controller's own delete; the Service is not queued.
    expect(tracker.handleDeletion(s1)).toBe(true);
    expect(tracker.has(s1)).toBe(false);
    const s2 = slice('b', 1);
    tracker.update(s2);
    // Not expected: someone else deleted it.
    expect(tracker.handleDeletion(s2)).toBe(false);
    expect(tracker.has(s2)).toBe(false);
    // Untracked Service: nothing to tell.
    expect(tracker.handleDeletion(slice('c', 1, 'svc9'))).toBe(true);
  });

  it('forgets a Service’s slices (TestEndpointSliceTrackerDeleteService)', () => {
    const tracker = new EndpointSliceTracker();
    const s1 = slice('a', 1);
    tracker.update(s1);
    tracker.update(slice('x', 1, 'svc1', 'ns2'));
    tracker.deleteService('ns1', 'svc1');
    expect(tracker.has(s1)).toBe(false);
    expect(tracker.shouldSync(s1)).toBe(true);
    expect(tracker.has(slice('x', 1, 'svc1', 'ns2'))).toBe(true);
  });
});
