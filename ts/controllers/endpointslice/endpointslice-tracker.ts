/**
 * EndpointSliceTracker (k8s.io/endpointslice util/endpointslice_tracker.go, v0.32): the generation
 * of every EndpointSlice the controller last wrote, by Service, so that a sync on an informer cache
 * that has not caught up with those writes is refused (StaleSlices) instead of undoing them, and a
 * slice's own watch events for writes of the controller are not taken for outside changes.
 *
 *   tracker.update(created);                  // after each create or update
 *   tracker.expectDeletion(slice);            // after each delete
 *   if (tracker.staleSlices(service, slices)) throw new StaleInformerCacheError('…');
 */
import type { Service } from '../../api/types/core/v1.js';
import type { EndpointSlice } from '../../api/types/discovery/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { keyOf } from '../../client/informers/keys.js';

// endpointslice_tracker.go deletionExpected: the generation recorded for a slice expected to go.
export const DELETION_EXPECTED = -1;

type ReadonlySlice = DeepReadonly<EndpointSlice>;

/** pkg/controller/util/endpointslice/errors.go StaleInformerCache: retried, and counted as "stale". */
export class StaleInformerCacheError extends Error {
  override readonly name = 'StaleInformerCacheError';
}

export function isStaleInformerCacheError(err: unknown): err is StaleInformerCacheError {
  return err instanceof StaleInformerCacheError;
}

export class EndpointSliceTracker {
  /** Service key → slice UID → generation (or DELETION_EXPECTED). */
  private readonly generationsByService = new Map<string, Map<string, number>>();

  /** Has: the slice's generation is tracked. */
  has(slice: ReadonlySlice): boolean {
    return this.generationsFor(slice)?.has(uidOf(slice)) ?? false;
  }

  /** ShouldSync: untracked, or newer than the generation the controller wrote. */
  shouldSync(slice: ReadonlySlice): boolean {
    const gfs = this.generationsFor(slice);
    if (gfs === undefined) return true;
    const g = gfs.get(uidOf(slice));
    return g === undefined || generationOf(slice) > g;
  }

  /**
   * StaleSlices: a listed slice older than tracked or expected deleted, or a tracked slice (not
   * expected deleted) missing from the list.
   */
  staleSlices(service: DeepReadonly<Service>, slices: readonly ReadonlySlice[]): boolean {
    const gfs = this.generationsByService.get(keyOf(service.metadata?.namespace, service.metadata?.name ?? ''));
    if (gfs === undefined) return false;
    const provided = new Set<string>();
    for (const slice of slices) {
      provided.add(uidOf(slice));
      const g = gfs.get(uidOf(slice));
      if (g !== undefined && (g === DELETION_EXPECTED || g > generationOf(slice))) return true;
    }
    for (const [uid, g] of gfs) {
      if (g !== DELETION_EXPECTED && !provided.has(uid)) return true;
    }
    return false;
  }

  /** Update: records the slice's generation (after the controller wrote it). */
  update(slice: ReadonlySlice): void {
    this.generationsForOrNew(slice).set(uidOf(slice), generationOf(slice));
  }

  /** DeleteService: forgets the Service's slices. */
  deleteService(namespace: string, name: string): void {
    this.generationsByService.delete(keyOf(namespace, name));
  }

  /** ExpectDeletion: the controller deleted the slice; its delete event is its own. */
  expectDeletion(slice: ReadonlySlice): void {
    this.generationsForOrNew(slice).set(uidOf(slice), DELETION_EXPECTED);
  }

  /** HandleDeletion: forgets the slice; false when its deletion was not expected (someone else's). */
  handleDeletion(slice: ReadonlySlice): boolean {
    const gfs = this.generationsFor(slice);
    if (gfs !== undefined) {
      const g = gfs.get(uidOf(slice));
      gfs.delete(uidOf(slice));
      if (g !== undefined && g !== DELETION_EXPECTED) return false;
    }
    return true;
  }

  /** The tracked generations of the slice's Service (by its service-name label), for tests. */
  generationsFor(slice: ReadonlySlice): Map<string, number> | undefined {
    return this.generationsByService.get(serviceKeyOf(slice));
  }

  private generationsForOrNew(slice: ReadonlySlice): Map<string, number> {
    const key = serviceKeyOf(slice);
    let gfs = this.generationsByService.get(key);
    if (gfs === undefined) {
      gfs = new Map();
      this.generationsByService.set(key, gfs);
    }
    return gfs;
  }
}

// discovery/v1 well_known_labels.go LabelServiceName.
const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';

/** getServiceNN: the slice's namespace and service-name label ('' when absent). */
function serviceKeyOf(slice: ReadonlySlice): string {
  return keyOf(slice.metadata?.namespace, slice.metadata?.labels?.[LABEL_SERVICE_NAME] ?? '');
}

const uidOf = (slice: ReadonlySlice): string => slice.metadata?.uid ?? '';
const generationOf = (slice: ReadonlySlice): number => slice.metadata?.generation ?? 0;
