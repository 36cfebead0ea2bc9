/**
 * A custom resource's validation (k8s.io/apiextensions-apiserver pkg/registry/customresource/
 * validator.go, v1.32) beyond the generic metadata checks the generic store runs: the name as a DNS
 * subdomain, the version's openAPIV3Schema (validateCustomResource), and with a scale subresource
 * the replicas at specReplicasPath / statusReplicasPath (int64, non-negative, at most MaxInt32) and
 * the label selector at labelSelectorPath (a string).
 */
import { type ErrorList, FieldPath, invalid } from '../../api/field-errors.js';
import type { KubeObject } from '../../api/meta.js';
import { nameIsDNSSubdomain } from '../../api/validation/names.js';
import type { ResourceInfo } from '../registry/resources.js';
import { validateCustomResource } from './schema-api.js';
import { isObj } from './types.js';

const MAX_INT32 = 2147483647;

/** field.NewPath(".spec.replicas"): the path as one element. */
const rawPath = (p: string): FieldPath => FieldPath.root(p);

/** unstructured.NestedFieldNoCopy along a `.a.b` path: the value, or undefined when absent. */
function nested(obj: unknown, path: string): { value: unknown; found: boolean } {
  let cur: unknown = obj;
  for (const f of path.replace(/^\./, '').split('.')) {
    if (!isObj(cur) || !Object.hasOwn(cur, f)) return { value: undefined, found: false };
    cur = cur[f];
  }
  return { value: cur, found: true };
}

/** Go's %T of a decoded JSON value. */
function goType(v: unknown): string {
  if (v === null) return '<nil>';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** %v of a decoded JSON value, as the accessor errors print it. */
function goValue(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (isObj(v)) {
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goValue(v[k])}`)
      .join(' ')}]`;
  }
  return String(v);
}

function replicasErrors(obj: KubeObject, path: string): ErrorList {
  const { value, found } = nested(obj, path);
  if (!found) return [];
  const jsonPath = `.${path.replace(/^\./, '')}`;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return [
      invalid(
        rawPath(path),
        0,
        `${jsonPath} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected int64`,
      ),
    ];
  }
  if (value < 0) return [invalid(rawPath(path), value, 'should be a non-negative integer')];
  if (value > MAX_INT32) return [invalid(rawPath(path), value, `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

function selectorErrors(obj: KubeObject, path: string): ErrorList {
  const { value, found } = nested(obj, path);
  if (!found || typeof value === 'string') return [];
  const jsonPath = `.${path.replace(/^\./, '')}`;
  return [
    invalid(
      rawPath(path),
      '',
      `${jsonPath} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected string`,
    ),
  ];
}

/** customResourceValidator.Validate / ValidateUpdate (mode main) / ValidateStatusUpdate (mode status). */
export function validateCustomResourceObject(
  info: ResourceInfo,
  obj: KubeObject,
  mode = 'main',
  create = false,
): ErrorList {
  const custom = info.custom;
  if (custom === undefined) return [];
  const errs: ErrorList = [];
  if (create) {
    const name = obj.metadata?.name ?? '';
    if (name !== '')
      for (const m of nameIsDNSSubdomain(name, false)) errs.push(invalid(FieldPath.root('metadata', 'name'), name, m));
  }
  if (custom.schema !== undefined) errs.push(...validateCustomResource(custom.schema, obj));
  const scale = custom.scale;
  if (scale !== undefined) {
    if (mode === 'main' && scale.specReplicasPath) errs.push(...replicasErrors(obj, scale.specReplicasPath));
    if (scale.statusReplicasPath) errs.push(...replicasErrors(obj, scale.statusReplicasPath));
    if (scale.labelSelectorPath) errs.push(...selectorErrors(obj, scale.labelSelectorPath));
  }
  return errs;
}
