/**
 * Which Available volume a claim gets (pkg/controller/volume/persistentvolume/index.go
 * findByClaim, over k8s.io/component-helpers storage/volume/pv_helpers.go FindMatchingVolume,
 * v1.32): the volumes grouped by their access modes, the groups that hold every mode the claim
 * asks for tried from the fewest modes up; in a group, a volume pre-bound to the claim wins, else
 * the smallest Available one of the claim's class, volume mode and selector that is big enough.
 * Without a node (the controller's case) a delay-binding class matches only pre-bound volumes.
 */
import { labelSelectorAsSelector } from '../../../api/labels/label-selector.js';
import {
  accessModesAsString,
  persistentVolumeClaimClass,
  persistentVolumeClass,
} from '../../../api/persistent-volume.js';
import { compareQuantity, parseQuantity, type Quantity } from '../../../api/resource/quantity.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../../api/types/core/v1.js';
import type { LabelSelector } from '../../../api/types/meta/v1.js';
import type { DeepReadonly } from '../../../api/types/readonly.js';

type ReadonlyPV = DeepReadonly<PersistentVolume>;
type ReadonlyPVC = DeepReadonly<PersistentVolumeClaim>;

const ZERO: Quantity = parseQuantity('0') as Quantity;

/** A stored quantity; Go's zero Quantity for none. */
function quantityOf(v: string | undefined): Quantity {
  const q = parseQuantity(v ?? '0');
  return 'error' in q ? ZERO : q;
}

/** IsVolumeBoundToClaim: the claimRef names the claim (and its UID, when it has one). */
export function isVolumeBoundToClaim(volume: ReadonlyPV, claim: ReadonlyPVC): boolean {
  const ref = volume.spec?.claimRef;
  if (ref === undefined) return false;
  if (claim.metadata?.name !== ref.name || claim.metadata?.namespace !== ref.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

/** CheckVolumeModeMismatches: Filesystem when unset. */
function volumeModeMismatch(claim: ReadonlyPVC, volume: ReadonlyPV): boolean {
  return (claim.spec?.volumeMode ?? 'Filesystem') !== (volume.spec?.volumeMode ?? 'Filesystem');
}

/** FindMatchingVolume with no node and no exclusions, VolumeAttributesClass off. */
export function findMatchingVolume(
  claim: ReadonlyPVC,
  volumes: readonly ReadonlyPV[],
  delayBinding: boolean,
): ReadonlyPV | undefined {
  if ((claim.spec?.volumeAttributesClassName ?? '') !== '') {
    throw new Error(
      `unsupported volumeAttributesClassName is set on claim ${claim.metadata?.namespace ?? ''}/${claim.metadata?.name ?? ''} when the feature-gate VolumeAttributesClass is disabled`,
    );
  }
  const requested = quantityOf(claim.spec?.resources?.requests?.storage);
  const requestedClass = persistentVolumeClaimClass(claim);
  const selector =
    claim.spec?.selector === undefined
      ? undefined
      : labelSelectorAsSelector(structuredClone(claim.spec.selector) as LabelSelector);
  let smallest: ReadonlyPV | undefined;
  let smallestQty = ZERO;
  for (const volume of volumes) {
    if (volume.spec?.claimRef !== undefined && !isVolumeBoundToClaim(volume, claim)) continue;
    const qty = quantityOf(volume.spec?.capacity?.storage);
    if (compareQuantity(qty, requested) < 0) continue;
    if (volumeModeMismatch(claim, volume)) continue;
    if ((volume.spec?.volumeAttributesClassName ?? '') !== '') continue;
    if (volume.metadata?.deletionTimestamp) continue;
    if (isVolumeBoundToClaim(volume, claim)) return volume;
    if (delayBinding) continue;
    if (volume.status?.phase !== 'Available') continue;
    if (selector !== undefined && !selector.matches(volume.metadata?.labels ?? {})) continue;
    if (persistentVolumeClass(volume) !== requestedClass) continue;
    if (smallest === undefined || compareQuantity(smallestQty, qty) > 0) {
      smallest = volume;
      smallestQty = qty;
    }
  }
  return smallest;
}

/** findBestMatchForClaim (findByClaim): the access-mode groups holding the claim's modes, fewest modes first. */
export function findBestMatchForClaim(
  claim: ReadonlyPVC,
  volumes: readonly ReadonlyPV[],
  delayBinding: boolean,
): ReadonlyPV | undefined {
  const groups = new Map<string, { modes: Set<string>; volumes: ReadonlyPV[] }>();
  for (const v of volumes) {
    const key = accessModesAsString(v.spec?.accessModes);
    let g = groups.get(key);
    if (g === undefined) {
      g = { modes: new Set(v.spec?.accessModes ?? []), volumes: [] };
      groups.set(key, g);
    }
    g.volumes.push(v);
  }
  const wanted = claim.spec?.accessModes ?? [];
  const matching = [...groups.values()]
    .filter((g) => wanted.every((m) => g.modes.has(m)))
    .sort((a, b) => a.modes.size - b.modes.size);
  for (const g of matching) {
    const best = findMatchingVolume(claim, g.volumes, delayBinding);
    if (best !== undefined) return best;
  }
  return undefined;
}
