/**
 * The StatefulSet control loop (pkg/controller/statefulset/stateful_set_control.go at v1.32):
 * the revisions (the update revision made or found, a rollback renumbering an equal one, the
 * current one from status), then the pods — OrderedReady: one at a time in ordinal order, each
 * Running, Ready and available before the next, condemned pods deleted from the highest ordinal
 * down once all are healthy; Parallel: in slow-start batches — failed and succeeded pods deleted to
 * be made again, claims before pods, identity and storage repaired, the retention policy's claim
 * references kept; then RollingUpdate (ordinals from the partition up, the highest first, one at
 * a time waiting for health) or nothing for OnDelete; the status written when it changed; the
 * history past revisionHistoryLimit deleted unless a pod or the status still names it.
 *
 * maxUnavailable is left out as 1.32 leaves it out: MaxUnavailableStatefulSet is alpha and off.
 *
 *   const control = new DefaultStatefulSetControl(podControl, statusUpdater, history, clock);
 *   const status = await control.updateStatefulSet(set, pods);
 */
import { labelSelectorAsSelector } from '../../api/labels/label-selector.js';
import type { LabelSelector } from '../../api/meta.js';
import { isNotFound } from '../../api/status.js';
import type { ControllerRevision, StatefulSet, StatefulSetStatus } from '../../api/types/apps/v1.js';
import type { Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Clock } from '../../sim/clock.js';
import { aggregateErrors } from '../framework/aggregate-errors.js';
import {
  type CollisionCount,
  type ControllerHistory,
  equalRevision,
  findEqualRevisions,
  sortControllerRevisions,
} from '../history/controller-history.js';
import type { StatefulPodControl } from './stateful-pod-control.js';
import {
  allowsBurst,
  applyRevision,
  completeRollingUpdate,
  getEndOrdinal,
  getOrdinal,
  getPodRevision,
  getStartOrdinal,
  identityMatches,
  inconsistentStatus,
  isCreated,
  isFailed,
  isHealthy,
  isPending,
  isRunningAndAvailable,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  newRevision,
  newVersionedStatefulSetPod,
  nextRevision,
  podInOrdinalRange,
  replicasOf,
  STATEFUL_SET_KIND,
  sortDescendingOrdinal,
  storageMatches,
} from './stateful-set-utils.js';

type RSet = DeepReadonly<StatefulSet>;
type RPod = DeepReadonly<Pod>;
type RRevision = DeepReadonly<ControllerRevision>;

// stateful_set_control.go MaxBatchSize: the largest slow-start batch of a Parallel set.
export const MAX_BATCH_SIZE = 500;

/** The status write (stateful-set-status-updater.ts), injected so tests can refuse it. */
export type StatusUpdater = (set: RSet, status: DeepReadonly<StatefulSetStatus>) => Promise<void>;

/**
 * slowStartBatch: `fn` on 0…remaining-1 in batches of 1, 2, 4, … (at most MaxBatchSize), stopping
 * after a batch with failures, with all of that batch's errors.
 */
export async function slowStartBatch(
  initialBatchSize: number,
  remainingIn: number,
  fn: (i: number) => Promise<unknown>,
): Promise<number> {
  let remaining = remainingIn;
  let successes = 0;
  let j = 0;
  for (let batchSize = Math.min(remaining, initialBatchSize); batchSize > 0; ) {
    const errors: unknown[] = [];
    const batch: Promise<void>[] = [];
    for (let i = 0; i < batchSize; i++, j++) {
      const k = j;
      batch.push(
        (async () => {
          try {
            await fn(k);
          } catch (err) {
            errors.push(err);
          }
        })(),
      );
    }
    await Promise.all(batch);
    successes += batchSize - errors.length;
    if (errors.length > 0) throw aggregateErrors(errors);
    remaining -= batchSize;
    batchSize = Math.min(2 * batchSize, remaining, MAX_BATCH_SIZE);
  }
  return successes;
}

/** computeReplicaStatus + updateStatus: the counts over every list given. */
export function updateStatus(
  status: StatefulSetStatus,
  minReadySeconds: number,
  now: number,
  currentRevision: RRevision,
  updateRevision: RRevision,
  ...podLists: readonly RPod[][]
): void {
  status.replicas = 0;
  status.readyReplicas = 0;
  status.availableReplicas = 0;
  status.currentReplicas = 0;
  status.updatedReplicas = 0;
  for (const list of podLists) {
    for (const pod of list) {
      if (isCreated(pod)) status.replicas++;
      if (isRunningAndReady(pod)) {
        status.readyReplicas++;
        if (isRunningAndAvailable(pod, minReadySeconds, now)) status.availableReplicas++;
      }
      if (isCreated(pod) && !isTerminating(pod)) {
        const revision = getPodRevision(pod);
        if (revision === currentRevision.metadata?.name) status.currentReplicas++;
        if (revision === updateRevision.metadata?.name) status.updatedReplicas++;
      }
    }
  }
}

