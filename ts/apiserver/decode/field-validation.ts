/**
 * fieldValidation=Strict|Warn|Ignore and the decoding errors kube-apiserver reports for built-in
 * types (k8s.io/apimachinery/pkg/runtime/serializer/json: sigs.k8s.io/json UnmarshalStrict for
 * Strict and Warn, UnmarshalCaseSensitivePreserveInts for Ignore), against the kinds' OpenAPI
 * schemas (openapi/k8s-1.32.2.json) with go-decoder.ts:
 *
 * - unknown and duplicate fields at any depth (`unknown field "spec.template.spec.containers[0].x"`):
 *   Strict → 400 `<Kind> in version "v1" cannot be handled as a <Kind>: strict decoding error: …`,
 *   Warn → the same texts as `Warning` headers, Ignore → nothing; either way they are dropped from
 *   the object, which the Go struct could not have held;
 * - type errors whatever the policy: 400 with Go's text (`json: cannot unmarshal string into Go
 *   struct field DeploymentSpec.spec.replicas of type int32`);
 * - patches as handlers/patch.go checks them: the patch decoded strictly, then the patched object;
 *   errors are 422 Invalid on `patch`.
 *
 * JSON.parse keeps only the last of duplicate keys, so the check reads the request text when it
 * has it (withRawJson, set by codec.ts parseJsonObject); a body built in memory is walked as a value.
 * A clean body — the common case — is proven clean from the parsed value and one scan of the text
 * (go-decoder.ts decodesCleanly); only a body that may have something to report is parsed again.
 */
import { FieldPath, invalid } from '../../api/field-errors.js';
import { compareGo, goFloat, goQuote } from '../../api/go-format.js';
import type { FieldValidation } from '../../api/meta.js';
import { newBadRequest, newInvalid } from '../../api/status.js';
import {
  type OpenApiData,
  openApiDataIfLoaded,
  SCHEMA_REF_PREFIX,
  type Schema,
  schemaOfKind,
} from '../openapi/data.js';
import type { ResourceInfo } from '../registry/resources.js';
import { checkCustomResourceFields } from './custom-resource-fields.js';
import {
  type DecodeResult,
  decodeAgainstSchema,
  decodesCleanly,
  dropUnknownFields,
  jsonNodeOf,
  parseJsonNode,
} from './go-decoder.js';
import { faithfulParse } from './go-json.js';

/** The query parameter, checked (`fieldValidation` accepts only the three values). */
export function parseFieldValidation(value: string | null): FieldValidation {
  if (value === null || value === '') return 'Warn'; // the server's default since 1.27
  if (value === 'Strict' || value === 'Warn' || value === 'Ignore') return value;
  throw newBadRequest(`fieldValidation must be one of "Ignore", "Warn", "Strict", got "${value}"`);
}

// ---------------------------------------------------------------------------------------------
// The kinds' schemas and the request-facing check.

/** A body's request text, and the strings it escapes when its parse was faithful (go-json.ts faithfulParse). */
const rawJson = new WeakMap<object, { text: string; escaped: ReadonlySet<string> | undefined }>();
const patchSources = new WeakMap<object, { type: string; text: string }>();

/**
 * Remembers the request text `obj` was parsed from, so the check can see duplicate keys. `obj` must
 * be JSON.parse(text) (or a structuredClone of it), unchanged so far: what the fast path needs to
 * know of the text is taken now. Only checkTypeMeta may change it before the check.
 */
export function withRawJson<T extends object>(obj: T, text: string): T {
  if (rawJson.get(obj)?.text === text) return obj; // recorded when it was parsed
  rawJson.set(obj, { text, escaped: faithfulParse(text, obj)?.escaped });
  return obj;
}

/** Marks `patched` as the result of a PATCH of `type` with body `text`: it is checked as kube-apiserver checks patches. */
export function withPatchSource<T extends object>(patched: T, type: string, text: string): T {
  patchSources.set(patched, { type, text });
  return patched;
}

/**
 * Decodes a request body as kube-apiserver does and applies the policy: throws 400 BadRequest for
 * a type error (any policy) or, with Strict, for unknown/duplicate fields; returns the warning
 * texts with Warn; nothing with Ignore. A patched object (withPatchSource) is checked as
 * handlers/patch.go does instead.
 */
