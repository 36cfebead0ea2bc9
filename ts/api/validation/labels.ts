/**
 * Label and label-selector validation (k8s.io/apimachinery/pkg/apis/meta/v1/validation at v0.32).
 */
import { type ErrorList, type FieldPath, forbidden, invalid, required } from '../field-errors.js';
import type { LabelSelector, LabelSelectorRequirement } from '../meta.js';
import { isQualifiedName, isValidLabelValue } from './names.js';

/** ValidateLabelName: one error per IsQualifiedName message. */
export function validateLabelName(labelName: string, path: FieldPath): ErrorList {
  return isQualifiedName(labelName).map((msg) => invalid(path, labelName, msg));
}

/** ValidateLabels: every key a qualified name, every value a label value (errors on the map's path). */
export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(k, path));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(path, v, msg));
  }
  return errs;
}

export interface LabelSelectorValidationOptions {
  /** Tolerate invalid values already persisted (updates only). */
  allowInvalidLabelValueInSelector?: boolean;
  /** Let an unknown operator pass (SubjectAccessReview). */
  allowUnknownOperatorInRequirement?: boolean;
}

/** ValidateLabelSelectorRequirement. */
export function validateLabelSelectorRequirement(
  sr: LabelSelectorRequirement,
  opts: LabelSelectorValidationOptions,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  const values = sr.values ?? [];
  switch (sr.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) {
        errs.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(
          forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      }
      break;
    default:
      if (!opts.allowUnknownOperatorInRequirement) {
        errs.push(invalid(path.child('operator'), sr.operator, 'not a valid selector operator'));
      }
  }
  errs.push(...validateLabelName(sr.key, path.child('key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((value, i) => {
      for (const msg of isValidLabelValue(value)) errs.push(invalid(path.child('values').index(i), value, msg));
    });
  }
  return errs;
}

/** ValidateLabelSelector: matchLabels as labels, each matchExpressions entry as a requirement. */
export function validateLabelSelector(
  ps: LabelSelector | undefined | null,
  opts: LabelSelectorValidationOptions,
  path: FieldPath,
): ErrorList {
  if (ps === undefined || ps === null) return [];
  const errs = validateLabels(ps.matchLabels, path.child('matchLabels'));
  (ps.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, opts, path.child('matchExpressions').index(i)));
  });
  return errs;
}

/** LabelSelectorHasInvalidLabelValue: whether an update must tolerate persisted bad values. */
export function labelSelectorHasInvalidLabelValue(ps: LabelSelector | undefined | null): boolean {
  return (ps?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => isValidLabelValue(v).length > 0));
}
