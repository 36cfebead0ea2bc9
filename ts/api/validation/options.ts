/**
 * Validation of the request options (k8s.io/apimachinery/pkg/apis/meta/v1/validation at v0.32):
 * DeleteOptions, create/update/patch query parameters (dryRun, fieldManager, fieldValidation,
 * force) and TableOptions. The apiserver answers these errors with 422 Invalid on the options kind
 * (e.g. `DeleteOptions.meta.k8s.io "" is invalid: …`) or 400 BadRequest, as each handler does.
 */
import { type ErrorList, FieldPath, forbidden, invalid, notSupported, required } from '../field-errors.js';
import type { DeleteOptions } from '../meta.js';
import { validateFieldManager } from './object-meta.js';

/** ValidateDryRun: only "All". */
export function validateDryRun(path: FieldPath, dryRun: readonly string[] | undefined): ErrorList {
  const values = dryRun ?? [];
  if (values.every((v) => v === 'All')) return [];
  return [notSupported(path, [...values], ['All'])];
}

/** ValidateFieldValidation: "", Ignore, Strict or Warn. */
export function validateFieldValidation(path: FieldPath, fieldValidation: string): ErrorList {
  const allowed = ['', 'Ignore', 'Strict', 'Warn'];
  return allowed.includes(fieldValidation) ? [] : [notSupported(path, fieldValidation, allowed)];
}

/** ValidateDeleteOptions. */
export function validateDeleteOptions(options: DeleteOptions): ErrorList {
  const errs: ErrorList = [];
  const policy = options.propagationPolicy;
  if (options.orphanDependents !== undefined && policy !== undefined) {
    // ErrorBody dereferences the *DeletionPropagation, so the policy prints quoted.
    errs.push(
      invalid(
        FieldPath.root('propagationPolicy'),
        policy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  if (policy !== undefined && policy !== 'Foreground' && policy !== 'Background' && policy !== 'Orphan') {
    errs.push(notSupported(FieldPath.root('propagationPolicy'), policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  errs.push(...validateDryRun(FieldPath.root('dryRun'), options.dryRun));
  if (options.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    const p = FieldPath.root('ignoreStoreReadErrorWithClusterBreakingPotential');
    if ((options.dryRun ?? []).length > 0) errs.push(invalid(p, true, 'cannot be set together with .dryRun'));
    if (policy !== undefined) errs.push(invalid(p, true, 'cannot be set together with .propagationPolicy'));
    if (options.orphanDependents !== undefined) {
      errs.push(invalid(p, true, 'cannot be set together with .orphanDependents'));
    }
    if (options.gracePeriodSeconds !== undefined) {
      errs.push(invalid(p, true, 'cannot be set together with .gracePeriodSeconds'));
    }
    if (options.preconditions !== undefined) errs.push(invalid(p, true, 'cannot be set together with .preconditions'));
  }
  return errs;
}

/** The query options of a write. */
export interface WriteOptions {
  dryRun?: readonly string[];
  fieldManager?: string;
  fieldValidation?: string;
  force?: boolean;
}

/** ValidateCreateOptions / ValidateUpdateOptions. */
export function validateCreateOrUpdateOptions(options: WriteOptions): ErrorList {
  return [
    ...validateFieldManager(options.fieldManager ?? '', FieldPath.root('fieldManager')),
    ...validateDryRun(FieldPath.root('dryRun'), options.dryRun),
    ...validateFieldValidation(FieldPath.root('fieldValidation'), options.fieldValidation ?? ''),
  ];
}

/** ValidatePatchOptions: apply needs a fieldManager; force is for apply only. */
export function validatePatchOptions(options: WriteOptions, patchType: string): ErrorList {
  const errs: ErrorList = [];
  if (patchType === 'application/apply-patch+yaml' || patchType === 'application/apply-patch+cbor') {
    if ((options.fieldManager ?? '') === '') {
      errs.push(required(FieldPath.root('fieldManager'), 'is required for apply patch'));
    }
  } else if (options.force !== undefined) {
    errs.push(forbidden(FieldPath.root('force'), 'may not be specified for non-apply patch'));
  }
  errs.push(...validateCreateOrUpdateOptions(options));
  return errs;
}

/** ValidateTableOptions: includeObject is Metadata, Object, None or empty. */
export function validateTableOptions(includeObject: string): ErrorList {
  if (['Metadata', 'None', 'Object', ''].includes(includeObject)) return [];
  return [invalid(FieldPath.root('includeObject'), includeObject, "must be 'Metadata', 'Object', 'None', or empty")];
}
