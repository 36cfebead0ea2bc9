/**
 * The kind-specific part of validation (each registry strategy's Validate / ValidateUpdate beyond
 * ObjectMeta, k8s.io/kubernetes pkg/apis/<group>/validation v1.32): ConfigMap and Secret keys, the
 * 1 MiB size limit and immutability here; every other built-in kind through
 * ts/api/validation/kinds, keyed by group and kind so a kind is checked as soon as it is served.
 */
import { type ErrorList, FieldPath, forbidden, invalid, tooLong } from '../../api/field-errors.js';
import type { KubeObject } from '../../api/meta.js';
import { isConfigMapKey } from '../../api/validation/formats.js';
import {
  validateKindCreate,
  validateKindStatusUpdate,
  validateKindUpdateOf,
} from '../../api/validation/kinds/index.js';
import { validateImmutableField } from '../../api/validation/object-meta.js';
import { validateCustomKind, validateCustomKindUpdate } from '../crd/kind-validation.js';
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

const isCore = (info: Pick<ResourceInfo, 'group'>, kind: string, k: string): boolean => info.group === '' && kind === k;

/** The kind's own checks on create (after the metadata checks). */
export function validateKind(
  info: Pick<ResourceInfo, 'group' | 'kind'> & Partial<ResourceInfo>,
  obj: KubeObject,
): ErrorList {
  // Custom resources and CRDs: crd/kind-validation.ts.
  const custom = validateCustomKind(info, obj);
  if (custom !== undefined) return custom;
  if (isCore(info, info.kind, 'ConfigMap')) return validateConfigMap(obj as Obj);
  if (isCore(info, info.kind, 'Secret')) return validateSecret(obj as Obj);
  return validateKindCreate(info.group, info.kind, obj);
}

/**
 * The kind's own checks on update: immutability, then the new object's checks. A write through
 * `/status` gets the status strategy's checks where they are ported (the spec there is the stored
 * one and is not checked again); `/finalize` has none beyond metadata here.
 */
export function validateKindUpdate(
  info: Pick<ResourceInfo, 'group' | 'kind'> & Partial<ResourceInfo>,
  obj: KubeObject,
  old: KubeObject,
  mode: string = 'main',
): ErrorList {
  const custom = validateCustomKindUpdate(info, obj, old, mode);
  if (custom !== undefined) return custom;
  const configMap = isCore(info, info.kind, 'ConfigMap');
  const secret = isCore(info, info.kind, 'Secret');
  if (!configMap && !secret) {
    if (mode === 'main') return validateKindUpdateOf(info.group, info.kind, obj, old);
    return mode === 'status' ? validateKindStatusUpdate(info.group, info.kind, obj, old) : [];
  }
  const n = obj as Obj;
  const o = old as Obj;
  const errs: ErrorList = [];
  if (secret) errs.push(...validateImmutableField(n.type ?? '', o.type ?? '', FieldPath.root('type')));
  if (o.immutable === true) {
    if (n.immutable !== true) errs.push(forbidden(FieldPath.root('immutable'), IMMUTABLE_SET));
    const fields = configMap ? ['data', 'binaryData'] : ['data'];
    for (const f of fields) {
      if (JSON.stringify(n[f] ?? {}) !== JSON.stringify(o[f] ?? {}))
        errs.push(forbidden(FieldPath.root(f), IMMUTABLE_SET));
    }
  }
  errs.push(...validateKind(info, obj));
  return errs;
}
