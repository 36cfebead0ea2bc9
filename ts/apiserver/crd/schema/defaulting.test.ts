import { describe, expect, it } from 'vitest';
import { applyDefaults, defaultValue, pruneNonNullableNullsWithoutDefaults } from './defaulting.js';
import type { JSONSchemaProps } from './types.js';

// Cases of apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm_test.go TestDefault.
describe('defaultValue (Default)', () => {
  const d = (v: unknown): JSONSchemaProps => ({ default: v });
  const cases: [string, string, JSONSchemaProps, string][] = [
    ['scalar', '4', d('foo'), '4'],
    ['scalar array', '[1,2]', { items: d('foo') }, '[1,2]'],
    [
      'object array',
      '[{"a":1},{"b":1},{"c":1}]',
      { items: { properties: { a: d('A'), b: d('B'), c: d('C') } } },
      '[{"a":1,"b":"B","c":"C"},{"a":"A","b":1,"c":"C"},{"a":"A","b":"B","c":1}]',
    ],
    [
      'object array object',
      '{"array":[{"a":1},{"b":2}],"object":{"a":1},"additionalProperties":{"x":{"a":1},"y":{"b":2}}}',
      {
        properties: {
          array: { items: { properties: { a: d('A'), b: d('B') } } },
          object: { properties: { a: d('N'), b: d('O') } },
          additionalProperties: { additionalProperties: { properties: { a: d('alpha'), b: d('beta') } } },
          foo: d('bar'),
        },
      },
      '{"array":[{"a":1,"b":"B"},{"a":"A","b":2}],"object":{"a":1,"b":"O"},"additionalProperties":{"x":{"a":1,"b":"beta"},"y":{"a":"alpha","b":2}},"foo":"bar"}',
    ],
    [
      'empty and null',
      '[{},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":null},{"a":[]},{"a":{}}]',
      { items: { properties: { a: d('A') } } },
      '[{"a":"A"},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":"A"},{"a":[]},{"a":{}}]',
    ],
    ['null in nullable list', '[null]', { nullable: true, items: { properties: { a: d('A') } } }, '[null]'],
    ['null in non-nullable list', '[null]', { items: d('A') }, '["A"]'],
    ['null in nullable object', '{"a": null}', { properties: { a: { nullable: true, default: 'A' } } }, '{"a": null}'],
    ['null in non-nullable object', '{"a": null}', { properties: { a: { default: 'A' } } }, '{"a": "A"}'],
    [
      'null in nullable object with additionalProperties',
      '{"a": null}',
      { additionalProperties: { nullable: true, default: 'A' } },
      '{"a": null}',
    ],
    [
      'null in non-nullable object with additionalProperties',
      '{"a": null}',
      { additionalProperties: { default: 'A' } },
      '{"a": "A"}',
    ],
    ['null unknown field', '{"a": null}', { additionalProperties: true }, '{"a": null}'],
  ];
  for (const [name, json, schema, want] of cases) {
    it(name, () => {
      const obj: unknown = JSON.parse(json);
      defaultValue(obj, schema);
      expect(obj).toEqual(JSON.parse(want));
    });
  }

  it('copies defaults, never shares them', () => {
    const schema: JSONSchemaProps = { properties: { a: { default: { x: [1] } } } };
    const one: Record<string, { x: number[] }> = {};
    const two: Record<string, { x: number[] }> = {};
    defaultValue(one, schema);
    defaultValue(two, schema);
    one.a?.x.push(2);
    expect(two.a).toEqual({ x: [1] });
    expect(schema.properties?.a?.default).toEqual({ x: [1] });
  });
});

// Cases in the spirit of defaulting/prunenulls_test.go.
describe('pruneNonNullableNullsWithoutDefaults', () => {
  it('drops nulls the schema does not allow, keeps nullable and defaulted ones', () => {
    const schema: JSONSchemaProps = {
      properties: {
        plain: { type: 'string' },
        nullable: { type: 'string', nullable: true },
        defaulted: { type: 'string', default: 'd' },
        obj: { type: 'object', properties: { inner: { type: 'integer' } } },
        list: { type: 'array', items: { type: 'object', properties: { x: { type: 'string' } } } },
        map: { type: 'object', additionalProperties: { type: 'string' } },
      },
    };
    const obj = {
      plain: null,
      nullable: null,
      defaulted: null,
      unknown: null,
      obj: { inner: null },
      list: [{ x: null }, null],
      map: { k: null },
    };
    pruneNonNullableNullsWithoutDefaults(obj, schema);
    expect(obj).toEqual({ nullable: null, defaulted: null, unknown: null, obj: {}, list: [{}, null], map: {} });
  });
});

describe('applyDefaults', () => {
  it('prunes non-nullable nulls, then defaults (the null with a default becomes the default)', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          default: {},
          properties: {
            replicas: { type: 'integer', default: 1 },
            mode: { type: 'string' },
            size: { type: 'string', nullable: true, default: 'm' },
          },
        },
      },
    };
    const a: Record<string, unknown> = {};
    applyDefaults(schema, a);
    expect(a).toEqual({ spec: { replicas: 1, size: 'm' } });
    const b = { spec: { replicas: null, mode: null, size: null } };
    applyDefaults(schema, b);
    expect(b).toEqual({ spec: { replicas: 1, size: null } });
  });
});
