/**
 * The persistent-storage helpers several layers share (the printers, the admission plugins, the
 * volume controllers): pkg/apis/core/helper/helpers.go (GetAccessModesAsString,
 * GetPersistentVolumeClass, GetPersistentVolumeClaimClass), pkg/apis/storage/util/helpers.go
 * (IsDefaultAnnotation) and the annotation names of k8s.io/api/core/v1 annotation_key_constants.go
 * and k8s.io/component-helpers/storage/volume/helpers.go, v1.32.
 */
import type { ObjectMeta } from './meta.js';
import type { PersistentVolume, PersistentVolumeClaim } from './types/core/v1.js';
import type { DeepReadonly } from './types/readonly.js';

/** core/v1 BetaStorageClassAnnotation: the class before spec.storageClassName existed. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
/** storage/util IsDefaultStorageClassAnnotation. */
export const IS_DEFAULT_STORAGE_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
/** storage/util BetaIsDefaultStorageClassAnnotation. */
export const BETA_IS_DEFAULT_STORAGE_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';

/** GetAccessModesAsString: `RWO,ROX,RWX,RWOP`, in that order, each once. */
export function accessModesAsString(modes: readonly string[] | undefined): string {
  const has = new Set(modes ?? []);
  const out: string[] = [];
  if (has.has('ReadWriteOnce')) out.push('RWO');
  if (has.has('ReadOnlyMany')) out.push('ROX');
  if (has.has('ReadWriteMany')) out.push('RWX');
  if (has.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

/** GetPersistentVolumeClass: the beta annotation first, then spec.storageClassName. */
export function persistentVolumeClass(pv: DeepReadonly<PersistentVolume>): string {
  const beta = pv.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  return beta ?? pv.spec?.storageClassName ?? '';
}

/** GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName; '' for none. */
export function persistentVolumeClaimClass(pvc: DeepReadonly<PersistentVolumeClaim>): string {
  const beta = pvc.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  return beta ?? pvc.spec?.storageClassName ?? '';
}

/** PersistentVolumeClaimHasClass: a class asked for, even the empty one. */
export function persistentVolumeClaimHasClass(pvc: DeepReadonly<PersistentVolumeClaim>): boolean {
  if (pvc.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] !== undefined) return true;
  return pvc.spec?.storageClassName !== undefined && pvc.spec.storageClassName !== null;
}

/** IsDefaultAnnotation: either is-default-class annotation is "true". */
export function isDefaultStorageClass(meta: DeepReadonly<ObjectMeta> | undefined): boolean {
  const a = meta?.annotations ?? {};
  return a[IS_DEFAULT_STORAGE_CLASS_ANNOTATION] === 'true' || a[BETA_IS_DEFAULT_STORAGE_CLASS_ANNOTATION] === 'true';
}
