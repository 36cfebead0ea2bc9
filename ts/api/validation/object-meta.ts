/**
 * ObjectMeta validation on create and update (k8s.io/apimachinery/pkg/api/validation/objectmeta.go
 * and meta/v1/validation's managed-fields checks, at v0.32), with Kubernetes' messages.
 */
import { type ErrorList, FieldPath, forbidden, invalid, required, tooLong } from '../field-errors.js';
import { byteLength, compareGo, GoLiteral, goQuote } from '../go-format.js';
import {
  FINALIZER_DELETE_DEPENDENTS,
  FINALIZER_ORPHAN_DEPENDENTS,
  type ManagedFieldsEntry,
  type ObjectMeta,
  type OwnerReference,
} from '../meta.js';
import { goTimeString } from '../time.js';
import { validateLabels } from './labels.js';
import { isQualifiedName, type ValidateNameFunc, validateNamespaceName } from './names.js';

/** FieldImmutableErrorMsg. */
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
/** IsNegativeErrorMsg. */
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';
/** TotalAnnotationSizeLimitB: 256 KiB over all keys and values. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10);
/** FieldManagerMaxLength. */
export const FIELD_MANAGER_MAX_LENGTH = 128;
/** MaxSubresourceNameLength. */
export const MAX_SUBRESOURCE_NAME_LENGTH = 256;

/** ValidateAnnotations: keys are qualified names (case-insensitively), total size ≤ 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  for (const k of Object.keys(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, msg));
  }
  if (annotationsSize(annotations) > TOTAL_ANNOTATION_SIZE_LIMIT_B) {
    errs.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
  }
  return errs;
}

/** The bytes ValidateAnnotationsSize counts: every key plus every value. */
export function annotationsSize(annotations: Record<string, string> | undefined): number {
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) total += byteLength(k) + byteLength(v);
  return total;
}

/** Go's `%#v` of a metav1.OwnerReference (pointer fields print as an address when set). */
function ownerReferenceLiteral(r: OwnerReference): string {
  const ptr = (v: boolean | undefined) => (v === undefined ? '(*bool)(nil)' : '(*bool)(0xc000000000)');
  return (
    `v1.OwnerReference{APIVersion:${goQuote(r.apiVersion ?? '')}, Kind:${goQuote(r.kind ?? '')}, ` +
    `Name:${goQuote(r.name ?? '')}, UID:${goQuote(r.uid ?? '')}, Controller:${ptr(r.controller)}, ` +
    `BlockOwnerDeletion:${ptr(r.blockOwnerDeletion)}}`
  );
}

/** schema.FromAPIVersionAndKind, as group/version/kind. */
function gvkOf(apiVersion: string, kind: string): { group: string; version: string; kind: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return { group: '', version: apiVersion, kind };
  if (slashes === 1) {
    const i = apiVersion.indexOf('/');
    return { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1), kind };
  }
  return { group: '', version: '', kind };
}

