/**
 * Field paths and field-level validation errors, as k8s.io/apimachinery/pkg/util/validation/field
 * (path.go, errors.go at v0.32): the same types, detail texts and `Error()` strings, so a 422
 * Status built from them reads byte for byte like kube-apiserver's.
 */
import { GoLiteral, goFloat, goQuote, goSharpV } from './go-format.js';

/** A path from some root to a field: `FieldPath.root('metadata').child('labels').key('app')`. */
export class FieldPath {
  private constructor(
    /** The field name, or undefined when this element is a subscript. */
    private readonly name: string | undefined,
    private readonly subscript: string | undefined,
    private readonly parent: FieldPath | undefined,
  ) {}

  /** field.NewPath: `FieldPath.root('spec', 'containers')` → `spec.containers`. */
  static root(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(name, undefined, undefined);
    for (const n of more) p = new FieldPath(n, undefined, p);
    return p;
  }

  child(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(name, undefined, this);
    for (const n of more) p = new FieldPath(n, undefined, p);
    return p;
  }

  /** `[i]` subscript. */
  index(i: number): FieldPath {
    return new FieldPath(undefined, String(i), this);
  }

  /** `[key]` subscript (not quoted, as in Kubernetes). */
  key(k: string): FieldPath {
    return new FieldPath(undefined, k, this);
  }

  toString(): string {
    const elems: FieldPath[] = [];
    for (let p: FieldPath | undefined = this; p !== undefined; p = p.parent) elems.push(p);
    let out = '';
    for (let i = elems.length - 1; i >= 0; i--) {
      const p = elems[i] as FieldPath;
      if (p.name !== undefined && p.name.length > 0) {
        if (p.parent !== undefined) out += '.';
        out += p.name;
      } else {
        out += `[${p.subscript ?? ''}]`;
      }
    }
    return out;
  }
}

/** A path or none; Go prints a nil *Path as `<nil>`. */
export type OptionalPath = FieldPath | undefined;

function pathString(p: OptionalPath): string {
  return p === undefined ? '<nil>' : p.toString();
}

/** field.ErrorType values; identical to the metav1 StatusCause types they become. */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** The canonical text of an error type: `errorTypeText('FieldValueRequired')` → `Required value`. */
export function errorTypeText(t: FieldErrorType): string {
  return typeText[t];
}

/** Marks a bad value that is not printed (field.omitValue). */
export const OMIT_VALUE: unique symbol = Symbol('omitValue');

/** A field-level validation error (field.Error). */
export class FieldError extends Error {
  override readonly name = 'FieldError';
  constructor(
    readonly type: FieldErrorType,
    /** The field path as a string (`metadata.name`). */
    readonly field: string,
    readonly badValue: unknown,
    readonly detail: string,
  ) {
    super();
    this.message = `${field}: ${this.errorBody()}`;
  }

  /** The message without the field name, e.g. `Invalid value: "Bad": a lowercase RFC 1123 …`. */
  errorBody(): string {
    let s: string;
    switch (this.type) {
      case 'FieldValueRequired':
      case 'FieldValueForbidden':
      case 'FieldValueTooLong':
      case 'InternalError':
        s = typeText[this.type];
        break;
      default:
        s =
          this.badValue === OMIT_VALUE
            ? typeText[this.type]
            : `${typeText[this.type]}: ${formatBadValue(this.badValue)}`;
    }
    if (this.detail.length !== 0) s += `: ${this.detail}`;
    return s;
  }

  /** Go's `Error()`: `metadata.name: Invalid value: "Bad": …`. */
  override toString(): string {
    return this.message;
  }
}

/**
 * ErrorBody's value printing: simple types with %v, strings with %q, the rest with %#v. A nil
 * value becomes the string "null" first, so it prints quoted.
 */
function formatBadValue(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (value instanceof GoLiteral) return value.repr;
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goFloat(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return goSharpV(value);
}

export type ErrorList = FieldError[];

export function typeInvalid(path: OptionalPath, value: unknown, detail: string): FieldError {
  return new FieldError('FieldValueTypeInvalid', pathString(path), value, detail);
}

/** `Not found: "x"`. */
export function notFound(path: OptionalPath, value: unknown): FieldError {
  return new FieldError('FieldValueNotFound', pathString(path), value, '');
}

/** `Required value` (+ `: detail`). */
export function required(path: OptionalPath, detail: string): FieldError {
  return new FieldError('FieldValueRequired', pathString(path), '', detail);
}

/** `Duplicate value: "x"`. */
export function duplicate(path: OptionalPath, value: unknown): FieldError {
  return new FieldError('FieldValueDuplicate', pathString(path), value, '');
}

/** `Invalid value: "x": detail`. */
export function invalid(path: OptionalPath, value: unknown, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', pathString(path), value, detail);
}

/** `Unsupported value: "x": supported values: "a", "b"`. */
export function notSupported(path: OptionalPath, value: unknown, validValues: readonly string[]): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map((v) => goQuote(v)).join(', ')}` : '';
  return new FieldError('FieldValueNotSupported', pathString(path), value, detail);
}

/** `Forbidden: detail`. */
export function forbidden(path: OptionalPath, detail: string): FieldError {
  return new FieldError('FieldValueForbidden', pathString(path), '', detail);
}

/** `Too long: may not be more than N bytes` (the value is never printed). */
export function tooLong(path: OptionalPath, maxLength: number): FieldError {
  const msg = maxLength >= 0 ? `may not be more than ${maxLength} bytes` : 'value is too long';
  return new FieldError('FieldValueTooLong', pathString(path), '<value omitted>', msg);
}

/** `Too many: 5: must have at most 3 items`; a negative actual count is not printed. */
export function tooMany(path: OptionalPath, actualQuantity: number, maxQuantity: number): FieldError {
  const msg = maxQuantity >= 0 ? `must have at most ${maxQuantity} items` : 'has too many items';
  return new FieldError('FieldValueTooMany', pathString(path), actualQuantity >= 0 ? actualQuantity : OMIT_VALUE, msg);
}

/** `Internal error: <message>`. */
export function internalError(path: OptionalPath, err: Error | string): FieldError {
  return new FieldError('InternalError', pathString(path), null, typeof err === 'string' ? err : err.message);
}

/** ErrorList.ToAggregate's messages: duplicates (by message) dropped, order kept. */
export function dedupe(list: readonly FieldError[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of list) {
    if (seen.has(e.message)) continue;
    seen.add(e.message);
    out.push(e);
  }
  return out;
}

/**
 * utilerrors.Aggregate's Error() over a list of messages: one message alone, several as
 * `[a, b]`, duplicates dropped; undefined for an empty list (a nil aggregate).
 */
export function aggregateMessage(messages: readonly string[]): string | undefined {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return undefined;
  if (unique.length === 1) return unique[0];
  return `[${unique.join(', ')}]`;
}

/** `ErrorList.ToAggregate().Error()`, or undefined when the list is empty. */
export function errorListMessage(list: readonly FieldError[]): string | undefined {
  return aggregateMessage(list.map((e) => e.message));
}

/** An error carrying a whole ErrorList, its message as Go's aggregate. */
export class FieldErrorList extends Error {
  override readonly name = 'FieldErrorList';
  readonly errors: FieldError[];
  constructor(errors: readonly FieldError[]) {
    const deduped = dedupe(errors);
    super(errorListMessage(deduped) ?? '');
    this.errors = deduped;
  }
}
