/**
 * The custom resource strategies (k8s.io/apiextensions-apiserver pkg/registry/customresource/
 * strategy.go and status_strategy.go, v1.32) and the CustomResourceDefinition's, as the branch
 * strategy.ts takes for them: status dropped on create and kept from the stored object on update
 * when the status subresource is on; generation bumped by any change outside metadata; a `/status`
 * write takes only the status.
 */
import type { KubeObject } from '../../../../api/meta.js';
import { prepareCrdCreate, prepareCrdStatusUpdate, prepareCrdUpdate } from '../../../crd/defaults.js';
import { deepEqual } from '../../../crd/schema/types.js';
import type { Crd } from '../../../crd/types.js';
import type { ResourceInfo } from '../../resources.js';
import { isCrdResource } from '../customresourcedefinitions/delete.js';

type Obj = Record<string, unknown>;

/** Whether `info` is a custom resource or the CRD kind itself (handled here, not by strategy.ts' tables). */
export const isCustomStrategy = (info: ResourceInfo): boolean => info.custom !== undefined || isCrdResource(info);

/** customResourceStrategy.PrepareForCreate (generation 1 is set by rest.ts for every kind that keeps one). */
export function prepareCustomCreate(info: ResourceInfo, obj: KubeObject): void {
  if (isCrdResource(info)) {
    prepareCrdCreate(obj as Crd);
    return;
  }
  if (info.statusOnSubresource) delete (obj as Obj).status;
}

/** customResourceStrategy.PrepareForUpdate: the stored status with the status subresource; any non-metadata change bumps generation. */
export function prepareCustomUpdate(info: ResourceInfo, obj: KubeObject, old: KubeObject): void {
  if (isCrdResource(info)) {
    prepareCrdUpdate(obj as Crd, old as Crd);
    return;
  }
  const o = obj as Obj;
  const prev = old as Obj;
  if (info.statusOnSubresource) {
    if (Object.hasOwn(prev, 'status')) o.status = prev.status;
    else delete o.status;
  }
  // rest.ts bumps it for spec changes; a status change counts too when status is no subresource.
  if (!info.statusOnSubresource && !deepEqual(o.status, prev.status) && obj.metadata !== undefined) {
    obj.metadata.generation = (old.metadata?.generation ?? 0) + 1;
  }
}

/**
 * statusStrategy.PrepareForUpdate: the new object is the stored one with the request's status (or
 * none); metadata changes are dropped too. `obj.metadata` stays the same object (rest.ts holds it).
 */
export function prepareCustomStatusUpdate(info: ResourceInfo, obj: KubeObject, old: KubeObject): void {
  if (isCrdResource(info)) {
    prepareCrdStatusUpdate(obj as Crd, old as Crd);
    return;
  }
  const o = obj as Obj;
  const hasStatus = Object.hasOwn(o, 'status');
  const status = o.status;
  const meta = (obj.metadata ?? {}) as Obj;
  // Copied first: a patched object may share its parts (metadata too) with the stored one.
  const copy = structuredClone(old) as Obj;
  for (const k of Object.keys(o)) if (k !== 'metadata') delete o[k];
  for (const k of Object.keys(meta)) delete meta[k];
  for (const [k, v] of Object.entries(copy)) {
    if (k === 'metadata') Object.assign(meta, v as Obj);
    else o[k] = v;
  }
  o.metadata = meta;
  if (hasStatus) o.status = status;
  else delete o.status;
}
