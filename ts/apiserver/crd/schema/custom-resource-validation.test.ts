import { describe, expect, it } from 'vitest';
import { validateCustomResource } from './custom-resource-validation.js';
import type { JSONSchemaProps } from './types.js';

/** A CR schema with `spec` holding the given properties. */
function specSchema(props: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: { type: 'object', properties: props, ...extra },
    },
  };
}

function messages(schema: JSONSchemaProps, obj: Record<string, unknown>): string[] {
  return validateCustomResource(schema, { apiVersion: 'x.io/v1', kind: 'X', metadata: { name: 'a' }, ...obj }).map(
    (e) => e.message,
  );
}

describe('validateCustomResource: kube-openapi messages', () => {
  const cases: [string, Record<string, JSONSchemaProps>, unknown, string[]][] = [
    [
      'type integer, string given',
      { replicas: { type: 'integer' } },
      { replicas: 'three' },
      ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
    ],
    ['type integer, integer given', { replicas: { type: 'integer' } }, { replicas: 3 }, []],
    [
      'type integer, float given',
      { replicas: { type: 'integer' } },
      { replicas: 1.5 },
      ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"'],
    ],
    ['type number, integer given', { ratio: { type: 'number' } }, { ratio: 3 }, []],
    [
      'type string, object given',
      { name: { type: 'string' } },
      { name: { a: 1 } },
      ['spec.name: Invalid value: "object": spec.name in body must be of type string: "object"'],
    ],
    [
      'type boolean, array given',
      { on: { type: 'boolean' } },
      { on: [true] },
      ['spec.on: Invalid value: "array": spec.on in body must be of type boolean: "array"'],
    ],
    [
      'null for a non-nullable field',
      { name: { type: 'string' } },
      { name: null },
      ['spec.name: Invalid value: "null": spec.name in body must be of type string: "null"'],
    ],
    ['null for a nullable field', { name: { type: 'string', nullable: true } }, { name: null }, []],
    [
      'enum',
      { size: { type: 'string', enum: ['small', 'large'] } },
      { size: 'huge' },
      ['spec.size: Unsupported value: "huge": supported values: "small", "large"'],
    ],
    [
      'enum of numbers',
      { n: { type: 'integer', enum: [1, 2] } },
      { n: 3 },
      ['spec.n: Unsupported value: 3: supported values: "1", "2"'],
    ],
    [
      'nullable enum still refuses null (kube-openapi never matches nil)',
      { size: { type: 'string', nullable: true, enum: ['small'] } },
      { size: null },
      ['spec.size: Unsupported value: "null": supported values: "small"'],
    ],
    [
      'pattern',
      { name: { type: 'string', pattern: '^[a-z]+$' } },
      { name: 'Ab' },
      [`spec.name: Invalid value: "Ab": spec.name in body should match '^[a-z]+$'`],
    ],
    [
      'maximum',
      { count: { type: 'integer', maximum: 10 } },
      { count: 11 },
      ['spec.count: Invalid value: 11: spec.count in body should be less than or equal to 10'],
    ],
    [
      'exclusive maximum',
      { count: { type: 'integer', maximum: 10, exclusiveMaximum: true } },
      { count: 10 },
      ['spec.count: Invalid value: 10: spec.count in body should be less than 10'],
    ],
    [
      'minimum',
      { count: { type: 'integer', minimum: 1 } },
      { count: 0 },
      ['spec.count: Invalid value: 0: spec.count in body should be greater than or equal to 1'],
    ],
    [
      'exclusive minimum on a number',
      { r: { type: 'number', minimum: 0.5, exclusiveMinimum: true } },
      { r: 0.5 },
      ['spec.r: Invalid value: 0.5: spec.r in body should be greater than 0.5'],
    ],
    [
      'a float maximum prints as Go %v',
      { r: { type: 'number', maximum: 1000000 } },
      { r: 1000000.5 },
      ['spec.r: Invalid value: 1.0000005e+06: spec.r in body should be less than or equal to 1e+06'],
    ],
    [
      'multipleOf',
      { n: { type: 'integer', multipleOf: 5 } },
      { n: 7 },
      ['spec.n: Invalid value: 7: spec.n in body should be a multiple of 5'],
    ],
    ['multipleOf on a fraction', { r: { type: 'number', multipleOf: 0.25 } }, { r: 0.75 }, []],
    [
      'maxLength',
      { name: { type: 'string', maxLength: 3 } },
      { name: 'abcd' },
      ['spec.name: Too long: may not be more than 3 bytes'],
    ],
    [
      'minLength counts runes',
      { name: { type: 'string', minLength: 3 } },
      { name: 'äb' },
      ['spec.name: Invalid value: "äb": spec.name in body should be at least 3 chars long'],
    ],
    [
      'maxItems',
      { list: { type: 'array', items: { type: 'string' }, maxItems: 2 } },
      { list: ['a', 'b', 'c'] },
      ['spec.list: Too many: 3: must have at most 2 items'],
    ],
    [
      'minItems',
      { list: { type: 'array', items: { type: 'string' }, minItems: 2 } },
      { list: ['a'] },
      ['spec.list: Invalid value: 1: spec.list in body should have at least 2 items'],
    ],
    [
      'uniqueItems',
      { list: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
      { list: ['a', 'a'] },
      [`spec.list: Invalid value: "": spec.list in body shouldn't contain duplicates`],
    ],
    [
      'maxProperties',
      { m: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 1 } },
      { m: { a: 'x', b: 'y' } },
      ['spec.m: Too many: 2: must have at most 1 items'],
    ],
    [
      'minProperties',
      { m: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 2 } },
      { m: { a: 'x' } },
      ['spec.m: Invalid value: 1: spec.m in body should have at least 2 properties'],
    ],
    [
      'additionalProperties schema',
      { m: { type: 'object', additionalProperties: { type: 'integer' } } },
      { m: { a: 'x' } },
      ['spec.m.a: Invalid value: "string": spec.m.a in body must be of type integer: "string"'],
    ],
    [
      'items at their index',
      { list: { type: 'array', items: { type: 'integer' } } },
      { list: [1, 'two'] },
      ['spec.list[1]: Invalid value: "string": spec.list[1] in body must be of type integer: "string"'],
    ],
    [
      'required',
      { inner: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
      { inner: {} },
      ['spec.inner.name: Required value'],
    ],
    [
      'date format',
      { d: { type: 'string', format: 'date' } },
      { d: '2024-02-30' },
      ['spec.d: Invalid value: "2024-02-30": spec.d in body must be of type date: "2024-02-30"'],
    ],
    ['date-time format', { d: { type: 'string', format: 'date-time' } }, { d: '2024-02-03T04:05:06Z' }, []],
    [
      'date-time format, bad',
      { d: { type: 'string', format: 'date-time' } },
      { d: 'yesterday' },
      ['spec.d: Invalid value: "yesterday": spec.d in body must be of type date-time: "yesterday"'],
    ],
    [
      'byte format',
      { b: { type: 'string', format: 'byte' } },
      { b: 'not base64!' },
      ['spec.b: Invalid value: "not base64!": spec.b in body must be of type byte: "not base64!"'],
    ],
    ['int32 format is stripped: no range check', { n: { type: 'integer', format: 'int32' } }, { n: 2 ** 40 }, []],
    [
      'a string format on a number',
      { d: { type: 'string', format: 'date' } },
      { d: 5 },
      ['spec.d: Invalid value: "int64": spec.d in body must be of type date: "int64"'],
    ],
    ['unknown formats are not checked', { d: { type: 'string', format: 'k8s-thing' } }, { d: '!!' }, []],
  ];
  for (const [name, props, spec, want] of cases) {
    it(name, () => {
      expect(messages(specSchema(props), { spec })).toEqual(want);
    });
  }

  it('reports the root-level required field', () => {
    const schema: JSONSchemaProps = { ...specSchema({}), required: ['spec'] };
    expect(messages(schema, {})).toEqual(['spec: Required value']);
  });

  it('reports a wrong type of spec itself', () => {
    const schema = specSchema({ n: { type: 'integer' } });
    expect(messages(schema, { spec: 'x' })).toEqual([
      'spec: Invalid value: "string": spec in body must be of type object: "string"',
    ]);
  });

  it('stops at min/maxProperties without looking inside', () => {
    const schema = specSchema({ n: { type: 'integer' } }, { maxProperties: 0 });
    expect(messages(schema, { spec: { n: 'x' } })).toEqual(['spec: Too many: 1: must have at most 0 items']);
  });
});

