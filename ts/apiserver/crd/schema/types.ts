/**
 * apiextensions.k8s.io/v1 JSONSchemaProps (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1
 * types_jsonschema.go) as it arrives in a CustomResourceDefinition's JSON, and the JSON value helpers
 * the schema algorithms share. Values are what a JSON decoder gives: null, boolean, number, string,
 * arrays and plain objects.
 */

/** One `x-kubernetes-validations` rule (ValidationRule); CEL itself is not evaluated here. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** JSONSchemaProps: the fields a CRD's openAPIV3Schema may carry. */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema, or (not allowed in CRDs, reported) an array of schemas. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

export type JSONObject = Record<string, unknown>;

export function isObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The single items schema (undefined for none or for the unsupported array form). */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return s.items === undefined || Array.isArray(s.items) ? undefined : s.items;
}

/** The additionalProperties schema; `true` means "any value" with no schema. */
export function additionalSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** Whether additionalProperties is given at all (a schema, true or false). */
export function hasAdditional(s: JSONSchemaProps): boolean {
  return s.additionalProperties !== undefined;
}

/** Own-property lookup, so `__proto__` and friends are ordinary names. */
export function own<T>(rec: Record<string, T> | undefined, key: string): T | undefined {
  if (rec === undefined || !Object.hasOwn(rec, key)) return undefined;
  return rec[key];
}

/** Own-property assignment that treats `__proto__` as data. */
export function setOwn(obj: JSONObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** runtime.DeepCopyJSONValue. */
export function deepCopy<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => deepCopy(x)) as T;
  if (isObject(v)) {
    const out: JSONObject = {};
    for (const [k, x] of Object.entries(v)) setOwn(out, k, deepCopy(x));
    return out as T;
  }
  return v;
}

/** reflect.DeepEqual over JSON values (object key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Go's encoding/json Marshal of a decoded JSON value: map keys sorted, `<`, `>`, `&` escaped.
 * Integers print as int64 (sigs.k8s.io/json decodes integer literals to int64), other numbers with
 * Go's shortest float formatting.
 */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') {
    return JSON.stringify(v).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (typeof v === 'number') return goJSONNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => goJSON(x)).join(',')}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareBytes);
    return `{${keys.map((k) => `${goJSON(k)}:${goJSON(v[k])}`).join(',')}}`;
  }
  return 'null';
}

function goJSONNumber(f: number): string {
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return BigInt(f).toString();
  // encoding/json floatEncoder: %e below 1e-6 or from 1e21, with a two-digit exponent trimmed.
  const abs = Math.abs(f);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    const [m = '0', e = '0'] = f.toExponential().split('e');
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(f);
}

/** Go string ordering (UTF-8 bytes); equal to code point order. */
export function compareBytes(a: string, b: string): number {
  const ca = [...a];
  const cb = [...b];
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const x = ca[i]?.codePointAt(0) ?? 0;
    const y = cb[i]?.codePointAt(0) ?? 0;
    if (x !== y) return x - y;
  }
  return ca.length - cb.length;
}
