/**
 * Kubernetes' per-kind validation (each registry strategy's Validate / ValidateUpdate, less the
 * ObjectMeta checks the apiserver runs for every kind), keyed by API group and kind so a kind is
 * validated as soon as it is served. `validateKindCreate('apps', 'Deployment', obj)` → FieldErrors.
 */
import type { ErrorList } from '../../field-errors.js';
import type { KubeObject } from '../../meta.js';
import {
  validateDaemonSet,
  validateDaemonSetUpdate,
  validateDeployment,
  validateDeploymentUpdate,
  validateReplicaSet,
  validateReplicaSetUpdate,
  validateStatefulSet,
  validateStatefulSetUpdate,
} from './apps.js';
import { validateCronJob, validateCronJobUpdate, validateJob, validateJobUpdate } from './batch.js';
import {
  validateEndpoints,
  validateEvent,
  validateLimitRange,
  validateNode,
  validateNodeUpdate,
  validateResourceQuota,
  validateResourceQuotaUpdate,
  validateServiceAccount,
} from './core.js';
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateEndpointSlice,
  validateEndpointSliceUpdate,
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerUpdate,
  validateLease,
  validatePodDisruptionBudget,
  validatePriorityClass,
  validatePriorityClassUpdate,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
} from './groups.js';
import { validatePod, validatePodUpdate } from './pod.js';
import { validateReplicationController, validateReplicationControllerUpdate } from './replication-controller.js';
import { validateService, validateServiceUpdate } from './service.js';
import {
  validateDaemonSetStatusUpdate,
  validateDeploymentStatusUpdate,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateReplicaSetStatusUpdate,
  validateStatefulSetStatusUpdate,
} from './status.js';
import {
  validatePersistentVolume,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimStatusUpdate,
  validatePersistentVolumeClaimUpdate,
  validatePersistentVolumeStatusUpdate,
  validatePersistentVolumeUpdate,
  validateStorageClass,
  validateStorageClassUpdate,
} from './storage.js';

/** One kind's checks: on create, and on update (the create checks of the new object when absent). */
export interface KindValidators {
  create: (obj: KubeObject) => ErrorList;
  update?: (obj: KubeObject, old: KubeObject) => ErrorList;
  /** The status strategy's ValidateUpdate (`…/status` writes); none when absent. */
  status?: (obj: KubeObject, old: KubeObject) => ErrorList;
}

/** By `group/Kind` (group '' for core). */
const VALIDATORS: ReadonlyMap<string, KindValidators> = new Map<string, KindValidators>([
  ['/Pod', { create: validatePod, update: validatePodUpdate }],
  ['/Service', { create: validateService, update: validateServiceUpdate }],
  // Namespace: spec.finalizers are checked by ts/apiserver/registry/core/namespaces/finalizers.ts.
  ['/Node', { create: validateNode, update: validateNodeUpdate }],
  ['/Endpoints', { create: validateEndpoints }],
  ['/LimitRange', { create: validateLimitRange }],
  ['/ResourceQuota', { create: validateResourceQuota, update: validateResourceQuotaUpdate }],
  ['/ServiceAccount', { create: validateServiceAccount }],
  ['/Event', { create: validateEvent }],
  // ValidateReplicationControllerStatus checks what ValidateReplicaSetStatusUpdate does, in its order.
  [
    '/ReplicationController',
    {
      create: validateReplicationController,
      update: validateReplicationControllerUpdate,
      status: validateReplicaSetStatusUpdate,
    },
  ],
  [
    '/PersistentVolumeClaim',
    {
      create: validatePersistentVolumeClaim,
      update: validatePersistentVolumeClaimUpdate,
      status: validatePersistentVolumeClaimStatusUpdate,
    },
  ],
  [
    '/PersistentVolume',
    {
      create: validatePersistentVolume,
      update: validatePersistentVolumeUpdate,
      status: validatePersistentVolumeStatusUpdate,
    },
  ],
  ['storage.k8s.io/StorageClass', { create: validateStorageClass, update: validateStorageClassUpdate }],
  [
    'apps/Deployment',
    { create: validateDeployment, update: validateDeploymentUpdate, status: validateDeploymentStatusUpdate },
  ],
  [
    'apps/ReplicaSet',
    { create: validateReplicaSet, update: validateReplicaSetUpdate, status: validateReplicaSetStatusUpdate },
  ],
  [
    'apps/DaemonSet',
    { create: validateDaemonSet, update: validateDaemonSetUpdate, status: validateDaemonSetStatusUpdate },
  ],
  [
    'apps/StatefulSet',
    { create: validateStatefulSet, update: validateStatefulSetUpdate, status: validateStatefulSetStatusUpdate },
  ],
  ['batch/Job', { create: validateJob, update: validateJobUpdate }],
  ['batch/CronJob', { create: validateCronJob, update: validateCronJobUpdate }],
  [
    'autoscaling/HorizontalPodAutoscaler',
    {
      create: validateHorizontalPodAutoscaler,
      update: validateHorizontalPodAutoscalerUpdate,
      status: validateHorizontalPodAutoscalerStatusUpdate,
    },
  ],
  ['policy/PodDisruptionBudget', { create: validatePodDisruptionBudget }],
  ['scheduling.k8s.io/PriorityClass', { create: validatePriorityClass, update: validatePriorityClassUpdate }],
  ['rbac.authorization.k8s.io/Role', { create: validateRole }],
  ['rbac.authorization.k8s.io/ClusterRole', { create: validateClusterRole }],
  ['rbac.authorization.k8s.io/RoleBinding', { create: validateRoleBinding, update: validateRoleBindingUpdate }],
  [
    'rbac.authorization.k8s.io/ClusterRoleBinding',
    { create: validateClusterRoleBinding, update: validateClusterRoleBindingUpdate },
  ],
  ['coordination.k8s.io/Lease', { create: validateLease }],
  ['discovery.k8s.io/EndpointSlice', { create: validateEndpointSlice, update: validateEndpointSliceUpdate }],
]);

/** The validators of a built-in kind, or undefined for kinds without kind-specific rules here. */
export function kindValidators(group: string, kind: string): KindValidators | undefined {
  return VALIDATORS.get(`${group}/${kind}`);
}

/** The kind's checks on create (empty for kinds this table does not know). */
export function validateKindCreate(group: string, kind: string, obj: KubeObject): ErrorList {
  return kindValidators(group, kind)?.create(obj) ?? [];
}

/** The kind's checks on update. */
export function validateKindUpdateOf(group: string, kind: string, obj: KubeObject, old: KubeObject): ErrorList {
  const v = kindValidators(group, kind);
  if (v === undefined) return [];
  return v.update ? v.update(obj, old) : v.create(obj);
}

/** The kind's checks on a `…/status` write (empty for kinds without a ported status strategy). */
export function validateKindStatusUpdate(group: string, kind: string, obj: KubeObject, old: KubeObject): ErrorList {
  return kindValidators(group, kind)?.status?.(obj, old) ?? [];
}
