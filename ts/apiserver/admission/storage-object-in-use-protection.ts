/**
 * The StorageObjectInUseProtection admission plugin (plugin/pkg/admission/storage/
 * storageobjectinuseprotection/admission.go, v1.32): every PersistentVolume and
 * PersistentVolumeClaim created gets its protection finalizer, which the pv-protection and
 * pvc-protection controllers remove once nothing uses it.
 */
import type { AdmissionPlugin } from './types.js';

// storageobjectinuseprotection.PluginName.
export const STORAGE_OBJECT_IN_USE_PROTECTION = 'StorageObjectInUseProtection';
// pkg/volume/util/finalizer.go PVCProtectionFinalizer and PVProtectionFinalizer.
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

export function storageObjectInUseProtectionPlugin(): AdmissionPlugin {
  return {
    name: STORAGE_OBJECT_IN_USE_PROTECTION,
    handles: (a) =>
      a.operation === 'CREATE' &&
      a.info.group === '' &&
      (a.info.resource === 'persistentvolumes' || a.info.resource === 'persistentvolumeclaims') &&
      a.subresource === '',
    async admit(a) {
      const o = a.object;
      if (o === undefined) return;
      const finalizer = a.info.resource === 'persistentvolumes' ? PV_PROTECTION_FINALIZER : PVC_PROTECTION_FINALIZER;
      const meta = (o.metadata ?? {}) as { finalizers?: string[] };
      o.metadata = meta;
      const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
      if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
    },
  };
}
