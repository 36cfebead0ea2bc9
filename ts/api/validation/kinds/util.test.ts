import { describe, expect, it } from 'vitest';
import { compareGo } from '../../go-format.js';
import { cloneJson, jsonEqual } from './util.js';

/** The definition jsonEqual keeps: the JSON texts with keys sorted are the same. */
const canonical = (v: unknown): string =>
  JSON.stringify(v ?? null, (_k, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([x], [y]) => compareGo(x, y)))
      : value,
  );

const VALUES: unknown[] = [
  null,
  undefined,
  0,
  -0,
  1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  '1',
  true,
  false,
  [],
  [null],
  [undefined],
  [1, 2],
  [2, 1],
  {},
  { a: undefined },
  { a: 1 },
  { a: 1, b: 2 },
  { b: 2, a: 1 },
  { a: { b: [1, { c: 'x' }] } },
  { a: { b: [1, { c: 'y' }] } },
  { a: () => 1 },
  { a: new Date(0) },
  { a: '1970-01-01T00:00:00.000Z' },
  JSON.parse('{"__proto__":{"x":1}}'),
  { toJSON: () => ({ a: 1 }), b: 2 },
  { a: { toJSON: () => undefined } },
  [new Date(0)],
  ['1970-01-01T00:00:00.000Z'],
];

describe('jsonEqual', () => {
  it('is the equality of the key-sorted JSON texts', () => {
    for (const a of VALUES) {
      for (const b of VALUES)
        expect(jsonEqual(a, b), `${canonical(a)} vs ${canonical(b)}`).toBe(canonical(a) === canonical(b));
    }
  });
});

describe('cloneJson', () => {
  it('copies as structuredClone does, sharing nothing', () => {
    const value = JSON.parse('{"a":[1,{"b":null,"c":"x"}],"__proto__":{"d":true},"e":{}}') as Record<string, unknown>;
    const copy = cloneJson(value);
    expect(copy).toStrictEqual(structuredClone(value));
    expect(Object.keys(copy)).toEqual(Object.keys(value));
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy.a).not.toBe(value.a);
    expect(cloneJson({ when: new Date(5) })).toEqual({ when: new Date(5) });
  });
});
