import { describe, expect, it } from 'vitest';
import { prune } from './pruning.js';
import type { JSONSchemaProps } from './types.js';

// Cases of apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm_test.go TestPrune.
describe('prune', () => {
  const O = (props: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
    type: 'object',
    properties: props,
    ...extra,
  });

  const cases: {
    name: string;
    json: unknown;
    schema: JSONSchemaProps;
    root?: boolean;
    want: unknown;
    pruned: string[];
  }[] = [
    { name: 'scalar', json: 4, schema: {}, want: 4, pruned: [] },
    { name: 'scalar array', json: [1, 2], schema: { items: {} }, want: [1, 2], pruned: [] },
    {
      name: 'object array',
      json: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }],
      schema: { items: { properties: { a: {}, c: {} } } },
      want: [{ a: 1 }, {}, { a: 1, c: 3 }],
      pruned: ['[1].b', '[2].b'],
    },
    {
      name: 'object array object',
      json: {
        array: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }],
        unspecified: { a: 1 },
        specified: { a: 1, b: 2, c: 3 },
      },
      schema: {
        properties: { array: { items: { properties: { a: {}, c: {} } } }, specified: { properties: { a: {}, c: {} } } },
      },
      want: { array: [{ a: 1 }, {}, { a: 1, c: 3 }], specified: { a: 1, c: 3 } },
      pruned: ['array[1].b', 'array[2].b', 'specified.b', 'unspecified'],
    },
    {
      name: 'nested x-kubernetes-preserve-unknown-fields',
      json: {
        unspecified: 'bar',
        alpha: 'abc',
        beta: 42.0,
        unspecifiedObject: { unspecified: 'bar' },
        pruning: {
          unspecified: 'bar',
          unspecifiedObject: { unspecified: 'bar' },
          pruning: { unspecified: 'bar' },
          apiVersion: 'unknown',
          preserving: { unspecified: 'bar' },
        },
        preserving: {
          unspecified: 'bar',
          unspecifiedObject: { unspecified: 'bar' },
          pruning: { unspecified: 'bar' },
          preserving: { unspecified: 'bar' },
        },
        preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: {
          foo: { specified: { unspecified: 'bar' }, unspecified: 'bar' },
        },
        preservingAdditionalPropertiesKeyPruneValues: {
          foo: { specified: { unspecified: 'bar' }, unspecified: 'bar' },
        },
      },
      schema: O(
        {
          alpha: { type: 'string' },
          beta: { type: 'number' },
          pruning: O({
            preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            pruning: { type: 'object' },
          }),
          preserving: O(
            {
              preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              pruning: { type: 'object' },
            },
            { 'x-kubernetes-preserve-unknown-fields': true },
          ),
          preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
            additionalProperties: O({ specified: { type: 'object' } }),
          },
          preservingAdditionalPropertiesKeyPruneValues: {
            type: 'object',
            additionalProperties: O({ specified: { type: 'object' } }),
          },
        },
        { 'x-kubernetes-preserve-unknown-fields': true },
      ),
      want: {
        unspecified: 'bar',
        alpha: 'abc',
        beta: 42.0,
        unspecifiedObject: { unspecified: 'bar' },
        pruning: { pruning: {}, preserving: { unspecified: 'bar' } },
        preserving: {
          unspecified: 'bar',
          unspecifiedObject: { unspecified: 'bar' },
          pruning: {},
          preserving: { unspecified: 'bar' },
        },
        preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: { foo: { specified: {} } },
        preservingAdditionalPropertiesKeyPruneValues: { foo: { specified: {} } },
      },
      pruned: [
        'preserving.pruning.unspecified',
        'preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified',
        'preservingAdditionalPropertiesKeyPruneValues.foo.unspecified',
        'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified',
        'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified',
        'pruning.apiVersion',
        'pruning.pruning.unspecified',
        'pruning.unspecified',
        'pruning.unspecifiedObject',
      ],
    },
    {
      name: 'additionalProperties with schema',
      json: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1 } } },
      schema: { properties: { a: {}, c: { additionalProperties: { type: 'integer' } } } },
      want: { a: 1, c: { a: 1, b: 2, c: {} } },
      pruned: ['b', 'c.c.a'],
    },
    {
      name: 'additionalProperties with bool',
      json: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1, apiVersion: 'unknown' } } },
      schema: { properties: { a: {}, c: { additionalProperties: false } } },
      want: { a: 1, c: { a: 1, b: 2, c: {} } },
      pruned: ['b', 'c.c.a', 'c.c.apiVersion'],
    },
  ];

  const embeddedJson = () => {
    const inner = () => ({
      apiVersion: 'foo/v1',
      kind: 'Foo',
      unspecified: 'bar',
      metadata: { name: 'instance', unspecified: 'bar' },
      spec: { unspecified: 'bar' },
    });
    return {
      apiVersion: 'foo/v1',
      kind: 'Foo',
      metadata: { name: 'instance', unspecified: 'bar' },
      unspecified: 'bar',
      pruned: inner(),
      preserving: inner(),
      nested: { ...inner(), spec: { unspecified: 'bar', embedded: inner() } },
    };
  };
  const embeddedSchema = O({
    pruned: O({ spec: { type: 'object' } }, { 'x-kubernetes-embedded-resource': true }),
    preserving: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    },
    nested: O(
      { spec: O({ embedded: O({ spec: { type: 'object' } }, { 'x-kubernetes-embedded-resource': true }) }) },
      { 'x-kubernetes-embedded-resource': true },
    ),
  });
  const embeddedWant = (root: boolean) => {
    const kept = () => ({
      apiVersion: 'foo/v1',
      kind: 'Foo',
      metadata: { name: 'instance', unspecified: 'bar' },
      spec: {},
    });
    return {
      ...(root ? { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance', unspecified: 'bar' } } : {}),
      pruned: kept(),
      preserving: embeddedJson().preserving,
      nested: { ...kept(), spec: { embedded: kept() } },
    };
  };
  const embeddedPruned = [
    'nested.spec.embedded.spec.unspecified',
    'nested.spec.embedded.unspecified',
    'nested.spec.unspecified',
    'nested.unspecified',
    'pruned.spec.unspecified',
    'pruned.unspecified',
    'unspecified',
  ];
  cases.push(
    {
      name: 'x-kubernetes-embedded-resource',
      json: embeddedJson(),
      schema: embeddedSchema,
      want: embeddedWant(false),
      pruned: embeddedPruned,
    },
    {
      name: 'x-kubernetes-embedded-resource, with root=true',
      json: embeddedJson(),
      schema: embeddedSchema,
      root: true,
      want: embeddedWant(true),
      pruned: embeddedPruned,
    },
  );

  for (const c of cases) {
    it(c.name, () => {
      const obj = structuredClone(c.json);
      const pruned = prune(c.schema, obj, { isResourceRoot: c.root === true });
      expect(obj).toEqual(c.want);
      expect(pruned).toEqual(c.pruned);
    });
  }

  it('ignores properties named only inside value validations', () => {
    const obj = { a: 1, b: 2 };
    expect(prune({ type: 'object', properties: { a: {} }, anyOf: [{ properties: { b: {} } }] }, obj)).toEqual(['b']);
    expect(obj).toEqual({ a: 1 });
  });

  it('keeps __proto__ as data', () => {
    const obj = JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as Record<string, unknown>;
    expect(prune({ type: 'object', properties: { a: {} } }, obj)).toEqual(['__proto__']);
    expect(Object.keys(obj)).toEqual(['a']);
  });
});

