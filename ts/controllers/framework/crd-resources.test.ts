import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../../api/types/apiextensions/v1.js';
import { servedTypeOf } from './crd-resources.js';

const crd = (extra: Partial<CustomResourceDefinition> = {}): CustomResourceDefinition => ({
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', kind: 'Widget' },
    scope: 'Namespaced',
    versions: [
      { name: 'v1beta1', served: true, storage: false },
      { name: 'v1', served: true, storage: true },
      { name: 'v2', served: false, storage: false },
    ],
  },
  status: {
    acceptedNames: { plural: 'widgets', kind: 'Widget' },
    conditions: [{ type: 'Established', status: 'True' }],
  },
  ...extra,
});

describe('servedTypeOf', () => {
  it('is the preferred served version of an Established CRD, with its accepted names', () => {
    expect(servedTypeOf(crd())).toEqual({
      group: 'example.com',
      version: 'v1',
      resource: 'widgets',
      kind: 'Widget',
      namespaced: true,
    });
  });

  it('is nothing before the CRD is Established', () => {
    expect(
      servedTypeOf(crd({ status: { acceptedNames: { plural: 'widgets', kind: 'Widget' }, conditions: [] } })),
    ).toBeUndefined();
  });
});
