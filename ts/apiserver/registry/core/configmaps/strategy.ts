/**
 * The ConfigMap strategy's validation (pkg/apis/core/validation ValidateConfigMap and
 * ValidateConfigMapUpdate, v1.32): keys, a key in both data and binaryData, the 1 MiB limit, and
 * `immutable`.
 */
import { type ErrorList, FieldPath, invalid, tooLong } from '../../../../api/field-errors.js';
import { isConfigMapKey } from '../../../../api/validation/formats.js';
import type { Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';
import { base64Length, MAX_SECRET_SIZE, stringMap, validateImmutableData } from '../secrets/strategy.js';

function validateConfigMap(o: Obj): ErrorList {
  const errs: ErrorList = [];
  const data = stringMap(o.data);
  const binary = stringMap(o.binaryData);
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    const path = FieldPath.root('data').key(key);
    for (const msg of isConfigMapKey(key)) errs.push(invalid(path, key, msg));
    if (Object.hasOwn(binary, key)) errs.push(invalid(path, key, 'duplicate of key present in binaryData'));
    total += new TextEncoder().encode(String(value)).length;
  }
  for (const [key, value] of Object.entries(binary)) {
    const path = FieldPath.root('binaryData').key(key);
    for (const msg of isConfigMapKey(key)) errs.push(invalid(path, key, msg));
    if (Object.hasOwn(data, key)) errs.push(invalid(path, key, 'duplicate of key present in data'));
    total += base64Length(value);
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong(FieldPath.root(''), MAX_SECRET_SIZE));
  return errs;
}

export const configMapStrategy: ResourceStrategy = {
  validate: (obj) => validateConfigMap(obj as Obj),
  update: {
    validateUpdate: (obj, old) => [
      ...validateImmutableData(obj as Obj, old as Obj, ['data', 'binaryData']),
      ...validateConfigMap(obj as Obj),
    ],
  },
};