/** The outcome of one pass: the status to record, and the error to retry on (if any). */
export interface UpdateResult {
  status: StatefulSetStatus | undefined;
  error?: unknown;
}

/** runForAll: in order, stopping at the first that blocks (monotonic); else in slow-start batches. */
async function runForAll(count: number, fn: (i: number) => Promise<boolean>, monotonic: boolean): Promise<boolean> {
  if (monotonic) {
    for (let i = 0; i < count; i++) if (await fn(i)) return true;
    return false;
  }
  await slowStartBatch(1, count, fn);
  return false;
}

export class DefaultStatefulSetControl {
  constructor(
    readonly podControl: StatefulPodControl,
    private readonly statusUpdater: StatusUpdater,
    readonly history: ControllerHistory,
    private readonly clock: Clock,
  ) {}

  /**
   * UpdateStatefulSet: performUpdate, then truncateHistory — also after a failure, whose error
   * comes back with the truncation's.
   */
  async updateStatefulSet(setIn: RSet, pods: readonly RPod[]): Promise<StatefulSetStatus | undefined> {
    const set = structuredClone(setIn) as StatefulSet;
    const revisions = sortControllerRevisions(this.listRevisions(set));
    let current: RRevision | undefined;
    let update: RRevision | undefined;
    let status: StatefulSetStatus | undefined;
    let error: unknown;
    try {
      ({ current, update, status } = await this.performUpdate(set, pods, revisions));
    } catch (err) {
      const e = err as PerformUpdateError;
      current = e.current;
      update = e.update;
      error = e.cause ?? err;
    }
    let truncateErr: unknown;
    try {
      await this.truncateHistory(set, pods, revisions, current, update);
    } catch (err) {
      truncateErr = err;
    }
    if (error !== undefined) {
      const errs: unknown[] = error instanceof AggregateError ? error.errors : [error];
      throw aggregateErrors([...errs, ...(truncateErr === undefined ? [] : [truncateErr])]);
    }
    if (truncateErr !== undefined) throw truncateErr;
    return status;
  }

  /** ListRevisions: the revisions the selector matches that the set controls or no one does. */
  listRevisions(set: RSet): RRevision[] {
    const selector = labelSelectorAsSelector(set.spec?.selector as LabelSelector | undefined);
    return this.history.listControllerRevisions(set, selector);
  }

  /** AdoptOrphanRevisions: each orphan adopted, the first failure returned. */
  async adoptOrphanRevisions(set: RSet, revisions: readonly RRevision[]): Promise<void> {
    for (const revision of revisions) await this.history.adoptControllerRevision(set, STATEFUL_SET_KIND, revision);
  }

  private async performUpdate(
    set: StatefulSet,
    pods: readonly RPod[],
    revisions: RRevision[],
  ): Promise<{ current: RRevision; update: RRevision; status: StatefulSetStatus }> {
    const { current, update, collisionCount } = await this.getStatefulSetRevisions(set, revisions).catch((err) => {
      throw new PerformUpdateError(err);
    });
    const { status, error } = await this.updateStatefulSetPods(set, current, update, collisionCount, pods);
    if (status === undefined) throw new PerformUpdateError(error, current, update);
    // The status is written even when the pass failed.
    let statusErr: unknown;
    try {
      await this.updateStatefulSetStatus(set, status);
    } catch (err) {
      statusErr = err;
    }
    if (error !== undefined) throw new PerformUpdateError(error, current, update);
    if (statusErr !== undefined) throw new PerformUpdateError(statusErr, current, update);
    return { current, update, status };
  }

  /**
   * truncateHistory: the revisions neither live (current, update, or a pod's) deleted oldest first
   * until revisionHistoryLimit remain; `revisions` sorted.
   */
  async truncateHistory(
    set: RSet,
    pods: readonly RPod[],
    revisions: readonly RRevision[],
    current: RRevision | undefined,
    update: RRevision | undefined,
  ): Promise<void> {
    const live = new Set<string>();
    if (current !== undefined) live.add(current.metadata?.name ?? '');
    if (update !== undefined) live.add(update.metadata?.name ?? '');
    for (const pod of pods) live.add(getPodRevision(pod));
    const history = revisions.filter((r) => !live.has(r.metadata?.name ?? ''));
    const limit = set.spec?.revisionHistoryLimit ?? 10;
    if (limit < 0 || history.length <= limit) return;
    for (const revision of history.slice(0, history.length - limit)) {
      await this.history.deleteControllerRevision(revision);
    }
  }