describe('prune under preserve-unknown-fields arrays', () => {
  it('keeps everything in an array without an items schema', () => {
    const obj = { list: [{ a: 1 }, { b: [1, { c: 2 }] }] };
    expect(
      prune({ type: 'object', properties: { list: { 'x-kubernetes-preserve-unknown-fields': true } } }, obj),
    ).toEqual([]);
    expect(obj).toEqual({ list: [{ a: 1 }, { b: [1, { c: 2 }] }] });
  });

  it('prunes inside specified properties of preserved array items', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          'x-kubernetes-preserve-unknown-fields': true,
          items: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'integer' } } } } },
        },
      },
    };
    const obj = { list: [{ other: 1, spec: { a: 1, b: 2 } }] };
    expect(prune(schema, obj)).toEqual(['list[0].spec.b']);
    expect(obj).toEqual({ list: [{ other: 1, spec: { a: 1 } }] });
  });

  it('reports unknown metadata fields below the top', () => {
    const obj = { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'x' }, spec: { kind: 'x', apiVersion: 'y' } };
    expect(prune({ type: 'object', properties: { spec: { type: 'object' } } }, obj, { isResourceRoot: true })).toEqual([
      'spec.apiVersion',
      'spec.kind',
    ]);
    expect(obj).toEqual({ apiVersion: 'a/v1', kind: 'K', metadata: { name: 'x' }, spec: {} });
  });
});
