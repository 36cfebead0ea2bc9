/**
 * kube-openapi's SchemaValidator as custom resources use it (k8s.io/kube-openapi
 * pkg/validation/validate: schema.go, type.go, schema_props.go, validator.go, slice_validator.go,
 * object_validator.go, formats.go, values.go, result.go), over a CRD schema converted as
 * apiextensions-apiserver's ConvertJSONSchemaPropsWithPostProcess does (int-or-string → type
 * [integer, string], unsupported formats stripped).
 *
 * Values are typed as Go's unstructured JSON decoder types them: an integral number is an int64, any
 * other number a float64 (JSON text `1.0` is also an int64 here — the parsed value cannot tell).
 */
import { effectiveFormat, formatValidates, knownFormat } from './formats.js';
import { compileGoRegexp } from './go-regexp.js';
import * as E from './openapi-errors.js';
import { goFloatV, type OpenAPIError } from './openapi-errors.js';
import { deepEqual, isObject, itemsSchema, type JSONSchemaProps, own } from './types.js';

/** validate.Result: errors (deduplicated by message) and the match count anyOf/oneOf rank by. */
export class Result {
  errors: OpenAPIError[] = [];
  matchCount = 0;

  addErrors(...errs: OpenAPIError[]): void {
    for (const e of errs) {
      if (!this.errors.some((x) => x.message === e.message)) this.errors.push(e);
    }
  }

  merge(...others: (Result | undefined)[]): this {
    for (const o of others) {
      if (o === undefined) continue;
      this.addErrors(...o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  inc(): void {
    this.matchCount++;
  }

  isValid(): boolean {
    return this.errors.length === 0;
  }
}

/** errorHelp.sErr: a result holding one error and no match. */
function sErr(err: OpenAPIError): Result {
  const r = new Result();
  r.errors.push(err);
  return r;
}

type Kind = 'bool' | 'string' | 'int' | 'float' | 'slice' | 'map';

function kindOf(v: unknown): Kind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  // sigs.k8s.io/json: an integer that fits an int64, else a float64.
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int' : 'float';
  if (Array.isArray(v)) return 'slice';
  return 'map';
}

/** The converted schema's type list: x-kubernetes-int-or-string becomes [integer, string]. */
function typesOf(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string'] === true) return ['integer', 'string'];
  return s.type !== undefined && s.type !== '' ? [s.type] : [];
}

/** swag.IsFloat64AJSONInteger. */
function isJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > 2 ** 53) return false;
  if (Number.isInteger(f)) return true;
  const g = Math.trunc(f);
  const diff = Math.abs(f - g);
  if (f === 0 || g === 0) return diff < 1e-9 * Number.MIN_VALUE;
  return diff / Math.min(Math.abs(f) + Math.abs(g), Number.MAX_VALUE) < 1e-9;
}

/**
 * SchemaValidator.Validate of `data` against `s`, reporting at `path` (`''` at the root).
 * `junctorPath` is where allOf/anyOf/oneOf/not report: kube-openapi builds the validator of array
 * items once, for index 0, and moves it along with SetPath, which does not reach the junctors' own
 * validators — so for items past the first they keep reporting at `[0]`.
 */
export function validateValue(s: JSONSchemaProps, data: unknown, path: string, junctorPath = path): Result {
  const result = new Result();
  const types = typesOf(s);
  const format = effectiveFormat(s.format);
  if (data === null || data === undefined) {
    // Only the type and enum validators look at a null.
    result.merge(typeValidator(types, s.nullable === true, format, data, path));
    result.merge(commonValidator(s, data, path));
    return result;
  }
  const kind = kindOf(data);
  const run = (r: Result | undefined) => {
    result.merge(r);
    result.inc();
  };
  if (types.length > 0 || format !== '') run(typeValidator(types, s.nullable === true, format, data, path));
  run(schemaPropsValidator(s, data, path, junctorPath));
  if (kind === 'string') run(stringValidator(s, data as string, path));
  if (kind === 'string' && format !== '' && knownFormat(format)) run(formatValidator(format, data as string, path));
  if (kind === 'int' || kind === 'float') run(numberValidator(s, data as number, path));
  if (kind === 'slice') run(sliceValidator(s, data as unknown[], path));
  run(commonValidator(s, data, path));
  if (kind === 'map') run(objectValidator(s, data as Record<string, unknown>, path));
  result.inc();
  return result;
}