export function checkUnknownFields(
  info: Pick<ResourceInfo, 'group' | 'version' | 'kind' | 'fields' | 'custom'>,
  body: Record<string, unknown>,
  policy: FieldValidation,
): string[] {
  // Custom resources: their CRD's structural schema prunes and defaults (custom-resource-fields.ts).
  if (info.custom !== undefined) {
    return checkCustomResourceFields(info, body, policy, patchSources.has(body) ? goJson(body) : undefined);
  }
  const data = openApiDataIfLoaded();
  const schema = schemaOfKind(info.group, info.version, info.kind);
  let result: DecodeResult;
  if (data === undefined || schema === undefined) {
    // A kind the Kubernetes schemas do not have: only its top-level fields are known.
    const known = new Set(['apiVersion', 'kind', 'metadata', ...info.fields]);
    result = {
      strict: Object.keys(body)
        .filter((k) => !known.has(k))
        .map((k) => `unknown field ${goQuote(k)}`),
    };
    if (policy === 'Ignore') return [];
  } else {
    const patch = patchSources.get(body);
    if (patch !== undefined) {
      const warnings = checkPatched(data, schema, body, policy, patch);
      dropUnknownFields(data.schemas, schema, body);
      return warnings;
    }
    const raw = rawJson.get(body);
    const strict = policy !== 'Ignore';
    // The common case, a clean body, proven without parsing the text again (go-decoder.ts).
    if (raw?.escaped !== undefined && decodesCleanly(data.schemas, schema, body, raw.escaped, strict)) {
      result = { strict: [] };
    } else {
      const node = raw !== undefined ? parseJsonNode(raw.text) : jsonNodeOf(body);
      result = decodeAgainstSchema(data.schemas, schema, node, strict, false, data.goTypes);
    }
    // The Go struct has nowhere to keep them: what Warn and Ignore let through is not stored. A
    // strict walk that reported nothing saw every field and found none unknown: nothing to drop.
    const clean = policy !== 'Ignore' && result.strict.length === 0;
    if (result.error === undefined && !clean) dropUnknownFields(data.schemas, schema, body);
  }
  // handlers/rest.go transformDecodeError.
  const prefix = `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: `;
  if (result.error !== undefined) throw newBadRequest(`${prefix}${result.error}`);
  if (result.strict.length === 0) return [];
  // runtime.strictDecodingError.Error().
  if (policy === 'Strict') throw newBadRequest(`${prefix}strict decoding error: ${result.strict.join(', ')}`);
  return result.strict;
}

// handlers/patch.go jsonPatchOp: what UnmarshalStrict decodes a JSON patch into.
const JSON_PATCH_OPS: Schema = {
  type: 'array',
  items: { $ref: `${SCHEMA_REF_PREFIX}k8s.io.apiserver.pkg.endpoints.handlers.jsonPatchOp` },
};
const JSON_PATCH_OP: Schema = {
  type: 'object',
  properties: { op: { type: 'string' }, path: { type: 'string' }, from: { type: 'string' }, value: {} },
};
const MAP_OF_ANY: Schema = { type: 'object', additionalProperties: {} };

/**
 * handlers/patch.go for PATCH bodies: the patch is decoded strictly first (duplicate fields, and
 * for a JSON patch unknown fields of its operations, prefixed `json patch `); then the patched
 * object — JSON (keys sorted, as json-patch re-marshals it) for JSON and merge patches, the
 * unstructured map for strategic merge patches — into the kind. Errors are 422 Invalid on `patch`
 * with the patched JSON, or for strategic merge patches the patch map printed with %+v.
 */
function checkPatched(
  data: OpenApiData,
  schema: Schema,
  patched: Record<string, unknown>,
  policy: FieldValidation,
  patch: { type: string; text: string },
): string[] {
  const { schemas, goTypes } = data;
  const strict = policy !== 'Ignore';
  const smp = patch.type === 'application/strategic-merge-patch+json';
  const patchErrors: string[] = [];
  if (strict) {
    const isJsonPatch = patch.type === 'application/json-patch+json';
    const patchSchemas = isJsonPatch
      ? { ...schemas, 'k8s.io.apiserver.pkg.endpoints.handlers.jsonPatchOp': JSON_PATCH_OP }
      : schemas;
    const decoded = decodeAgainstSchema(
      patchSchemas,
      isJsonPatch ? JSON_PATCH_OPS : MAP_OF_ANY,
      parseJsonNode(patch.text),
      true,
    );
    if (decoded.error !== undefined) {
      throw newBadRequest(smp ? decoded.error : `error decoding patch: ${decoded.error}`);
    }
    for (const e of decoded.strict) patchErrors.push(isJsonPatch ? `json patch ${e}` : e);
  }
  const value = smp ? goPlusV(JSON.parse(patch.text)) : goJson(patched);
  const result = smp
    ? decodeAgainstSchema(schemas, schema, jsonNodeOf(patched), strict, true, goTypes)
    : decodeAgainstSchema(schemas, schema, parseJsonNode(value), strict, false, goTypes);
  const invalidPatch = (detail: string) =>
    newInvalid({ group: '', kind: '' }, '', [invalid(FieldPath.root('patch'), value, detail)]);
  if (result.error !== undefined) throw invalidPatch(result.error);
  const all = [...patchErrors, ...result.strict];
  if (all.length === 0) return [];
  if (policy === 'Strict') throw invalidPatch(`strict decoding error: ${all.join(', ')}`);
  return all;
}

/** Go's json.Marshal of a map-based document: keys sorted, <, > and & escaped. */
function goJson(v: unknown): string {
  const sortKeys = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sortKeys);
    if (x === null || typeof x !== 'object') return x;
    const out: Record<string, unknown> = {};
    // defineProperty: a `__proto__` key must stay a field, not become out's prototype.
    for (const k of Object.keys(x).sort(compareGo)) {
      Object.defineProperty(out, k, {
        value: sortKeys((x as Record<string, unknown>)[k]),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return out;
  };
  return JSON.stringify(sortKeys(v))
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** fmt's %+v of a decoded JSON value (map[string]interface{} with int64s): `map[a:1 b:[x y]]`. */
function goPlusV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goPlusV).join(' ')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v).sort(compareGo);
    return `map[${keys.map((k) => `${k}:${goPlusV((v as Record<string, unknown>)[k])}`).join(' ')}]`;
  }
  if (typeof v === 'number') return goFloat(v);
  return String(v);
}
