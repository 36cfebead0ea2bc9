/**
 * Go's decoding of a JSON request body into a built-in type, with the OpenAPI schema standing in
 * for the Go struct: sigs.k8s.io/json's internal/golang/encoding/json/decode.go (strict: unknown
 * and duplicate fields with their paths, at most 100, each once; the first type error saved with
 * its struct field context; errors of UnmarshalJSON methods ending the decode), or with
 * `unstructured` runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation (strategic
 * merge patches). Beside it the UnmarshalJSON behaviour of IntOrString, Quantity, Time/MicroTime
 * (time.Parse's errors) and []byte (encoding/base64's errors), and the raw-JSON types left alone.
 */
import { goQuote } from '../../api/go-format.js';
import { parseQuantity } from '../../api/resource/quantity.js';
import { goTimeParseError, RFC3339, RFC3339_MICRO, type TimeLayout } from '../../api/time.js';
import { SCHEMA_REF_PREFIX, type Schema } from '../openapi/data.js';

// ---------------------------------------------------------------------------------------------
// JSON text → a tree that keeps duplicate keys and the literal text of numbers.

export type JsonNode =
  | { t: 'object'; entries: [string, JsonNode][] }
  | { t: 'array'; items: JsonNode[] }
  | { t: 'string'; value: string; raw: string }
  | { t: 'number'; raw: string }
  | { t: 'bool'; raw: 'true' | 'false' }
  | { t: 'null' };

/** Parses JSON text that JSON.parse already accepted (so syntax is not re-checked in detail). */
export function parseJsonNode(text: string): JsonNode {
  let i = 0;
  const ws = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i++;
    }
  };
  // Where the next backslash is (text.length when none is left): a string before it has no escapes.
  let backslash = -1;
  /** The string at i (its value and its text with the quotes), i moved past it. */
  const str = (): { value: string; raw: string } => {
    const start = i;
    const close = text.indexOf('"', start + 1);
    if (backslash < start) {
      backslash = text.indexOf('\\', start);
      if (backslash < 0) backslash = text.length;
    }
    if (close >= 0 && close < backslash) {
      i = close + 1;
      return { value: text.slice(start + 1, close), raw: text.slice(start, i) };
    }
    i++; // opening quote
    while (i < text.length && text.charCodeAt(i) !== 0x22) {
      if (text.charCodeAt(i) === 0x5c) i++;
      i++;
    }
    i++; // closing quote
    const raw = text.slice(start, i);
    return { value: JSON.parse(raw) as string, raw };
  };
  const value = (): JsonNode => {
    ws();
    const c = text[i];
    if (c === '"') {
      const { value, raw } = str();
      return { t: 'string', value, raw };
    }
    if (c === '{') {
      i++;
      const entries: [string, JsonNode][] = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { t: 'object', entries };
      }
      for (;;) {
        ws();
        const key = str().value;
        ws();
        i++; // ':'
        entries.push([key, value()]);
        ws();
        if (text[i++] === '}') return { t: 'object', entries };
      }
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { t: 'array', items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i++] === ']') return { t: 'array', items };
      }
    }
    if (text.startsWith('true', i)) {
      i += 4;
      return { t: 'bool', raw: 'true' };
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return { t: 'bool', raw: 'false' };
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return { t: 'null' };
    }
    const start = i;
    while (i < text.length && isNumberChar(text.charCodeAt(i))) i++;
    return { t: 'number', raw: text.slice(start, i) };
  };
  return value();
}

/** `-+.eE0-9`: the characters of a JSON number literal. */
function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/** The tree of an in-memory value (no duplicates possible; numbers as JSON.stringify writes them). */
export function jsonNodeOf(v: unknown): JsonNode {
  if (v === null || v === undefined) return { t: 'null' };
  if (Array.isArray(v)) return { t: 'array', items: v.map(jsonNodeOf) };
  if (typeof v === 'object') {
    const entries: [string, JsonNode][] = [];
    for (const [k, x] of Object.entries(v)) if (x !== undefined) entries.push([k, jsonNodeOf(x)]);
    return { t: 'object', entries };
  }
  if (typeof v === 'string') return { t: 'string', value: v, raw: JSON.stringify(v) };
  if (typeof v === 'number') return { t: 'number', raw: JSON.stringify(v) };
  if (typeof v === 'boolean') return { t: 'bool', raw: v ? 'true' : 'false' };
  return { t: 'null' };
}

