/**
 * What the CustomResourceDefinition strategy and the v1 defaulters do on create and update
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/defaults.go and
 * pkg/registry/customresourcedefinition/strategy.go, v1.32).
 */
import type { CustomResourceDefinitionStatus } from '../../api/types/apiextensions/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Crd, Unchecked } from './types.js';

/** SetDefaults_CustomResourceDefinitionSpec: singular = lower-case kind, listKind = kind + "List", conversion None. */
export function defaultCrd(crd: Crd): void {
  const spec = crd.spec;
  if (spec === undefined || spec === null || typeof spec !== 'object') return;
  const names = spec.names;
  if (names !== undefined && names !== null && typeof names === 'object') {
    const kind = typeof names.kind === 'string' ? names.kind : '';
    if ((names.singular ?? '') === '') names.singular = kind.toLowerCase();
    if ((names.listKind ?? '') === '' && kind !== '') names.listKind = `${kind}List`;
  }
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
}

/** The storage version, the one version marked `storage: true` (first of several). */
export function storageVersionOf(crd: DeepReadonly<Crd>): string | undefined {
  return (crd.spec?.versions ?? []).find((v) => v?.storage === true)?.name;
}

/**
 * strategy.PrepareForCreate: the status starts empty as Go serializes it (acceptedNames' plural and
 * kind are not omitempty) with the storage version recorded in storedVersions; generation 1.
 */
export function prepareCrdCreate(crd: Crd): void {
  defaultCrd(crd);
  const status: Unchecked<CustomResourceDefinitionStatus> = {
    acceptedNames: { plural: '', kind: '' },
    storedVersions: [],
  };
  const storage = storageVersionOf(crd);
  if (storage !== undefined) status.storedVersions = [storage];
  crd.status = status;
}

/** strategy.PrepareForUpdate: the status is the stored one, plus a new storage version in storedVersions. */
export function prepareCrdUpdate(crd: Crd, old: Crd): void {
  defaultCrd(crd);
  const status: Unchecked<CustomResourceDefinitionStatus> = structuredClone(
    old.status ?? { acceptedNames: { plural: '', kind: '' } },
  );
  const storage = storageVersionOf(crd);
  const stored = status.storedVersions ?? [];
  if (storage !== undefined && !stored.includes(storage)) stored.push(storage);
  status.storedVersions = stored;
  crd.status = status;
}

/** statusStrategy.PrepareForUpdate: only the status is written; spec and metadata stay the stored ones. */
export function prepareCrdStatusUpdate(crd: Crd, old: Crd): void {
  if (old.spec === undefined) delete crd.spec;
  else crd.spec = structuredClone(old.spec);
}
