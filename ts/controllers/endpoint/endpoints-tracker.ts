/**
 * staleEndpointsTracker (pkg/controller/endpoint/endpoints_tracker.go at v1.32): the
 * resourceVersion each Endpoints had before the controller last updated it, so that a sync that
 * still reads that version from the informer cache knows the cache is behind its own write and
 * is retried instead of writing again from stale state.
 *
 *   if (tracker.isStale(current)) throw new Error('endpoints informer cache is out of date, …');
 *   tracker.stale(current);   // after an update that changed the resourceVersion
 */
import type { Endpoints } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { keyOf } from '../../client/informers/keys.js';

export class StaleEndpointsTracker {
  private readonly staleResourceVersionByEndpoints = new Map<string, string>();

  /** Stale: `endpoints`' resourceVersion is now out of date. */
  stale(endpoints: DeepReadonly<Endpoints>): void {
    this.staleResourceVersionByEndpoints.set(keyOfEndpoints(endpoints), endpoints.metadata?.resourceVersion ?? '');
  }

  /** IsStale: `endpoints` carries the resourceVersion recorded as out of date. */
  isStale(endpoints: DeepReadonly<Endpoints>): boolean {
    const rv = this.staleResourceVersionByEndpoints.get(keyOfEndpoints(endpoints));
    return rv !== undefined && rv === (endpoints.metadata?.resourceVersion ?? '');
  }

  delete(namespace: string, name: string): void {
    this.staleResourceVersionByEndpoints.delete(keyOf(namespace, name));
  }
}

const keyOfEndpoints = (e: DeepReadonly<Endpoints>): string => keyOf(e.metadata?.namespace, e.metadata?.name ?? '');
