/**
 * The CustomResourceDefinition strategy and REST (k8s.io/apiextensions-apiserver
 * pkg/registry/customresourcedefinition/strategy.go and etcd.go, v1.32): the v1 defaults and
 * storedVersions (crd/defaults.ts), validation (crd/validation.ts; a `/status` write checks the
 * accepted names only), and the Delete that first marks the CRD for the finalizer controller
 * (delete.ts).
 */
import { FieldPath } from '../../../../api/field-errors.js';
import { prepareCrdCreate, prepareCrdStatusUpdate, prepareCrdUpdate } from '../../../crd/defaults.js';
import type { Crd } from '../../../crd/types.js';
import { validateCrd, validateCrdUpdate, validateNames } from '../../../crd/validation.js';
import type { ResourceStrategy } from '../../strategy.js';
import { deleteCrd } from './delete.js';

export const customResourceDefinitionStrategy: ResourceStrategy = {
  prepareForCreate: (obj) => prepareCrdCreate(obj as Crd),
  validate: (obj) => validateCrd(obj as Crd),
  update: {
    prepareForUpdate: (obj, old) => prepareCrdUpdate(obj as Crd, old as Crd),
    validateUpdate: (obj, old) => validateCrdUpdate(obj as Crd, old as Crd),
  },
  status: {
    prepareForUpdate: (obj, old) => prepareCrdStatusUpdate(obj as Crd, old as Crd),
    // ValidateUpdateCustomResourceDefinitionStatus: only the accepted names.
    validateUpdate: (obj) =>
      validateNames((obj as Crd).status?.acceptedNames ?? {}, FieldPath.root('status', 'acceptedNames')),
  },
  delete: deleteCrd,
};
