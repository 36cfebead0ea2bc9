/**
 * The structural schema rules (apiextensions-apiserver pkg/apiserver/schema/validation.go
 * ValidateStructural and complete.go). A schema is read as Kubernetes' NewStructural splits it:
 * the structural part (type, properties, items, additionalProperties, the generic fields and the
 * x-kubernetes extensions) and value validations (allOf/anyOf/oneOf/not), whose nested schemas may
 * only restrict values, never specify types, defaults or extensions.
 */
import { type FieldError, type FieldPath, forbidden, invalid, required } from '../../../api/field-errors.js';
import { compileGoRegexp } from './go-regexp.js';
import { additionalSchema, compareBytes, itemsSchema, type JSONSchemaProps, own } from './types.js';

type Level = 'root' | 'item' | 'field';

/** Whether a field counts as set in Go (zero values — false, '', null, undefined — do not). */
function isSet(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false && v !== '';
}

/** A nested schema that is exactly `{type: t}` (the NestedValueValidation of intOrStringAnyOf). */
function isOnlyType(s: JSONSchemaProps | undefined, t: string): boolean {
  if (s === undefined || s.type !== t) return false;
  return Object.entries(s).every(([k, v]) => k === 'type' || !isSet(v));
}

function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  return anyOf !== undefined && anyOf.length === 2 && isOnlyType(anyOf[0], 'integer') && isOnlyType(anyOf[1], 'string');
}

/** `anyOf: [{type: integer}, {type: string}]`. */
export function isIntOrStringAnyOfPattern(s: JSONSchemaProps): boolean {
  return isIntOrStringAnyOf(s.anyOf);
}

/** `allOf: [{anyOf: [{type: integer}, {type: string}]}, …]`. */
export function isIntOrStringAllOfPattern(s: JSONSchemaProps): boolean {
  return s.allOf !== undefined && s.allOf.length >= 1 && isIntOrStringAnyOf(s.allOf[0]?.anyOf);
}

/** ValidateStructural: invariants and completeness, sorted by message as Kubernetes sorts them. */
export function validateStructuralSchema(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs = [...invariants(s, 'root', path), ...completeness(s, path)];
  return errs.sort((a, b) => compareBytes(a.message, b.message));
}

