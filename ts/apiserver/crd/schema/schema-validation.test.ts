import { describe, expect, it } from 'vitest';
import { FieldPath } from '../../../api/field-errors.js';
import { validateStructural } from './schema-validation.js';
import type { JSONSchemaProps } from './types.js';

const PATH = FieldPath.root('spec').child('versions').index(0).child('schema', 'openAPIV3Schema');
const P = 'spec.versions[0].schema.openAPIV3Schema';

function errs(schema: JSONSchemaProps, opts = {}): string[] {
  return validateStructural(schema, PATH, opts).map((e) => e.message);
}

function root(props: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps {
  return { type: 'object', properties: props, ...extra };
}

describe('validateStructural: structural invariants', () => {
  it('accepts a typical schema', () => {
    expect(
      errs(
        root({
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { type: 'object' },
          spec: {
            type: 'object',
            properties: {
              replicas: { type: 'integer', default: 1, minimum: 0 },
              port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
              tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
              labels: { type: 'object', additionalProperties: { type: 'string' } },
              extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
          status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        }),
      ),
    ).toEqual([]);
  });

  const cases: [string, JSONSchemaProps, string[]][] = [
    ['a root without type', { properties: {} }, [`${P}.type: Required value: must not be empty at the root`]],
    ['a non-object root', { type: 'string' }, [`${P}.type: Invalid value: "string": must be object at the root`]],
    [
      'a field without type',
      root({ spec: { properties: { a: { type: 'string' } } } }),
      [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`],
    ],
    [
      'array items without type',
      root({ list: { type: 'array', items: {} } }),
      [`${P}.properties[list].items.type: Required value: must not be empty for specified array items`],
    ],
    [
      'an array without items',
      root({ list: { type: 'array' } }),
      [`${P}.properties[list].items: Required value: must be specified`],
    ],
    [
      'additionalProperties at the root',
      { type: 'object', additionalProperties: { type: 'string' } },
      [`${P}.additionalProperties: Forbidden: must not be used at the root`],
    ],
    [
      'a nested type in anyOf',
      root({ a: { type: 'string', anyOf: [{ type: 'string', maxLength: 3 }, { minLength: 5 }] } }),
      [`${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`],
    ],
    [
      'defaults, descriptions and extensions nested in value validations',
      root({
        a: {
          type: 'string',
          allOf: [
            {
              default: 'x',
              description: 'd',
              nullable: true,
              'x-kubernetes-preserve-unknown-fields': true,
              'x-kubernetes-list-type': 'atomic',
            },
          ],
        },
      }),
      [
        `${P}.properties[a].allOf[0].default: Forbidden: must be undefined to be structural`,
        `${P}.properties[a].allOf[0].description: Forbidden: must be empty to be structural`,
        `${P}.properties[a].allOf[0].nullable: Forbidden: must be false to be structural`,
        `${P}.properties[a].allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
        `${P}.properties[a].allOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
        // the OpenAPI rules look into allOf too
        `${P}.properties[a].allOf[0].type: Required value: must be array if x-kubernetes-list-type is specified`,
      ],
    ],
    [
      'metadata in a nested context',
      root({ spec: { type: 'object', not: { properties: { metadata: {} } } } }),
      [`${P}.properties[spec].not.properties[metadata]: Forbidden: must not be specified in a nested context`],
    ],
    [
      'a value validation naming a property the schema lacks',
      root({ a: { type: 'string' } }, { anyOf: [{ properties: { b: { maxLength: 1 } } }] }),
      [`${P}.properties[b]: Required value: because it is defined in ${P}.anyOf[0].properties[b]`],
    ],
    [
      'metadata restricting more than name',
      root({ metadata: { type: 'object', properties: { labels: { type: 'object' } } } }),
      [
        `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      ],
    ],
    [
      'metadata of a non-object type',
      root({ metadata: { type: 'string' } }),
      [`${P}.properties[metadata].type: Invalid value: "string": must be object`],
    ],
    [
      'metadata restricting name only',
      root({ metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } }),
      [],
    ],
    [
      'kind of the wrong type',
      root({ kind: { type: 'integer' } }),
      [`${P}.properties[kind].type: Invalid value: "integer": must be string`],
    ],
    [
      'int-or-string with preserve-unknown-fields',
      root({ a: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true } }),
      [
        `${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      ],
    ],
    [
      'an embedded resource of the wrong type',
      root({
        t: { type: 'string', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      }),
      [`${P}.properties[t].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`],
    ],
    [
      'an embedded resource without properties',
      root({ t: { type: 'object', 'x-kubernetes-embedded-resource': true } }),
      [
        `${P}.properties[t].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      ],
    ],
    [
      'an invalid pattern',
      root({ a: { type: 'string', pattern: '[a-z' } }),
      [
        `${P}.properties[a].pattern: Invalid value: "[a-z": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: \`[a-z\``,
      ],
    ],
  ];
  for (const [name, schema, want] of cases) {
    it(name, () => {
      expect(errs(schema)).toEqual(want);
    });
  }
});

describe('validateStructural: OpenAPI schema rules', () => {
  const cases: [string, JSONSchemaProps, string[]][] = [
    [
      'an unknown type',
      root({ a: { type: 'foo' } }),
      [
        `${P}.properties[a].type: Unsupported value: "foo": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      ],
    ],
    [
      'type null',
      root({ a: { type: 'null' } }),
      [
        `${P}.properties[a].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
        `${P}.properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
      ],
    ],
    [
      'uniqueItems',
      root({ a: { type: 'array', items: { type: 'string' }, uniqueItems: true } }),
      [
        `${P}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      ],
    ],
    [
      'properties with additionalProperties',
      root({ a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: { type: 'string' } } }),
      [`${P}.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`],
    ],
    ['$ref', root({ a: { $ref: '#/x' } }), [`${P}.properties[a].$ref: Forbidden: $ref is not supported`]],
    [
      'nullable at the root',
      { type: 'object', nullable: true },
      [`${P}.nullable: Forbidden: nullable cannot be true at the root`],
    ],
    [
      'a default in top-level metadata',
      root({ metadata: { type: 'object', default: {} } }),
      [`${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`],
    ],
    [
      'preserve-unknown-fields false',
      root({ a: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } }),
      [`${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`],
    ],
    [
      'list-type on a non-array',
      root({ a: { type: 'string', 'x-kubernetes-list-type': 'set' } }),
      [`${P}.properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`],
    ],
    [
      'an unknown list-type',
      root({ a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' } }),
      [`${P}.properties[a].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`],
    ],
    [
      'a map list without keys',
      root({
        a: {
          type: 'array',
          items: { type: 'object', properties: { n: { type: 'string' } } },
          'x-kubernetes-list-type': 'map',
        },
      }),
      [
        `${P}.properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
      ],
    ],
    [
      'a map list key that is not required and has no default',
      root({
        a: {
          type: 'array',
          items: { type: 'object', properties: { n: { type: 'string' } } },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['n', 'm'],
        },
      }),
      [
        `${P}.properties[a].x-kubernetes-list-map-keys: Invalid value: []string{"n", "m"}: entries must all be names of item properties`,
        `${P}.properties[a].items.properties[n].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      ],
    ],
    [
      'a set of non-atomic objects',
      root({ a: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'set' } }),
      [
        `${P}.properties[a].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
      ],
    ],
    [
      'map-type on a non-object',
      root({ a: { type: 'string', 'x-kubernetes-map-type': 'atomic' } }),
      [`${P}.properties[a].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`],
    ],
    [
      'x-kubernetes-validations fields',
      root({ a: { type: 'string', 'x-kubernetes-validations': [{ rule: ' ' }, { rule: 'self.x', reason: 'Nope' }] } }),
      [
        `${P}.properties[a].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
        `${P}.properties[a].x-kubernetes-validations[1].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      ],
    ],
  ];
  for (const [name, schema, want] of cases) {
    it(name, () => {
      expect(errs(schema)).toEqual(want);
    });
  }

  it('the status subresource restricts the root', () => {
    expect(errs({ type: 'string' }, { statusSubresource: true })[0]).toBe(
      `${P}.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
    );
    expect(errs(root({}, { minProperties: 1 }), { statusSubresource: true })[0]).toMatch(
      /only \[Description Type .* XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/,
    );
    expect(
      errs(root({}, { description: 'ok', required: ['spec'], properties: { spec: { type: 'object' } } }), {
        statusSubresource: true,
      }),
    ).toEqual([]);
  });
});

describe('validateStructural: defaults', () => {
  const cases: [string, JSONSchemaProps, string[]][] = [
    ['a valid default', root({ n: { type: 'integer', default: 3, maximum: 5 } }), []],
    [
      'a default of the wrong type',
      root({ n: { type: 'integer', default: 'three' } }),
      [`${P}.properties[n].default: Invalid value: "string":  in body must be of type integer: "string"`],
    ],
    [
      'a default outside its own bounds',
      root({ n: { type: 'integer', default: 9, maximum: 5 } }),
      [`${P}.properties[n].default: Invalid value: 9:  in body should be less than or equal to 5`],
    ],
    [
      'an object default with a bad field',
      root({ o: { type: 'object', properties: { a: { type: 'string', enum: ['x'] } }, default: { a: 'y' } } }),
      [`${P}.properties[o].default.a: Unsupported value: "y": supported values: "x"`],
    ],
    [
      'an unpruned default',
      root({ o: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } } }),
      [
        `${P}.properties[o].default: Invalid value: map[string]interface {}{"a":"x", "b":"y"}: must not have unknown fields`,
      ],
    ],
    [
      'a default under preserve-unknown-fields may have anything',
      root({ o: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { a: 1 } } }),
      [],
    ],
    [
      'a default of an item',
      root({ l: { type: 'array', items: { type: 'string', default: 5 } } }),
      [`${P}.properties[l].items.default: Invalid value: "integer":  in body must be of type string: "integer"`],
    ],
    [
      'a default of an embedded resource must carry apiVersion and kind',
      root({
        t: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
          default: { spec: {} },
        },
      }),
      [`${P}.properties[t].default.apiVersion: Required value`, `${P}.properties[t].default.kind: Required value`],
    ],
  ];
  for (const [name, schema, want] of cases) {
    it(name, () => {
      expect(errs(schema)).toEqual(want);
    });
  }

  it('skips defaults while the schema is not structural', () => {
    expect(errs(root({ n: { default: 'x' } }))).toEqual([
      `${P}.properties[n].type: Required value: must not be empty for specified object fields`,
    ]);
  });
});

