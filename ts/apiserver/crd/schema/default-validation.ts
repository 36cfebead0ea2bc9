/**
 * Defaults in a CRD schema must validate against their own schema and be pruned
 * (apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go ValidateDefaults, with
 * requirePrunedDefaults as for apiextensions.k8s.io/v1). Defaults inside the metadata of an embedded
 * resource are checked in a surrounding object, as Kubernetes builds one.
 */
import { errorListMessage, type FieldError, type FieldPath, invalid } from '../../../api/field-errors.js';
import { validateAgainstSchema } from './custom-resource-validation.js';
import { validateEmbeddedResources } from './embedded-resource.js';
import { goBadValue } from './go-values.js';
import { prune } from './pruning.js';
import { deepCopy, deepEqual, itemsSchema, type JSONObject, type JSONSchemaProps } from './types.js';

const META = new Set(['metadata', 'apiVersion', 'kind']);

/** A function placing a value at the position of the field being defaulted (SurroundingObjectFunc). */
type Surround = (v: unknown) => unknown;

/** NewRootObjectFunc().WithTypeMeta({validation/v1, Validation}). */
function rootSurround(): Surround {
  return (v) => {
    const obj: JSONObject = { ...(v as JSONObject) };
    if (!Object.hasOwn(obj, 'kind')) obj.kind = 'Validation';
    if (!Object.hasOwn(obj, 'apiVersion')) obj.apiVersion = 'validation/v1';
    return obj;
  };
}

/** ValidateDefaults(pth, s, isResourceRoot=true, requirePrunedDefaults=true). */
export function validateDefaults(path: FieldPath, schema: JSONSchemaProps): FieldError[] {
  const root =
    schema['x-kubernetes-embedded-resource'] === true ? schema : { ...schema, 'x-kubernetes-embedded-resource': true };
  return walk(path, root, root, rootSurround(), false);
}

function walk(
  path: FieldPath,
  s: JSONSchemaProps | undefined,
  rootSchema: JSONSchemaProps,
  f: Surround,
  insideMeta: boolean,
): FieldError[] {
  if (s === undefined) return [];
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (embedded) {
    insideMeta = false;
    f = rootSurround();
    rootSchema = s;
  }
  const errs: FieldError[] = [];
  const def = s.default;
  if (def !== undefined && def !== null) {
    const dpath = path.child('default');
    if (insideMeta) {
      const obj = f(deepCopy(def));
      const metaErrs = validateEmbeddedResources(undefined, obj, rootSchema, true);
      if (metaErrs.length > 0) {
        errs.push(invalid(dpath, goBadValue(def), `must result in valid metadata: ${errorListMessage(metaErrs)}`));
      } else {
        errs.push(...validateAgainstSchema(dpath, s, def));
      }
    } else {
      const pruned = deepCopy(def);
      prune(s, pruned, { isResourceRoot: embedded });
      if (!deepEqual(pruned, def)) errs.push(invalid(dpath, goBadValue(def), 'must not have unknown fields'));
      const metaErrs = validateEmbeddedResources(dpath, def, s, embedded);
      if (metaErrs.length > 0) errs.push(...metaErrs);
      else errs.push(...validateAgainstSchema(dpath, s, def));
    }
  }
  // additionalProperties is not followed: defaults are forbidden there.
  const items = itemsSchema(s);
  if (items !== undefined) {
    errs.push(...walk(path.child('items'), items, rootSchema, (v) => f([v]), insideMeta));
  }
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    const subInside = insideMeta || (embedded && META.has(k));
    errs.push(...walk(path.child('properties').key(k), sub, rootSchema, (v) => f({ [k]: v }), subInside));
  }
  return errs;
}
