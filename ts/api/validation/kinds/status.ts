/**
 * What the status strategies check on `…/status` writes of the workload kinds and the HPA
 * (k8s.io/kubernetes pkg/apis/apps/validation ValidateDeploymentStatusUpdate,
 * ValidateReplicaSetStatusUpdate, ValidateStatefulSetStatusUpdate, ValidateDaemonSetStatusUpdate
 * and pkg/apis/autoscaling/validation ValidateHorizontalPodAutoscalerStatusUpdate, v1.32), less
 * ObjectMeta. Counts are not negative, and the ready/available ones do not exceed the totals.
 */
import { type ErrorList, FieldPath, invalid } from '../../field-errors.js';
import type { KubeObject } from '../../meta.js';
import { nonNegative, num, type Obj, obj } from './util.js';

const STATUS = FieldPath.root('status');
const statusOf = (o: KubeObject): Obj => obj((o as Obj).status);
const count = (s: Obj, field: string): number => num(s[field]) ?? 0;
const GREATER_THAN_REPLICAS = 'cannot be greater than status.replicas';

function nonNegativeFields(s: Obj, fields: readonly string[]): ErrorList {
  return fields.flatMap((f) => nonNegative(count(s, f), STATUS.child(f)));
}

function notAbove(s: Obj, fields: readonly string[], limit: string, msg: string): ErrorList {
  return fields.filter((f) => count(s, f) > count(s, limit)).map((f) => invalid(STATUS.child(f), count(s, f), msg));
}

/** IsDecremented on status.collisionCount: "cannot be decremented". */
function collisionCount(n: Obj, o: Obj): ErrorList {
  const nc = num(n.collisionCount);
  const oc = num(o.collisionCount);
  if (oc === undefined || (nc !== undefined && nc >= oc)) return [];
  return [invalid(STATUS.child('collisionCount'), nc ?? 0, 'cannot be decremented')];
}

/** ValidateDeploymentStatusUpdate. */
export function validateDeploymentStatusUpdate(d: KubeObject, old: KubeObject): ErrorList {
  const s = statusOf(d);
  return [
    ...nonNegativeFields(s, [
      'observedGeneration',
      'replicas',
      'updatedReplicas',
      'readyReplicas',
      'availableReplicas',
      'unavailableReplicas',
    ]),
    ...nonNegative(num(s.collisionCount), STATUS.child('collisionCount')),
    ...notAbove(s, ['updatedReplicas', 'readyReplicas', 'availableReplicas'], 'replicas', GREATER_THAN_REPLICAS),
    ...notAbove(s, ['availableReplicas'], 'readyReplicas', 'cannot be greater than readyReplicas'),
    ...collisionCount(s, statusOf(old)),
  ];
}

/** ValidateReplicaSetStatusUpdate. */
export function validateReplicaSetStatusUpdate(rs: KubeObject): ErrorList {
  const s = statusOf(rs);
  return [
    ...nonNegativeFields(s, [
      'replicas',
      'fullyLabeledReplicas',
      'readyReplicas',
      'availableReplicas',
      'observedGeneration',
    ]),
    ...notAbove(s, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], 'replicas', GREATER_THAN_REPLICAS),
    ...notAbove(s, ['availableReplicas'], 'readyReplicas', 'cannot be greater than readyReplicas'),
  ];
}

/** ValidateStatefulSetStatusUpdate. */
export function validateStatefulSetStatusUpdate(sts: KubeObject, old: KubeObject): ErrorList {
  const s = statusOf(sts);
  return [
    ...nonNegativeFields(s, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']),
    ...nonNegative(num(s.observedGeneration), STATUS.child('observedGeneration')),
    ...nonNegative(num(s.collisionCount), STATUS.child('collisionCount')),
    ...notAbove(
      s,
      ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
      'replicas',
      GREATER_THAN_REPLICAS,
    ),
    ...notAbove(s, ['availableReplicas'], 'readyReplicas', 'cannot be greater than status.readyReplicas'),
    ...collisionCount(s, statusOf(old)),
  ];
}

/** ValidateDaemonSetStatusUpdate. */
export function validateDaemonSetStatusUpdate(ds: KubeObject, old: KubeObject): ErrorList {
  const s = statusOf(ds);
  return [
    ...nonNegativeFields(s, [
      'currentNumberScheduled',
      'numberMisscheduled',
      'desiredNumberScheduled',
      'numberReady',
      'observedGeneration',
      'updatedNumberScheduled',
      'numberAvailable',
      'numberUnavailable',
    ]),
    ...nonNegative(num(s.collisionCount), STATUS.child('collisionCount')),
    ...collisionCount(s, statusOf(old)),
  ];
}

/** ValidateHorizontalPodAutoscalerStatusUpdate. */
export function validateHorizontalPodAutoscalerStatusUpdate(hpa: KubeObject): ErrorList {
  return nonNegativeFields(statusOf(hpa), ['currentReplicas', 'desiredReplicas']);
}