  /**
   * getStatefulSetRevisions: the update revision — the last revision if it equals the set's, an
   * earlier equal one renumbered (a rollback), else a new one — and the current one (status's,
   * or the update revision), with the collision count creating it left.
   */
  async getStatefulSetRevisions(
    set: RSet,
    revisions: RRevision[],
  ): Promise<{ current: RRevision; update: RRevision; collisionCount: number }> {
    sortControllerRevisions(revisions);
    const collision: CollisionCount = { count: set.status?.collisionCount ?? 0 };
    let update: RRevision = newRevision(set, nextRevision(revisions), collision.count);
    const equal = findEqualRevisions(revisions, update);
    const last = revisions[revisions.length - 1];
    const lastEqual = equal[equal.length - 1];
    if (lastEqual !== undefined && equalRevision(last, lastEqual)) {
      update = last as RRevision;
    } else if (lastEqual !== undefined) {
      update = await this.history.updateControllerRevision(lastEqual, update.revision ?? 0);
    } else {
      update = await this.history.createControllerRevision(set, update, collision);
    }
    const current = revisions.find((r) => r.metadata?.name === set.status?.currentRevision) ?? update;
    return { current, update, collisionCount: collision.count };
  }

  /** processReplica: true when the pass must stop here (monotonic), thrown on failure. */
  private async processReplica(
    set: RSet,
    updateSet: RSet,
    monotonic: boolean,
    replicas: RPod[],
    i: number,
  ): Promise<boolean> {
    const replica = replicas[i] as RPod;
    // Failed or Succeeded (evicted, or its node rebooted): deleted, made again once gone.
    if (isFailed(replica) || isSucceeded(replica)) {
      if (!isTerminating(replica)) await this.podControl.deleteStatefulPod(set, replica);
      return true;
    }
    if (!isCreated(replica)) {
      // StatefulSetAutoDeletePVC (on in 1.32): a stale claim blocks the pod until the GC is done.
      if (this.podControl.podClaimIsStale(set, replica)) return true;
      await this.podControl.createStatefulPod(set, structuredClone(replica) as Pod);
      return monotonic;
    }
    if (isPending(replica)) await this.podControl.createMissingPersistentVolumeClaims(set, replica);
    if (isTerminating(replica) && monotonic) return true;
    if (!isRunningAndReady(replica) && monotonic) return true;
    if (!isRunningAndAvailable(replica, set.spec?.minReadySeconds ?? 0, this.clock.now()) && monotonic) return true;
    let retentionMatch = true;
    try {
      retentionMatch = this.podControl.claimsMatchRetentionPolicy(updateSet, replica);
    } catch {
      // Expected while the pod is not fully updated: treated as matching.
      retentionMatch = true;
    }
    if (identityMatches(set, replica) && storageMatches(set, replica) && retentionMatch) return false;
    await this.podControl.updateStatefulPod(updateSet, structuredClone(replica) as Pod);
    return false;
  }