describe('validateStructural: a controller-gen style schema', () => {
  const quantity: JSONSchemaProps = {
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern:
      '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
    'x-kubernetes-int-or-string': true,
  };
  const schema: JSONSchemaProps = {
    description: 'Widget is the Schema for the widgets API',
    type: 'object',
    properties: {
      apiVersion: { description: 'APIVersion defines…', type: 'string' },
      kind: { description: 'Kind is…', type: 'string' },
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        required: ['image'],
        'x-kubernetes-validations': [{ rule: 'self.replicas <= 10', message: 'too many' }],
        properties: {
          image: { type: 'string', minLength: 1 },
          replicas: { type: 'integer', format: 'int32', default: 1, minimum: 0 },
          resources: { type: 'object', additionalProperties: quantity },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
            items: {
              type: 'object',
              required: ['containerPort'],
              properties: {
                containerPort: { type: 'integer', format: 'int32' },
                protocol: { type: 'string', default: 'TCP' },
              },
            },
          },
          selector: {
            type: 'object',
            'x-kubernetes-map-type': 'atomic',
            properties: { matchLabels: { type: 'object', additionalProperties: { type: 'string' } } },
          },
          template: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
          tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
          when: { type: 'string', format: 'date-time' },
        },
      },
      status: {
        type: 'object',
        properties: {
          conditions: {
            type: 'array',
            items: {
              type: 'object',
              required: ['type', 'status'],
              properties: {
                type: { type: 'string' },
                status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
                lastTransitionTime: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
    },
  };

  it('is valid', () => {
    expect(errs(schema)).toEqual([]);
    expect(errs(schema, { statusSubresource: true })).toEqual([]);
  });
});

describe('validateStructural: NewStructural errors', () => {
  it('reports a conversion failure the OpenAPI rules do not cover', () => {
    expect(errs(root({ a: { type: 'string', $schema: 'http://json-schema.org/draft-04/schema#' } }))).toEqual([
      `${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`,
    ]);
  });

  it('shows only the OpenAPI error when both report', () => {
    expect(errs(root({ a: { type: 'string', id: 'x' } }))).toEqual([
      `${P}.properties[a].id: Forbidden: id is not supported`,
    ]);
  });
});
