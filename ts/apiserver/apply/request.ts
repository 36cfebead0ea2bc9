/**
 * What the REST handlers ask of the field manager (k8s.io/apiserver pkg/endpoints/handlers:
 * create.go, update.go, patch.go applyPatcher, rest.go managerOrUserAgent): the manager's name,
 * the apply patch body, and the managed fields of a create or update.
 */
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, StatusError } from '../../api/status.js';
import { yamlToJson } from '../decode/yaml.js';
import type { ResourceInfo } from '../registry/resources.js';
import { applyConfiguration, recordUpdate } from './field-manager.js';
import type { Value } from './path.js';
import { builtinScope } from './scope.js';
import { valuesEqual } from './walk.js';

/** The apply patch content type (types.ApplyYAMLPatchType). */
export const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

/** FieldManagerMaxLength (k8s.io/apimachinery pkg/api/validation/objectmeta.go). */
const FIELD_MANAGER_MAX_LENGTH = 128;

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * managerOrUserAgent: the fieldManager option, else the User-Agent up to its first `/`, its
 * unprintable characters dropped and cut at 128 bytes (`kubectl/v1.32.4 (linux/amd64)` → `kubectl`).
 */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager !== undefined && fieldManager !== '') return fieldManager;
  const prefix = (userAgent ?? '').split('/')[0] ?? '';
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (!printable.test(ch)) continue;
    const n = new TextEncoder().encode(ch).length;
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/**
 * The apply patch as an object (applyPatcher: yaml.Unmarshal into a map), 400 as
 * `error decoding YAML: …` when it is not YAML or not a mapping.
 */
export function parseApplyPatch(text: string): Record<string, Value> {
  let json: string;
  try {
    json = yamlToJson(text);
  } catch (err) {
    if (err instanceof StatusError)
      throw newBadRequest(`error decoding YAML: error converting YAML to JSON: ${err.message}`);
    throw err;
  }
  const v = JSON.parse(json) as Value;
  if (v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    const t = Array.isArray(v)
      ? 'array'
      : typeof v === 'string'
        ? 'string'
        : typeof v === 'boolean'
          ? 'bool'
          : 'number';
    throw newBadRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${t} into Go value of type map[string]interface {}`,
    );
  }
  return v;
}

/**
 * Records the managed fields of a create (`live` undefined) or an update of `info` by `manager`
 * on `next` (FieldManager.UpdateNoErrors). A kind without a schema keeps none.
 */
export function recordWrite(
  info: ResourceInfo,
  subresource: string | undefined,
  live: KubeObject | undefined,
  next: KubeObject,
  manager: string,
  now: string,
): void {
  const scope = builtinScope(info, subresource ?? '');
  if (scope === undefined) {
    if (next.metadata !== undefined) delete next.metadata.managedFields;
    return;
  }
  recordUpdate(
    scope,
    live as Record<string, Value> | undefined,
    next as unknown as Record<string, Value>,
    manager,
    now,
  );
}

/**
 * The object an apply patch makes of `live` (undefined: it does not exist yet), with its managed
 * fields (FieldManager.Apply); 409 on conflicts unless `force`.
 */
export function applyWrite(
  info: ResourceInfo,
  subresource: string | undefined,
  live: KubeObject | undefined,
  config: Record<string, Value>,
  manager: string,
  force: boolean,
  now: string,
): Record<string, unknown> {
  const scope = builtinScope(info, subresource ?? '');
  if (scope === undefined) {
    throw new StatusError({
      status: 'Failure',
      message: `no type found for ${info.group === '' ? '' : `${info.group}/`}${info.version}, Kind=${info.kind}`,
      code: 500,
    });
  }
  const next = applyConfiguration(scope, live as Record<string, Value> | undefined, config, manager, force, now);
  // Nothing changed: the stored object as it is (its bytes too, so no write happens).
  if (live !== undefined && valuesEqual(next, live as unknown as Value))
    return structuredClone(live) as Record<string, unknown>;
  // The result shares values with the stored object and the configuration; the strategy edits it.
  return structuredClone(next);
}