/** type.go typeValidator.Validate. */
function typeValidator(types: string[], nullable: boolean, format: string, data: unknown, path: string): Result {
  const result = new Result();
  result.inc();
  if (data === null || data === undefined) {
    if (types.length > 0 && !types.includes('null') && !nullable) {
      return sErr(E.invalidType(path, types.join(','), 'null'));
    }
    return result;
  }
  const kind = kindOf(data);
  const [schType, dataFormat] = schemaInfo(kind);
  const isFloatInt = schType === 'number' && isJSONInteger(data as number) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  if (
    kind !== 'string' &&
    kind !== 'slice' &&
    format !== '' &&
    !(types.includes(schType) || dataFormat === format || isFloatInt || isIntFloat)
  ) {
    return sErr(E.invalidType(path, format, dataFormat));
  }
  if (
    !(types.includes('number') || types.includes('integer')) &&
    format !== '' &&
    (kind === 'string' || kind === 'slice')
  ) {
    return result;
  }
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) {
    return sErr(E.invalidType(path, types.join(','), schType));
  }
  return result;
}

/** schemaInfoForType: the JSON type and format of a decoded value. */
function schemaInfo(kind: Kind): [string, string] {
  switch (kind) {
    case 'bool':
      return ['boolean', ''];
    case 'string':
      return ['string', ''];
    case 'int':
      return ['integer', 'int64'];
    case 'float':
      return ['number', 'float64'];
    case 'slice':
      return ['array', ''];
    default:
      return ['object', ''];
  }
}

/** schema_props.go: allOf, oneOf, anyOf and not, each validated at the same path. */
function schemaPropsValidator(s: JSONSchemaProps, data: unknown, path: string, subPath: string): Result {
  const main = new Result();
  if (s.anyOf !== undefined && s.anyOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let succeeded = false;
    for (const sub of s.anyOf) {
      const r = validateValue(sub, data, subPath);
      if (r.isValid()) {
        best = undefined;
        succeeded = true;
        firstSuccess ??= r;
        break;
      }
      if (best === undefined || r.matchCount > best.matchCount) best = r;
    }
    if (!succeeded) main.addErrors(E.mustValidateAtLeastOneSchema(path));
    if (best !== undefined) main.merge(best);
    else if (firstSuccess !== undefined) main.merge(firstSuccess);
  }
  if (s.oneOf !== undefined && s.oneOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sub of s.oneOf) {
      const r = validateValue(sub, data, subPath);
      if (r.isValid()) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (best === undefined || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      const additional = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      main.addErrors(E.mustValidateOnlyOneSchema(path, additional));
      if (best !== undefined) main.merge(best);
    } else if (firstSuccess !== undefined) {
      main.merge(firstSuccess);
    }
  }
  if (s.allOf !== undefined && s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateValue(sub, data, subPath);
      if (r.isValid()) validated++;
      main.merge(r);
    }
    if (validated !== s.allOf.length) {
      main.addErrors(E.mustValidateAllSchemas(path, validated === 0 ? '. None validated' : ''));
    }
  }
  if (s.not !== undefined && validateValue(s.not, data, subPath).isValid()) {
    main.addErrors(E.mustNotValidateSchema(path));
  }
  main.inc();
  return main;
}

/** stringValidator: maxLength, minLength (in runes), then pattern; the first failure only. */
function stringValidator(s: JSONSchemaProps, data: string, path: string): Result | undefined {
  const runes = [...data].length;
  if (s.maxLength !== undefined && runes > s.maxLength) return sErr(E.tooLong(path, s.maxLength, data));
  if (s.minLength !== undefined && runes < s.minLength) return sErr(E.tooShort(path, s.minLength, data));
  if (s.pattern !== undefined && s.pattern !== '') {
    const c = compileGoRegexp(s.pattern);
    if (!c.ok) return sErr(E.failedPattern(path, `${s.pattern}, but pattern is invalid: ${c.error}`, data));
    if (!c.re.test(data)) return sErr(E.failedPattern(path, s.pattern, data));
  }
  return undefined;
}

/** formatValidator: FormatOf against the default strfmt registry. */
function formatValidator(format: string, data: string, path: string): Result | undefined {
  if (!formatValidates(format, data)) {
    const r = new Result();
    r.addErrors(E.invalidType(path, format, data));
    return r;
  }
  return undefined;
}

