/**
 * CRD status conditions as apihelpers handles them (k8s.io/apiextensions-apiserver pkg/apihelpers/
 * helpers.go): SetCRDCondition keeps lastTransitionTime unless the status changes, and reports
 * whether anything changed (IsCRDConditionEquivalent).
 */
import type { CustomResourceDefinitionCondition } from '../../api/types/apiextensions/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Crd, Unchecked } from './types.js';

export type ConditionType = 'NamesAccepted' | 'Established' | 'Terminating' | 'NonStructuralSchema';

export function findCondition(
  crd: DeepReadonly<Crd>,
  type: ConditionType,
): DeepReadonly<Unchecked<CustomResourceDefinitionCondition>> | undefined {
  return (crd.status?.conditions ?? []).find((c) => c.type === type);
}

/** IsCRDConditionTrue and friends. */
export function isCondition(
  crd: DeepReadonly<Crd>,
  type: ConditionType,
  status: Unchecked<CustomResourceDefinitionCondition>['status'],
): boolean {
  return findCondition(crd, type)?.status === status;
}

/** The condition with its fields in the order Go writes them. */
function ordered(c: CustomResourceDefinitionCondition): CustomResourceDefinitionCondition {
  return {
    type: c.type,
    status: c.status,
    ...(c.lastTransitionTime === undefined ? {} : { lastTransitionTime: c.lastTransitionTime }),
    ...(c.reason === undefined ? {} : { reason: c.reason }),
    ...(c.message === undefined ? {} : { message: c.message }),
  };
}

/**
 * SetCRDCondition: replaces the condition of the same type; the transition time moves only when
 * the status does. False when the condition was already there, equivalent (IsCRDConditionEquivalent).
 */
export function setCondition(
  crd: Crd,
  condition: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>,
  now: string,
): boolean {
  crd.status ??= {};
  const conditions = crd.status.conditions ?? [];
  crd.status.conditions = conditions;
  const i = conditions.findIndex((c) => c.type === condition.type);
  if (i < 0) {
    conditions.push(ordered({ ...condition, lastTransitionTime: now }));
    return true;
  }
  const old = conditions[i] as Unchecked<CustomResourceDefinitionCondition>;
  if (old.status === condition.status && old.reason === condition.reason && old.message === condition.message) {
    return false;
  }
  const time = old.status === condition.status && old.lastTransitionTime !== undefined ? old.lastTransitionTime : now;
  conditions[i] = ordered({ ...condition, lastTransitionTime: time });
  return true;
}
