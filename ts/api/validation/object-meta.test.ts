import { describe, expect, it } from 'vitest';
import { FieldPath } from '../field-errors.js';
import type { ObjectMeta } from '../meta.js';
import {
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  type ValidateNameFunc,
  validatePathSegmentName,
} from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import fixtures from './object-meta.k8s.json' with { type: 'json' };

// object-meta.k8s.json: ObjectMeta cases run through apimachinery v0.32.4's ValidateObjectMeta and
// ValidateObjectMetaUpdate. Go iterates maps in random order and prints pointers as addresses, so
// errors are compared sorted and with addresses blanked.
const nameFns: Record<string, ValidateNameFunc> = {
  subdomain: nameIsDNSSubdomain,
  label: nameIsDNSLabel,
  dns1035: nameIsDNS1035Label,
  path: validatePathSegmentName,
};

/** Go's JSON of an ObjectMeta, back to ours: null times mean absent; big annotations rebuilt. */
function toMeta(goMeta: Record<string, unknown>): ObjectMeta {
  const meta = { ...goMeta } as ObjectMeta & Record<string, unknown>;
  if (meta.creationTimestamp === null) delete meta.creationTimestamp;
  const big = /^<(\d+) x>$/.exec(meta.annotations?.a ?? '');
  if (big) meta.annotations = { a: 'x'.repeat(Number(big[1])) };
  return meta;
}

const normalise = (errs: readonly string[]) => errs.map((e) => e.replace(/\(0x[0-9a-f]+\)/g, '(0xADDR)')).sort();

describe('ValidateObjectMeta', () => {
  it.each(fixtures.create.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const fn = nameFns[c.nameFn];
    if (fn === undefined) throw new Error(c.nameFn);
    const got = validateObjectMeta(toMeta(c.meta), c.namespaced, fn, FieldPath.root('metadata'));
    expect(normalise(got.map((e) => e.message))).toEqual(normalise(c.errors));
  });

  it('reports name, then namespace, in that order', () => {
    const errs = validateObjectMeta({ name: 'Bad' }, true, nameIsDNSSubdomain);
    expect(errs.map((e) => e.field)).toEqual(['metadata.name', 'metadata.namespace']);
    expect(errs[1]?.message).toBe('metadata.namespace: Required value');
  });
});

describe('ValidateObjectMetaUpdate', () => {
  it.each(fixtures.update.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const got = validateObjectMetaUpdate(toMeta(c.new), toMeta(c.old), FieldPath.root('metadata'));
    expect(normalise(got.map((e) => e.message))).toEqual(normalise(c.errors));
  });
});