/** numberValidator: multipleOf, minimum, maximum, with int64 arithmetic for integral values. */
function numberValidator(s: JSONSchemaProps, data: number, path: string): Result {
  const res = new Result();
  const isInt = kindOf(data) === 'int';
  const multiple = new Result();
  if (s.multipleOf !== undefined) {
    const factor = s.multipleOf;
    const intFactor = Math.trunc(factor);
    if (isInt && intFactor !== 0) {
      // MultipleOfInt: int64(factor), integer division.
      if (intFactor < 0) multiple.addErrors(E.multipleOfMustBePositive(path, intFactor));
      else if (data % intFactor !== 0) multiple.addErrors(E.notMultipleOf(path, String(intFactor), data));
    } else if (factor < 0) {
      multiple.addErrors(E.multipleOfMustBePositive(path, factor));
    } else {
      const mult = factor < 1 ? (1 / factor) * data : data / factor;
      if (!isJSONInteger(mult)) multiple.addErrors(E.notMultipleOf(path, goFloatV(factor), data));
    }
  }
  const minimum = new Result();
  if (s.minimum !== undefined) {
    const excl = s.exclusiveMinimum === true;
    const min = isInt ? Math.trunc(s.minimum) : s.minimum;
    if ((!excl && data < min) || (excl && data <= min)) {
      minimum.addErrors(E.exceedsMinimum(path, isInt ? String(min) : goFloatV(min), excl, data));
    }
  }
  const maximum = new Result();
  if (s.maximum !== undefined) {
    const excl = s.exclusiveMaximum === true;
    const max = isInt ? Math.trunc(s.maximum) : s.maximum;
    if ((!excl && data > max) || (excl && data >= max)) {
      maximum.addErrors(E.exceedsMaximum(path, isInt ? String(max) : goFloatV(max), excl, data));
    }
  }
  res.merge(multiple, minimum, maximum);
  res.inc();
  return res;
}

/** schemaSliceValidator: items (at `path[i]`), minItems, maxItems, uniqueItems. */
function sliceValidator(s: JSONSchemaProps, data: unknown[], path: string): Result {
  const result = new Result();
  const items = itemsSchema(s);
  if (items !== undefined) {
    data.forEach((v, i) => {
      result.merge(validateValue(items, v, `${path}[${i}]`, `${path}[0]`));
    });
  }
  if (s.minItems !== undefined && data.length < s.minItems) {
    result.addErrors(E.tooFewItems(path, s.minItems, data.length));
  }
  if (s.maxItems !== undefined && data.length > s.maxItems) {
    result.addErrors(E.tooManyItems(path, s.maxItems, data.length));
  }
  if (s.uniqueItems === true && data.some((v, i) => data.slice(0, i).some((u) => deepEqual(u, v)))) {
    result.addErrors(E.duplicateItems(path));
  }
  result.inc();
  return result;
}

/**
 * basicCommonValidator: enum. A value matches an enum entry when Go's reflect can convert it to the
 * entry's type and the two are then DeepEqual — so 1.5 matches 1 (float → int64 truncates) and the
 * integer 65 matches "A" (int → string is a rune); null never matches.
 */
function commonValidator(s: JSONSchemaProps, data: unknown, path: string): Result | undefined {
  if (s.enum === undefined || s.enum.length === 0) return undefined;
  for (const e of s.enum) {
    if (e === null || e === undefined || data === null || data === undefined) continue;
    if (enumMatches(data, e)) return undefined;
  }
  return sErr(E.enumFail(path, data, s.enum));
}

function enumMatches(data: unknown, e: unknown): boolean {
  if (typeof e === 'number' && typeof data === 'number') {
    return Number.isInteger(e) ? Math.trunc(data) === e : data === e;
  }
  if (typeof e === 'string' && typeof data === 'number') {
    if (!Number.isInteger(data)) return false;
    const valid = data >= 0 && data <= 0x10ffff && !(data >= 0xd800 && data <= 0xdfff);
    return (valid ? String.fromCodePoint(data) : '\uFFFD') === e;
  }
  return typeof e === typeof data && Array.isArray(e) === Array.isArray(data) && deepEqual(data, e);
}

/** objectValidator: min/maxProperties (ending the check), additionalProperties, properties, required. */
function objectValidator(s: JSONSchemaProps, data: Record<string, unknown>, path: string): Result {
  const numKeys = Object.keys(data).length;
  if (s.minProperties !== undefined && numKeys < s.minProperties) {
    return sErr(E.tooFewProperties(path, s.minProperties, numKeys));
  }
  if (s.maxProperties !== undefined && numKeys > s.maxProperties) {
    return sErr(E.tooManyProperties(path, s.maxProperties, numKeys));
  }
  const res = new Result();
  const props = s.properties;
  if (s.additionalProperties === false) {
    for (const k of Object.keys(data)) {
      if (own(props, k) === undefined) res.addErrors(E.propertyNotAllowed(path, k));
    }
  } else if (isObject(s.additionalProperties)) {
    const ap = s.additionalProperties as JSONSchemaProps;
    for (const [k, v] of Object.entries(data)) {
      if (own(props, k) === undefined) res.merge(validateValue(ap, v, `${path}.${k}`));
    }
  }
  if (props !== undefined) {
    for (const [name, sub] of Object.entries(props)) {
      if (!Object.hasOwn(data, name)) continue;
      res.merge(validateValue(sub, data[name], path === '' ? name : `${path}.${name}`));
    }
  }
  for (const k of s.required ?? []) {
    if (!Object.hasOwn(data, k)) res.addErrors(E.required(`${path}.${k}`));
  }
  return res;
}
