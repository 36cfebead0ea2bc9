import { describe, expect, expectTypeOf, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { type RESOURCES as API, BUILTIN_RESOURCES, type ObjectOfResource } from '../../api/resources.js';
import type { Pod } from '../../api/types/core/v1.js';
import { findResource, RESOURCES, SERVING_KEYS, servingKey, subresourcesOf } from './resources.js';

describe('the built-in resources', () => {
  it('serve every row of the API table, and nothing the table lacks', () => {
    const rows = new Set(BUILTIN_RESOURCES.map(servingKey));
    expect([...rows].filter((key) => !SERVING_KEYS.includes(key))).toEqual([]);
    expect(SERVING_KEYS.filter((key) => !rows.has(key))).toEqual([]);
    expect(RESOURCES.map((r) => `${r.group}/${r.version}/${r.resource}`)).toEqual(
      BUILTIN_RESOURCES.map((r) => `${r.group}/${r.version}/${r.resource}`),
    );
  });

  it('take scope, names and subresources from the table and the serving facts from the registry', () => {
    expect(findResource('', 'v1', 'pods')).toMatchObject({
      kind: 'Pod',
      namespaced: true,
      singular: 'pod',
      shortNames: ['po'],
      categories: ['all'],
      statusOnSubresource: true,
      subresources: ['binding', 'eviction', 'log'],
      generation: false,
      fields: ['spec', 'status'],
    });
    expect(findResource('', 'v1', 'endpoints')?.singular).toBe('endpoints');
    expect(findResource('apps', 'v1', 'deployments')).toMatchObject({ generation: true, subresources: ['scale'] });
    // Served at v2 and v1, stored as v2.
    expect(findResource('autoscaling', 'v2', 'horizontalpodautoscalers')?.storageVersion).toBeUndefined();
    expect(findResource('autoscaling', 'v1', 'horizontalpodautoscalers')?.storageVersion).toBe('v2');
    // Discovery lists all verbs unless the table says otherwise (the create-only reviews).
    expect(findResource('', 'v1', 'configmaps')?.verbs).toBeUndefined();
    expect(findResource('authorization.k8s.io', 'v1', 'subjectaccessreviews')?.verbs).toEqual(['create']);
    const namespaces = RESOURCES.find((r) => r.resource === 'namespaces');
    expect(namespaces && subresourcesOf(namespaces).map((s) => s.name)).toEqual(['finalize', 'status']);
  });

  it('type each entry by its kind', () => {
    expectTypeOf<ObjectOfResource<typeof API.pods>>().toEqualTypeOf<Pod>();
    expectTypeOf<ObjectOfResource<{ group: ''; version: 'v1'; resource: 'pods' }>>().toEqualTypeOf<KubeObject>();
  });
});
