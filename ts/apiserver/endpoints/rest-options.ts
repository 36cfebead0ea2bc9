/**
 * The options of a write, from the query and (deletes) the body, as the handlers decode and
 * validate them (k8s.io/apiserver pkg/endpoints/handlers/rest.go; CreateOptions, UpdateOptions,
 * PatchOptions and DeleteOptions validation in api/validation/options.ts): 422 on the options
 * kind for a bad value, 400 for a DeleteOptions body that is not JSON.
 */
import type { DeleteOptions, FieldValidation } from '../../api/meta.js';
import { newInvalid } from '../../api/status.js';
import {
  validateCreateOrUpdateOptions,
  validateDeleteOptions,
  validatePatchOptions,
  type WriteOptions,
} from '../../api/validation/options.js';
import { parseJsonObject } from '../decode/codec.js';

/** The write options in the query (validated as Create/Update/PatchOptions, 422 otherwise). */
export function writeOptions(query: URLSearchParams): WriteOptions {
  const out: WriteOptions = {};
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) out.dryRun = dryRun;
  const fm = query.get('fieldManager');
  if (fm !== null) out.fieldManager = fm;
  const fv = query.get('fieldValidation');
  if (fv !== null) out.fieldValidation = fv;
  const force = query.get('force');
  if (force !== null) out.force = force === 'true';
  return out;
}

export function checkOptions(
  kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  opts: WriteOptions,
  patchType = '',
): void {
  const errs = kind === 'PatchOptions' ? validatePatchOptions(opts, patchType) : validateCreateOrUpdateOptions(opts);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind }, '', errs);
}

/** fieldValidation as sent; the server's default is Warn. */
export function fieldValidation(opts: WriteOptions): FieldValidation {
  const v = opts.fieldValidation;
  return v === 'Strict' || v === 'Ignore' ? v : 'Warn';
}

/** DeleteOptions from the body (kubectl sends `{"propagationPolicy":"Background"}`) and the query. */
export function deleteOptions(query: URLSearchParams, bodyText: string): DeleteOptions {
  const opts: DeleteOptions = bodyText.trim() === '' ? {} : (parseJsonObject(bodyText) as DeleteOptions);
  const policy = query.get('propagationPolicy');
  if (policy !== null) opts.propagationPolicy = policy as NonNullable<DeleteOptions['propagationPolicy']>;
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null) opts.gracePeriodSeconds = Number(grace);
  const orphan = query.get('orphanDependents');
  if (orphan !== null) opts.orphanDependents = orphan === 'true';
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) opts.dryRun = dryRun;
  const errs = validateDeleteOptions(opts);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return opts;
}
