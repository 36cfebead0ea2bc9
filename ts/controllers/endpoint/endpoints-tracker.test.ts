// endpoints_tracker_test.go (v1.32): TestStaleEndpointsTracker.
import { describe, expect, it } from 'vitest';
import type { Endpoints } from '../../api/types/core/v1.js';
import { StaleEndpointsTracker } from './endpoints-tracker.js';

describe('StaleEndpointsTracker (TestStaleEndpointsTracker)', () => {
  it('is stale at the recorded resourceVersion only, and forgets on delete', () => {
    const tracker = new StaleEndpointsTracker();
    const endpoints: Endpoints = {
      metadata: { name: 'foo', namespace: 'default', resourceVersion: '1' },
      subsets: [{ addresses: [{ ip: '6.7.8.9', nodeName: '' }], ports: [{ port: 1000 }] }],
    };
    expect(tracker.isStale(endpoints)).toBe(false);
    tracker.stale(endpoints);
    expect(tracker.isStale(endpoints)).toBe(true);
    endpoints.metadata = { ...endpoints.metadata, resourceVersion: '2' };
    expect(tracker.isStale(endpoints)).toBe(false);
    tracker.delete('default', 'foo');
    endpoints.metadata = { ...endpoints.metadata, resourceVersion: '1' };
    expect(tracker.isStale(endpoints)).toBe(false);
  });
});
