/**
 * What rest.BeforeCreate and rest.BeforeUpdate (k8s.io/apiserver pkg/registry/rest, v0.32) do to
 * metadata for every resource, around the kind's own validation.
 */
import { type ErrorList, FieldPath } from '../field-errors.js';
import type { ObjectMeta } from '../meta.js';
import { validatePathSegmentName } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';

const METADATA = FieldPath.root('metadata');

/**
 * BeforeUpdate's carry-over: generation always from the stored object (the strategy bumps it);
 * uid when the request has none; creationTimestamp when the stored one is set; deletionTimestamp
 * when set; deletionGracePeriodSeconds when the request dropped it.
 */
export function carryOverSystemMeta(newMeta: ObjectMeta, oldMeta: ObjectMeta): void {
  if (oldMeta.generation === undefined) delete newMeta.generation;
  else newMeta.generation = oldMeta.generation;
  if ((newMeta.uid ?? '') === '' && oldMeta.uid !== undefined) newMeta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) newMeta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) newMeta.deletionTimestamp = oldMeta.deletionTimestamp;
  const oldGrace = oldMeta.deletionGracePeriodSeconds;
  const newGrace = newMeta.deletionGracePeriodSeconds;
  if (oldGrace !== undefined && oldGrace !== null && (newGrace === undefined || newGrace === null)) {
    newMeta.deletionGracePeriodSeconds = oldGrace;
  }
}

/** BeforeCreate's common check, run after the kind's own Validate: path-segment-safe names. */
export function validateCommonCreate(meta: ObjectMeta, namespaced: boolean): ErrorList {
  return validateObjectMeta(meta, namespaced, validatePathSegmentName, METADATA);
}

/** BeforeUpdate's validateCommonFields, run before the kind's own ValidateUpdate. */
export function validateCommonUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta, namespaced: boolean): ErrorList {
  return [
    ...validateObjectMeta(newMeta, namespaced, validatePathSegmentName, METADATA),
    ...validateObjectMetaUpdate(newMeta, oldMeta, METADATA),
  ];
}
