/**
 * The kind validation of custom resources (validate-cr.ts) and of CustomResourceDefinitions
 * (validation.ts), as kind-validation.ts' branch for them: undefined for any other kind.
 */
import type { ErrorList } from '../../api/field-errors.js';
import { FieldPath } from '../../api/field-errors.js';
import type { KubeObject } from '../../api/meta.js';
import type { ResourceInfo } from '../registry/resources.js';
import type { Crd } from './types.js';
import { validateCustomResourceObject } from './validate-cr.js';
import { validateCrd, validateCrdUpdate, validateNames } from './validation.js';

type Info = Pick<ResourceInfo, 'group' | 'kind'> & Partial<ResourceInfo>;

const isCrdKind = (info: Info): boolean =>
  info.group === 'apiextensions.k8s.io' && info.kind === 'CustomResourceDefinition';

/** The create checks, or undefined when `info` is neither a custom resource nor the CRD kind. */
export function validateCustomKind(info: Info, obj: KubeObject): ErrorList | undefined {
  if (info.custom !== undefined) return validateCustomResourceObject(info as ResourceInfo, obj, 'main', true);
  if (isCrdKind(info)) return validateCrd(obj as Crd);
  return undefined;
}

/** The update checks (`mode` main or status), or undefined for other kinds. */
export function validateCustomKindUpdate(
  info: Info,
  obj: KubeObject,
  old: KubeObject,
  mode: string,
): ErrorList | undefined {
  if (info.custom !== undefined) return validateCustomResourceObject(info as ResourceInfo, obj, mode);
  if (!isCrdKind(info)) return undefined;
  // ValidateUpdateCustomResourceDefinitionStatus: only the accepted names.
  if (mode === 'status')
    return validateNames((obj as Crd).status?.acceptedNames ?? {}, FieldPath.root('status', 'acceptedNames'));
  return validateCrdUpdate(obj as Crd, old as Crd);
}
