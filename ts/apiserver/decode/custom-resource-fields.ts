/**
 * Decoding a custom resource as apiextensions-apiserver's schemaCoercingDecoder does (v1.32):
 * fields the version's structural schema does not know are pruned (never stored), reported per
 * fieldValidation — Strict: 400 `<Kind> in version "<v>" cannot be handled as a <Kind>: strict
 * decoding error: unknown field "spec.foo"`, Warn: a `unknown field "spec.foo"` Warning each,
 * Ignore: nothing — and the schema's defaults are applied. A patched object is reported as
 * handlers/patch.go does: 422 Invalid on `patch` with the patched JSON.
 */
import { FieldPath, invalid } from '../../api/field-errors.js';
import { goQuote } from '../../api/go-format.js';
import type { FieldValidation } from '../../api/meta.js';
import { OBJECT_META_FIELDS } from '../../api/meta.js';
import { newBadRequest, newInvalid } from '../../api/status.js';
import { applyDefaults, prune } from '../crd/schema-api.js';
import type { ResourceInfo } from '../registry/resources.js';

/**
 * The unknown-field texts for `body` (pruned in place), defaults applied; throws for Strict.
 * `patchedJson`: the body is a patched object, whose JSON (before pruning) a Strict error quotes.
 */
export function checkCustomResourceFields(
  info: Pick<ResourceInfo, 'kind' | 'version' | 'custom'>,
  body: Record<string, unknown>,
  policy: FieldValidation,
  patchedJson?: string,
): string[] {
  const schema = info.custom?.schema;
  if (schema === undefined) return [];
  const pruned = [...prune(schema, body, { isResourceRoot: true }), ...pruneObjectMeta(body)];
  applyDefaults(schema, body);
  if (policy === 'Ignore' || pruned.length === 0) return [];
  const texts = pruned.map((p: string) => `unknown field ${goQuote(p)}`);
  if (policy === 'Warn') return texts;
  const detail = `strict decoding error: ${texts.join(', ')}`;
  if (patchedJson !== undefined) {
    throw newInvalid({ group: '', kind: '' }, '', [invalid(FieldPath.root('patch'), patchedJson, detail)]);
  }
  throw newBadRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${detail}`);
}

/**
 * Drops the metadata fields ObjectMeta does not have; their paths (`metadata.foo`). The decoder
 * keeps only ObjectMeta's fields under metadata (schemaobjectmeta.Coerce with dropInvalidFields).
 */
function pruneObjectMeta(body: Record<string, unknown>): string[] {
  const meta = body.metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return [];
  const out: string[] = [];
  for (const k of Object.keys(meta)) {
    if (OBJECT_META_FIELDS.includes(k)) continue;
    delete (meta as Record<string, unknown>)[k];
    out.push(`metadata.${k}`);
  }
  return out;
}
