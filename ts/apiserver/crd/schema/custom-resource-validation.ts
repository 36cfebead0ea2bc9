/**
 * A custom resource against its CRD schema, as the custom resource strategy validates it
 * (apiextensions-apiserver pkg/registry/customresource/strategy.go Validate): the OpenAPI schema
 * (pkg/apiserver/validation/validation.go ValidateCustomResource with kube-openapi's messages), the
 * embedded resources' TypeMeta/ObjectMeta (schema/objectmeta) and list-type set/map uniqueness
 * (schema/listtype). The CR's own metadata, apiVersion/kind and x-kubernetes-validations (CEL) are
 * not checked here: the first two are the caller's, CEL is not implemented.
 */
import {
  type FieldError,
  type FieldPath,
  invalid,
  notSupported,
  required,
  tooLong,
  tooMany,
  typeInvalid,
} from '../../../api/field-errors.js';
import { validateEmbeddedResources } from './embedded-resource.js';
import { child, type MaybePath } from './field-path.js';
import { goBadValue } from './go-values.js';
import { validateListSetsAndMaps } from './list-type.js';
import { Code, type OpenAPIError } from './openapi-errors.js';
import { validateValue } from './openapi-validator.js';
import { goJSON, type JSONObject, type JSONSchemaProps } from './types.js';

/**
 * Every error of a custom resource under `schema`, paths from the object's root:
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
 */
export function validateCustomResource(schema: JSONSchemaProps, obj: JSONObject): FieldError[] {
  return [
    ...validateAgainstSchema(undefined, schema, obj),
    ...validateEmbeddedResources(undefined, obj, schema, false),
    ...validateListSetsAndMaps(undefined, schema, obj),
  ];
}

/** ValidateCustomResource(fldPath, value, validator): the schema part alone. */
export function validateAgainstSchema(fldPath: MaybePath, schema: JSONSchemaProps, value: unknown): FieldError[] {
  const result = validateValue(schema, value, '');
  return result.errors.map((e) => toFieldError(fldPath, e));
}

/** kubeOpenAPIResultToFieldErrors for one error. */
function toFieldError(fldPath: MaybePath, err: OpenAPIError): FieldError {
  if (!err.validation) return invalid(fldPath, '', err.message);
  let errPath: FieldPath | undefined = fldPath;
  if (err.name.length > 0 && err.name !== '.') errPath = child(fldPath, err.name.replace(/^\./, ''));
  const value = err.value === undefined || err.value === null ? '' : goBadValue(err.value);
  switch (err.code) {
    case Code.Required:
      return required(errPath, '');
    case Code.Enum: {
      const values = (err.values ?? []).map((v) => (typeof v === 'string' ? v : goJSON(v)));
      return notSupported(errPath, goBadValue(err.value ?? null), values);
    }
    case Code.TooLong:
      return tooLong(errPath, err.valid ?? -1);
    case Code.MaxItems:
    case Code.TooManyProperties:
      return tooMany(errPath, typeof err.value === 'number' ? err.value : -1, err.valid ?? -1);
    case Code.InvalidType:
      return typeInvalid(errPath, value, err.message);
    default:
      return invalid(errPath, value, err.message);
  }
}
