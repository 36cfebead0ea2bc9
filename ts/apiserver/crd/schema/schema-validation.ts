/**
 * A CRD version's openAPIV3Schema as CustomResourceDefinition validation checks it for
 * apiextensions.k8s.io/v1 (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * validateCustomResourceDefinitionValidation and ValidateCustomResourceDefinitionOpenAPISchema with
 * the v1 options: defaults allowed, valid property types, structural schemas, pruned defaults,
 * atomic set items and map-list key rules). x-kubernetes-validations rules are checked for their
 * fields; compiling them (CEL) is not implemented.
 */
import {
  type FieldError,
  type FieldPath,
  forbidden,
  invalid,
  notSupported,
  required,
} from '../../../api/field-errors.js';
import { GoLiteral } from '../../../api/go-format.js';
import { validateDefaults } from './default-validation.js';
import { validateStructuralSchema } from './structural.js';
import { additionalSchema, itemsSchema, type JSONSchemaProps } from './types.js';

export interface StructuralOptions {
  /** The version has the status subresource: only some fields are allowed at the root. */
  statusSubresource?: boolean;
}

// validation.go openapiV3Types (sorted as sets.String.List()).
const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
// validation.go supportedValidationReason.
const VALIDATION_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/**
 * The JSONSchemaProps fields in Go struct order, with their Go names, for the status subresource
 * rule (validation.go allowedFieldsAtRootSchema).
 */
const GO_FIELDS: [keyof JSONSchemaProps, string][] = [
  ['id', 'ID'],
  ['$schema', 'Schema'],
  ['$ref', 'Ref'],
  ['description', 'Description'],
  ['type', 'Type'],
  ['format', 'Format'],
  ['title', 'Title'],
  ['default', 'Default'],
  ['maximum', 'Maximum'],
  ['exclusiveMaximum', 'ExclusiveMaximum'],
  ['minimum', 'Minimum'],
  ['exclusiveMinimum', 'ExclusiveMinimum'],
  ['maxLength', 'MaxLength'],
  ['minLength', 'MinLength'],
  ['pattern', 'Pattern'],
  ['maxItems', 'MaxItems'],
  ['minItems', 'MinItems'],
  ['uniqueItems', 'UniqueItems'],
  ['multipleOf', 'MultipleOf'],
  ['enum', 'Enum'],
  ['maxProperties', 'MaxProperties'],
  ['minProperties', 'MinProperties'],
  ['required', 'Required'],
  ['items', 'Items'],
  ['allOf', 'AllOf'],
  ['oneOf', 'OneOf'],
  ['anyOf', 'AnyOf'],
  ['not', 'Not'],
  ['properties', 'Properties'],
  ['additionalProperties', 'AdditionalProperties'],
  ['patternProperties', 'PatternProperties'],
  ['dependencies', 'Dependencies'],
  ['additionalItems', 'AdditionalItems'],
  ['definitions', 'Definitions'],
  ['externalDocs', 'ExternalDocs'],
  ['example', 'Example'],
  ['nullable', 'Nullable'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'],
  ['x-kubernetes-embedded-resource', 'XEmbeddedResource'],
  ['x-kubernetes-int-or-string', 'XIntOrString'],
  ['x-kubernetes-list-map-keys', 'XListMapKeys'],
  ['x-kubernetes-list-type', 'XListType'],
  ['x-kubernetes-map-type', 'XMapType'],
  ['x-kubernetes-validations', 'XValidations'],
];
const ALLOWED_AT_ROOT = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

/**
 * Every CRD validation error of a version's schema, `path` being its
 * `spec.versions[i].schema.openAPIV3Schema`:
 * `spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields`.
 */
export function validateStructural(
  schema: JSONSchemaProps,
  path: FieldPath,
  opts: StructuralOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.statusSubresource === true) errs.push(...statusRootErrors(schema, path));
  if (schema.nullable === true) errs.push(forbidden(path.child('nullable'), 'nullable cannot be true at the root'));

  // NewStructural fails on what it cannot represent; the static checks below report most of those
  // too, and Kubernetes shows its conversion error only when they report nothing.
  const initError = newStructuralError(schema);
  if (initError === undefined) {
    const structuralErrs = validateStructuralSchema(schema, path);
    if (structuralErrs.length > 0) errs.push(...structuralErrs);
    else errs.push(...validateDefaults(path, schema));
  }
  errs.push(...openAPISchema(schema, path, { insideMeta: false, defaultsReason: undefined }, true));
  if (initError !== undefined && errs.length === 0) errs.push(invalid(path, '', initError));
  return errs;
}

