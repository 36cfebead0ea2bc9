/**
 * A namespace's spec.finalizers (pkg/apis/core/types.go NamespaceSpec): the `kubernetes`
 * finalizer the namespace controller removes once the namespace's content is gone, and
 * ValidateNamespaceFinalizeUpdate's check of the names.
 */
import { type ErrorList, FieldPath, invalid } from '../../../../api/field-errors.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS, type KubeObject } from '../../../../api/meta.js';
import { validateFinalizerName } from '../../../../api/validation/object-meta.js';
import { isObj, type Obj } from '../../objects.js';

// api.FinalizerKubernetes (pkg/apis/core/types.go).
export const FINALIZER_KUBERNETES = 'kubernetes';
// v1.LabelMetadataName (staging/src/k8s.io/api/core/v1/well_known_labels.go).
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';

export function specFinalizers(obj: KubeObject): string[] {
  const spec = (obj as Obj).spec;
  if (!isObj(spec) || !Array.isArray(spec.finalizers)) return [];
  return spec.finalizers.filter((f): f is string => typeof f === 'string');
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
