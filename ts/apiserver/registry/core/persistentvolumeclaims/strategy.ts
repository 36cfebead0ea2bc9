/**
 * The persistent volume claim strategy (pkg/registry/core/persistentvolumeclaim/strategy.go,
 * v1.32): SetDefaults_PersistentVolumeClaim(Spec) (pkg/apis/core/v1/defaults.go: volumeMode
 * Filesystem, status.phase Pending), a new claim's status the zero one (read back as Pending), and
 * pvcutil.DropDisabledFields with the VolumeAttributesClass gate off: a volumeAttributesClassName
 * the stored claim does not use is dropped.
 */
import { keepStoredStatus, startStatus } from '../../generic/default-strategy.js';
import { child, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

/** pkg/api/persistentvolumeclaim DropDisabledFields: VolumeAttributesClass is off by default in 1.32. */
function dropDisabledFields(spec: unknown, oldSpec: unknown): void {
  if (!isObj(spec)) return;
  const used = isObj(oldSpec) && oldSpec.volumeAttributesClassName !== undefined;
  if (!used) delete spec.volumeAttributesClassName;
}

export const persistentVolumeClaimStrategy: ResourceStrategy = {
  defaults(o: Obj) {
    child(o, 'spec').volumeMode ??= 'Filesystem';
    child(o, 'status').phase ??= 'Pending';
  },
  prepareForCreate(obj, info) {
    // PrepareForCreate's empty status, as the decode of the stored claim defaults it.
    startStatus(info, obj, { phase: 'Pending' });
    dropDisabledFields((obj as Obj).spec, undefined);
  },
  update: {
    prepareForUpdate(obj, old, info) {
      keepStoredStatus(info, obj, old);
      dropDisabledFields((obj as Obj).spec, (old as Obj).spec);
    },
  },
};