function isSetValue(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

function statusRootErrors(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  for (const [key, goName] of GO_FIELDS) {
    const value = schema[key];
    if (!isSetValue(value)) continue;
    if (goName === 'Type') {
      if (schema.type !== 'object') {
        return [
          invalid(
            path.child('type'),
            schema.type,
            'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          ),
        ];
      }
      continue;
    }
    if (!ALLOWED_AT_ROOT.includes(goName)) {
      return [
        invalid(
          path,
          new GoLiteral('apiextensions.JSONSchemaProps{…}'),
          `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
        ),
      ];
    }
  }
  return [];
}

/** convert.go validateUnsupportedFields. */
function unsupportedField(s: JSONSchemaProps): string | undefined {
  if ((s.id ?? '') !== '') return "OpenAPIV3Schema 'id' is not supported";
  if ((s.$schema ?? '') !== '') return "OpenAPIV3Schema 'schema' is not supported";
  if ((s.$ref ?? '') !== '') return "OpenAPIV3Schema '$ref' is not supported";
  if (Object.keys(s.patternProperties ?? {}).length > 0) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (Object.keys(s.dependencies ?? {}).length > 0) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (Object.keys(s.definitions ?? {}).length > 0) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

/**
 * The error NewStructural (convert.go) fails with, or undefined when it can read the schema. The
 * same walk serves schemas in value validations (newNestedValueValidation).
 */
function newStructuralError(s: JSONSchemaProps | undefined): string | undefined {
  if (s === undefined) return undefined;
  const unsupported = unsupportedField(s);
  if (unsupported !== undefined) return unsupported;
  // newValueValidation: not, allOf, anyOf, oneOf; newGenerics: additionalProperties; newExtensions.
  for (const sub of [s.not, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), additionalSchema(s)]) {
    const err = newStructuralError(sub);
    if (err !== undefined) return err;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  if (Array.isArray(s.items) && s.items.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  for (const sub of [itemsSchema(s), ...Object.values(s.properties ?? {})]) {
    const err = newStructuralError(sub);
    if (err !== undefined) return err;
  }
  return undefined;
}

interface Ssv {
  insideMeta: boolean;
  /** Set when defaults are forbidden here: the reason appended to `must not be set`. */
  defaultsReason: string | undefined;
}

/** specStandardValidatorV3.validate. */
function standard(s: JSONSchemaProps, path: FieldPath, ssv: Ssv): FieldError[] {
  const errs: FieldError[] = [];
  const type = s.type ?? '';
  if (type !== '' && !OPENAPI_V3_TYPES.includes(type))
    errs.push(notSupported(path.child('type'), type, OPENAPI_V3_TYPES));
  if (s.default !== undefined && s.default !== null && ssv.defaultsReason !== undefined) {
    errs.push(forbidden(path.child('default'), `must not be set ${ssv.defaultsReason}`));
  }
  if ((s.id ?? '') !== '') errs.push(forbidden(path.child('id'), 'id is not supported'));
  if (s.additionalItems !== undefined)
    errs.push(forbidden(path.child('additionalItems'), 'additionalItems is not supported'));
  if (Object.keys(s.patternProperties ?? {}).length > 0) {
    errs.push(forbidden(path.child('patternProperties'), 'patternProperties is not supported'));
  }
  if (Object.keys(s.definitions ?? {}).length > 0) {
    errs.push(forbidden(path.child('definitions'), 'definitions is not supported'));
  }
  if (s.dependencies !== undefined) errs.push(forbidden(path.child('dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(forbidden(path.child('$ref'), '$ref is not supported'));
  if (type === 'null') {
    errs.push(forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  }
  if (Array.isArray(s.items) && s.items.length > 0) {
    errs.push(forbidden(path.child('items'), 'items must be a schema object and not an array'));
  }
  if (ssv.insideMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(forbidden(path.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

/** ValidateCustomResourceDefinitionOpenAPISchema (its CEL compilation left out). */
function openAPISchema(s: JSONSchemaProps | undefined, path: FieldPath, ssv: Ssv, isRoot: boolean): FieldError[] {
  if (s === undefined) return [];
  const errs = standard(s, path, ssv);
  if (s.uniqueItems === true) {
    errs.push(
      forbidden(
        path.child('uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  const props = s.properties ?? {};
  const hasProps = Object.keys(props).length > 0;
  if (s.additionalProperties !== undefined) {
    if (hasProps && s.additionalProperties !== true) {
      errs.push(
        forbidden(path.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'),
      );
    }
    const sub = ssv.insideMeta
      ? { ...ssv, defaultsReason: 'inside additionalProperties applying to object metadata' }
      : ssv;
    errs.push(...openAPISchema(additionalSchema(s), path.child('additionalProperties'), sub, false));
  }
  for (const [name, prop] of Object.entries(props)) {
    let sub = ssv;
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) {
      sub = { ...sub, insideMeta: true };
      if (isRoot) sub = { ...sub, defaultsReason: `in top-level ${name}` };
    }
    errs.push(...openAPISchema(prop, path.child('properties').key(name), sub, false));
  }
  errs.push(...openAPISchema(s.not, path.child('not'), ssv, false));
  (s.allOf ?? []).forEach((x, i) => {
    errs.push(...openAPISchema(x, path.child('allOf').index(i), ssv, false));
  });
  (s.oneOf ?? []).forEach((x, i) => {
    errs.push(...openAPISchema(x, path.child('oneOf').index(i), ssv, false));
  });
  (s.anyOf ?? []).forEach((x, i) => {
    errs.push(...openAPISchema(x, path.child('anyOf').index(i), ssv, false));
  });
  for (const [name, def] of Object.entries(s.definitions ?? {})) {
    errs.push(...openAPISchema(def, path.child('definitions').key(name), ssv, false));
  }
  if (Array.isArray(s.items)) {
    s.items.forEach((x, i) => {
      errs.push(...openAPISchema(x, path.child('items').index(i), ssv, false));
    });
  } else {
    errs.push(...openAPISchema(s.items, path.child('items'), ssv, false));
  }
  for (const [name, dep] of Object.entries(s.dependencies ?? {})) {
    if (!Array.isArray(dep)) errs.push(...openAPISchema(dep, path.child('dependencies').key(name), ssv, false));
  }
  errs.push(...extensionErrors(s, path));
  return errs;
}

/** The x-kubernetes-* combination rules of ValidateCustomResourceDefinitionOpenAPISchema. */
function extensionErrors(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = s.type ?? '';
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  const items = itemsSchema(s);
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(path.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  if (mapType !== undefined && type !== 'object') {
    const msg = 'must be object if x-kubernetes-map-type is specified';
    errs.push(type === '' ? required(path.child('type'), msg) : invalid(path.child('type'), type, msg));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(path.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  if (listType !== undefined && type !== 'array') {
    const msg = 'must be array if x-kubernetes-list-type is specified';
    errs.push(type === '' ? required(path.child('type'), msg) : invalid(path.child('type'), type, msg));
  } else if (listType === 'set' && items !== undefined) {
    const msg = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    if (items.type === 'array') {
      const t = items['x-kubernetes-list-type'];
      if (t !== undefined && t !== 'atomic')
        errs.push(invalid(path.child('items').child('x-kubernetes-list-type'), t, msg));
    } else if (items.type === 'object') {
      const t = items['x-kubernetes-map-type'];
      // Kubernetes reports the items' list type here (usually unset, so "null").
      if (t !== 'atomic') {
        errs.push(
          invalid(path.child('items').child('x-kubernetes-map-type'), items['x-kubernetes-list-type'] ?? null, msg),
        );
      }
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(notSupported(path.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (mapKeys.length > 0) {
    const msg = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined) errs.push(required(path.child('x-kubernetes-list-type'), msg));
    else if (listType !== 'map') errs.push(invalid(path.child('x-kubernetes-list-type'), listType, msg));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) {
      errs.push(
        required(path.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'),
      );
    }
    if (s.items === undefined) {
      errs.push(required(path.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    }
    if (Array.isArray(s.items)) {
      errs.push(
        invalid(
          path.child('items'),
          new GoLiteral('&apiextensions.JSONSchemaPropsOrArray{…}'),
          'must only have a single schema if x-kubernetes-list-type is map',
        ),
      );
    }
    if (items !== undefined && items.type !== 'object') {
      errs.push(
        invalid(
          path.child('items').child('type'),
          items.type ?? '',
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      );
    }
    if (items !== undefined && items.type === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const ks = items.properties?.[k];
        if (ks !== undefined && Object.hasOwn(items.properties ?? {}, k)) {
          if (ks.type === 'array' || ks.type === 'object') {
            // Kubernetes prints the item type here, not the key's.
            errs.push(
              invalid(
                path.child('items').child('properties').key(k).child('type'),
                items.type,
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            );
          }
        } else {
          errs.push(
            invalid(path.child('x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'),
          );
        }
        if (seen.has(k)) {
          errs.push(invalid(path.child('x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
        }
        seen.add(k);
      }
    }
  }
  errs.push(...mapListKeysMapSet(s, path));
  errs.push(...validationRuleErrors(s, path));
  return errs;
}

/** validateMapListKeysMapSet: set/map items not nullable; map keys required or defaulted, not nullable. */
function mapListKeysMapSet(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const items = itemsSchema(s);
  const listType = s['x-kubernetes-list-type'];
  if (items === undefined || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable === true) {
    errs.push(
      forbidden(path.child('items').child('nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`),
    );
  }
  if (listType === 'map') {
    const req = new Set(items.required ?? []);
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      if (!Object.hasOwn(items.properties ?? {}, k)) continue;
      const prop = items.properties?.[k] as JSONSchemaProps;
      const kpath = path.child('items').child('properties').key(k);
      if (!req.has(k) && (prop.default === undefined || prop.default === null)) {
        errs.push(
          required(
            kpath.child('default'),
            'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
          ),
        );
      }
      if (prop.nullable === true) {
        errs.push(
          forbidden(
            kpath.child('nullable'),
            'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
          ),
        );
      }
    }
  }
  return errs;
}

/** The field checks of x-kubernetes-validations rules (their CEL is not compiled). */
function validationRuleErrors(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const newlines = /[\n\r]+/;
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const rpath = path.child('x-kubernetes-validations').index(i);
    const trimmedRule = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    if (trimmedRule.length === 0) errs.push(required(rpath.child('rule'), 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg.length === 0) {
      errs.push(invalid(rpath.child('message'), message, 'message must be non-empty if specified'));
    } else if (newlines.test(trimmedMsg)) {
      errs.push(invalid(rpath.child('message'), message, 'message must not contain line breaks'));
    } else if (newlines.test(trimmedRule) && trimmedMsg.length === 0) {
      errs.push(required(rpath.child('message'), 'message must be specified if rule contains line breaks'));
    }
    const msgExpr = rule.messageExpression ?? '';
    if (msgExpr.length > 0 && msgExpr.trim().length === 0) {
      errs.push(required(rpath.child('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !VALIDATION_REASONS.includes(rule.reason)) {
      errs.push(notSupported(rpath.child('reason'), rule.reason, VALIDATION_REASONS));
    }
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath.length > 0 && fieldPath.trim().length === 0) {
      errs.push(invalid(rpath.child('fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
    }
    if (newlines.test(fieldPath)) {
      errs.push(invalid(rpath.child('fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
    }
  });
  return errs;
}