describe('validateCustomResource: int-or-string and junctors', () => {
  const intOrString: JSONSchemaProps = {
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern: '^[0-9]+%?$',
  };

  it('accepts an integer and a matching string', () => {
    expect(messages(specSchema({ port: intOrString }), { spec: { port: 80 } })).toEqual([]);
    expect(messages(specSchema({ port: intOrString }), { spec: { port: '50%' } })).toEqual([]);
  });

  it('refuses a boolean with the anyOf composite message and the best branch', () => {
    expect(messages(specSchema({ port: intOrString }), { spec: { port: true } })).toEqual([
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      '<nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)',
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer: "boolean"',
    ]);
  });

  it('applies value validations beside int-or-string', () => {
    expect(messages(specSchema({ port: intOrString }), { spec: { port: 'http' } })).toEqual([
      `spec.port: Invalid value: "http": spec.port in body should match '^[0-9]+%?$'`,
    ]);
  });

  it('oneOf: none valid', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      oneOf: [{ required: ['a'] }, { required: ['b'] }],
    };
    expect(messages(specSchema({ x: s }), { spec: { x: {} } })).toEqual([
      '<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found none valid',
      'spec.x.a: Required value',
    ]);
    expect(messages(specSchema({ x: s }), { spec: { x: { a: '1', b: '2' } } })).toEqual([
      '<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    expect(messages(specSchema({ x: s }), { spec: { x: { a: '1' } } })).toEqual([]);
  });

  it('allOf and not', () => {
    const s: JSONSchemaProps = {
      type: 'integer',
      allOf: [{ minimum: 1 }, { maximum: 5 }],
      not: { enum: [3] },
    };
    expect(messages(specSchema({ n: s }), { spec: { n: 9 } })).toEqual([
      'spec.n: Invalid value: 9: spec.n in body should be less than or equal to 5',
      '<nil>: Invalid value: "": "spec.n" must validate all the schemas (allOf)',
    ]);
    expect(messages(specSchema({ n: s }), { spec: { n: 3 } })).toEqual([
      '<nil>: Invalid value: "": "spec.n" must not validate the schema (not)',
    ]);
  });
});

