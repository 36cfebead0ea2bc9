/**
 * The PodDisruptionBudget helpers the eviction subresource and the disruption controller share:
 * k8s.io/component-helpers apps/poddisruptionbudget (v0.32: UpdateDisruptionAllowedCondition,
 * ConditionsAreUpToDate) over apimachinery's meta/conditions.go (SetStatusCondition,
 * FindStatusCondition), and the policy/v1 names they use.
 *
 *   const status = structuredClone(pdb.status);
 *   status.disruptionsAllowed--;
 *   if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(status, rfc3339(clock.now()));
 */
import type { Condition } from './types/meta/v1.js';
import type { PodDisruptionBudgetStatus } from './types/policy/v1.js';

// k8s.io/api policy/v1 types.go: the condition, its reasons, and the eviction's cause.
export const DISRUPTION_ALLOWED_CONDITION = 'DisruptionAllowed';
export const SYNC_FAILED_REASON = 'SyncFailed';
export const SUFFICIENT_PODS_REASON = 'SufficientPods';
export const INSUFFICIENT_PODS_REASON = 'InsufficientPods';
export const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';

/** meta.FindStatusCondition. */
export function findStatusCondition<C extends { readonly type: string }>(
  conditions: readonly C[] | undefined,
  type: string,
): C | undefined {
  return conditions?.find((c) => c.type === type);
}

/** The condition SetStatusCondition is given: its lastTransitionTime is filled in when needed. */
export type NewCondition = Omit<Condition, 'lastTransitionTime'> & { lastTransitionTime?: string };

/**
 * meta.SetStatusCondition: adds `cond` (stamped `now` without a time of its own), or updates the
 * one of its type — the transition time moves only when the status does; reason, message and
 * observedGeneration are taken over. True when something changed.
 */
export function setStatusCondition(conditions: Condition[], cond: NewCondition, now: string): boolean {
  const existing = conditions.find((c) => c.type === cond.type);
  if (existing === undefined) {
    const added: Condition = { ...cond, lastTransitionTime: cond.lastTransitionTime ?? now };
    // observedGeneration has omitempty: a 0 is not written.
    if (!added.observedGeneration) delete added.observedGeneration;
    conditions.push(added);
    return true;
  }
  let changed = false;
  if (existing.status !== cond.status) {
    existing.status = cond.status;
    existing.lastTransitionTime = cond.lastTransitionTime ?? now;
    changed = true;
  }
  if (existing.reason !== cond.reason) {
    existing.reason = cond.reason;
    changed = true;
  }
  if (existing.message !== cond.message) {
    existing.message = cond.message;
    changed = true;
  }
  if ((existing.observedGeneration ?? 0) !== (cond.observedGeneration ?? 0)) {
    if (cond.observedGeneration) existing.observedGeneration = cond.observedGeneration;
    else delete existing.observedGeneration;
    changed = true;
  }
  return changed;
}

/**
 * UpdateDisruptionAllowedCondition: DisruptionAllowed True/SufficientPods while disruptions are
 * allowed, False/InsufficientPods otherwise, at the status's observedGeneration.
 */
export function updateDisruptionAllowedCondition(status: PodDisruptionBudgetStatus, now: string): void {
  status.conditions ??= [];
  const allowed = status.disruptionsAllowed > 0;
  setStatusCondition(
    status.conditions,
    {
      type: DISRUPTION_ALLOWED_CONDITION,
      status: allowed ? 'True' : 'False',
      reason: allowed ? SUFFICIENT_PODS_REASON : INSUFFICIENT_PODS_REASON,
      message: '',
      observedGeneration: status.observedGeneration ?? 0,
    },
    now,
  );
}

/** ConditionsAreUpToDate: the DisruptionAllowed condition says what disruptionsAllowed says, at the PDB's generation. */
export function conditionsAreUpToDate(pdb: {
  readonly metadata?: { readonly generation?: number };
  readonly status?: {
    readonly observedGeneration?: number;
    readonly disruptionsAllowed: number;
    readonly conditions?: readonly { readonly type: string; readonly status: string; readonly reason: string }[];
  };
}): boolean {
  const cond = findStatusCondition(pdb.status?.conditions, DISRUPTION_ALLOWED_CONDITION);
  if (cond === undefined) return false;
  if ((pdb.status?.observedGeneration ?? 0) !== (pdb.metadata?.generation ?? 0)) return false;
  if ((pdb.status?.disruptionsAllowed ?? 0) > 0)
    return cond.status === 'True' && cond.reason === SUFFICIENT_PODS_REASON;
  return cond.status === 'False' && cond.reason === INSUFFICIENT_PODS_REASON;
}
