/**
 * The metadata rules of the built-in kinds: each kind's name function and scope
 * (k8s.io/kubernetes pkg/apis/<group>/validation at v1.32), and the extra finalizer check that
 * core's ValidateObjectMeta wrapper adds for every built-in kind (not for custom resources).
 */
import { type ErrorList, FieldPath, invalid } from '../field-errors.js';
import type { ObjectMeta } from '../meta.js';
import {
  isValidPathSegmentName,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  type ValidateNameFunc,
  validatePathSegmentName,
} from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';

export interface KindRule {
  namespaced: boolean;
  nameFn: ValidateNameFunc;
  /** false for the few kinds validated with apimachinery's ObjectMeta checks alone. */
  kubeFinalizers?: boolean;
}

/** ValidateRBACName: path-segment rules only, generateName treated like a name. */
const rbacName: ValidateNameFunc = (name) => isValidPathSegmentName(name);
/** ValidateCertificateRequestName: "We don't care what you call your certificate requests." */
const anyName: ValidateNameFunc = () => [];

const ns = (nameFn: ValidateNameFunc): KindRule => ({ namespaced: true, nameFn });
const cluster = (nameFn: ValidateNameFunc): KindRule => ({ namespaced: false, nameFn });

/** By `group/Kind` (group '' for core). */
const RULES: ReadonlyMap<string, KindRule> = new Map([
  ['/Pod', ns(nameIsDNSSubdomain)],
  ['/PodTemplate', ns(nameIsDNSSubdomain)],
  ['/ReplicationController', ns(nameIsDNSSubdomain)],
  ['/Service', ns(nameIsDNS1035Label)],
  ['/Node', cluster(nameIsDNSSubdomain)],
  ['/Namespace', cluster(nameIsDNSLabel)],
  ['/LimitRange', ns(nameIsDNSSubdomain)],
  ['/ResourceQuota', ns(nameIsDNSSubdomain)],
  ['/Secret', ns(nameIsDNSSubdomain)],
  ['/ServiceAccount', ns(nameIsDNSSubdomain)],
  ['/Endpoints', ns(nameIsDNSSubdomain)],
  ['/ConfigMap', ns(nameIsDNSSubdomain)],
  ['/Event', ns(nameIsDNSSubdomain)],
  ['/PersistentVolume', cluster(nameIsDNSSubdomain)],
  ['/PersistentVolumeClaim', ns(nameIsDNSSubdomain)],
  ['apps/Deployment', ns(nameIsDNSSubdomain)],
  ['apps/ReplicaSet', ns(nameIsDNSSubdomain)],
  ['apps/DaemonSet', ns(nameIsDNSSubdomain)],
  ['apps/StatefulSet', ns(nameIsDNSLabel)],
  ['apps/ControllerRevision', ns(nameIsDNSSubdomain)],
  ['batch/Job', ns(nameIsDNSSubdomain)],
  ['batch/CronJob', ns(nameIsDNSSubdomain)],
  ['autoscaling/HorizontalPodAutoscaler', ns(nameIsDNSSubdomain)],
  ['autoscaling/Scale', ns(nameIsDNSSubdomain)],
  ['rbac.authorization.k8s.io/Role', ns(rbacName)],
  ['rbac.authorization.k8s.io/RoleBinding', ns(rbacName)],
  ['rbac.authorization.k8s.io/ClusterRole', cluster(rbacName)],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', cluster(rbacName)],
  ['coordination.k8s.io/Lease', ns(nameIsDNSSubdomain)],
  ['networking.k8s.io/Ingress', ns(nameIsDNSSubdomain)],
  ['networking.k8s.io/IngressClass', cluster(nameIsDNSSubdomain)],
  ['networking.k8s.io/NetworkPolicy', ns(nameIsDNSSubdomain)],
  ['discovery.k8s.io/EndpointSlice', ns(nameIsDNSSubdomain)],
  // The PDB strategy checks no metadata; rest.BeforeCreate's common path-segment check remains.
  ['policy/PodDisruptionBudget', ns(validatePathSegmentName)],
  ['scheduling.k8s.io/PriorityClass', cluster(nameIsDNSSubdomain)],
  ['storage.k8s.io/StorageClass', cluster(nameIsDNSSubdomain)],
  ['storage.k8s.io/CSIDriver', cluster(nameIsDNSSubdomain)],
  ['storage.k8s.io/VolumeAttachment', cluster(nameIsDNSSubdomain)],
  ['node.k8s.io/RuntimeClass', { ...cluster(nameIsDNSSubdomain), kubeFinalizers: false }],
  ['certificates.k8s.io/CertificateSigningRequest', cluster(anyName)],
]);

/** The rule for a built-in kind, or undefined for kinds this table does not know (e.g. CRDs). */
export function kindRule(group: string, kind: string): KindRule | undefined {
  return RULES.get(`${group}/${kind}`);
}

/** The finalizers core accepts without a `domain/` prefix (helper.standardFinalizers). */
export const STANDARD_FINALIZERS: ReadonlySet<string> = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** validateKubeFinalizerName: a finalizer without '/' must be a standard one. */
export function validateKubeFinalizerName(name: string, path: FieldPath): ErrorList {
  if (name.split('/').length === 1 && !STANDARD_FINALIZERS.has(name)) {
    return [invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}

const METADATA = FieldPath.root('metadata');

/** core validation.ValidateObjectMeta: the generic checks plus each finalizer's kube name check. */
export function validateBuiltinObjectMeta(meta: ObjectMeta, rule: KindRule, path: FieldPath = METADATA): ErrorList {
  const errs = validateObjectMeta(meta, rule.namespaced, rule.nameFn, path);
  if (rule.kubeFinalizers === false) return errs;
  (meta.finalizers ?? []).forEach((f, i) => {
    errs.push(...validateKubeFinalizerName(f, path.child('finalizers').index(i)));
  });
  return errs;
}

/** core validation.ValidateObjectMetaUpdate: the generic update checks plus the finalizer check. */
export function validateBuiltinObjectMetaUpdate(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  rule: KindRule,
  path: FieldPath = METADATA,
): ErrorList {
  const errs = validateObjectMetaUpdate(newMeta, oldMeta, path);
  if (rule.kubeFinalizers === false) return errs;
  (newMeta.finalizers ?? []).forEach((f, i) => {
    errs.push(...validateKubeFinalizerName(f, path.child('finalizers').index(i)));
  });
  return errs;
}
