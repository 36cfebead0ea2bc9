/**
 * StatefulPodControl (pkg/controller/statefulset/stateful_pod_control.go at v1.32): a set's pod
 * writes and its claims — the claims created before the pod, identity and storage repaired on
 * update (retried on conflict), the PersistentVolumeClaimRetentionPolicy's ownerReferences kept
 * on the claims, stale claims found — each told as an Event on the set in its wording
 * ("create Pod web-0 in StatefulSet web successful", "create Claim www-web-0 Pod web-0 in
 * StatefulSet web success").
 *
 *   const spc = new StatefulPodControl(new RealObjectManager(client, pods, claims), recorder, clock);
 *   await spc.createStatefulPod(set, pod);
 */
import { isAlreadyExists, isNotFound, newNotFound } from '../../api/status.js';
import type { StatefulSet } from '../../api/types/apps/v1.js';
import type { PersistentVolumeClaim, Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { EventRecorder } from '../../client/event-recorder.js';
import type { Clock } from '../../sim/clock.js';
import { aggregateErrors } from '../framework/aggregate-errors.js';
import { retryOnConflict } from '../framework/retry.js';
import {
  getOrdinal,
  getPersistentVolumeClaimName,
  getPersistentVolumeClaimRetentionPolicy,
  getPersistentVolumeClaims,
  hasStaleOwnerRef,
  hasUnexpectedController,
  identityMatches,
  isClaimOwnerUpToDate,
  POD_KIND,
  RETAIN,
  storageMatches,
  updateClaimOwnerRefForSetAndPod,
  updateIdentity,
  updateStorage,
} from './stateful-set-utils.js';

type RSet = DeepReadonly<StatefulSet>;
type RPod = DeepReadonly<Pod>;
type RClaim = DeepReadonly<PersistentVolumeClaim>;

// stateful_pod_control.go UpdatePodClaimForRetentionPolicy: the Event of a claim with a foreign controller.
export const CONFLICTING_CONTROLLER_REASON = 'ConflictingController';

/**
 * StatefulPodControlObjectManager: the pod and claim reads (listers) and writes (the client);
 * a read of something absent throws the apiserver's NotFound, as the listers do.
 */
export interface StatefulPodControlObjectManager {
  createPod(pod: Pod): Promise<void>;
  getPod(namespace: string, name: string): RPod;
  updatePod(pod: Pod): Promise<void>;
  deletePod(pod: RPod): Promise<void>;
  createClaim(claim: PersistentVolumeClaim): Promise<void>;
  getClaim(namespace: string, name: string): RClaim;
  updateClaim(claim: PersistentVolumeClaim): Promise<void>;
}

/** A lister's Get: the cached object, or the NotFound the Go lister answers. */
export function listerGet<T>(found: T | undefined, resource: string, name: string): T {
  if (found === undefined) throw newNotFound({ group: '', resource }, name);
  return found;
}

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
/** strings.Title of a one-word verb. */
const title = (verb: string): string => verb.charAt(0).toUpperCase() + verb.slice(1);

export class StatefulPodControl {
  constructor(
    readonly objectMgr: StatefulPodControlObjectManager,
    private readonly recorder: EventRecorder,
    private readonly clock: Clock,
  ) {}

  /**
   * CreateStatefulPod: the claims, then the pod (an AlreadyExists is returned without an Event),
   * then the claims' retention references as far as they can be set.
   */
  async createStatefulPod(set: RSet, pod: Pod): Promise<void> {
    try {
      await this.createPersistentVolumeClaims(set, pod);
    } catch (err) {
      this.recordPodEvent('create', set, pod, err);
      throw err;
    }
    let err: unknown;
    try {
      await this.objectMgr.createPod(pod);
    } catch (e) {
      if (isAlreadyExists(e)) throw e;
      err = e;
    }
    // StatefulSetAutoDeletePVC: beta, on in 1.32.
    try {
      await this.updatePodClaimForRetentionPolicy(set, pod);
    } catch (e) {
      this.recordPodEvent('update', set, pod, e);
      throw e;
    }
    this.recordPodEvent('create', set, pod, err);
    if (err !== undefined) throw err;
  }

  /**
   * UpdateStatefulPod: identity, storage (missing claims created) and retention references made
   * to conform; the pod written only if something changed, retried on conflict from the lister.
   */
  async updateStatefulPod(set: RSet, podIn: Pod): Promise<void> {
    let pod = podIn;
    let attemptedUpdate = false;
    let failure: unknown;
    try {
      await retryOnConflict(this.clock, async () => {
        let consistent = true;
        if (!identityMatches(set, pod)) {
          updateIdentity(set, pod);
          consistent = false;
        }
        if (!storageMatches(set, pod)) {
          updateStorage(set, pod);
          consistent = false;
          try {
            await this.createPersistentVolumeClaims(set, pod);
          } catch (err) {
            this.recordPodEvent('update', set, pod, err);
            throw err;
          }
        }
        let match: boolean;
        try {
          match = this.claimsMatchRetentionPolicy(set, pod);
        } catch (err) {
          this.recordPodEvent('update', set, pod, err);
          throw err;
        }
        if (!match) {
          try {
            await this.updatePodClaimForRetentionPolicy(set, pod);
          } catch (err) {
            this.recordPodEvent('update', set, pod, err);
            throw err;
          }
          consistent = false;
        }
        if (consistent) return;
        attemptedUpdate = true;
        try {
          await this.objectMgr.updatePod(pod);
        } catch (updateErr) {
          try {
            pod = structuredClone(
              this.objectMgr.getPod(set.metadata?.namespace ?? '', pod.metadata?.name ?? ''),
            ) as Pod;
          } catch {
            // HandleError in Go: the next attempt works on the copy it has.
          }
          throw updateErr;
        }
      });
    } catch (err) {
      failure = err;
    }
    if (attemptedUpdate) this.recordPodEvent('update', set, pod, failure);
    if (failure !== undefined) throw failure;
  }

  /** DeleteStatefulPod: the pod deleted, told as SuccessfulDelete or FailedDelete. */
  async deleteStatefulPod(set: RSet, pod: RPod): Promise<void> {
    let err: unknown;
    try {
      await this.objectMgr.deletePod(pod);
    } catch (e) {
      err = e;
    }
    this.recordPodEvent('delete', set, pod, err);
    if (err !== undefined) throw err;
  }

  /** ClaimsMatchRetentionPolicy: every existing claim's references agree with the policy. */
  claimsMatchRetentionPolicy(set: RSet, pod: RPod): boolean {
    const ordinal = getOrdinal(pod);
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const claimName = getPersistentVolumeClaimName(set, template, ordinal);
      let claim: RClaim;
      try {
        claim = this.objectMgr.getClaim(set.metadata?.namespace ?? '', claimName);
      } catch (err) {
        // A missing claim is picked up by a later sync.
        if (isNotFound(err)) continue;
        throw new Error(
          `Could not retrieve claim ${claimName} for ${pod.metadata?.name ?? ''} when checking PVC deletion policy`,
        );
      }
      if (!isClaimOwnerUpToDate(claim, set, pod)) return false;
    }
    return true;
  }

  /** UpdatePodClaimForRetentionPolicy: each existing claim's references rewritten to the policy. */
  async updatePodClaimForRetentionPolicy(set: RSet, pod: RPod): Promise<void> {
    const ordinal = getOrdinal(pod);
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const claimName = getPersistentVolumeClaimName(set, template, ordinal);
      let claim: RClaim;
      try {
        claim = this.objectMgr.getClaim(set.metadata?.namespace ?? '', claimName);
      } catch (err) {
        if (isNotFound(err)) continue;
        throw new Error(
          `Could not retrieve claim ${claimName} not found for ${pod.metadata?.name ?? ''} when checking PVC deletion policy: ${errText(err)}`,
          { cause: err },
        );
      }
      if (hasUnexpectedController(claim, set, pod)) {
        // Go's spelling ("manging") kept: it is the message users see.
        this.recorder.record(
          set,
          'Warning',
          CONFLICTING_CONTROLLER_REASON,
          `PersistentVolumeClaim ${claimName} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim`,
        );
      }
      if (!isClaimOwnerUpToDate(claim, set, pod)) {
        const copy = structuredClone(claim) as PersistentVolumeClaim;
        updateClaimOwnerRefForSetAndPod(copy, set, pod);
        try {
          await this.objectMgr.updateClaim(copy);
        } catch (err) {
          throw new Error(`could not update claim ${claimName} for delete policy ownerRefs: ${errText(err)}`, {
            cause: err,
          });
        }
      }
    }
  }

  /**
   * PodClaimIsStale: with whenScaled=Delete, a claim referencing a pod of this name with another
   * UID (a pod not yet created has none) blocks the pod's creation until the GC removes it.
   */
  podClaimIsStale(set: RSet, pod: RPod): boolean {
    if (getPersistentVolumeClaimRetentionPolicy(set).whenScaled === RETAIN) return false;
    for (const claim of getPersistentVolumeClaims(set, pod).values()) {
      let pvc: RClaim;
      try {
        pvc = this.objectMgr.getClaim(claim.metadata?.namespace ?? '', claim.metadata?.name ?? '');
      } catch (err) {
        if (isNotFound(err)) continue;
        throw err;
      }
      if (hasStaleOwnerRef(pvc, pod, POD_KIND)) return true;
    }
    return false;
  }

  /** createMissingPersistentVolumeClaims: the claims, then their retention references. */
  async createMissingPersistentVolumeClaims(set: RSet, pod: RPod): Promise<void> {
    await this.createPersistentVolumeClaims(set, pod);
    try {
      await this.updatePodClaimForRetentionPolicy(set, pod);
    } catch (err) {
      this.recordPodEvent('update', set, pod, err);
      throw err;
    }
  }

  /**
   * createPersistentVolumeClaims: each missing claim created (an Event each, but for an
   * AlreadyExists); a claim being deleted is an error until it is gone.
   */
  async createPersistentVolumeClaims(set: RSet, pod: RPod): Promise<void> {
    const errors: unknown[] = [];
    for (const claim of getPersistentVolumeClaims(set, pod).values()) {
      const name = claim.metadata?.name ?? '';
      let pvc: RClaim | undefined;
      try {
        pvc = this.objectMgr.getClaim(claim.metadata?.namespace ?? '', name);
      } catch (err) {
        if (!isNotFound(err)) {
          errors.push(new Error(`failed to retrieve PVC ${name}: ${errText(err)}`));
          this.recordClaimEvent('create', set, pod, claim, err);
          continue;
        }
      }
      if (pvc === undefined) {
        let err: unknown;
        try {
          await this.objectMgr.createClaim(claim);
        } catch (e) {
          err = e;
          errors.push(new Error(`failed to create PVC ${name}: ${errText(e)}`));
        }
        if (err === undefined || !isAlreadyExists(err)) this.recordClaimEvent('create', set, pod, claim, err);
      } else if ((pvc.metadata?.deletionTimestamp ?? null) !== null) {
        errors.push(new Error(`pvc ${name} is being deleted`));
      }
    }
    const error = aggregateErrors(errors);
    if (error !== undefined) throw error;
  }

  /** recordPodEvent: Successful<Verb> "<verb> Pod <pod> in StatefulSet <set> successful", or Failed<Verb>. */
  private recordPodEvent(verb: string, set: RSet, pod: RPod, err: unknown): void {
    const podName = pod.metadata?.name ?? '';
    const setName = set.metadata?.name ?? '';
    if (err === undefined) {
      this.recorder.record(
        set,
        'Normal',
        `Successful${title(verb)}`,
        `${verb} Pod ${podName} in StatefulSet ${setName} successful`,
      );
    } else {
      this.recorder.record(
        set,
        'Warning',
        `Failed${title(verb)}`,
        `${verb} Pod ${podName} in StatefulSet ${setName} failed error: ${errText(err)}`,
      );
    }
  }

  /** recordClaimEvent: "<verb> Claim <claim> Pod <pod> in StatefulSet <set> success", or the failure. */
  private recordClaimEvent(verb: string, set: RSet, pod: RPod, claim: RClaim, err: unknown): void {
    const claimName = claim.metadata?.name ?? '';
    const podName = pod.metadata?.name ?? '';
    const setName = set.metadata?.name ?? '';
    if (err === undefined) {
      this.recorder.record(
        set,
        'Normal',
        `Successful${title(verb)}`,
        `${verb} Claim ${claimName} Pod ${podName} in StatefulSet ${setName} success`,
      );
    } else {
      this.recorder.record(
        set,
        'Warning',
        `Failed${title(verb)}`,
        `${verb} Claim ${claimName} for Pod ${podName} in StatefulSet ${setName} failed error: ${errText(err)}`,
      );
    }
  }
}
