/**
 * A ReplicaSet's status from its pods (pkg/controller/replicaset/replica_set_utils.go at v1.32):
 * calculateStatus counts the claimed active pods — fully labeled (the template's labels all on
 * the pod), ready, available (ready for minReadySeconds) — and keeps the ReplicaFailure condition
 * while creating or deleting pods fails; updateReplicaSetStatus writes it only when it changed.
 *
 *   const status = calculateStatus(rs, pods, manageReplicasError, clock.now());
 *   const updated = await updateReplicaSetStatus(client, resource, original, rs, status);
 *
 * The condition helpers are the ones the Deployment controller reads ReplicaFailure with.
 */
import { selectorFromSet } from '../../api/labels/selector.js';
import type { KubeObject } from '../../api/meta.js';
import { rfc3339 } from '../../api/time.js';
import type { ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from '../../api/types/apps/v1.js';
import type { Pod } from '../../api/types/core/v1.js';
import { type DeepReadonly, deepCopy } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { GroupVersionResource } from '../../client/resources.js';
import { isPodAvailable, isPodReady } from '../framework/active-pods.js';

// apps/v1 types.go ReplicaSetReplicaFailure: creating or deleting pods failed.
export const REPLICA_FAILURE = 'ReplicaFailure';
// replica_set.go statusUpdateRetries: one GET and retry after a failed status write.
const STATUS_UPDATE_RETRIES = 1;

type ReadonlyReplicaSet = DeepReadonly<ReplicaSet>;

/** NewReplicaSetCondition: a condition that changed now. */
export function newReplicaSetCondition(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: number,
): ReplicaSetCondition {
  return { type, status, lastTransitionTime: rfc3339(now), reason, message };
}

/** GetCondition: the condition of `type`, if any. */
export function getCondition(
  status: DeepReadonly<ReplicaSetStatus> | undefined,
  type: string,
): DeepReadonly<ReplicaSetCondition> | undefined {
  return (status?.conditions ?? []).find((c) => c.type === type);
}

/** SetCondition: replaces the condition of its type, unless one with the same status and reason is there. */
export function setCondition(status: ReplicaSetStatus, condition: ReplicaSetCondition): void {
  const current = getCondition(status, condition.type);
  if (current !== undefined && current.status === condition.status && current.reason === condition.reason) return;
  status.conditions = [...filterOutCondition(status.conditions, condition.type), condition];
}

/** RemoveCondition: without the condition of `type`. */
export function removeCondition(status: ReplicaSetStatus, type: string): void {
  const rest = filterOutCondition(status.conditions, type);
  if (rest.length > 0) status.conditions = rest;
  else delete status.conditions;
}

function filterOutCondition(conditions: readonly ReplicaSetCondition[] | undefined, type: string) {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** The error text a condition message carries (Go's err.Error()). */
const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * calculateStatus: the counts of `pods` (the active pods the ReplicaSet owns) and the ReplicaFailure
 * condition — set (FailedCreate when short of pods, FailedDelete when over) on the first failure of
 * manageReplicas, removed on its first success. `now` in ms decides availability.
 */
export function calculateStatus(
  rs: ReadonlyReplicaSet,
  pods: readonly DeepReadonly<Pod>[],
  manageReplicasError: unknown,
  now: number,
): ReplicaSetStatus {
  const status = deepCopy(rs.status ?? { replicas: 0 }) as ReplicaSetStatus;
  const templateLabels = selectorFromSet(rs.spec?.template?.metadata?.labels ?? {});
  const minReadySeconds = rs.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    if (templateLabels.matches(pod.metadata?.labels ?? {})) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, now)) available++;
    }
  }
  const failure = getCondition(rs.status, REPLICA_FAILURE);
  if (manageReplicasError !== undefined && failure === undefined) {
    const diff = pods.length - replicasOf(rs);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    setCondition(status, newReplicaSetCondition(REPLICA_FAILURE, 'True', reason, errorText(manageReplicasError), now));
  } else if (manageReplicasError === undefined && failure !== undefined) {
    removeCondition(status, REPLICA_FAILURE);
  }
  status.replicas = pods.length;
  status.fullyLabeledReplicas = fullyLabeled;
  status.readyReplicas = ready;
  status.availableReplicas = available;
  return status;
}

/** spec.replicas (defaulted to 1 by the apiserver). */
export const replicasOf = (rs: ReadonlyReplicaSet): number => rs.spec?.replicas ?? 1;

/** Go's zero values for the counts the comparison reads. */
const count = (n: number | undefined): number => n ?? 0;

/** Whether `status` differs from what `rs` has, or its generation was not observed yet. */
function statusChanged(rs: ReadonlyReplicaSet, status: ReplicaSetStatus): boolean {
  const old = rs.status;
  return !(
    count(old?.replicas) === status.replicas &&
    count(old?.fullyLabeledReplicas) === count(status.fullyLabeledReplicas) &&
    count(old?.readyReplicas) === count(status.readyReplicas) &&
    count(old?.availableReplicas) === count(status.availableReplicas) &&
    count(rs.metadata?.generation) === count(old?.observedGeneration) &&
    JSON.stringify(old?.conditions ?? []) === JSON.stringify(status.conditions ?? [])
  );
}

/**
 * updateReplicaSetStatus: `status` written with observedGeneration = generation, unless nothing
 * changed (then `original` is the answer). A refused write is retried once on a fresh GET.
 * `original` is the stored object (a ReplicaSet, or a ReplicationController whose status has the
 * same fields); `rs` its ReplicaSet reading.
 */
export async function updateReplicaSetStatus<T extends KubeObject>(
  client: Client,
  resource: GroupVersionResource,
  original: DeepReadonly<T>,
  rs: ReadonlyReplicaSet,
  status: ReplicaSetStatus,
): Promise<DeepReadonly<T>> {
  if (!statusChanged(rs, status)) return original;
  status.observedGeneration = rs.metadata?.generation ?? 0;
  const { namespace, name = '' } = original.metadata ?? {};
  let current = original;
  for (let i = 0; ; i++) {
    const next = { ...(deepCopy(current) as T), status };
    try {
      return (await client.updateStatus<T>(resource, namespace, next)) as DeepReadonly<T>;
    } catch (err) {
      if (i >= STATUS_UPDATE_RETRIES) throw err;
      current = (await client.get<T>(resource, namespace, name)) as DeepReadonly<T>;
    }
  }
}
