/**
 * The custom resource strategies (k8s.io/apiextensions-apiserver pkg/registry/customresource/
 * strategy.go, status_strategy.go and validator.go, v1.32), the strategy of every resource a
 * CustomResourceDefinition serves: status dropped on create and kept from the stored object on
 * update when the status subresource is on; generation bumped by any change outside metadata; a
 * `/status` write takes only the status; the version's schema validates (crd/validate-cr.ts).
 */

import { deepEqual } from '../../../crd/schema/types.js';
import { validateCustomResourceObject } from '../../../crd/validate-cr.js';
import type { Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

export const customResourceStrategy: ResourceStrategy = {
  /** customResourceStrategy.PrepareForCreate (generation 1 is set by the store for every kind that keeps one). */
  prepareForCreate(obj, info) {
    if (info.statusOnSubresource) delete (obj as Obj).status;
  },
  validate: (obj, info) => validateCustomResourceObject(info, obj, 'main', true),
  update: {
    /** PrepareForUpdate: the stored status with the status subresource; any non-metadata change bumps generation. */
    prepareForUpdate(obj, old, info) {
      const o = obj as Obj;
      const prev = old as Obj;
      if (info.statusOnSubresource) {
        if (Object.hasOwn(prev, 'status')) o.status = prev.status;
        else delete o.status;
      }
      // The store bumps it for spec changes; a status change counts too when status is no subresource.
      if (!info.statusOnSubresource && !deepEqual(o.status, prev.status) && obj.metadata !== undefined) {
        obj.metadata.generation = (old.metadata?.generation ?? 0) + 1;
      }
    },
    validateUpdate: (obj, _old, info) => validateCustomResourceObject(info, obj, 'main'),
  },
  status: {
    /**
     * statusStrategy.PrepareForUpdate: the new object is the stored one with the request's status
     * (or none); metadata changes are dropped too. `obj.metadata` stays the same object (the store holds it).
     */
    prepareForUpdate(obj, old) {
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
    },
    validateUpdate: (obj, _old, info) => validateCustomResourceObject(info, obj, 'status'),
  },
};
