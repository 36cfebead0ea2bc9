/**
 * The namespace strategies (pkg/registry/core/namespace/strategy.go, v1.32; the NamespaceLifecycle
 * admission plugin is admission/namespace-lifecycle.ts, the REST Delete storage.ts):
 * spec.finalizers gets `kubernetes` on create, the object's own updates cannot change
 * spec.finalizers, `…/finalize` changes nothing else; SetDefaults_Namespace's
 * `kubernetes.io/metadata.name` label; a namespace goes once spec.finalizers is empty too.
 */
import type { ObjectMeta } from '../../../../api/meta.js';
import {
  DEFAULT_STRATEGY,
  keepStoredStatus,
  shouldDeleteDuringUpdate,
  startStatus,
} from '../../generic/default-strategy.js';
import { isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';
import {
  FINALIZER_KUBERNETES,
  LABEL_METADATA_NAME,
  specFinalizers,
  validateNamespaceFinalizers,
} from './finalizers.js';
import { deleteNamespace } from './storage.js';

function nsSpec(o: Obj): Obj {
  if (!isObj(o.spec)) o.spec = {};
  return o.spec as Obj;
}

/** SetDefaults_Namespace: the `kubernetes.io/metadata.name` label always equals the name. */
function defaultNameLabel(o: Obj): void {
  const meta = (isObj(o.metadata) ? o.metadata : {}) as ObjectMeta;
  o.metadata = meta;
  if (meta.name) meta.labels = { ...(meta.labels ?? {}), [LABEL_METADATA_NAME]: meta.name };
}

export const namespaceStrategy: ResourceStrategy = {
  /** namespaceStrategy.PrepareForCreate: status Active; spec.finalizers must hold `kubernetes`. */
  prepareForCreate(obj, info) {
    startStatus(info, obj, { phase: 'Active' });
    const o = obj as Obj;
    const spec = nsSpec(o);
    const finalizers = specFinalizers(obj);
    if (!finalizers.includes(FINALIZER_KUBERNETES)) spec.finalizers = [...finalizers, FINALIZER_KUBERNETES];
    defaultNameLabel(o);
  },
  validate: (obj, info) => [...DEFAULT_STRATEGY.validate(obj, info), ...validateNamespaceFinalizers(obj)],
  update: {
    /** namespaceStrategy.PrepareForUpdate: the stored status and spec.finalizers are kept. */
    prepareForUpdate(obj, old, info) {
      keepStoredStatus(info, obj, old);
      const prev = old as Obj;
      const oldFinalizers = isObj(prev.spec) ? prev.spec.finalizers : undefined;
      const spec = nsSpec(obj as Obj);
      if (oldFinalizers === undefined) delete spec.finalizers;
      else spec.finalizers = structuredClone(oldFinalizers);
      defaultNameLabel(obj as Obj);
    },
    validateUpdate: (obj, old, info) => [
      ...DEFAULT_STRATEGY.update.validateUpdate(obj, old, info),
      ...validateNamespaceFinalizers(obj),
    ],
  },
  status: {
    prepareForUpdate(obj, old, info, now) {
      DEFAULT_STRATEGY.status.prepareForUpdate(obj, old, info, now);
      defaultNameLabel(obj as Obj);
    },
    validateUpdate: (obj, old, info) => [
      ...DEFAULT_STRATEGY.status.validateUpdate(obj, old, info),
      ...validateNamespaceFinalizers(obj),
    ],
  },
  finalize: {
    /** namespaceFinalizeStrategy.PrepareForUpdate: only spec.finalizers is written, the status kept. */
    prepareForUpdate(obj, old, info) {
      keepStoredStatus(info, obj, old);
      const o = obj as Obj;
      const prev = old as Obj;
      if (prev.status === undefined) delete o.status;
      else o.status = structuredClone(prev.status);
      defaultNameLabel(o);
    },
    validateUpdate: (obj) => validateNamespaceFinalizers(obj),
  },
  /** ShouldDeleteNamespaceDuringUpdate: spec.finalizers must be empty too. */
  shouldDeleteDuringUpdate: (obj, old) => specFinalizers(obj).length === 0 && shouldDeleteDuringUpdate(obj, old),
  delete: deleteNamespace,
  // pkg/registry/core/namespace/storage: the namespace REST has no DeleteCollection.
  noDeleteCollection: true,
};
