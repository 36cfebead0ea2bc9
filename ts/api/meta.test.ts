import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { GO_TYPES, type GoTypes } from '../../scripts/gen-api-types.mjs';
import type { KubeObject, ObjectMeta, Status } from './meta.js';
import { OBJECT_META_FIELDS } from './meta.js';
import type * as metav1 from './types/meta/v1.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const goTypes: GoTypes = JSON.parse(readFileSync(join(ROOT, GO_TYPES), 'utf8'));

describe('meta', () => {
  it('lists ObjectMeta’s fields in the order Go declares them', () => {
    expect(OBJECT_META_FIELDS).toEqual(goTypes.structs['meta/v1.ObjectMeta']?.map((f) => f.split(' ')[0]));
  });

  it('re-exports the generated meta/v1 types', () => {
    expectTypeOf<ObjectMeta>().toEqualTypeOf<metav1.ObjectMeta>();
    expectTypeOf<NonNullable<KubeObject['metadata']>>().toEqualTypeOf<metav1.ObjectMeta>();
  });

  it('types Status as kube-apiserver writes it, a metav1.Status', () => {
    expectTypeOf<Status>().toExtend<metav1.Status>();
    expectTypeOf<Status['kind']>().toEqualTypeOf<'Status'>();
    expectTypeOf<Status['metadata']>().toEqualTypeOf<metav1.ListMeta>();
    expectTypeOf<Status['reason']>().toEqualTypeOf<
      | ''
      | 'Unauthorized'
      | 'Forbidden'
      | 'NotFound'
      | 'AlreadyExists'
      | 'Conflict'
      | 'Gone'
      | 'Invalid'
      | 'ServerTimeout'
      | 'StorageReadError'
      | 'Timeout'
      | 'TooManyRequests'
      | 'BadRequest'
      | 'MethodNotAllowed'
      | 'NotAcceptable'
      | 'RequestEntityTooLarge'
      | 'UnsupportedMediaType'
      | 'InternalError'
      | 'Expired'
      | 'ServiceUnavailable'
      | undefined
    >();
  });
});
