import { describe, expect, it } from 'vitest';
import { definitionName, openApiV3ListSchema, openApiV3Schema } from './openapi-publish.js';
import type { JSONSchemaProps } from './types.js';

const META_REF = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

describe('openApiV3Schema', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    description: 'A widget',
    properties: {
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: {
          port: { 'x-kubernetes-int-or-string': true },
          size: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          other: { 'x-kubernetes-int-or-string': true, anyOf: [{ maxLength: 3 }] },
          template: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
            required: ['kind'],
          },
        },
      },
    },
  };

  it('adds TypeMeta, the ObjectMeta reference and the GVK', () => {
    const out = openApiV3Schema(schema, { group: 'example.com', version: 'v1', kind: 'Widget' });
    const props = out.properties as Record<string, Record<string, unknown>>;
    expect(props.metadata).toEqual({
      $ref: META_REF,
      description:
        "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
    });
    expect(props.apiVersion?.type).toBe('string');
    expect(props.apiVersion?.description).toMatch(/^APIVersion defines the versioned schema/);
    expect(props.kind?.description).toMatch(/^Kind is a string value representing the REST resource/);
    expect(out['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', kind: 'Widget', version: 'v1' }]);
    expect(out.description).toBe('A widget');
  });

  it('unfolds int-or-string', () => {
    const out = openApiV3Schema(schema);
    const spec = (out.properties as Record<string, { properties: Record<string, JSONSchemaProps> }>).spec;
    expect(spec?.properties.port?.anyOf).toEqual([{ type: 'integer' }, { type: 'string' }]);
    expect(spec?.properties.size?.anyOf).toEqual([{ type: 'integer' }, { type: 'string' }]);
    expect(spec?.properties.size?.allOf).toBeUndefined();
    expect(spec?.properties.other?.allOf).toEqual([{ anyOf: [{ type: 'integer' }, { type: 'string' }] }]);
    expect(spec?.properties.other?.anyOf).toEqual([{ maxLength: 3 }]);
  });

  it('adds apiVersion, kind and metadata to embedded resources, and requires them', () => {
    const out = openApiV3Schema(schema);
    const spec = (out.properties as Record<string, { properties: Record<string, Record<string, unknown>> }>).spec;
    const t = spec?.properties.template as Record<string, unknown>;
    const tprops = t.properties as Record<string, Record<string, unknown>>;
    expect(tprops.apiVersion?.description).toMatch(/^apiVersion defines the versioned schema/);
    expect(tprops.kind?.description).toMatch(/^kind is a string value representing the type of this object/);
    expect(tprops.metadata?.$ref).toBe(META_REF);
    expect(t.required).toEqual(['kind', 'apiVersion']);
  });

  it('drops what a structural schema does not keep (example, externalDocs)', () => {
    const out = openApiV3Schema({
      type: 'object',
      example: {},
      externalDocs: { url: 'https://x' },
      properties: { a: { type: 'string', example: 'x', anyOf: [{ example: 'y' }] } },
    });
    expect(out).toEqual(
      expect.objectContaining({ properties: expect.objectContaining({ a: { type: 'string', anyOf: [{}] } }) }),
    );
    expect(out.example).toBeUndefined();
    expect(out.externalDocs).toBeUndefined();
  });

  it('leaves the CRD schema untouched', () => {
    const before = structuredClone(schema);
    openApiV3Schema(schema);
    expect(schema).toEqual(before);
  });
});

describe('openApiV3ListSchema', () => {
  it('names the kind component with the reversed group', () => {
    expect(definitionName('stable.example.com', 'v1', 'CronTab')).toBe('com.example.stable.v1.CronTab');
    expect(definitionName('local', 'v1', 'X')).toBe('local.v1.X');
  });

  it('builds the list kind', () => {
    const out = openApiV3ListSchema(
      { group: 'stable.example.com', version: 'v1', kind: 'CronTab' },
      'CronTabList',
      'crontabs',
    );
    expect(out.description).toBe('CronTabList is a list of CronTab');
    expect(out.required).toEqual(['items']);
    const props = out.properties as Record<string, Record<string, unknown>>;
    expect(props.items).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/com.example.stable.v1.CronTab' },
      description:
        'List of crontabs. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md',
    });
    expect(props.metadata?.$ref).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta');
    expect(out['x-kubernetes-group-version-kind']).toEqual([
      { group: 'stable.example.com', kind: 'CronTabList', version: 'v1' },
    ]);
  });
});
