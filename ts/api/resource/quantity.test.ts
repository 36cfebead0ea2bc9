import { describe, expect, it } from 'vitest';
import {
  compareQuantity,
  parseQuantity,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR,
  quantityString,
} from './quantity.js';

const q = (s: string | number) => {
  const r = parseQuantity(s);
  if ('error' in r) throw new Error(r.error);
  return r;
};

describe('Quantity.String()', () => {
  it.each([
    ['1', '1'],
    ['1000m', '1'],
    ['1.5', '1500m'],
    ['2000', '2k'],
    ['1500', '1500'],
    ['0.5Gi', '512Mi'],
    ['1536Mi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['1.5Ki', '1536'],
    ['100Mi', '100Mi'],
    ['512', '512'],
    ['1e3', '1e3'],
    ['-1', '-1'],
    ['0', '0'],
    [0.25, '250m'],
  ])('%s → %s', (input, want) => {
    expect(quantityString(q(input))).toBe(want);
  });

  it('compares exactly across formats', () => {
    expect(compareQuantity(q('1Gi'), q('1073741824'))).toBe(0);
    expect(compareQuantity(q('1.5'), q('1'))).toBe(1);
    expect(compareQuantity(q('500m'), q('1'))).toBe(-1);
  });

  it('reports ParseQuantity errors', () => {
    expect(parseQuantity('abc')).toEqual({ error: QUANTITY_FORMAT_ERROR });
    expect(parseQuantity('')).toEqual({ error: QUANTITY_FORMAT_ERROR });
    expect(parseQuantity('1Qi')).toEqual({ error: QUANTITY_FORMAT_ERROR });
    expect(parseQuantity('1kk')).toEqual({ error: QUANTITY_SUFFIX_ERROR });
  });
});
