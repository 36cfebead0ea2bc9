import { describe, expect, it } from 'vitest';
import { servedTypeOf } from './crd-resources.js';

const crd = (extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    versions: [
      { name: 'v1beta1', served: true },
      { name: 'v1', served: true },
      { name: 'v2', served: false },
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