  /** processCondemned: a condemned pod deleted once it is its turn (monotonic: all before it healthy). */
  private async processCondemned(
    set: RSet,
    firstUnhealthyPod: RPod | undefined,
    monotonic: boolean,
    condemned: RPod[],
    i: number,
  ): Promise<boolean> {
    const pod = condemned[i] as RPod;
    if (isTerminating(pod)) return monotonic;
    if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthyPod) return true;
    if (
      !isRunningAndAvailable(pod, set.spec?.minReadySeconds ?? 0, this.clock.now()) &&
      monotonic &&
      pod !== firstUnhealthyPod
    ) {
      return true;
    }
    await this.podControl.deleteStatefulPod(set, pod);
    return true;
  }

  /**
   * updateStatefulSet (the Go method of that name): the pods made to conform to the set; the
   * status to record, and the error if the pass stopped on one.
   */
  async updateStatefulSetPods(
    set: RSet,
    currentRevision: RRevision,
    updateRevision: RRevision,
    collisionCount: number,
    pods: readonly RPod[],
  ): Promise<UpdateResult> {
    const currentSet = applyRevision(set, currentRevision);
    const updateSet = applyRevision(set, updateRevision);
    const minReadySeconds = set.spec?.minReadySeconds ?? 0;
    const status: StatefulSetStatus = {
      observedGeneration: set.metadata?.generation ?? 0,
      currentRevision: currentRevision.metadata?.name ?? '',
      updateRevision: updateRevision.metadata?.name ?? '',
      collisionCount,
      replicas: 0,
    };
    const recount = (...lists: RPod[][]): void =>
      updateStatus(status, minReadySeconds, this.clock.now(), currentRevision, updateRevision, ...lists);
    recount([...pods]);

    const start = getStartOrdinal(set);
    const end = getEndOrdinal(set);
    const replicas: Array<RPod | undefined> = new Array(Math.max(replicasOf(set), 0)).fill(undefined);
    const condemned: RPod[] = [];
    for (const pod of pods) {
      if (podInOrdinalRange(pod, set)) replicas[getOrdinal(pod) - start] = pod;
      else if (getOrdinal(pod) >= 0) condemned.push(pod);
      // An ordinal that does not parse: ignored.
    }
    for (let ord = start; ord <= end; ord++) {
      if (replicas[ord - start] === undefined) {
        replicas[ord - start] = newVersionedStatefulSetPod(
          currentSet,
          updateSet,
          currentRevision.metadata?.name ?? '',
          updateRevision.metadata?.name ?? '',
          ord,
        );
      }
    }
    const live = replicas as RPod[];
    sortDescendingOrdinal(condemned);

    let firstUnhealthyPod: RPod | undefined;
    for (const pod of live) if (!isHealthy(pod)) firstUnhealthyPod ??= pod;
    for (let i = condemned.length - 1; i >= 0; i--) {
      if (!isHealthy(condemned[i] as RPod)) firstUnhealthyPod ??= condemned[i];
    }

    // A set being deleted: only its status.
    if (isTerminating(set)) return { status };

    const monotonic = !allowsBurst(set);
    const stopped = async (step: () => Promise<boolean>): Promise<UpdateResult | undefined> => {
      try {
        if (!(await step())) return undefined;
        recount(live, condemned);
        return { status };
      } catch (error) {
        recount(live, condemned);
        return { status, error };
      }
    };

    const replicaPass = await stopped(() =>
      runForAll(live.length, (i) => this.processReplica(set, updateSet, monotonic, live, i), monotonic),
    );
    if (replicaPass !== undefined) return replicaPass;

    // The condemned pods' claims: the retention policy's references (scaled-down pods own them).
    const claimPass = await stopped(() =>
      runForAll(
        condemned.length,
        async (i) => {
          const pod = condemned[i] as RPod;
          if (!this.podControl.claimsMatchRetentionPolicy(updateSet, pod)) {
            await this.podControl.updatePodClaimForRetentionPolicy(updateSet, pod);
          }
          return false;
        },
        monotonic,
      ),
    );
    if (claimPass !== undefined) return claimPass;

    const condemnedPass = await stopped(() =>
      runForAll(
        condemned.length,
        (i) => this.processCondemned(set, firstUnhealthyPod, monotonic, condemned, i),
        monotonic,
      ),
    );
    if (condemnedPass !== undefined) return condemnedPass;

    recount(live, condemned);
    if (set.spec?.updateStrategy?.type === 'OnDelete') return { status };

    // RollingUpdate: the highest ordinal not at the update revision goes, one at a time.
    const updateMin = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let target = live.length - 1; target >= updateMin; target--) {
      const pod = live[target] as RPod;
      if (getPodRevision(pod) !== updateRevision.metadata?.name && !isTerminating(pod)) {
        try {
          await this.podControl.deleteStatefulPod(set, pod);
        } catch (err) {
          if (!isNotFound(err)) return { status, error: err };
        }
        status.currentReplicas = (status.currentReplicas ?? 0) - 1;
        return { status };
      }
      if (!isHealthy(pod)) return { status };
    }
    return { status };
  }

  /** updateStatefulSetStatus: a finished rolling update completed, then written if it changed. */
  async updateStatefulSetStatus(set: RSet, status: StatefulSetStatus): Promise<void> {
    completeRollingUpdate(set, status);
    if (!inconsistentStatus(set, status)) return;
    await this.statusUpdater(set, status);
  }
}

/** A failed performUpdate, with the revisions it had got to (truncateHistory keeps them). */
class PerformUpdateError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly current?: RRevision,
    readonly update?: RRevision,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}