function validateOwnerReference(ref: OwnerReference, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const gvk = gvkOf(ref.apiVersion ?? '', ref.kind ?? '');
  if (gvk.version.length === 0) {
    errs.push(invalid(path.child('apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
  }
  if (gvk.kind.length === 0) errs.push(invalid(path.child('kind'), ref.kind ?? '', 'kind must not be empty'));
  if ((ref.name ?? '').length === 0) errs.push(invalid(path.child('name'), ref.name ?? '', 'name must not be empty'));
  if ((ref.uid ?? '').length === 0) errs.push(invalid(path.child('uid'), ref.uid ?? '', 'uid must not be empty'));
  // BannedOwners: core/v1 Event may not own anything.
  if (gvk.group === '' && gvk.version === 'v1' && gvk.kind === 'Event') {
    errs.push(
      invalid(
        path,
        new GoLiteral(ownerReferenceLiteral(ref)),
        `${gvk.group}/${gvk.version}, Kind=${gvk.kind} is disallowed from being an owner`,
      ),
    );
  }
  return errs;
}

/** ValidateOwnerReferences: each reference complete, at most one controller. */
export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, path));
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController !== '') {
        const all = `[]v1.OwnerReference{${(refs ?? []).map(ownerReferenceLiteral).join(', ')}}`;
        errs.push(
          invalid(
            path,
            new GoLiteral(all),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/** ValidateFinalizerName: a qualified name. */
export function validateFinalizerName(name: string, path: FieldPath): ErrorList {
  return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

/** ValidateFinalizers: names valid, and not both `orphan` and `foregroundDeletion`. */
export function validateFinalizers(finalizers: readonly string[] | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const list = finalizers ?? [];
  for (const f of list) errs.push(...validateFinalizerName(f, path));
  if (list.includes(FINALIZER_DELETE_DEPENDENTS) && list.includes(FINALIZER_ORPHAN_DEPENDENTS)) {
    errs.push(
      invalid(
        path,
        [...list],
        `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`,
      ),
    );
  }
  return errs;
}

/** ValidateNoNewFinalizers: once deletion started, finalizers may only be removed. */
export function validateNoNewFinalizers(
  newFinalizers: readonly string[] | undefined,
  oldFinalizers: readonly string[] | undefined,
  path: FieldPath,
): ErrorList {
  const old = new Set(oldFinalizers ?? []);
  const extra = [...new Set((newFinalizers ?? []).filter((f) => !old.has(f)))].sort(compareGo);
  if (extra.length === 0) return [];
  const list = `[]string{${extra.map((f) => goQuote(f)).join(', ')}}`;
  return [
    forbidden(path, `no new finalizers can be added if the object is being deleted, found new finalizers ${list}`),
  ];
}

/** ValidateNonnegativeField. */
export function validateNonnegativeField(value: number, path: FieldPath): ErrorList {
  return value < 0 ? [invalid(path, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

/** ValidateFieldManager: at most 128 bytes, printable characters only. */
export function validateFieldManager(fieldManager: string, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (byteLength(fieldManager) > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  let position = 0;
  for (const ch of fieldManager) {
    const r = ch.codePointAt(0) ?? 0;
    if (!isGoPrint(ch)) {
      const code = `U+${r.toString(16).toUpperCase().padStart(4, '0')}`;
      errs.push(invalid(path, fieldManager, `invalid character ${code} (at position ${position})`));
    }
    position += byteLength(ch);
  }
  return errs;
}

const goPrintable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isGoPrint(ch: string): boolean {
  return ch === ' ' || goPrintable.test(ch);
}

/** ValidateManagedFields: operation Apply|Update, fieldsType FieldsV1, manager and subresource sizes. */
export function validateManagedFields(entries: readonly ManagedFieldsEntry[] | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  (entries ?? []).forEach((entry, i) => {
    const p = path.index(i);
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') {
      errs.push(invalid(p.child('operation'), entry.operation ?? '', 'must be `Apply` or `Update`'));
    }
    const fieldsType = entry.fieldsType ?? '';
    if (fieldsType.length > 0 && fieldsType !== 'FieldsV1') {
      errs.push(invalid(p.child('fieldsType'), fieldsType, 'must be `FieldsV1`'));
    }
    errs.push(...validateFieldManager(entry.manager ?? '', p.child('manager')));
    if (byteLength(entry.subresource ?? '') > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(tooLong(p.child('subresource'), MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}

/** Where ValidateObjectMeta reports; `metadata` unless a caller nests the object. */
const METADATA = FieldPath.root('metadata');

/**
 * ValidateObjectMeta on create (after name generation): name (or generateName) by the kind's rule,
 * namespace required for namespaced kinds and forbidden otherwise, then generation, labels,
 * annotations, ownerReferences, finalizers and managedFields.
 */
export function validateObjectMeta(
  meta: ObjectMeta,
  requiresNamespace: boolean,
  nameFn: ValidateNameFunc,
  path: FieldPath = METADATA,
): ErrorList {
  const errs: ErrorList = [];
  const generateName = meta.generateName ?? '';
  if (generateName.length !== 0) {
    for (const msg of nameFn(generateName, true)) errs.push(invalid(path.child('generateName'), generateName, msg));
  }
  const name = meta.name ?? '';
  if (name.length === 0) {
    errs.push(required(path.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of nameFn(name, false)) errs.push(invalid(path.child('name'), name, msg));
  }
  const namespace = meta.namespace ?? '';
  if (requiresNamespace) {
    if (namespace.length === 0) {
      errs.push(required(path.child('namespace'), ''));
    } else {
      for (const msg of validateNamespaceName(namespace, false)) {
        errs.push(invalid(path.child('namespace'), namespace, msg));
      }
    }
  } else if (namespace.length !== 0) {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateNonnegativeField(meta.generation ?? 0, path.child('generation')));
  errs.push(...validateLabels(meta.labels, path.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, path.child('finalizers')));
  errs.push(...validateManagedFields(meta.managedFields, path.child('managedFields')));
  return errs;
}

/**
 * ValidateObjectMetaUpdate: resourceVersion present, generation not decremented, name, namespace,
 * uid, creationTimestamp, deletionTimestamp and deletionGracePeriodSeconds immutable
 * ("field is immutable"), no new finalizers while deleting, and the create-time checks of labels,
 * annotations, ownerReferences and managedFields.
 */
export function validateObjectMetaUpdate(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  path: FieldPath = METADATA,
): ErrorList {
  const errs: ErrorList = [];
  if (oldMeta.deletionTimestamp !== undefined && oldMeta.deletionTimestamp !== null) {
    errs.push(...validateNoNewFinalizers(newMeta.finalizers, oldMeta.finalizers, path.child('finalizers')));
  }
  const rv = newMeta.resourceVersion ?? '';
  if (rv.length === 0) errs.push(invalid(path.child('resourceVersion'), rv, 'must be specified for an update'));
  const newGeneration = newMeta.generation ?? 0;
  if (newGeneration < (oldMeta.generation ?? 0)) {
    errs.push(invalid(path.child('generation'), newGeneration, 'must not be decremented'));
  }
  errs.push(...immutableString(newMeta.name, oldMeta.name, path.child('name')));
  errs.push(...immutableString(newMeta.namespace, oldMeta.namespace, path.child('namespace')));
  errs.push(...immutableString(newMeta.uid, oldMeta.uid, path.child('uid')));
  if (!sameTime(newMeta.creationTimestamp, oldMeta.creationTimestamp)) {
    errs.push(
      invalid(
        path.child('creationTimestamp'),
        new GoLiteral(goTimeString(newMeta.creationTimestamp)),
        FIELD_IMMUTABLE_ERROR_MSG,
      ),
    );
  }
  if (!sameOptionalTime(newMeta.deletionTimestamp, oldMeta.deletionTimestamp)) {
    const v = newMeta.deletionTimestamp;
    errs.push(
      invalid(
        path.child('deletionTimestamp'),
        v === undefined || v === null ? null : new GoLiteral(goTimeString(v)),
        FIELD_IMMUTABLE_ERROR_MSG,
      ),
    );
  }
  const newGrace = newMeta.deletionGracePeriodSeconds ?? null;
  if (newGrace !== (oldMeta.deletionGracePeriodSeconds ?? null)) {
    errs.push(invalid(path.child('deletionGracePeriodSeconds'), newGrace, FIELD_IMMUTABLE_ERROR_MSG));
  }
  errs.push(...validateLabels(newMeta.labels, path.child('labels')));
  errs.push(...validateAnnotations(newMeta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateManagedFields(newMeta.managedFields, path.child('managedFields')));
  return errs;
}

/** ValidateImmutableField for values compared by JSON equality (Kubernetes uses semantic DeepEqual). */
export function validateImmutableField(newVal: unknown, oldVal: unknown, path: FieldPath): ErrorList {
  return JSON.stringify(newVal ?? null) === JSON.stringify(oldVal ?? null)
    ? []
    : [invalid(path, newVal, FIELD_IMMUTABLE_ERROR_MSG)];
}

function immutableString(newVal: string | undefined, oldVal: string | undefined, path: FieldPath): ErrorList {
  const n = newVal ?? '';
  return n === (oldVal ?? '') ? [] : [invalid(path, n, FIELD_IMMUTABLE_ERROR_MSG)];
}

function timeValue(t: string | null | undefined): number {
  if (t === undefined || t === null || t === '') return Number.NEGATIVE_INFINITY;
  return Date.parse(t);
}

/** metav1.Time's semantic equality: same instant; absent equals the zero time. */
function sameTime(a: string | null | undefined, b: string | null | undefined): boolean {
  return timeValue(a) === timeValue(b) || (Number.isNaN(timeValue(a)) && a === b);
}

/** *metav1.Time: nil only equals nil. */
function sameOptionalTime(a: string | null | undefined, b: string | null | undefined): boolean {
  const aNil = a === undefined || a === null;
  const bNil = b === undefined || b === null;
  if (aNil || bNil) return aNil && bNil;
  return sameTime(a, b);
}
