/**
 * The Secret strategy (pkg/registry/core/secret/strategy.go, v1.32): SetDefaults_Secret (type
 * Opaque), the write-only stringData folded into data as the v1 conversion does, and
 * ValidateSecret / ValidateSecretUpdate's checks: keys, the 1 MiB limit, the type and `immutable`.
 * The ConfigMap strategy shares the size and immutability rules.
 */
import { type ErrorList, FieldPath, forbidden, invalid, tooLong } from '../../../../api/field-errors.js';
import { isConfigMapKey } from '../../../../api/validation/formats.js';
import { validateImmutableField } from '../../../../api/validation/object-meta.js';
import { isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

/** api.MaxSecretSize, also the ConfigMap limit. */
export const MAX_SECRET_SIZE = 1024 * 1024;
const IMMUTABLE_SET = 'field is immutable when `immutable` is set';

export const stringMap = (v: unknown): Record<string, string> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};

export function base64Length(s: unknown): number {
  if (typeof s !== 'string') return 0;
  const clean = s.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

/** Once `immutable` is set: it stays set and `fields` stay as they are. */
export function validateImmutableData(n: Obj, o: Obj, fields: readonly string[]): ErrorList {
  const errs: ErrorList = [];
  if (o.immutable === true) {
    if (n.immutable !== true) errs.push(forbidden(FieldPath.root('immutable'), IMMUTABLE_SET));
    for (const f of fields) {
      if (JSON.stringify(n[f] ?? {}) !== JSON.stringify(o[f] ?? {}))
        errs.push(forbidden(FieldPath.root(f), IMMUTABLE_SET));
    }
  }
  return errs;
}

function base64Utf8(s: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(s)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Secret: stringData is write-only, merged into data (base64) and dropped (SecretV1 conversion). */
function foldStringData(o: Obj): void {
  if (!isObj(o.stringData)) {
    delete o.stringData;
    return;
  }
  const data: Obj = isObj(o.data) ? { ...o.data } : {};
  // defineProperty: a key such as __proto__ is data here, never the object's prototype.
  for (const [k, v] of Object.entries(o.stringData)) {
    Object.defineProperty(data, k, {
      value: base64Utf8(String(v)),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  o.data = data;
  delete o.stringData;
}

function validateSecret(o: Obj): ErrorList {
  const errs: ErrorList = [];
  let total = 0;
  for (const [key, value] of Object.entries(stringMap(o.data))) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(FieldPath.root('data').key(key), key, msg));
    total += base64Length(value);
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong(FieldPath.root('data'), MAX_SECRET_SIZE));
  return errs;
}

export const secretStrategy: ResourceStrategy = {
  defaults(o) {
    if (typeof o.type !== 'string' || o.type === '') o.type = 'Opaque';
    foldStringData(o);
  },
  validate: (obj) => validateSecret(obj as Obj),
  update: {
    validateUpdate(obj, old) {
      const n = obj as Obj;
      const o = old as Obj;
      return [
        ...validateImmutableField(n.type ?? '', o.type ?? '', FieldPath.root('type')),
        ...validateImmutableData(n, o, ['data']),
        ...validateSecret(n),
      ];
    },
  },
};
