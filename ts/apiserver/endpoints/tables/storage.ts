/**
 * Printers of the persistent-storage kinds (pkg/printers/internalversion/printers.go, v1.32):
 * printPersistentVolume, printPersistentVolumeClaim, printStorageClass (whose Name cell says
 * ` (default)` for the default class, so it carries its own Name column).
 */
import {
  accessModesAsString,
  isDefaultStorageClass,
  persistentVolumeClaimClass,
  persistentVolumeClass,
} from '../../../api/persistent-volume.js';
import { parseQuantity, quantityString } from '../../../api/resource/quantity.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../../api/types/core/v1.js';
import { AGE, arr, col, type Layout, NAME_DESCRIPTION, type Obj, obj, str, wide } from './column.js';

/** Quantity.String() of a stored quantity; Go's zero Quantity prints `0`. */
function quantity(v: unknown): string {
  const q = parseQuantity(v ?? '0');
  return 'error' in q ? str(v) : quantityString(q);
}

/** The phase, or Terminating once deletion has begun. */
const phase = (o: Obj): string => (obj(o.metadata).deletionTimestamp ? 'Terminating' : str(obj(o.status).phase));

/** A *string field: `<unset>` when nil. */
const unsetOr = (v: unknown): string => (typeof v === 'string' ? v : '<unset>');

export const STORAGE_LAYOUTS: Record<string, Layout> = {
  '/PersistentVolume': [
    col('Capacity', 'string', "capacity is the description of the persistent volume's resources and capacity.", (o) =>
      quantity(obj(obj(o.spec).capacity).storage),
    ),
    col('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted.', (o) =>
      accessModesAsString(arr(obj(o.spec).accessModes).map(str)),
    ),
    col(
      'Reclaim Policy',
      'string',
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.',
      (o) => str(obj(o.spec).persistentVolumeReclaimPolicy),
    ),
    col(
      'Status',
      'string',
      'phase indicates if a volume is available, bound to a claim, or released by a claim.',
      phase,
    ),
    col(
      'Claim',
      'string',
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
      (o) => {
        const ref = obj(o.spec).claimRef;
        return ref === undefined || ref === null ? '' : `${str(obj(ref).namespace)}/${str(obj(ref).name)}`;
      },
    ),
    col('StorageClass', 'string', 'StorageClass of the pv', (o) => persistentVolumeClass(o as PersistentVolume)),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv', (o) =>
      unsetOr(obj(o.spec).volumeAttributesClassName),
    ),
    col(
      'Reason',
      'string',
      'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
      (o) => str(obj(o.status).reason),
    ),
    AGE,
    wide(
      'VolumeMode',
      'string',
      'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.',
      (o) => unsetOr(obj(o.spec).volumeMode),
    ),
  ],
  '/PersistentVolumeClaim': [
    col('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.', phase),
    col('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.', (o) =>
      str(obj(o.spec).volumeName),
    ),
    // Capacity and access modes are the bound volume's: empty until spec.volumeName is set.
    col('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.', (o) =>
      str(obj(o.spec).volumeName) === '' ? '' : quantity(obj(obj(o.status).capacity).storage),
    ),
    col(
      'Access Modes',
      'string',
      'accessModes contains the actual access modes the volume backing the PVC has.',
      (o) => (str(obj(o.spec).volumeName) === '' ? '' : accessModesAsString(arr(obj(o.status).accessModes).map(str))),
    ),
    col('StorageClass', 'string', 'StorageClass of the pvc', (o) =>
      persistentVolumeClaimClass(o as PersistentVolumeClaim),
    ),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc', (o) =>
      unsetOr(obj(o.spec).volumeAttributesClassName),
    ),
    AGE,
    wide('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim.', (o) =>
      unsetOr(obj(o.spec).volumeMode),
    ),
  ],
};

/** Kinds whose printer makes its own Name cell. */
export const STORAGE_FULL_LAYOUTS: Record<string, Layout> = {
  'storage.k8s.io/StorageClass': [
    col(
      'Name',
      'string',
      NAME_DESCRIPTION,
      (o) => {
        const name = str(obj(o.metadata).name);
        return isDefaultStorageClass(obj(o.metadata)) ? `${name} (default)` : name;
      },
      'name',
    ),
    col('Provisioner', 'string', 'provisioner indicates the type of the provisioner.', (o) => str(o.provisioner)),
    col(
      'ReclaimPolicy',
      'string',
      'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.',
      (o) => (typeof o.reclaimPolicy === 'string' ? o.reclaimPolicy : 'Delete'),
    ),
    col(
      'VolumeBindingMode',
      'string',
      'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.',
      (o) => (typeof o.volumeBindingMode === 'string' ? o.volumeBindingMode : 'Immediate'),
    ),
    col(
      'AllowVolumeExpansion',
      'string',
      'allowVolumeExpansion shows whether the storage class allow volume expand.',
      (o) => o.allowVolumeExpansion === true,
    ),
    AGE,
  ],
};
