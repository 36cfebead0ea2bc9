/**
 * The generic store's own strategy steps, which a resource whose strategy leaves a member out gets
 * (registry/strategy.ts), and which a resource's own steps call where they extend them: the status
 * owned by the status subresource (zeroed on create, kept from the stored object on update, the
 * only thing a `…/status` write changes), the kind's validation through ts/api/validation/kinds
 * (keyed by group and kind, so a kind is checked as soon as it is served), and store.go's
 * ShouldDeleteDuringUpdate.
 */
import type { KubeObject } from '../../../api/meta.js';
import {
  validateKindCreate,
  validateKindStatusUpdate,
  validateKindUpdateOf,
} from '../../../api/validation/kinds/index.js';
import type { Obj } from '../objects.js';
import type { ResourceInfo } from '../resources.js';
import type { ResourceStrategy, UpdateStrategy } from '../strategy.js';

/**
 * A create's status when the status subresource owns it: `zero`, the status Go serializes for the
 * kind's zero value (`{}` when every field is omitempty).
 */
export function startStatus(info: ResourceInfo, obj: KubeObject, zero: Obj = {}): void {
  if (info.statusOnSubresource) (obj as Obj).status = zero;
}

/** An update of the object itself keeps the stored status when the status subresource owns it. */
export function keepStoredStatus(info: ResourceInfo, obj: KubeObject, old: KubeObject): void {
  if (!info.statusOnSubresource) return;
  const o = obj as Obj;
  const status = (old as Obj).status;
  if (status === undefined) delete o.status;
  else o.status = status;
}

/** A `…/status` write keeps the stored spec (every status strategy's PrepareForUpdate). */
export function keepStoredSpec(obj: KubeObject, old: KubeObject): void {
  const o = obj as Obj;
  const prev = old as Obj;
  if (prev.spec === undefined) delete o.spec;
  else o.spec = structuredClone(prev.spec);
}

/** A metadata field of the stored object kept (a status write never changes it). */
export function keepStoredMetadata(obj: KubeObject, old: KubeObject, field: string): void {
  const meta = (obj.metadata ?? {}) as Obj;
  const oldMeta = (old.metadata ?? {}) as Obj;
  if (oldMeta[field] === undefined) delete meta[field];
  else meta[field] = structuredClone(oldMeta[field]);
}

/**
 * ShouldDeleteDuringUpdate (generic/registry/store.go): an update that leaves no finalizer on an
 * object already being deleted with no grace period deletes it.
 */
export function shouldDeleteDuringUpdate(obj: KubeObject, old: KubeObject): boolean {
  if ((obj.metadata?.finalizers ?? []).length > 0) return false;
  const oldMeta = old.metadata ?? {};
  if (!oldMeta.deletionTimestamp) return false;
  const grace = oldMeta.deletionGracePeriodSeconds;
  return grace === undefined || grace === null || grace === 0;
}

/** A strategy with every step the store calls. */
export type CompleteStrategy = ResourceStrategy &
  Required<Pick<ResourceStrategy, 'prepareForCreate' | 'validate' | 'shouldDeleteDuringUpdate'>> & {
    update: Required<UpdateStrategy>;
    status: Required<UpdateStrategy>;
    finalize: Required<UpdateStrategy>;
  };

const mainUpdate: Required<UpdateStrategy> = {
  prepareForUpdate: (obj, old, info) => keepStoredStatus(info, obj, old),
  validateUpdate: (obj, old, info) => validateKindUpdateOf(info.group, info.kind, obj, old),
};

/** The generic steps. */
export const DEFAULT_STRATEGY: CompleteStrategy = {
  prepareForCreate: (obj, info) => startStatus(info, obj),
  validate: (obj, info) => validateKindCreate(info.group, info.kind, obj),
  update: mainUpdate,
  status: {
    prepareForUpdate: (obj, old) => keepStoredSpec(obj, old),
    validateUpdate: (obj, old, info) => validateKindStatusUpdate(info.group, info.kind, obj, old),
  },
  // A subresource writing through the object's own preparation and metadata checks only.
  finalize: { prepareForUpdate: mainUpdate.prepareForUpdate, validateUpdate: () => [] },
  shouldDeleteDuringUpdate,
};

/** `strategy` with the generic steps where it has none. */
export function completeStrategy(strategy: ResourceStrategy): CompleteStrategy {
  return {
    ...DEFAULT_STRATEGY,
    ...strategy,
    update: { ...DEFAULT_STRATEGY.update, ...strategy.update },
    status: { ...DEFAULT_STRATEGY.status, ...strategy.status },
    finalize: { ...DEFAULT_STRATEGY.finalize, ...strategy.finalize },
  };
}
