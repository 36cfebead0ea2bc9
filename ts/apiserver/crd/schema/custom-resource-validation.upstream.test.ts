import { describe, expect, it } from 'vitest';
import { validateCustomResource } from './custom-resource-validation.js';
import type { JSONSchemaProps } from './types.js';

/**
 * apiextensions-apiserver pkg/apiserver/validation/validation_test.go TestValidateCustomResource,
 * ported without its CEL cases: objects that pass, and failing objects with the exact set of
 * error texts Kubernetes reports.
 */
interface Case {
  name: string;
  schema: JSONSchemaProps;
  objects?: Record<string, unknown>[];
  failing?: [Record<string, unknown>, string[]][];
}

const field = (s: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { field: s } });
const shapes = (): [string, unknown][] => [
  ['string', 'foo'],
  ['integer', 42],
  ['boolean', true],
  ['number', 1.2],
  ['array', []],
];
const typeErr = (t: string, want: string) =>
  `field: Invalid value: "${t}": field in body must be of type ${want}: "${t}"`;
const anyOfErrs = (t: string) => [
  '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
  typeErr(t, 'integer,string'),
  typeErr(t, 'integer'),
];

const cases: Case[] = [
  {
    name: '!nullable',
    schema: field({ type: 'object', nullable: false }),
    objects: [{}, { field: {} }],
    failing: [
      ...shapes().map(([t, v]): [Record<string, unknown>, string[]] => [{ field: v }, [typeErr(t, 'object')]]),
      [{ field: null }, [typeErr('null', 'object')]],
    ],
  },
  {
    name: 'nullable',
    schema: field({ type: 'object', nullable: true }),
    objects: [{}, { field: {} }, { field: null }],
    failing: shapes().map(([t, v]) => [{ field: v }, [typeErr(t, 'object')]]),
  },
  {
    name: 'nullable and no type',
    schema: field({ nullable: true }),
    objects: [
      {},
      { field: {} },
      { field: null },
      { field: 'foo' },
      { field: 42 },
      { field: true },
      { field: 1.2 },
      { field: [] },
    ],
  },
  {
    name: 'x-kubernetes-int-or-string',
    schema: field({ 'x-kubernetes-int-or-string': true }),
    objects: [{}, { field: 42 }, { field: 'foo' }],
    failing: [
      [{ field: null }, [typeErr('null', 'integer,string')]],
      [{ field: true }, [typeErr('boolean', 'integer,string')]],
      [{ field: 1.2 }, [typeErr('number', 'integer,string')]],
      [{ field: {} }, [typeErr('object', 'integer,string')]],
      [{ field: [] }, [typeErr('array', 'integer,string')]],
    ],
  },
  {
    name: 'nullable and x-kubernetes-int-or-string',
    schema: field({ nullable: true, 'x-kubernetes-int-or-string': true }),
    objects: [{}, { field: 42 }, { field: 'foo' }, { field: null }],
    failing: [
      [{ field: true }, [typeErr('boolean', 'integer,string')]],
      [{ field: 1.2 }, [typeErr('number', 'integer,string')]],
      [{ field: {} }, [typeErr('object', 'integer,string')]],
      [{ field: [] }, [typeErr('array', 'integer,string')]],
    ],
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provided anyOf',
    schema: field({
      nullable: true,
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'integer' }, { type: 'string' }],
    }),
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: [
      [{ field: true }, anyOfErrs('boolean')],
      [{ field: 1.2 }, anyOfErrs('number')],
      [{ field: {} }, anyOfErrs('object')],
      [{ field: [] }, anyOfErrs('array')],
    ],
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provider allOf',
    schema: field({
      nullable: true,
      'x-kubernetes-int-or-string': true,
      allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }],
    }),
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: (['boolean', 'number', 'object', 'array'] as const).map((t) => [
      { field: { boolean: true, number: 1.2, object: {}, array: [] }[t] },
      ['<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated', ...anyOfErrs(t)],
    ]),
  },
  {
    name: 'invalid regex',
    schema: field({ type: 'string', pattern: '+' }),
    failing: [
      [
        { field: 'foo' },
        [
          'field: Invalid value: "foo": field in body should match \'+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`\'',
        ],
      ],
    ],
  },
  {
    name: 'required field',
    schema: {
      type: 'object',
      required: ['field'],
      properties: { field: { type: 'object', required: ['nested'], properties: { nested: {} } } },
    },
    failing: [
      [{ test: 'a' }, ['field: Required value']],
      [{ field: {} }, ['field.nested: Required value']],
    ],
  },
  {
    name: 'enum',
    schema: field({
      type: 'object',
      required: ['nestedint', 'nestedstring'],
      properties: { nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } },
    }),
    failing: [
      [{ field: {} }, ['field.nestedint: Required value', 'field.nestedstring: Required value']],
      [
        { field: { nestedint: 'x', nestedstring: true } },
        [
          'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
          'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
          'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
          'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
        ],
      ],
    ],
  },
  {
    name: 'maxProperties',
    schema: { type: 'object', properties: { fieldX: { type: 'object', maxProperties: 2 } } },
    failing: [[{ fieldX: { a: true, b: true, c: true } }, ['fieldX: Too many: 3: must have at most 2 items']]],
  },
  {
    name: 'maxItems',
    schema: { type: 'object', properties: { fieldX: { type: 'array', maxItems: 2 } } },
    failing: [[{ fieldX: ['a', 'b', 'c'] }, ['fieldX: Too many: 3: must have at most 2 items']]],
  },
  {
    name: 'maxLength',
    schema: { type: 'object', properties: { fieldX: { type: 'string', maxLength: 2 } } },
    failing: [[{ fieldX: 'abc' }, ['fieldX: Too long: may not be more than 2 bytes']]],
  },
  // TestItemsProperty
  {
    name: 'items in object',
    schema: { properties: { spec: { properties: { replicas: { type: 'integer' } } } } },
    objects: [{ spec: { replicas: 1, items: ['1', '2'] } }],
  },
  {
    name: 'items in array',
    schema: { properties: { secrets: { type: 'array', items: { type: 'string' } } } },
    objects: [{ secrets: ['1', '2'] }],
  },
];

describe('validateCustomResource (upstream TestValidateCustomResource)', () => {
  for (const c of cases) {
    it(c.name, () => {
      for (const obj of c.objects ?? []) expect(validateCustomResource(c.schema, obj)).toEqual([]);
      for (const [obj, want] of c.failing ?? []) {
        const got = [...new Set(validateCustomResource(c.schema, obj).map((e) => e.message))].sort();
        expect(got).toEqual([...new Set(want)].sort());
      }
    });
  }
});
