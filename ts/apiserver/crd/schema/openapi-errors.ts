/**
 * The errors of kube-openapi's validator (k8s.io/kube-openapi pkg/validation/errors/schema.go and
 * pkg/validation/validate/schema_messages.go): a code, the dotted path it names (`spec.replicas`), the
 * bad value and the message text exactly as Go's fmt writes it.
 */
import { goQuote } from '../../../api/go-format.js';
import { goJSON, isObject } from './types.js';

/** errors.CompositeErrorCode and the validation codes (600 + iota) of schema.go. */
export enum Code {
  Composite = 422,
  InvalidType = 600,
  Required = 601,
  TooLong = 602,
  TooShort = 603,
  Pattern = 604,
  Enum = 605,
  MultipleOf = 606,
  Max = 607,
  Min = 608,
  Unique = 609,
  MaxItems = 610,
  MinItems = 611,
  NoAdditionalItems = 612,
  TooFewProperties = 613,
  TooManyProperties = 614,
  UnallowedProperty = 615,
  FailedAllPatternProps = 616,
  MultipleOfMustBePositive = 617,
}

/**
 * One error. `validation` is true for errors.Validation (a field error with a path) and false for the
 * composite messages of anyOf/oneOf/allOf/not, which Kubernetes reports without a path.
 */
export interface OpenAPIError {
  code: Code;
  validation: boolean;
  name: string;
  value: unknown;
  /** The limit, where Kubernetes reads it back (maxLength, maxItems, maxProperties). */
  valid?: number;
  values?: unknown[];
  message: string;
}

const IN = 'body';

/**
 * Go's `%v` of a float64 (strconv 'g' with the shortest digits: %e when the exponent is < -4 or
 * >= 6), also for integral values: `goFloatV(1e6)` → `1e+06`, `goFloatV(10)` → `10`.
 */
export function goFloatV(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Number.POSITIVE_INFINITY) return '+Inf';
  if (f === Number.NEGATIVE_INFINITY) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa = '0', expPart = '0'] = f.toExponential().split('e');
  const exp = Number(expPart);
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${abs < 10 ? `0${abs}` : abs}`;
  }
  return f.toFixed(Math.max(0, (mantissa.split('.')[1] ?? '').length - exp));
}

/** Go's `%v` of a value the validator holds: int64 for integers, float64 otherwise. */
export function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? BigInt(v).toString() : goFloatV(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => goV(x)).join(' ')}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goV(v[k])}`).join(' ')}]`;
  }
  return goJSON(v);
}

function named(name: string, tail: string): string {
  return `${name} in ${IN} ${tail}`;
}

export function invalidType(name: string, typeName: string, value: string): OpenAPIError {
  return {
    code: Code.InvalidType,
    validation: true,
    name,
    value,
    message: named(name, `must be of type ${typeName}: ${goQuote(value)}`),
  };
}

export function required(name: string): OpenAPIError {
  return { code: Code.Required, validation: true, name, value: undefined, message: named(name, 'is required') };
}

export function tooLong(name: string, max: number, value: string): OpenAPIError {
  return {
    code: Code.TooLong,
    validation: true,
    name,
    value,
    valid: max,
    message: named(name, `should be at most ${max} chars long`),
  };
}

export function tooShort(name: string, min: number, value: string): OpenAPIError {
  return {
    code: Code.TooShort,
    validation: true,
    name,
    value,
    message: named(name, `should be at least ${min} chars long`),
  };
}

export function failedPattern(name: string, pattern: string, value: string): OpenAPIError {
  return { code: Code.Pattern, validation: true, name, value, message: named(name, `should match '${pattern}'`) };
}

export function enumFail(name: string, value: unknown, values: unknown[]): OpenAPIError {
  return {
    code: Code.Enum,
    validation: true,
    name,
    value,
    values,
    message: named(name, `should be one of ${goV(values)}`),
  };
}

export function notMultipleOf(name: string, factor: string, value: unknown): OpenAPIError {
  return {
    code: Code.MultipleOf,
    validation: true,
    name,
    value,
    message: named(name, `should be a multiple of ${factor}`),
  };
}

export function multipleOfMustBePositive(name: string, factor: number): OpenAPIError {
  return {
    code: Code.MultipleOfMustBePositive,
    validation: true,
    name,
    value: factor,
    message: `factor MultipleOf declared for ${name} must be positive: ${goV(factor)}`,
  };
}

export function exceedsMaximum(name: string, max: string, exclusive: boolean, value: unknown): OpenAPIError {
  const tail = exclusive ? `should be less than ${max}` : `should be less than or equal to ${max}`;
  return { code: Code.Max, validation: true, name, value, message: named(name, tail) };
}

export function exceedsMinimum(name: string, min: string, exclusive: boolean, value: unknown): OpenAPIError {
  const tail = exclusive ? `should be greater than ${min}` : `should be greater than or equal to ${min}`;
  return { code: Code.Min, validation: true, name, value, message: named(name, tail) };
}

export function duplicateItems(name: string): OpenAPIError {
  return {
    code: Code.Unique,
    validation: true,
    name,
    value: undefined,
    message: named(name, "shouldn't contain duplicates"),
  };
}

export function tooManyItems(name: string, max: number, size: number): OpenAPIError {
  return {
    code: Code.MaxItems,
    validation: true,
    name,
    value: size,
    valid: max,
    message: named(name, `should have at most ${max} items`),
  };
}

export function tooFewItems(name: string, min: number, size: number): OpenAPIError {
  return {
    code: Code.MinItems,
    validation: true,
    name,
    value: size,
    message: named(name, `should have at least ${min} items`),
  };
}

export function tooFewProperties(name: string, min: number, n: number): OpenAPIError {
  return {
    code: Code.TooFewProperties,
    validation: true,
    name,
    value: n,
    message: named(name, `should have at least ${min} properties`),
  };
}

export function tooManyProperties(name: string, max: number, n: number): OpenAPIError {
  return {
    code: Code.TooManyProperties,
    validation: true,
    name,
    value: n,
    valid: max,
    message: named(name, `should have at most ${max} properties`),
  };
}

export function propertyNotAllowed(name: string, key: string): OpenAPIError {
  return {
    code: Code.UnallowedProperty,
    validation: true,
    name,
    value: key,
    message: `${name}.${key} in ${IN} is a forbidden property`,
  };
}

/** A composite message (schema_messages.go): no path, reported as `<nil>` or the caller's path. */
function composite(message: string): OpenAPIError {
  return { code: Code.Composite, validation: false, name: '', value: undefined, message };
}

export function mustValidateAtLeastOneSchema(path: string): OpenAPIError {
  return composite(`${goQuote(path)} must validate at least one schema (anyOf)`);
}

export function mustValidateOnlyOneSchema(path: string, additional: string): OpenAPIError {
  return composite(`${goQuote(path)} must validate one and only one schema (oneOf). ${additional}`);
}

export function mustValidateAllSchemas(path: string, additional: string): OpenAPIError {
  return composite(`${goQuote(path)} must validate all the schemas (allOf)${additional}`);
}

export function mustNotValidateSchema(path: string): OpenAPIError {
  return composite(`${goQuote(path)} must not validate the schema (not)`);
}
