import { describe, expect, it } from 'vitest';
import { FieldPath } from '../../../api/field-errors.js';
import { validateStructural } from './schema-validation.js';
import type { JSONSchemaProps } from './types.js';

/**
 * apiextensions-apiserver test/integration/validation_test.go TestNonStructuralSchemaCondition:
 * the create errors and NonStructuralSchema violations it expects (both are create errors for
 * apiextensions.k8s.io/v1, at spec.versions[i].schema.openAPIV3Schema).
 */
const PATH = FieldPath.root('spec').child('versions').index(0).child('schema', 'openAPIV3Schema');
const P = 'spec.versions[0].schema.openAPIV3Schema';

interface Case {
  desc: string;
  schema: JSONSchemaProps;
  /** Errors (paths relative to the schema) that must be among the reported ones; none when empty. */
  want: string[];
  unexpected?: string[];
}

const nestedForbidden = {
  type: 'string',
  additionalProperties: true,
  title: 'hello',
  description: 'world',
  nullable: true,
};
const intOrStringNested = {
  properties: {
    'int-or-string': { 'x-kubernetes-int-or-string': true },
    'embedded-resource': { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
  },
};
const missingTypes: Record<string, JSONSchemaProps> = {
  foo: { properties: { a: {} } },
  bar: { items: { additionalProperties: { properties: { a: {} }, items: {} } } },
  abc: { additionalProperties: { properties: { a: { items: { additionalProperties: { items: {} } } } } } },
};
const missingTypeErrors = [
  '.properties[foo].properties[a].type: Required value: must not be empty for specified object fields',
  '.properties[foo].type: Required value: must not be empty for specified object fields',
  '.properties[abc].additionalProperties.properties[a].items.additionalProperties.type: Required value: must not be empty for specified object fields',
  '.properties[abc].additionalProperties.properties[a].items.type: Required value: must not be empty for specified array items',
  '.properties[abc].additionalProperties.properties[a].type: Required value: must not be empty for specified object fields',
  '.properties[abc].additionalProperties.type: Required value: must not be empty for specified object fields',
  '.properties[abc].type: Required value: must not be empty for specified object fields',
  '.properties[bar].items.additionalProperties.items.type: Required value: must not be empty for specified array items',
  '.properties[bar].items.additionalProperties.properties[a].type: Required value: must not be empty for specified object fields',
  '.properties[bar].items.additionalProperties.type: Required value: must not be empty for specified object fields',
  '.properties[bar].items.type: Required value: must not be empty for specified array items',
  '.properties[bar].type: Required value: must not be empty for specified object fields',
  '.type: Required value: must not be empty at the root',
];
const incompleteJunctors: JSONSchemaProps = {
  not: {
    properties: {
      a: {},
      b: { not: { properties: { a: {}, b: { items: {} } } } },
      c: { items: { not: { items: { properties: { a: {} } } } } },
      d: { items: {} },
    },
  },
  allOf: [{ properties: { e: {} } }],
  anyOf: [{ properties: { f: {} } }],
  oneOf: [{ properties: { g: {} } }],
};

const cases: Case[] = [
  { desc: 'preserve unknown fields is false', schema: { type: 'object' }, want: [] },
  {
    desc: 'int-or-string and preserve-unknown-fields true',
    schema: { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-int-or-string': true },
    want: [
      '.x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true',
    ],
  },
  {
    desc: 'int-or-string and embedded-resource true',
    schema: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-int-or-string': true },
    want: ['.x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true'],
  },
  {
    desc: 'embedded-resource without preserve-unknown-fields',
    schema: { type: 'object', 'x-kubernetes-embedded-resource': true },
    want: [
      '.properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
    ],
  },
  {
    desc: 'embedded-resource without preserve-unknown-fields, but properties',
    schema: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } },
    },
    want: [],
  },
  {
    desc: 'embedded-resource with preserve-unknown-fields',
    schema: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    want: [],
  },
  {
    desc: 'embedded-resource with wrong type',
    schema: { type: 'array', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    want: ['.type: Invalid value: "array": must be object if x-kubernetes-embedded-resource is true'],
  },
  {
    desc: 'embedded-resource with empty type',
    schema: { type: '', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    want: ['.type: Required value: must be object if x-kubernetes-embedded-resource is true'],
  },
  { desc: 'no top-level type', schema: { type: '' }, want: ['.type: Required value: must not be empty at the root'] },
  {
    desc: 'non-object top-level type',
    schema: { type: 'integer' },
    want: ['.type: Invalid value: "integer": must be object at the root'],
  },
  {
    desc: 'forbidden in nested value validation',
    schema: {
      type: 'object',
      properties: { foo: { type: 'string' } },
      not: nestedForbidden,
      allOf: [{ properties: { foo: nestedForbidden } }],
      anyOf: [{ items: nestedForbidden }],
      oneOf: [{ properties: { foo: nestedForbidden } }],
    },
    want: [
      ...['anyOf[0].items', 'allOf[0].properties[foo]', 'oneOf[0].properties[foo]', 'not'].flatMap((p) => [
        `.${p}.type: Forbidden: must be empty to be structural`,
        `.${p}.additionalProperties: Forbidden: must be undefined to be structural`,
        `.${p}.title: Forbidden: must be empty to be structural`,
        `.${p}.description: Forbidden: must be empty to be structural`,
        `.${p}.nullable: Forbidden: must be false to be structural`,
      ]),
      `.items: Required value: because it is defined in ${P}.anyOf[0].items`,
    ],
    unexpected: [`${P}.not.default`],
  },
  {
    desc: 'invalid regex pattern',
    schema: { type: 'object', properties: { foo: { type: 'string', pattern: '+' } } },
    want: [
      '.properties[foo].pattern: Invalid value: "+": must be a valid regular expression, but isn\'t: error parsing regexp: missing argument to repetition operator: `+`',
    ],
  },
  {
    desc: 'forbidden vendor extensions in nested value validation',
    schema: {
      type: 'object',
      properties: {
        'int-or-string': { 'x-kubernetes-int-or-string': true },
        'embedded-resource': {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
      not: intOrStringNested,
      allOf: [intOrStringNested],
      anyOf: [intOrStringNested],
      oneOf: [intOrStringNested],
    },
    want: ['allOf[0]', 'anyOf[0]', 'oneOf[0]', 'not'].flatMap((j) => [
      `.${j}.properties[embedded-resource].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
      `.${j}.properties[embedded-resource].x-kubernetes-embedded-resource: Forbidden: must be false to be structural`,
      `.${j}.properties[int-or-string].x-kubernetes-int-or-string: Forbidden: must be false to be structural`,
    ]),
  },
  {
    desc: 'missing types with extensions',
    schema: {
      properties: {
        ...missingTypes,
        json: { 'x-kubernetes-preserve-unknown-fields': true, properties: { a: {} } },
        'int-or-string': { 'x-kubernetes-int-or-string': true, properties: { a: {} } },
      },
    },
    want: [
      ...missingTypeErrors,
      '.properties[int-or-string].properties[a].type: Required value: must not be empty for specified object fields',
      '.properties[json].properties[a].type: Required value: must not be empty for specified object fields',
    ],
  },
  { desc: 'missing types without extensions', schema: { properties: missingTypes }, want: missingTypeErrors },
  {
    desc: 'int-or-string variants',
    schema: {
      type: 'object',
      properties: {
        a: { 'x-kubernetes-int-or-string': true },
        b: {
          'x-kubernetes-int-or-string': true,
          anyOf: [{ type: 'integer' }, { type: 'string' }],
          allOf: [{ pattern: 'abc' }],
        },
        c: {
          'x-kubernetes-int-or-string': true,
          allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: 'abc' }, { pattern: 'abc' }],
        },
        d: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string', pattern: 'abc' }] },
        e: {
          'x-kubernetes-int-or-string': true,
          allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string', pattern: 'abc' }] }, { pattern: 'abc' }],
        },
        f: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }, { pattern: 'abc' }] },
        g: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    },
    want: [
      '.properties[d].anyOf[0].type: Forbidden: must be empty to be structural',
      '.properties[d].anyOf[1].type: Forbidden: must be empty to be structural',
      '.properties[e].allOf[0].anyOf[0].type: Forbidden: must be empty to be structural',
      '.properties[e].allOf[0].anyOf[1].type: Forbidden: must be empty to be structural',
      '.properties[f].anyOf[0].type: Forbidden: must be empty to be structural',
      '.properties[f].anyOf[1].type: Forbidden: must be empty to be structural',
      '.properties[g].anyOf[0].type: Forbidden: must be empty to be structural',
      '.properties[g].anyOf[1].type: Forbidden: must be empty to be structural',
    ],
    unexpected: [`${P}.properties[a]`, `${P}.properties[b]`, `${P}.properties[c]`],
  },
  {
    desc: 'forbidden additionalProperties at the root',
    schema: { type: 'object', additionalProperties: false },
    want: ['.additionalProperties: Forbidden: must not be used at the root'],
  },
  {
    desc: 'structural incomplete',
    schema: {
      type: 'object',
      properties: {
        b: { type: 'object', properties: { b: { type: 'array' } } },
        c: { type: 'array', items: { type: 'object' } },
        d: { type: 'array' },
      },
      ...incompleteJunctors,
    },
    want: [
      `.properties[d].items: Required value: because it is defined in ${P}.not.properties[d].items`,
      `.properties[a]: Required value: because it is defined in ${P}.not.properties[a]`,
      `.properties[b].properties[a]: Required value: because it is defined in ${P}.not.properties[b].not.properties[a]`,
      `.properties[b].properties[b].items: Required value: because it is defined in ${P}.not.properties[b].not.properties[b].items`,
      `.properties[c].items.items: Required value: because it is defined in ${P}.not.properties[c].items.not.items`,
      `.properties[e]: Required value: because it is defined in ${P}.allOf[0].properties[e]`,
      `.properties[f]: Required value: because it is defined in ${P}.anyOf[0].properties[f]`,
      `.properties[g]: Required value: because it is defined in ${P}.oneOf[0].properties[g]`,
    ],
  },
  {
    desc: 'structural complete',
    schema: {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'string' } } } },
        c: {
          type: 'array',
          items: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        d: { type: 'array', items: { type: 'string' } },
        e: { type: 'string' },
        f: { type: 'string' },
        g: { type: 'string' },
      },
      ...incompleteJunctors,
    },
    want: [],
  },
  {
    desc: 'metadata with non-properties',
    schema: { type: 'object', properties: { metadata: { minimum: 42.0 } } },
    want: [
      '.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
      '.properties[metadata].type: Required value: must not be empty for specified object fields',
    ],
  },
  {
    desc: 'metadata with other properties',
    schema: {
      type: 'object',
      properties: {
        metadata: { properties: { name: { pattern: '^[a-z]+$' }, labels: { type: 'object', maxLength: 4 } } },
      },
    },
    want: [
      '.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
      '.properties[metadata].type: Required value: must not be empty for specified object fields',
      '.properties[metadata].properties[name].type: Required value: must not be empty for specified object fields',
    ],
  },
  ...(['name', 'generateName', 'both'] as const).map(
    (which): Case => ({
      desc: `metadata with ${which} property`,
      schema: {
        type: 'object',
        properties: {
          metadata: {
            type: 'object',
            properties:
              which === 'both'
                ? {
                    name: { type: 'string', pattern: '^[a-z]+$' },
                    generateName: { type: 'string', pattern: '^[a-z]+$' },
                  }
                : { [which]: { type: 'string', pattern: '^[a-z]+$' } },
          },
        },
      },
      want: [],
    }),
  ),
  {
    desc: 'metadata under junctors',
    schema: {
      type: 'object',
      properties: { metadata: { type: 'object', properties: { name: { type: 'string', pattern: '^[a-z]+$' } } } },
      allOf: [{ properties: { metadata: {} } }],
      anyOf: [{ properties: { metadata: {} } }],
      oneOf: [{ properties: { metadata: {} } }],
      not: { properties: { metadata: {} } },
    },
    want: ['anyOf[0]', 'allOf[0]', 'oneOf[0]', 'not'].map(
      (j) => `.${j}.properties[metadata]: Forbidden: must not be specified in a nested context`,
    ),
  },
  {
    desc: 'missing items for array',
    schema: { type: 'object', properties: { slice: { type: 'array' } } },
    want: ['.properties[slice].items: Required value: must be specified'],
  },
  {
    desc: 'items slice',
    schema: {
      type: 'object',
      properties: { slice: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } },
    },
    want: ['.properties[slice].items: Forbidden: items must be a schema object and not an array'],
  },
  {
    desc: 'items slice in value validation',
    schema: {
      type: 'object',
      properties: { slice: { type: 'array', items: { type: 'string' }, not: { items: [{ type: 'string' }] } } },
    },
    want: ['.properties[slice].not.items: Forbidden: items must be a schema object and not an array'],
  },
];

describe('validateStructural (upstream TestNonStructuralSchemaCondition)', () => {
  for (const c of cases) {
    it(c.desc, () => {
      const got = validateStructural(c.schema, PATH).map((e) => e.message);
      if (c.want.length === 0) expect(got).toEqual([]);
      else expect(got).toEqual(expect.arrayContaining(c.want.map((w) => `${P}${w}`)));
      for (const u of c.unexpected ?? []) expect(got.filter((m) => m.includes(u))).toEqual([]);
    });
  }
});