function invariants(s: JSONSchemaProps | undefined, lvl: Level, path: FieldPath): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];
  const items = itemsSchema(s);
  const type = s.type ?? '';
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;

  if (type === 'array' && items === undefined) errs.push(required(path.child('items'), 'must be specified'));
  errs.push(...invariants(items, 'item', path.child('items')));
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    errs.push(...invariants(v, 'field', path.child('properties').key(k)));
  }
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(forbidden(path.child('additionalProperties'), 'must not be used at the root'));
    const ap = additionalSchema(s);
    if (ap !== undefined) errs.push(...invariants(ap, 'field', path.child('additionalProperties')));
  }

  // validateExtensions
  if (intOrString && preserve) {
    errs.push(
      invalid(
        path.child('x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  if (intOrString && embedded) {
    errs.push(
      invalid(
        path.child('x-kubernetes-embedded-resource'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }

  errs.push(...valueValidation(s, isIntOrStringAnyOfPattern(s), isIntOrStringAllOfPattern(s), lvl, path));

  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    const msg = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(type === '' ? required(path.child('type'), msg) : invalid(path.child('type'), type, msg));
  } else if (type === '' && !intOrString && !preserve) {
    const msg = {
      root: 'must not be empty at the root',
      item: 'must not be empty for specified array items',
      field: 'must not be empty for specified object fields',
    }[lvl];
    errs.push(required(path.child('type'), msg));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errs.push(
      forbidden(path.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'),
    );
  }
  if (lvl === 'root' && type !== '' && type !== 'object') {
    errs.push(invalid(path.child('type'), type, 'must be object at the root'));
  }
  for (const name of ['kind', 'apiVersion']) {
    const prop = own(s.properties, name);
    if (prop !== undefined && checkMetadata && prop.type !== 'string') {
      errs.push(invalid(path.child('properties').key(name).child('type'), prop.type ?? '', 'must be string'));
    }
  }
  const metadata = own(s.properties, 'metadata');
  if (metadata !== undefined) {
    errs.push(...metadataInvariants(metadata, checkMetadata, lvl, path.child('properties').key('metadata')));
  }
  if (embedded && !preserve && Object.keys(s.properties ?? {}).length === 0) {
    errs.push(
      required(
        path.child('properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
  return errs;
}

/** validateStructuralMetadataInvariants: metadata may only restrict name and generateName, at the root. */
function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(invalid(path.child('type'), s.type ?? '', 'must be object'));
  if (lvl === 'root') {
    const names = Object.keys(s.properties ?? {});
    const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
    // Everything but type, default and name/generateName properties must be unset.
    // (example, id and $schema are not part of a structural schema.)
    const rest = Object.entries(s).filter(([k, v]) => {
      if (['type', 'default', 'example', 'id', '$schema'].includes(k)) return false;
      if (k === 'properties') return !onlyNames && names.length > 0;
      if (k === 'additionalProperties') return v !== undefined;
      if (Array.isArray(v) || (typeof v === 'object' && v !== null)) return true;
      return isSet(v);
    });
    if (rest.length > 0) {
      errs.push(
        forbidden(
          path,
          'must not specify anything other than name and generateName, but metadata is implicitly specified',
        ),
      );
    }
  }
  return errs;
}

/** validateValueValidation: the junctors of a structural node, their nested schemas, the pattern. */
function valueValidation(
  v: JSONSchemaProps,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  lvl: Level,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) {
    (v.anyOf ?? []).forEach((x, i) => {
      errs.push(...nested(x, false, lvl, path.child('anyOf').index(i)));
    });
  }
  (v.allOf ?? []).forEach((x, i) => {
    errs.push(...nested(x, skipFirstAllOfAnyOf && i === 0, lvl, path.child('allOf').index(i)));
  });
  (v.oneOf ?? []).forEach((x, i) => {
    errs.push(...nested(x, false, lvl, path.child('oneOf').index(i)));
  });
  if (v.not !== undefined) errs.push(...nested(v.not, false, lvl, path.child('not')));
  if (v.pattern !== undefined && v.pattern !== '') {
    const c = compileGoRegexp(v.pattern);
    if (!c.ok) {
      errs.push(invalid(path.child('pattern'), v.pattern, `must be a valid regular expression, but isn't: ${c.error}`));
    }
  }
  return errs;
}

/** validateNestedValueValidation: a schema inside allOf/anyOf/oneOf/not. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, lvl: Level, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [...valueValidation(v, skipAnyOf, false, lvl, path)];
  const items = itemsSchema(v);
  if (items !== undefined) errs.push(...nested(items, false, lvl, path.child('items')));
  for (const [k, fld] of Object.entries(v.properties ?? {})) {
    errs.push(...nested(fld, false, 'field', path.child('properties').key(k)));
  }
  const mustBe = (name: string, what: string) =>
    errs.push(forbidden(path.child(name), `must be ${what} to be structural`));
  if (isSet(v.type)) mustBe('type', 'empty');
  if (v.additionalProperties !== undefined) mustBe('additionalProperties', 'undefined');
  if (v.default !== undefined && v.default !== null) mustBe('default', 'undefined');
  if (isSet(v.title)) mustBe('title', 'empty');
  if (isSet(v.description)) mustBe('description', 'empty');
  if (v.nullable === true) mustBe('nullable', 'false');
  if (v.externalDocs !== undefined) mustBe('externalDocs', 'undefined');
  if (v['x-kubernetes-preserve-unknown-fields'] === true) mustBe('x-kubernetes-preserve-unknown-fields', 'false');
  if (v['x-kubernetes-embedded-resource'] === true) mustBe('x-kubernetes-embedded-resource', 'false');
  if (v['x-kubernetes-int-or-string'] === true) mustBe('x-kubernetes-int-or-string', 'false');
  if ((v['x-kubernetes-list-map-keys'] ?? []).length > 0) mustBe('x-kubernetes-list-map-keys', 'empty');
  if (v['x-kubernetes-list-type'] !== undefined) mustBe('x-kubernetes-list-type', 'undefined');
  if (v['x-kubernetes-map-type'] !== undefined) mustBe('x-kubernetes-map-type', 'undefined');
  if ((v['x-kubernetes-validations'] ?? []).length > 0) mustBe('x-kubernetes-validations', 'empty');
  if (own(v.properties, 'metadata') !== undefined) {
    errs.push(forbidden(path.child('properties').key('metadata'), 'must not be specified in a nested context'));
  }
  return errs;
}

/**
 * validateStructuralCompleteness: every property or items a value validation of the root names must
 * also be specified structurally (Kubernetes checks the root's junctors only).
 */
function completeness(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  return junctorCompleteness(s, s, path, path);
}

function junctorCompleteness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: FieldPath, vPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (v.not !== undefined) errs.push(...nestedCompleteness(v.not, s, sPath, vPath.child('not')));
  (v.allOf ?? []).forEach((x, i) => {
    errs.push(...nestedCompleteness(x, s, sPath, vPath.child('allOf').index(i)));
  });
  (v.anyOf ?? []).forEach((x, i) => {
    errs.push(...nestedCompleteness(x, s, sPath, vPath.child('anyOf').index(i)));
  });
  (v.oneOf ?? []).forEach((x, i) => {
    errs.push(...nestedCompleteness(x, s, sPath, vPath.child('oneOf').index(i)));
  });
  return errs;
}

function nestedCompleteness(
  v: JSONSchemaProps | undefined,
  s: JSONSchemaProps | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
): FieldError[] {
  if (v === undefined) return [];
  if (s === undefined) return [required(sPath, `because it is defined in ${vPath.toString()}`)];
  const errs = [...junctorCompleteness(v, s, sPath, vPath)];
  errs.push(...nestedCompleteness(itemsSchema(v), itemsSchema(s), sPath.child('items'), vPath.child('items')));
  for (const [k, fld] of Object.entries(v.properties ?? {})) {
    const sFld = own(s.properties, k);
    const sp = sPath.child('properties').key(k);
    const vp = vPath.child('properties').key(k);
    if (sFld === undefined) errs.push(required(sp, `because it is defined in ${vp.toString()}`));
    else errs.push(...nestedCompleteness(fld, sFld, sp, vp));
  }
  return errs;
}
