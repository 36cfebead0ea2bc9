/** Scopes: a custom resource's type from its CRD schema (the seam crd/ uses), reset fields per write. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiData } from '../openapi/data.js';
import type { ResourceInfo } from '../registry/resources.js';
import { applyConfiguration, recordUpdate } from './field-manager.js';
import { builtinScope } from './scope.js';

const widget = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  statusOnSubresource: true,
  custom: {
    crdName: 'widgets.example.com',
    storageVersion: 'v1',
    columns: [],
    terminating: false,
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            size: { type: 'integer' },
            ports: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
            },
          },
        },
        status: { type: 'object', properties: { ready: { type: 'boolean' } } },
      },
    },
  },
} as unknown as ResourceInfo;

describe('custom resources', () => {
  beforeAll(() => loadOpenApiData());

  it('apply uses the CRD schema: list-map keys, metadata and type meta without declaring them', () => {
    const scope = builtinScope(widget, '');
    if (scope === undefined) throw new Error('no scope');
    const config = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', labels: { a: 'b' } },
      spec: { size: 2, ports: [{ name: 'http', port: 80 }] },
    };
    const first = applyConfiguration(scope, undefined, config, 'tool', false, '2025-01-01T00:00:00Z');
    const entries = (first.metadata as { managedFields: { fieldsV1: unknown; operation: string }[] }).managedFields;
    expect(entries.map((e) => e.operation)).toEqual(['Apply']);
    expect(JSON.stringify(entries[0]?.fieldsV1)).toBe(
      '{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:ports":{"k:{\\"name\\":\\"http\\"}":{".":{},"f:name":{},"f:port":{}}},"f:size":{}}}',
    );
    // A second applier's port is merged in by key.
    const second = applyConfiguration(
      scope,
      { ...first, metadata: { ...(first.metadata as object), uid: 'u' } },
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { ports: [{ name: 'metrics', port: 9090 }] },
      },
      'other',
      false,
      '2025-01-01T00:00:01Z',
    );
    expect((second.spec as { ports: unknown[] }).ports).toEqual([
      { name: 'http', port: 80 },
      { name: 'metrics', port: 9090 },
    ]);
  });

  it('a main write never owns status; a status write never owns spec', () => {
    const main = builtinScope(widget, '');
    const status = builtinScope(widget, 'status');
    if (main === undefined || status === undefined) throw new Error('no scope');
    const obj = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { size: 1 },
      status: { ready: true },
    };
    recordUpdate(main, undefined, obj, 'creator', '2025-01-01T00:00:00Z');
    const created = (obj.metadata as unknown as { managedFields: { fieldsV1: unknown }[] }).managedFields;
    expect(JSON.stringify(created[0]?.fieldsV1)).toBe('{"f:spec":{".":{},"f:size":{}}}');
    const next = {
      ...structuredClone(obj),
      metadata: { ...structuredClone(obj.metadata), uid: 'u' },
      spec: { size: 5 },
      status: { ready: false },
    };
    recordUpdate(
      status,
      { ...obj, metadata: { ...obj.metadata, uid: 'u' } },
      next,
      'controller',
      '2025-01-01T00:00:01Z',
    );
    const entries = (
      next.metadata as unknown as { managedFields: { manager: string; subresource?: string; fieldsV1: unknown }[] }
    ).managedFields;
    const controller = entries.find((e) => e.manager === 'controller');
    expect(controller?.subresource).toBe('status');
    expect(JSON.stringify(controller?.fieldsV1)).toBe('{"f:status":{"f:ready":{}}}');
  });
});