describe('validateCustomResource: embedded resources', () => {
  const schema = specSchema({
    template: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    },
  });

  it('requires apiVersion and kind', () => {
    expect(messages(schema, { spec: { template: {} } })).toEqual([
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
    ]);
  });

  it('checks apiVersion, kind and metadata', () => {
    const template = { apiVersion: 'a/b/c', kind: 'Foo_Bar', metadata: { name: 'x/y', labels: { 'a b': 'c' } } };
    expect(messages(schema, { spec: { template } })).toEqual([
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      `spec.template.kind: Invalid value: "Foo_Bar": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      `spec.template.metadata.name: Invalid value: "x/y": may not contain '/'`,
      `spec.template.metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]);
  });

  it('accepts a good embedded object', () => {
    const template = { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { app: 'x' } }, spec: {} };
    expect(messages(schema, { spec: { template } })).toEqual([]);
  });

  it('refuses a metadata that is not an object', () => {
    const template = { apiVersion: 'v1', kind: 'Pod', metadata: 'x' };
    expect(messages(schema, { spec: { template } })).toEqual([
      'spec.template.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta',
    ]);
  });

  it('refuses metadata fields of the wrong Go type with encoding/json texts', () => {
    const bad = (metadata: unknown) =>
      messages(schema, { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata } } });
    expect(bad({ name: 5, labels: { a: 1 } })).toEqual([
      'spec.template.metadata: Invalid value: map[string]interface {}{"labels":map[string]interface {}{"a":1}, "name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string',
    ]);
    expect(bad({ generation: 1.5 })[0]).toBe(
      'spec.template.metadata: Invalid value: map[string]interface {}{"generation":1.5}: json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64',
    );
    expect(bad({ finalizers: 'x', creationTimestamp: 'yesterday' })[0]).toBe(
      'spec.template.metadata: Invalid value: map[string]interface {}{"creationTimestamp":"yesterday", "finalizers":"x"}: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    );
  });
});

