/**
 * Path elements of structured-merge-diff (sigs.k8s.io/structured-merge-diff/v4 fieldpath/element.go,
 * serialize-pe.go): a field name, the key fields of an associative list item, a set item's value,
 * or a list index. Each element carries its FieldsV1 key (`f:name`, `k:{"name":"c"}`, `v:"x"`, `i:0`),
 * which is also its identity in a field set.
 */

/** A JSON value as the apply machinery walks it. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

export type PathElement =
  | { readonly kind: 'f'; readonly key: string; readonly name: string }
  | { readonly kind: 'k'; readonly key: string; readonly fields: readonly (readonly [string, Value])[] }
  | { readonly kind: 'v'; readonly key: string; readonly value: Value }
  | { readonly kind: 'i'; readonly key: string; readonly index: number };

export type Path = readonly PathElement[];

const fieldCache = new Map<string, PathElement>();

/** The element of a struct field or map key (`f:<name>`). */
export function fieldElement(name: string): PathElement {
  let pe = fieldCache.get(name);
  if (pe === undefined) {
    pe = { kind: 'f', key: `f:${name}`, name };
    if (fieldCache.size < 10_000) fieldCache.set(name, pe);
  }
  return pe;
}

/** The element of an associative list item by its key fields, sorted by name as value.FieldList.Sort does. */
export function keyElement(fields: readonly (readonly [string, Value])[]): PathElement {
  // One key field (a name, a uid): the common case, without sorting or an intermediate object.
  if (fields.length === 1) {
    const [k, v] = fields[0] as readonly [string, Value];
    return { kind: 'k', key: `k:{${JSON.stringify(k)}:${JSON.stringify(v)}}`, fields };
  }
  const sorted = [...fields].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const obj: Record<string, Value> = {};
  for (const [k, v] of sorted) obj[k] = v;
  return { kind: 'k', key: `k:${JSON.stringify(obj)}`, fields: sorted };
}

/** The element of a set item (a list of scalars with list-type set). */
export function valueElement(value: Value): PathElement {
  return { kind: 'v', key: `v:${JSON.stringify(value)}`, value };
}

/** The element of an atomic or deduced list item by position. */
export function indexElement(index: number): PathElement {
  return { kind: 'i', key: `i:${index}`, index };
}

/** The element a FieldsV1 key names; undefined for a key of no known form. */
export function parseElement(key: string): PathElement | undefined {
  const body = key.slice(2);
  switch (key.slice(0, 2)) {
    case 'f:':
      return fieldElement(body);
    case 'v:':
      return valueElement(JSON.parse(body) as Value);
    case 'i:': {
      if (!/^-?\d+$/.test(body)) return undefined;
      return indexElement(Number(body));
    }
    case 'k:': {
      const obj = JSON.parse(body) as unknown;
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
      return keyElement(Object.entries(obj as Record<string, Value>));
    }
    default:
      return undefined;
  }
}

const typeRank = (v: Value): number =>
  typeof v === 'number'
    ? 0
    : typeof v === 'string'
      ? 2
      : typeof v === 'boolean'
        ? 3
        : Array.isArray(v)
          ? 4
          : v === null
            ? 6
            : 5;

/** value.Compare: numbers < strings < booleans < lists < maps < null. */
export function compareValues(a: Value, b: Value): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i] as Value, b[i] as Value);
      if (c !== 0) return c;
    }
    return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      const x = ka[i] as string;
      const y = kb[i] as string;
      if (x !== y) return x < y ? -1 : 1;
      const c = compareValues((a as Record<string, Value>)[x] as Value, (b as Record<string, Value>)[y] as Value);
      if (c !== 0) return c;
    }
    return ka.length < kb.length ? -1 : ka.length === kb.length ? 0 : 1;
  }
  return 0;
}

/** value.FieldList.Compare: shorter lists first, then field by field. */
function compareFieldLists(a: readonly (readonly [string, Value])[], b: readonly (readonly [string, Value])[]): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  for (let i = 0; i < a.length; i++) {
    const [an, av] = a[i] as readonly [string, Value];
    const [bn, bv] = b[i] as readonly [string, Value];
    if (an !== bn) return an < bn ? -1 : 1;
    const c = compareValues(av, bv);
    if (c !== 0) return c;
  }
  return 0;
}

const kindRank = { f: 0, k: 1, v: 2, i: 3 } as const;

/** PathElement.Compare: field names, then keys, then values, then indexes. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] < kindRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'f': {
      const bn = (b as { name: string }).name;
      return a.name < bn ? -1 : a.name > bn ? 1 : 0;
    }
    case 'k':
      return compareFieldLists(a.fields, (b as { fields: readonly (readonly [string, Value])[] }).fields);
    case 'v':
      return compareValues(a.value, (b as { value: Value }).value);
    case 'i': {
      const bi = (b as { index: number }).index;
      return a.index < bi ? -1 : a.index > bi ? 1 : 0;
    }
  }
}

/** value.ToString: strings quoted as Go's %q, everything else as JSON. */
function valueString(v: Value): string {
  return JSON.stringify(v);
}

/** PathElement.String: `.name`, `[name="c",port=80]`, `[="x"]`, `[0]`. */
export function elementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'f':
      return `.${pe.name}`;
    case 'k':
      return `[${pe.fields.map(([k, v]) => `${k}=${valueString(v)}`).join(',')}]`;
    case 'v':
      return `[=${valueString(pe.value)}]`;
    case 'i':
      return `[${pe.index}]`;
  }
}

/** Path.String: the elements' strings joined (`.spec.containers[name="c"].image`). */
export function pathString(path: Path): string {
  return path.map(elementString).join('');
}
