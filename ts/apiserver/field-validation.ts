/**
 * fieldValidation=Strict|Warn|Ignore for unknown fields, at the top level and in metadata only
 * (no schemas yet, so nested spec fields are not checked). Strict gives 400 BadRequest with
 * Kubernetes' `strict decoding error: unknown field "x"` text; Warn returns the same texts as
 * `Warning` headers; Ignore (and no parameter on a write, as kubectl's --validate=false) drops nothing.
 */
import { newBadRequest } from '../api/status.js';
import type { ResourceInfo } from './resources.js';

const OBJECT_META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** The query parameter, checked (`fieldValidation` accepts only the three values). */
export function parseFieldValidation(value: string | null): FieldValidation {
  if (value === null || value === '') return 'Warn'; // the server's default since 1.27
  if (value === 'Strict' || value === 'Warn' || value === 'Ignore') return value;
  throw newBadRequest(`fieldValidation must be one of "Ignore", "Warn", "Strict", got "${value}"`);
}

/** The unknown-field paths of a request body. */
export function unknownFields(info: ResourceInfo, body: Record<string, unknown>): string[] {
  const out: string[] = [];
  const known = new Set(['apiVersion', 'kind', 'metadata', ...info.fields]);
  for (const k of Object.keys(body)) if (!known.has(k)) out.push(k);
  const meta = body.metadata;
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta)) {
    for (const k of Object.keys(meta)) if (!OBJECT_META_FIELDS.has(k)) out.push(`metadata.${k}`);
  }
  return out;
}

/**
 * Applies the policy: throws for Strict, returns warning texts for Warn, nothing for Ignore.
 * kube-apiserver: `<Kind> in version "<v>" cannot be handled as a <Kind>: strict decoding error: …`.
 */
export function checkUnknownFields(
  info: ResourceInfo,
  body: Record<string, unknown>,
  policy: FieldValidation,
): string[] {
  if (policy === 'Ignore') return [];
  const unknown = unknownFields(info, body);
  if (unknown.length === 0) return [];
  const texts = unknown.map((f) => `unknown field "${f}"`);
  if (policy === 'Strict') {
    throw newBadRequest(
      `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: ${texts.join(', ')}`,
    );
  }
  return texts;
}