describe('validateCustomResource: list types', () => {
  it('set: duplicates', () => {
    const schema = specSchema({
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    });
    expect(messages(schema, { spec: { tags: ['a', 'b', 'a', 'a'] } })).toEqual(['spec.tags[2]: Duplicate value: "a"']);
  });

  it('map: duplicate keys, single and multiple', () => {
    const one = specSchema({
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, port: { type: 'integer' } },
        },
      },
    });
    expect(
      messages(one, {
        spec: {
          ports: [
            { name: 'a', port: 1 },
            { name: 'a', port: 2 },
          ],
        },
      }),
    ).toEqual(['spec.ports[1]: Duplicate value: map[string]interface {}{"name":"a"}']);
    const two = specSchema({
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        items: {
          type: 'object',
          required: ['port', 'protocol'],
          properties: { port: { type: 'integer' }, protocol: { type: 'string' } },
        },
      },
    });
    expect(
      messages(two, {
        spec: {
          ports: [
            { port: 80, protocol: 'TCP' },
            { port: 80, protocol: 'UDP' },
            { port: 80, protocol: 'TCP' },
          ],
        },
      }),
    ).toEqual(['spec.ports[2]: Duplicate value: map[string]interface {}{"port":80, "protocol":"TCP"}']);
  });
});

describe('validateCustomResource: kube-openapi quirks kept', () => {
  it('reports the junctors of array items past the first at [0] (the reused items validator)', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        },
      },
    };
    expect(validateCustomResource(schema, { list: [1, true] }).map((e) => e.message)).toEqual([
      'list[1]: Invalid value: "boolean": list[1] in body must be of type integer,string: "boolean"',
      '<nil>: Invalid value: "": "list[1]" must validate at least one schema (anyOf)',
      'list[0]: Invalid value: "boolean": list[0] in body must be of type integer: "boolean"',
    ]);
  });

  it('matches enum entries after Go conversions (float → int64, int → rune)', () => {
    const s = specSchema({ n: { enum: [1] }, c: { enum: ['A'] } });
    expect(messages(s, { spec: { n: 1.5, c: 65 } })).toEqual([]);
    expect(messages(s, { spec: { n: 2.5 } })).toEqual(['spec.n: Unsupported value: 2.5: supported values: "1"']);
  });

  it('truncates float bounds for integer values', () => {
    const s = specSchema({ n: { type: 'integer', maximum: 10.5 } });
    expect(messages(s, { spec: { n: 11 } })).toEqual([
      'spec.n: Invalid value: 11: spec.n in body should be less than or equal to 10',
    ]);
  });

  it('accepts quantities by the usual pattern', () => {
    const s = specSchema({
      q: {
        'x-kubernetes-int-or-string': true,
        anyOf: [{ type: 'integer' }, { type: 'string' }],
        pattern:
          '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
      },
    });
    for (const q of [1, '500m', '1Gi', '1.5', '2e3']) expect(messages(s, { spec: { q } })).toEqual([]);
    expect(messages(s, { spec: { q: '1 Gi' } })[0]).toMatch(
      /^spec\.q: Invalid value: "1 Gi": spec\.q in body should match/,
    );
  });
});
