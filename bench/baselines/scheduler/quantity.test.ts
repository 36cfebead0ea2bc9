import { describe, expect, it } from 'vitest';
import { parseQuantityMilli, parseQuantityValue, QuantityError, resourceAmount } from './quantity.js';

describe('parseQuantityValue', () => {
  it.each([
    ['0', 0n],
    ['1', 1n],
    ['1Ki', 1024n],
    ['1.5Ki', 1536n],
    ['32Gi', 32n * 1024n ** 3n],
    ['500Mi', 500n * 1024n ** 2n],
    ['1Ei', 1024n ** 6n],
    ['1k', 1000n],
    ['1M', 1_000_000n],
    ['2T', 2_000_000_000_000n],
    ['1E', 10n ** 18n],
    ['1e3', 1000n],
    ['1E3', 1000n],
    ['1e-3', 1n], // rounds up
    ['100m', 1n], // rounds up
    ['1n', 1n],
    ['1.1', 2n],
    ['.5', 1n],
    ['5.', 5n],
    ['+7', 7n],
    ['-1.5', -2n], // away from zero
    [110, 110n],
    [0.5, 1n],
  ] as const)('%s → %s', (input, want) => {
    expect(parseQuantityValue(input)).toBe(want);
  });
});

describe('parseQuantityMilli', () => {
  it.each([
    ['100m', 100n],
    ['1', 1000n],
    ['4', 4000n],
    ['0.1', 100n],
    ['1.0001', 1001n], // rounds up
    ['1u', 1n], // rounds up
    ['250000u', 250n],
    ['1e-3', 1n],
    ['2k', 2_000_000n],
  ] as const)('%s → %s', (input, want) => {
    expect(parseQuantityMilli(input)).toBe(want);
  });
});

describe('errors', () => {
  it.each(['', 'abc', '1Kb', '1.2.3', 'Gi', '1 Gi', '1ee3'])('rejects %j', (input) => {
    expect(() => parseQuantityValue(input)).toThrow(QuantityError);
  });

  it('carries a stable code', () => {
    try {
      parseQuantityValue('x');
    } catch (e) {
      expect((e as QuantityError).code).toBe('E_QUANTITY_FORMAT');
    }
  });

  it('refuses values beyond 2^53 as numbers', () => {
    expect(() => resourceAmount('memory', '16Ei')).toThrow(RangeError);
    expect(resourceAmount('cpu', '4')).toBe(4000);
    expect(resourceAmount('memory', '32Gi')).toBe(34359738368);
  });
});
