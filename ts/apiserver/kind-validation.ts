/**
 * The kind-specific parts of validation that ts/api does not have yet, for the kinds whose data
 * this slice serves: ConfigMap and Secret keys, the 1 MiB size limit and immutability
 * (k8s.io/kubernetes pkg/apis/core/validation ValidateConfigMap[Update], ValidateSecret[Update],
 * v1.32). Other kinds (pod specs, services, deployments) are not validated beyond metadata yet.
 */
import { type ErrorList, FieldPath, forbidden, invalid, tooLong } from '../api/field-errors.js';
import type { KubeObject } from '../api/meta.js';
import { isConfigMapKey } from '../api/validation/formats.js';
import { validateImmutableField } from '../api/validation/object-meta.js';
import type { ResourceInfo } from './resources.js';

/** api.MaxSecretSize, also the ConfigMap limit. */
export const MAX_SECRET_SIZE = 1024 * 1024;
const IMMUTABLE_SET = 'field is immutable when `immutable` is set';

type Obj = Record<string, unknown>;
const map = (v: unknown): Record<string, string> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};

function base64Length(s: unknown): number {
  if (typeof s !== 'string') return 0;
  const clean = s.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

function validateConfigMap(o: Obj): ErrorList {
  const errs: ErrorList = [];
  const data = map(o.data);
  const binary = map(o.binaryData);
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    const path = FieldPath.root('data').key(key);
    for (const msg of isConfigMapKey(key)) errs.push(invalid(path, key, msg));
    if (Object.hasOwn(binary, key)) errs.push(invalid(path, key, 'duplicate of key present in binaryData'));
    total += new TextEncoder().encode(String(value)).length;
  }
  for (const [key, value] of Object.entries(binary)) {
    const path = FieldPath.root('binaryData').key(key);
    for (const msg of isConfigMapKey(key)) errs.push(invalid(path, key, msg));
    if (Object.hasOwn(data, key)) errs.push(invalid(path, key, 'duplicate of key present in data'));
    total += base64Length(value);
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong(FieldPath.root(''), MAX_SECRET_SIZE));
  return errs;
}

function validateSecret(o: Obj): ErrorList {
  const errs: ErrorList = [];
  let total = 0;
  for (const [key, value] of Object.entries(map(o.data))) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(FieldPath.root('data').key(key), key, msg));
    total += base64Length(value);
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong(FieldPath.root('data'), MAX_SECRET_SIZE));
  return errs;
}

/** The kind's own checks on create (after the metadata checks). */
export function validateKind(info: ResourceInfo, obj: KubeObject): ErrorList {
  if (info.group !== '') return [];
  if (info.kind === 'ConfigMap') return validateConfigMap(obj as Obj);
  if (info.kind === 'Secret') return validateSecret(obj as Obj);
  return [];
}

/** The kind's own checks on update: immutability, then the create checks of the new object. */
export function validateKindUpdate(info: ResourceInfo, obj: KubeObject, old: KubeObject): ErrorList {
  if (info.group !== '' || (info.kind !== 'ConfigMap' && info.kind !== 'Secret')) return [];
  const n = obj as Obj;
  const o = old as Obj;
  const errs: ErrorList = [];
  if (info.kind === 'Secret') errs.push(...validateImmutableField(n.type ?? '', o.type ?? '', FieldPath.root('type')));
  if (o.immutable === true) {
    if (n.immutable !== true) errs.push(forbidden(FieldPath.root('immutable'), IMMUTABLE_SET));
    const fields = info.kind === 'ConfigMap' ? ['data', 'binaryData'] : ['data'];
    for (const f of fields) {
      if (JSON.stringify(n[f] ?? {}) !== JSON.stringify(o[f] ?? {}))
        errs.push(forbidden(FieldPath.root(f), IMMUTABLE_SET));
    }
  }
  errs.push(...validateKind(info, obj));
  return errs;
}
