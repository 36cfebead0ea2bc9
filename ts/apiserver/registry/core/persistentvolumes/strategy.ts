/**
 * The persistent volume strategy (pkg/registry/core/persistentvolume/strategy.go, v1.32):
 * SetDefaults_PersistentVolume (pkg/apis/core/v1/defaults.go: persistentVolumeReclaimPolicy
 * Retain, volumeMode Filesystem, status.phase Pending; a hostPath's type ""), a new volume
 * Pending with its lastPhaseTransitionTime, and the status strategy's stamp of every phase change.
 */
import { rfc3339 } from '../../../../api/time.js';
import { keepStoredSpec, keepStoredStatus, startStatus } from '../../generic/default-strategy.js';
import { child, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

/** pkg/api/persistentvolume DropDisabledSpecFields: VolumeAttributesClass is off by default in 1.32. */
function dropDisabledSpecFields(spec: unknown, oldSpec: unknown): void {
  if (!isObj(spec)) return;
  const used = isObj(oldSpec) && oldSpec.volumeAttributesClassName !== undefined;
  if (!used) delete spec.volumeAttributesClassName;
}

export const persistentVolumeStrategy: ResourceStrategy = {
  defaults(o: Obj) {
    const spec = child(o, 'spec');
    if (spec.persistentVolumeReclaimPolicy === undefined || spec.persistentVolumeReclaimPolicy === '') {
      spec.persistentVolumeReclaimPolicy = 'Retain';
    }
    spec.volumeMode ??= 'Filesystem';
    // SetDefaults_HostPathVolumeSource: HostPathUnset.
    if (isObj(spec.hostPath)) spec.hostPath.type ??= '';
    const status = child(o, 'status');
    if (status.phase === undefined || status.phase === '') status.phase = 'Pending';
  },
  prepareForCreate(obj, info) {
    // PrepareForCreate: Pending since now (the creation time the store has just stamped).
    const now = obj.metadata?.creationTimestamp;
    startStatus(info, obj, now ? { phase: 'Pending', lastPhaseTransitionTime: now } : { phase: 'Pending' });
    dropDisabledSpecFields((obj as Obj).spec, undefined);
  },
  update: {
    prepareForUpdate(obj, old, info) {
      keepStoredStatus(info, obj, old);
      dropDisabledSpecFields((obj as Obj).spec, (old as Obj).spec);
    },
  },
  status: {
    /** persistentvolumeStatusStrategy.PrepareForUpdate: a changed phase gets a new transition time. */
    prepareForUpdate(obj, old, _info, now) {
      keepStoredSpec(obj, old);
      const status = child(obj as Obj, 'status');
      const oldStatus = isObj((old as Obj).status) ? ((old as Obj).status as Obj) : {};
      const stamped = status.lastPhaseTransitionTime;
      if (oldStatus.phase === status.phase && (stamped === undefined || stamped === null)) {
        if (oldStatus.lastPhaseTransitionTime === undefined) delete status.lastPhaseTransitionTime;
        else status.lastPhaseTransitionTime = oldStatus.lastPhaseTransitionTime;
      } else if (
        oldStatus.phase !== status.phase &&
        (stamped === undefined || stamped === null || stamped === oldStatus.lastPhaseTransitionTime)
      ) {
        status.lastPhaseTransitionTime = rfc3339(now);
      }
    },
  },
};
