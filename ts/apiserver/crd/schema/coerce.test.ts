import { describe, expect, it } from 'vitest';
import { coerceEmbeddedResources } from './coerce.js';
import type { JSONSchemaProps } from './types.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        templates: {
          type: 'array',
          items: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
    },
  },
};

describe('coerceEmbeddedResources (objectmeta.Coerce)', () => {
  it('rewrites embedded metadata as an ObjectMeta and reports its unknown fields', () => {
    const obj = {
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'x',
            foo: 1,
            labels: {},
            generation: 0,
            creationTimestamp: '2024-01-02T03:04:05.678+02:00',
          },
          spec: { keep: true },
        },
      },
    };
    expect(coerceEmbeddedResources(schema, obj)).toEqual({ unknownFields: ['spec.template.metadata.foo'] });
    expect(obj.spec.template).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x', creationTimestamp: '2024-01-02T01:04:05Z' },
      spec: { keep: true },
    });
  });

  it('turns a null metadata into an empty one', () => {
    const obj = { spec: { templates: [{ apiVersion: 'v1', kind: 'Pod', metadata: null }] } };
    expect(coerceEmbeddedResources(schema, obj).error).toBeUndefined();
    expect(obj.spec.templates[0]?.metadata).toEqual({});
  });

  it('stops at the first bad TypeMeta or metadata', () => {
    expect(coerceEmbeddedResources(schema, { spec: { template: { apiVersion: 1, kind: 'Pod' } } }).error?.message).toBe(
      'spec.template.apiVersion: Invalid value: 1: must be a string',
    );
    expect(
      coerceEmbeddedResources(schema, { spec: { templates: [{ kind: 'P' }, { kind: 'P', metadata: [] }] } }).error
        ?.message,
    ).toBe(
      'spec.templates[1].metadata: Invalid value: []interface {}{}: json: cannot unmarshal array into Go value of type v1.ObjectMeta',
    );
  });
});