// ---------------------------------------------------------------------------------------------
// Schemas → the Go types kube-apiserver decodes into.

// Schemas of Go types with their own UnmarshalJSON (k8s.io/apimachinery: pkg/util/intstr,
// pkg/api/resource, pkg/apis/meta/v1 time.go/micro_time.go/fields.go, pkg/runtime; apiextensions JSON).
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const TIMES = new Set(['io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime']);
const RAW = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
]);

// Names computed once per schema name: the decoder asks for them at every field of every request.
const refNames = new Map<string, string | undefined>();
const goNames = new Map<string, string>();
const structNames = new Map<string, string>();

/** The schema name a property refers to (`$ref`, or the `allOf: [{$ref}]` wrapper v3 documents use). */
function refName(s: Schema): string | undefined {
  const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0]?.$ref : undefined);
  if (ref === undefined) return undefined;
  let name = refNames.get(ref);
  if (name === undefined && !refNames.has(ref)) {
    name = ref.startsWith(SCHEMA_REF_PREFIX) ? ref.slice(SCHEMA_REF_PREFIX.length) : undefined;
    refNames.set(ref, name);
  }
  return name;
}

/** `io.k8s.api.apps.v1.DeploymentSpec` → `v1.DeploymentSpec`, as reflect.Type.String() prints it. */
function goNamed(name: string): string {
  let named = goNames.get(name);
  if (named === undefined) {
    const parts = name.split('.');
    named = `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
    goNames.set(name, named);
  }
  return named;
}

/** `io.k8s.api.apps.v1.DeploymentSpec` → `DeploymentSpec`, the struct a field error names. */
function structName(name: string): string {
  let short = structNames.get(name);
  if (short === undefined) {
    short = name.split('.').pop() as string;
    structNames.set(name, short);
  }
  return short;
}

/** The Go type a schema stands for, as reflect.Type.String() prints it (`int32`, `[]v1.Container`). */
function goType(schemas: Record<string, Schema>, s: Schema): string {
  const name = refName(s);
  if (name !== undefined) return name === QUANTITY ? 'resource.Quantity' : goNamed(name);
  switch (s.type) {
    case 'array':
      return `[]${s.items ? goType(schemas, s.items) : 'interface {}'}`;
    case 'object': {
      const ap = s.additionalProperties;
      if (typeof ap !== 'object') return 'map[string]interface {}';
      return `map[string]${goType(schemas, ap)}`;
    }
    case 'string':
      return s.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return s.format === 'int32' ? 'int32' : s.format === 'int64' ? 'int64' : 'int';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    default:
      return 'interface {}';
  }
}

// ---------------------------------------------------------------------------------------------
// The decoder walk.

/** An error returned (not saved) by an UnmarshalJSON method: it ends the decode at once. */
class Abort {
  constructor(readonly message: string) {}
}

/** What decoding a body found: the error Go returns (if any) and the strict errors. */
export interface DecodeResult {
  error?: string;
  strict: string[];
}

// sigs.k8s.io/json kubernetes_patch.go saveStrictError: at most 100 strict errors are kept.
const MAX_STRICT_ERRORS = 100;

const INT_RANGES_INT64: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];
const INT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: INT_RANGES_INT64,
  int: INT_RANGES_INT64,
  uint8: [0n, 255n],
};

/**
 * The CorruptInputError offset of encoding/base64 StdEncoding.DecodeString (base64.go
 * decodeQuantum: offsets count bytes of the UTF-8 text; CR and LF are skipped), or -1.
 */
export function base64ErrorOffset(text: string): number {
  const src = new TextEncoder().encode(text);
  const isSymbol = (b: number): boolean =>
    (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2b || b === 0x2f;
  const newline = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;
  const PAD = 0x3d;
  let si = 0;
  for (;;) {
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return -1;
        return si - j; // the padding character is required
      }
      const b = src[si++] as number;
      if (isSymbol(b)) continue;
      if (newline(b)) {
        j--;
        continue;
      }
      if (b !== PAD || j < 2) return si - 1;
      if (j === 2) {
        // "==" is expected, the first "=" is already consumed.
        while (si < src.length && newline(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== PAD) return si - 1;
        si++;
      }
      while (si < src.length && newline(src[si])) si++;
      return si < src.length ? si : -1; // trailing garbage after the padding
    }
  }
}

/**
 * The indexes of `entries` whose key occurs earlier in it (duplicate fields), or undefined when
 * none does — the common case, found without a Set for the small objects most bodies are made of.
 */
function duplicateIndexes(entries: readonly [string, JsonNode][]): Set<number> | undefined {
  let dups: Set<number> | undefined;
  const mark = (i: number): void => {
    dups = dups ?? new Set();
    dups.add(i);
  };
  if (entries.length <= 16) {
    for (let i = 1; i < entries.length; i++) {
      const key = (entries[i] as [string, JsonNode])[0];
      for (let j = 0; j < i; j++) {
        if ((entries[j] as [string, JsonNode])[0] === key) {
          mark(i);
          break;
        }
      }
    }
  } else {
    const seen = new Set<string>();
    entries.forEach(([key], i) => {
      if (seen.has(key)) mark(i);
      seen.add(key);
    });
  }
  return dups;
}

/** strconv.ParseInt(raw, 10, 64) succeeds and the value is within `[min, max]`. */
function intInRange(raw: string, [min, max]: readonly [bigint, bigint]): boolean {
  if (!/^-?[0-9]+$/.test(raw)) return false;
  // Up to 15 digits a double is exact, and so is the comparison with any of the bounds.
  if (raw.length <= 15) {
    const n = Number(raw);
    return n >= Number(min) && n <= Number(max);
  }
  const n = BigInt(raw);
  return n >= min && n <= max;
}

const INT32_RANGE: [bigint, bigint] = [-(2n ** 31n), 2n ** 31n - 1n];

class Decoder {
  /** The path of the value being decoded: field names and array indexes, joined only for an error. */
  private readonly strictPath: (string | number)[] = [];
  private readonly fieldStack: string[] = [];
  private struct: string | undefined;
  private saved: string | undefined;
  readonly strict: string[] = [];
  private readonly seenStrict = new Set<string>();

  /**
   * `unstructured`: decode as runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation
   * does (strategic merge patches): the first type error ends the walk with the converter's text,
   * map entries are not in paths, and a struct's unknown fields come after its children's.
   */
  constructor(
    private readonly schemas: Record<string, Schema>,
    private readonly checkStrict: boolean,
    private readonly unstructured = false,
    private readonly goTypes: Record<string, Record<string, string>> = {},
  ) {}

  /** A type mismatch: saved (JSON decoding), or the converter's error ending the walk. */
  private mismatch(json: string, converter: () => string): void {
    if (this.unstructured) throw new Abort(converter());
    this.save(json);
  }

  /** The first type error, with the struct field it happened in (decodeState.addErrorContext). */
  private typeError(value: string, type: string): string {
    if (this.struct !== undefined || this.fieldStack.length > 0) {
      return `json: cannot unmarshal ${value} into Go struct field ${this.struct ?? ''}.${this.fieldStack.join('.')} of type ${type}`;
    }
    return `json: cannot unmarshal ${value} into Go value of type ${type}`;
  }

  private save(message: string): void {
    this.saved ??= message;
  }

  private strictError(kind: 'unknown field' | 'duplicate field', key: string): void {
    let path = '';
    this.strictPath.forEach((seg, i) => {
      path += typeof seg === 'number' ? `[${seg}]` : i > 0 ? `.${seg}` : seg;
    });
    path = this.strictPath.length > 0 ? `${path}.${key}` : key;
    const text = `${kind} ${goQuote(path)}`;
    if (this.strict.length >= MAX_STRICT_ERRORS || this.seenStrict.has(text)) return;
    this.seenStrict.add(text);
    this.strict.push(text);
  }

  run(node: JsonNode, schema: Schema): DecodeResult {
    try {
      this.value(node, schema);
    } catch (err) {
      if (err instanceof Abort) return { error: err.message, strict: [] };
      throw err;
    }
    return this.saved !== undefined ? { error: this.saved, strict: [] } : { strict: this.strict };
  }

  /** `named`: the field's Go type when it is a named non-struct type (goTypes: `v1.RestartPolicy`). */
  private value(node: JsonNode, s: Schema, named?: string): void {
    const name = refName(s);
    if (name !== undefined) {
      if (name === INT_OR_STRING) {
        this.intOrString(node);
        return;
      }
      if (name === QUANTITY) {
        this.quantity(node);
        return;
      }
      if (TIMES.has(name)) {
        this.time(node, name.endsWith('.MicroTime'));
        return;
      }
      if (RAW.has(name)) return;
      const target = this.schemas[name];
      if (target === undefined) return;
      if (target.properties !== undefined) {
        this.struct_(node, target, name);
        return;
      }
      this.value(node, target);
      return;
    }
    if (node.t === 'null') return; // null leaves any Go value alone (or sets a pointer/map/slice nil)
    if (s.properties !== undefined) {
      this.struct_(node, s, undefined);
      return;
    }
    switch (s.type) {
      case 'array':
        this.array(node, s, named);
        return;
      case 'object':
        if (typeof s.additionalProperties === 'object') this.map(node, s, s.additionalProperties, named);
        else this.any(node);
        return;
      case 'string':
        if (s.format === 'byte') this.bytes(node);
        else this.literal(node, 'string', 'string', named);
        return;
      case 'integer':
        this.literal(node, 'int', goType(this.schemas, s), named);
        return;
      case 'number':
        this.literal(node, 'float', 'float64', named);
        return;
      case 'boolean':
        this.literal(node, 'bool', 'bool', named);
        return;
      default:
        this.any(node);
        return;
    }
  }

  /** A literal into a scalar field (decodeState.literalStore); objects and arrays into one are type errors. */
  private literal(node: JsonNode, kind: 'string' | 'int' | 'float' | 'bool', kindType: string, named?: string): void {
    if (this.unstructured) {
      this.convertLiteral(node, kind, kindType, named ?? kindType);
      return;
    }
    const type = named ?? kindType;
    switch (node.t) {
      case 'object':
      case 'array':
        this.save(this.typeError(node.t, type));
        return;
      case 'string':
        if (kind !== 'string') this.save(this.typeError('string', type));
        return;
      case 'bool':
        if (kind !== 'bool') this.save(this.typeError('bool', type));
        return;
      case 'number': {
        if (kind === 'int') {
          // strconv.ParseInt(s, 10, 64) and reflect.Value.OverflowInt.
          if (!intInRange(node.raw, INT_RANGES[kindType] ?? INT_RANGES_INT64)) {
            this.save(this.typeError(`number ${node.raw}`, type));
          }
        } else if (kind === 'float') {
          if (!Number.isFinite(Number(node.raw))) this.save(this.typeError(`number ${node.raw}`, type));
        } else {
          this.save(this.typeError('number', type));
        }
        return;
      }
      default:
        return;
    }
  }

  /**
   * converter.go fromUnstructured for a scalar field: the value's kind must be assignable, or
   * convertible within one of JSON's groups (an integral float64 may become an integer).
   */
  private convertLiteral(
    node: JsonNode,
    kind: 'string' | 'int' | 'float' | 'bool',
    dtKind: string,
    type: string,
  ): void {
    const st = unstructuredKind(node);
    if (st === 'invalid') return;
    if (kind === 'string' && st === 'string') return;
    if (kind === 'bool' && st === 'bool') return;
    if ((kind === 'int' || kind === 'float') && st === 'int64') return;
    if (kind === 'float' && st === 'float64') return;
    if (kind === 'int' && st === 'float64') {
      if (Number.isInteger(Number(node.t === 'number' ? node.raw : Number.NaN))) return;
      throw new Abort(`cannot convert float64 to ${type}`);
    }
    // An int64 converts to a string type in Go, but JSON has no such conversion.
    if (kind === 'string' && st === 'int64') throw new Abort(`cannot convert int64 to ${type}`);
    throw new Abort(`unrecognized type: ${dtKind}`);
  }

  /** []byte: a base64 string (encoding/base64 errors are saved without field context). */
  private bytes(node: JsonNode): void {
    if (node.t === 'string') {
      const at = base64ErrorOffset(node.value);
      if (at < 0) return;
      const err = `illegal base64 data at input byte ${at}`;
      this.mismatch(err, () => `error decoding from json: ${err}`);
      return;
    }
    if (this.unstructured && node.t !== 'array' && node.t !== 'null') {
      throw new Abort(`cannot restore slice from ${unstructuredKind(node)}`);
    }
    if (node.t === 'array') {
      // A JSON array decodes into []byte element by element (uint8 numbers).
      for (const item of node.items) this.literal(item, 'int', 'uint8');
      return;
    }
    this.literal(node, 'string', '[]uint8');
  }

  private struct_(node: JsonNode, s: Schema, name: string | undefined): void {
    const type = name !== undefined ? goNamed(name) : 'struct {}';
    if (node.t === 'null') return;
    if (node.t !== 'object') {
      this.mismatch(
        this.typeError(node.t === 'number' ? 'number' : node.t, type),
        () => `cannot restore struct from: ${unstructuredKind(node)}`,
      );
      return;
    }
    const props = s.properties ?? {};
    const unknown: string[] = [];
    const short = name !== undefined ? structName(name) : '';
    const namedFields = name !== undefined ? this.goTypes[name] : undefined;
    const dups = this.checkStrict ? duplicateIndexes(node.entries) : undefined;
    const outer = this.struct;
    const entries = node.entries;
    for (let i = 0; i < entries.length; i++) {
      const [key, child] = entries[i] as [string, JsonNode];
      const field = Object.hasOwn(props, key) ? props[key] : undefined;
      if (field === undefined) {
        if (this.checkStrict && this.unstructured) unknown.push(key);
        else if (this.checkStrict) this.strictError('unknown field', key);
        continue; // the value is skipped unread
      }
      if (dups?.has(i)) this.strictError('duplicate field', key);
      this.fieldStack.push(key);
      this.struct = short;
      if (this.checkStrict) this.strictPath.push(key);
      this.value(child, field, namedFields?.[key]);
      // Every push is popped on the way back (pop, not `length =`, which V8 makes a runtime call).
      this.fieldStack.pop();
      this.struct = outer;
      if (this.checkStrict) this.strictPath.pop();
    }
    for (const key of unknown) this.strictError('unknown field', key);
  }

  private map(node: JsonNode, s: Schema, elem: Schema, named?: string): void {
    if (node.t !== 'object') {
      this.mismatch(
        this.typeError(node.t === 'number' ? 'number' : node.t, named ?? goType(this.schemas, s)),
        () => `cannot restore map from ${unstructuredKind(node)}`,
      );
      return;
    }
    const tracked = this.checkStrict && !this.unstructured;
    const dups = tracked ? duplicateIndexes(node.entries) : undefined;
    const elemNamed = mapElem(named);
    const entries = node.entries;
    for (let i = 0; i < entries.length; i++) {
      const [key, child] = entries[i] as [string, JsonNode];
      if (tracked) {
        if (dups?.has(i)) this.strictError('duplicate field', key);
        this.strictPath.push(key);
      }
      this.value(child, elem, elemNamed);
      if (tracked) this.strictPath.pop();
    }
  }

  private array(node: JsonNode, s: Schema, named?: string): void {
    if (node.t !== 'array') {
      this.mismatch(
        this.typeError(node.t === 'number' ? 'number' : node.t, named ?? goType(this.schemas, s)),
        () => `cannot restore slice from ${unstructuredKind(node)}`,
      );
      return;
    }
    const itemNamed = named?.startsWith('[]') ? named.slice(2).replace(/^\*+/, '') : undefined;
    const items = node.items;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as JsonNode;
      if (this.checkStrict) this.strictPath.push(i);
      if (s.items !== undefined) this.value(item, s.items, itemNamed);
      else this.any(item);
      if (this.checkStrict) this.strictPath.pop();
    }
  }

  /** interface{}: anything goes, but duplicate keys are still found (objectInterface). */
  private any(node: JsonNode): void {
    if (!this.checkStrict || this.unstructured) return;
    if (node.t === 'object') {
      const dups = duplicateIndexes(node.entries);
      node.entries.forEach(([key, child], i) => {
        if (dups?.has(i)) this.strictError('duplicate field', key);
        this.strictPath.push(key);
        this.any(child);
        this.strictPath.pop();
      });
    } else if (node.t === 'array') {
      node.items.forEach((item, i) => {
        this.strictPath.push(i);
        this.any(item);
        this.strictPath.pop();
      });
    }
  }

  /** intstr.IntOrString.UnmarshalJSON: a string, else json.Unmarshal into its int32. */
  private intOrString(node: JsonNode): void {
    if (node.t === 'string' || node.t === 'null') return;
    if (node.t === 'number') {
      if (intInRange(node.raw, INT32_RANGE)) return;
      throw new Abort(this.unmarshalerError(`number ${node.raw}`, 'int32'));
    }
    throw new Abort(this.unmarshalerError(node.t, 'int32'));
  }

  /** resource.Quantity.UnmarshalJSON: ParseQuantity of the text, quotes removed. */
  private quantity(node: JsonNode): void {
    if (node.t === 'null') return;
    const text =
      node.t === 'string'
        ? node.raw.slice(1, -1)
        : node.t === 'number' || node.t === 'bool'
          ? node.raw
          : node.t === 'array'
            ? '['
            : '{';
    const parsed = parseQuantity(text);
    if ('error' in parsed) throw new Abort(parsed.error);
  }

  /** metav1.Time/MicroTime.UnmarshalJSON: null, or a string time.Parse takes with RFC 3339 (micro) layout. */
  private time(node: JsonNode, micro: boolean): void {
    if (node.t === 'null') return;
    if (node.t === 'string') {
      const err = goTimeParseError(node.value, micro ? RFC3339_MICRO : RFC3339);
      if (err !== undefined) throw new Abort(err);
      return;
    }
    throw new Abort(this.unmarshalerError(node.t === 'number' ? 'number' : node.t, 'string'));
  }

  /**
   * The json.Unmarshal error of an UnmarshalJSON method: with the field context when the decoder
   * called it, without it when the converter did (reflectcache.go FromUnstructured).
   */
  private unmarshalerError(value: string, type: string): string {
    return this.unstructured
      ? `json: cannot unmarshal ${value} into Go value of type ${type}`
      : this.typeError(value, type);
  }
}

/** The element type of a `map[K]V` Go type (a named map type gives nothing). */
function mapElem(named: string | undefined): string | undefined {
  if (named === undefined || !named.startsWith('map[')) return undefined;
  let depth = 0;
  for (let i = 3; i < named.length; i++) {
    if (named[i] === '[') depth++;
    else if (named[i] === ']' && --depth === 0) return named.slice(i + 1).replace(/^\*+/, '');
  }
  return undefined;
}

/** The reflect.Kind of what an unstructured map holds for a node (PreserveInts: integers are int64). */
function unstructuredKind(node: JsonNode): string {
  switch (node.t) {
    case 'object':
      return 'map';
    case 'array':
      return 'slice';
    case 'number': {
      // sigs.k8s.io/json PreserveInts: no '.' and strconv.ParseInt succeeds.
      const n = /^-?[0-9]+$/.test(node.raw) ? BigInt(node.raw) : undefined;
      return n !== undefined && n >= INT_RANGES_INT64[0] && n <= INT_RANGES_INT64[1] ? 'int64' : 'float64';
    }
    case 'null':
      return 'invalid';
    default:
      return node.t;
  }
}

/** Decodes `node` as the Go type of `schema` would be; `strict` adds unknown/duplicate field checks. */
export function decodeAgainstSchema(
  schemas: Record<string, Schema>,
  schema: Schema,
  node: JsonNode,
  strict: boolean,
  unstructured = false,
  goTypes: Record<string, Record<string, string>> = {},
): DecodeResult {
  return new Decoder(schemas, strict, unstructured, goTypes).run(node, schema);
}

/** Deletes, in place, every field of `value` the Go type of `schema` has no field for. */
export function dropUnknownFields(schemas: Record<string, Schema>, schema: Schema, value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  const name = refName(schema);
  if (name !== undefined) {
    if (name === INT_OR_STRING || name === QUANTITY || TIMES.has(name) || RAW.has(name)) return;
    const target = schemas[name];
    if (target !== undefined) dropUnknownFields(schemas, target, value);
    return;
  }
  if (Array.isArray(value)) {
    if (schema.type === 'array' && schema.items !== undefined) {
      for (const item of value) dropUnknownFields(schemas, schema.items, item);
    }
    return;
  }
  const obj = value as Record<string, unknown>;
  if (schema.properties !== undefined) {
    for (const key of Object.keys(obj)) {
      const field = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      if (field === undefined) delete obj[key];
      else dropUnknownFields(schemas, field, obj[key]);
    }
  } else if (schema.type === 'object' && typeof schema.additionalProperties === 'object') {
    for (const v of Object.values(obj)) dropUnknownFields(schemas, schema.additionalProperties, v);
  }
}

// ---------------------------------------------------------------------------------------------
// The fast path: the parsed value walked against a compiled schema, proving "nothing to report".

/**
 * What the decoder walk checks at a schema, precompiled once per schema (the same branches as
 * Decoder.value, in the same order). `skip`: anything decodes there (raw JSON, interface{}, a
 * schema the document lacks).
 */
type Plan =
  | { k: 'skip' }
  | { k: 'struct'; fields: Map<string, Plan> }
  | { k: 'array'; items: Plan }
  | { k: 'map'; elem: Plan }
  | { k: 'string' }
  | { k: 'bytes' }
  | { k: 'int'; min: number; max: number }
  | { k: 'float' }
  | { k: 'bool' }
  | { k: 'intOrString' }
  | { k: 'quantity' }
  | { k: 'time'; layout: TimeLayout };

const SKIP: Plan = { k: 'skip' };
const UINT8_PLAN: Plan = { k: 'int', min: 0, max: 255 };
const plansBySchemas = new WeakMap<Record<string, Schema>, WeakMap<Schema, Plan>>();

/**
 * The plan of `s`, cached per schema object; a struct, array or map is cached before its
 * elements, so recursive types (JSONSchemaProps) end.
 */
function planOf(schemas: Record<string, Schema>, s: Schema): Plan {
  let plans = plansBySchemas.get(schemas);
  if (plans === undefined) {
    plans = new WeakMap();
    plansBySchemas.set(schemas, plans);
  }
  const cached = plans.get(s);
  if (cached !== undefined) return cached;
  const name = refName(s);
  if (name !== undefined) {
    let plan: Plan;
    if (name === INT_OR_STRING) plan = { k: 'intOrString' };
    else if (name === QUANTITY) plan = { k: 'quantity' };
    else if (TIMES.has(name)) plan = { k: 'time', layout: name.endsWith('.MicroTime') ? RFC3339_MICRO : RFC3339 };
    else if (RAW.has(name)) plan = SKIP;
    else {
      // As Decoder.value: a target with properties is a struct, whatever else it says.
      const target = schemas[name];
      if (target === undefined) plan = SKIP;
      else plan = target.properties !== undefined ? structPlan(schemas, plans, target) : planOf(schemas, target);
    }
    // Not cached: references are cheap to resolve, and a kind's schema is a new object per call.
    return plan;
  }
  if (s.properties !== undefined) return structPlan(schemas, plans, s);
  const ap = s.additionalProperties;
  if (s.type === 'array' || (s.type === 'object' && typeof ap === 'object')) {
    // Cached before its element, as a struct is.
    const plan = s.type === 'array' ? { k: 'array' as const, items: SKIP } : { k: 'map' as const, elem: SKIP };
    plans.set(s, plan);
    if (plan.k === 'array') plan.items = s.items !== undefined ? planOf(schemas, s.items) : SKIP;
    else if (typeof ap === 'object') plan.elem = planOf(schemas, ap);
    return plan;
  }
  let plan: Plan;
  switch (s.type) {
    case 'string':
      plan = { k: s.format === 'byte' ? 'bytes' : 'string' };
      break;
    case 'integer': {
      const [min, max] = INT_RANGES[goType(schemas, s)] ?? INT_RANGES_INT64;
      plan = { k: 'int', min: Number(min), max: Number(max) };
      break;
    }
    case 'number':
      plan = { k: 'float' };
      break;
    case 'boolean':
      plan = { k: 'bool' };
      break;
    default:
      plan = SKIP;
  }
  plans.set(s, plan);
  return plan;
}

/** The plan of a struct's schema (one with `properties`), cached before its fields. */
function structPlan(schemas: Record<string, Schema>, plans: WeakMap<Schema, Plan>, s: Schema): Plan {
  const cached = plans.get(s);
  if (cached !== undefined) return cached;
  const fields = new Map<string, Plan>();
  const plan: Plan = { k: 'struct', fields };
  plans.set(s, plan);
  for (const [key, field] of Object.entries(s.properties ?? {})) fields.set(key, planOf(schemas, field));
  return plan;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Walks a parsed value along a plan: false as soon as the decoder would have something to say. */
class CleanWalk {
  constructor(
    private readonly strict: boolean,
    /** The strings written with escapes in the text: any other's literal is `"` + its value + `"`. */
    private readonly escaped: ReadonlySet<string>,
  ) {}

  ok(v: unknown, plan: Plan): boolean {
    if (v === null) return true; // null leaves any Go value alone, whatever the type
    switch (plan.k) {
      case 'skip':
        return true;
      case 'struct': {
        if (!isObject(v)) return false;
        for (const key of Object.keys(v)) {
          const field = plan.fields.get(key);
          if (field === undefined) {
            if (this.strict) return false; // an unknown field to report; else skipped unread
          } else if (!this.ok(v[key], field)) return false;
        }
        return true;
      }
      case 'map': {
        if (!isObject(v)) return false;
        for (const key of Object.keys(v)) {
          if (!this.ok(v[key], plan.elem)) return false;
        }
        return true;
      }
      case 'array': {
        if (!Array.isArray(v)) return false;
        for (const item of v) if (!this.ok(item, plan.items)) return false;
        return true;
      }
      case 'string':
        return typeof v === 'string';
      case 'bytes':
        if (typeof v === 'string') return base64ErrorOffset(v) < 0;
        if (!Array.isArray(v)) return false;
        for (const item of v) if (!this.ok(item, UINT8_PLAN)) return false;
        return true;
      case 'int':
        return typeof v === 'number' && Number.isInteger(v) && v >= plan.min && v <= plan.max;
      case 'float':
        return typeof v === 'number' && Number.isFinite(v);
      case 'bool':
        return typeof v === 'boolean';
      case 'intOrString':
        return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v) && intInRangeNumber(v));
      case 'quantity':
        // Quantity.UnmarshalJSON parses the literal text: the value stands for it only without escapes.
        if (typeof v === 'string') return !this.escaped.has(v) && !('error' in parseQuantity(v));
        if (typeof v === 'number' || typeof v === 'boolean') return !('error' in parseQuantity(String(v)));
        return false;
      case 'time':
        return typeof v === 'string' && goTimeParseError(v, plan.layout) === undefined;
    }
  }
}

const intInRangeNumber = (v: number): boolean => v >= Number(INT32_RANGE[0]) && v <= Number(INT32_RANGE[1]);

/**
 * The fast path of decodeAgainstSchema for a body parsed from a text: true when decoding the text
 * is proven to find no type error, no duplicate field and (`strict`) no unknown field, without
 * parsing it again. `escaped` is go-json.ts faithfulParse's answer for the text, taken when it was
 * parsed: the value has no duplicate collapsed and exact numbers, so walking it stands for
 * walking the text. (checkTypeMeta setting apiVersion and kind since changes no verdict: they
 * were strings or absent.) False means "not proven": the slow path then finds what there is,
 * with its exact texts.
 */
export function decodesCleanly(
  schemas: Record<string, Schema>,
  schema: Schema,
  value: Record<string, unknown>,
  escaped: ReadonlySet<string>,
  strict: boolean,
): boolean {
  return new CleanWalk(strict, escaped).ok(value, planOf(schemas, schema));
}
