/**
 * Namespace lifecycle in the apiserver, as kube-apiserver 1.32 does it (the NamespaceLifecycle
 * admission plugin is admission/namespace-lifecycle.ts):
 * - the namespace strategies (pkg/registry/core/namespace/strategy.go): spec.finalizers gets
 *   `kubernetes` on create, the main resource cannot change spec.finalizers, `…/finalize` changes
 *   nothing else; SetDefaults_Namespace's `kubernetes.io/metadata.name` label;
 * - the namespace REST delete (pkg/registry/core/namespace/storage/storage.go): the first DELETE
 *   only marks the namespace Terminating; it goes once spec.finalizers and metadata.finalizers are empty.
 */
import { type ErrorList, FieldPath, invalid } from '../../../../api/field-errors.js';
import {
  type DeleteOptions,
  FINALIZER_DELETE_DEPENDENTS,
  FINALIZER_ORPHAN_DEPENDENTS,
  type KubeObject,
  type ObjectMeta,
} from '../../../../api/meta.js';
import { validateFinalizerName } from '../../../../api/validation/object-meta.js';
import type { ResourceInfo } from '../../resources.js';

// api.FinalizerKubernetes (pkg/apis/core/types.go).
export const FINALIZER_KUBERNETES = 'kubernetes';
// v1.LabelMetadataName (staging/src/k8s.io/api/core/v1/well_known_labels.go).
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export const isNamespaceResource = (info: Pick<ResourceInfo, 'group' | 'resource'>): boolean =>
  info.group === '' && info.resource === 'namespaces';

function nsSpec(o: Obj): Obj {
  if (!isObj(o.spec)) o.spec = {};
  return o.spec as Obj;
}

export function specFinalizers(obj: KubeObject): string[] {
  const spec = (obj as Obj).spec;
  if (!isObj(spec) || !Array.isArray(spec.finalizers)) return [];
  return spec.finalizers.filter((f): f is string => typeof f === 'string');
}

/** SetDefaults_Namespace: the `kubernetes.io/metadata.name` label always equals the name. */
function defaultNameLabel(o: Obj): void {
  const meta = (isObj(o.metadata) ? o.metadata : {}) as ObjectMeta;
  o.metadata = meta;
  if (meta.name) meta.labels = { ...(meta.labels ?? {}), [LABEL_METADATA_NAME]: meta.name };
}

/** namespaceStrategy.PrepareForCreate: spec.finalizers must hold `kubernetes`. */
export function prepareNamespaceCreate(info: ResourceInfo, obj: KubeObject): void {
  if (!isNamespaceResource(info)) return;
  const o = obj as Obj;
  const spec = nsSpec(o);
  const finalizers = specFinalizers(obj);
  if (!finalizers.includes(FINALIZER_KUBERNETES)) spec.finalizers = [...finalizers, FINALIZER_KUBERNETES];
  defaultNameLabel(o);
}

/**
 * The namespace update strategies: the main resource keeps the stored spec.finalizers
 * (namespaceStrategy.PrepareForUpdate); `finalize` writes only spec.finalizers, keeping the status
 * (namespaceFinalizeStrategy.PrepareForUpdate).
 */
export function prepareNamespaceUpdate(
  info: ResourceInfo,
  obj: KubeObject,
  old: KubeObject,
  mode: 'main' | 'status' | 'finalize',
): void {
  if (!isNamespaceResource(info)) return;
  const o = obj as Obj;
  const prev = old as Obj;
  if (mode === 'main') {
    const oldFinalizers = isObj(prev.spec) ? prev.spec.finalizers : undefined;
    const spec = nsSpec(o);
    if (oldFinalizers === undefined) delete spec.finalizers;
    else spec.finalizers = structuredClone(oldFinalizers);
  }
  if (mode === 'finalize') {
    if (prev.status === undefined) delete o.status;
    else o.status = structuredClone(prev.status);
  }
  defaultNameLabel(o);
}

/** ValidateNamespaceFinalizeUpdate's part beyond metadata: every spec.finalizers entry is a finalizer name. */
export function validateNamespaceFinalizers(obj: KubeObject): ErrorList {
  const path = FieldPath.root('spec', 'finalizers');
  const errs: ErrorList = [];
  specFinalizers(obj).forEach((f, i) => {
    const p = path.index(i);
    errs.push(...validateFinalizerName(f, p));
    // validateKubeFinalizerName: an unqualified name must be a standard one.
    if (
      !f.includes('/') &&
      ![FINALIZER_KUBERNETES, FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS].includes(f)
    ) {
      errs.push(invalid(p, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

/**
 * ShouldDeleteDuringUpdate (generic/registry/store.go) and ShouldDeleteNamespaceDuringUpdate: an
 * update that leaves no finalizer on an object already being deleted with no grace period deletes it.
 */
export function shouldDeleteDuringUpdate(info: ResourceInfo, obj: KubeObject, old: KubeObject): boolean {
  if ((obj.metadata?.finalizers ?? []).length > 0) return false;
  if (isNamespaceResource(info) && specFinalizers(obj).length > 0) return false;
  const oldMeta = old.metadata ?? {};
  if (!oldMeta.deletionTimestamp) return false;
  const grace = oldMeta.deletionGracePeriodSeconds;
  return grace === undefined || grace === null || grace === 0;
}

/**
 * The first DELETE of a namespace (storage.go REST.Delete): deletionTimestamp now, phase
 * Terminating, the GC finalizers as the options say (orphanDependents / propagationPolicy). Returns
 * the changed object; finalizers keep their order, additions go last.
 */
export function markNamespaceTerminating(ns: KubeObject, options: DeleteOptions, now: string): KubeObject {
  const next = structuredClone(ns) as Obj & KubeObject;
  const meta = (next.metadata ?? {}) as ObjectMeta;
  next.metadata = meta;
  if (!meta.deletionTimestamp) meta.deletionTimestamp = now;
  const status: Obj = isObj(next.status) ? next.status : {};
  next.status = status;
  status.phase = 'Terminating';
  const current = meta.finalizers ?? [];
  const orphan =
    options.orphanDependents !== undefined
      ? options.orphanDependents
      : options.propagationPolicy !== undefined
        ? options.propagationPolicy === 'Orphan'
        : current.includes(FINALIZER_ORPHAN_DEPENDENTS);
  const foreground =
    options.orphanDependents !== undefined
      ? options.orphanDependents === false
      : options.propagationPolicy !== undefined
        ? options.propagationPolicy === 'Foreground'
        : current.includes(FINALIZER_DELETE_DEPENDENTS);
  let finalizers = current.filter(
    (f) => (f !== FINALIZER_ORPHAN_DEPENDENTS || orphan) && (f !== FINALIZER_DELETE_DEPENDENTS || foreground),
  );
  if (orphan && !finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS))
    finalizers = [...finalizers, FINALIZER_ORPHAN_DEPENDENTS];
  if (foreground && !finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) {
    finalizers = [...finalizers, FINALIZER_DELETE_DEPENDENTS];
  }
  if (finalizers.length > 0) meta.finalizers = finalizers;
  else delete meta.finalizers;
  return next;
}
