import { describe, expect, it } from 'vitest';
import { validateListSetsAndMaps } from './list-type.js';
import type { JSONSchemaProps } from './types.js';

// Cases of apiextensions-apiserver pkg/apiserver/schema/listtype/validation_test.go.
const set = (items?: JSONSchemaProps): JSONSchemaProps => ({
  type: 'array',
  'x-kubernetes-list-type': 'set',
  ...(items === undefined ? {} : { items }),
});

function errs(props: Record<string, JSONSchemaProps>, obj: Record<string, unknown>): string[] {
  return validateListSetsAndMaps(undefined, { type: 'object', properties: props }, obj).map((e) => e.message);
}

describe('validateListSetsAndMaps', () => {
  it('ignores lists without a list type', () => {
    expect(errs({ array: { type: 'array' } }, { array: ['a', 'b', 'a'] })).toEqual([]);
    expect(errs({ array: { type: 'array', items: { type: 'string' } } }, { array: ['a', 'b', 'a'] })).toEqual([]);
  });

  it('reports each duplicate once, at its second appearance', () => {
    expect(errs({ array: set() }, { array: ['a'] })).toEqual([]);
    expect(errs({ array: set() }, { array: ['a', 'a'] })).toEqual(['array[1]: Duplicate value: "a"']);
    expect(errs({ array: set() }, { array: ['a', 'a', 'b', 'c', 'd', 'c'] })).toEqual([
      'array[1]: Duplicate value: "a"',
      'array[5]: Duplicate value: "c"',
    ]);
  });

  it('sets under additionalProperties and items', () => {
    expect(
      validateListSetsAndMaps(
        undefined,
        { type: 'object', additionalProperties: set({ type: 'string' }) },
        {
          array: ['a', 'b', 'a'],
        },
      ).map((e) => e.message),
    ).toEqual(['[array][2]: Duplicate value: "a"']);
    expect(
      errs(
        { array: { type: 'array', items: set({ type: 'string' }) } },
        {
          array: [
            ['a', 'b', 'a'],
            ['b', 'b', 'a'],
          ],
        },
      ),
    ).toEqual(['array[0][2]: Duplicate value: "a"', 'array[1][1]: Duplicate value: "b"']);
    expect(errs({ array: set(set()) }, { array: ['a', 'b', 'a', ['b', 'b', 'a']] })).toEqual([
      'array[2]: Duplicate value: "a"',
      'array[3][1]: Duplicate value: "b"',
    ]);
  });

  it('compares compound items by value', () => {
    const got = errs(
      {
        booleans: set({ type: 'boolean' }),
        nil: set({ type: 'string', nullable: true }),
        maps: set({ type: 'object', additionalProperties: { type: 'string' } }),
        arrays: set({ type: 'array', items: { type: 'string', nullable: true } }),
      },
      {
        booleans: [false, true, true],
        nil: ['a', null, null],
        maps: [{ a: 'b' }, { a: 'c' }, { a: 'b' }, { a: 'c' }, { a: 'c' }],
        arrays: [[], [null], [null, null], [null], ['a']],
      },
    );
    expect(got).toEqual([
      'booleans[2]: Duplicate value: true',
      'nil[2]: Duplicate value: "null"',
      'maps[2]: Duplicate value: map[string]interface {}{"a":"b"}',
      'maps[3]: Duplicate value: map[string]interface {}{"a":"c"}',
      'arrays[3]: Duplicate value: []interface {}{interface {}(nil)}',
    ]);
  });

  it('map lists: keys, unspecified keys and non-objects', () => {
    const map = (keys: string[]): JSONSchemaProps => ({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': keys,
      items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } } },
    });
    expect(
      errs({ one: map(['a']) }, { one: [{ a: '0', c: '2' }, { a: '1', c: '1' }, { a: '1', c: '2' }, {}] }),
    ).toEqual(['one[2]: Duplicate value: map[string]interface {}{"a":"1"}']);
    expect(errs({ one: map(['a']) }, { one: [null, { a: '0' }, {}, { c: '1' }] })).toEqual([
      'one[2]: Duplicate value: map[string]interface {}{}',
    ]);
    expect(
      errs(
        { two: map(['a', 'b']) },
        { two: [{ a: '1', b: '1', c: '1' }, { a: '1', b: '2' }, { a: '1', b: '2', c: '3' }, {}] },
      ),
    ).toEqual(['two[2]: Duplicate value: map[string]interface {}{"a":"1", "b":"2"}']);
    expect(errs({ strings: map(['a']) }, { strings: ['a'] })).toEqual([
      'strings[0]: Invalid value: "a": must be an object for an array of list-type map',
    ]);
  });
});
