import { describe, expect, it } from 'vitest';
import { parseGoDuration } from './go-duration.js';

describe('parseGoDuration (time.ParseDuration)', () => {
  it.each([
    ['0', 0],
    ['1.5s', 1500],
    ['2m', 120_000],
    ['1h30m', 5_400_000],
    ['250ms', 250],
    ['-1s', -1000],
    ['.5s', 500],
    ['100us', 0.1],
  ])('%s → %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['soon', 'time: invalid duration "soon"'],
    ['.s', 'time: invalid duration ".s"'],
    ['5', 'time: missing unit in duration "5"'],
    ['5x', 'time: unknown unit "x" in duration "5x"'],
    ['1s5', 'time: missing unit in duration "1s5"'],
  ])('%j fails with Go text', (text, message) => {
    expect(() => parseGoDuration(text)).toThrow(message);
  });
});
