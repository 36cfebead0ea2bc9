import { describe, expect, it } from 'vitest';
import { byteLength, compareGo, goFloat, goQuote, goSharpV } from './go-format.js';

describe('Go formatting', () => {
  it.each([
    ['plain', '"plain"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\u0007\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['\u0000\u001f\u007f', '"\\x00\\x1f\\x7f"'],
    ['é😀', '"é😀"'],
    ['\u00a0\u200b\u2028', '"\\u00a0\\u200b\\u2028"'],
    ['\u{e0001}', '"\\U000e0001"'],
  ])('strconv.Quote(%j)', (s, want) => {
    expect(goQuote(s)).toBe(want);
  });

  it.each([
    [0, '0'],
    [-1, '-1'],
    [1e21, '1e+21'],
    [1.5, '1.5'],
    [1234567.5, '1.2345675e+06'],
    [123456.5, '123456.5'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, '+Inf'],
  ])('%%v of %d', (n, want) => {
    expect(goFloat(n)).toBe(want);
  });

  it('prints composite values with %#v', () => {
    expect(goSharpV(['a', 'b'])).toBe('[]string{"a", "b"}');
    expect(goSharpV({ b: '2', a: '1' })).toBe('map[string]string{"a":"1", "b":"2"}');
    expect(goSharpV(null)).toBe('<nil>');
  });

  it('measures and orders strings as UTF-8 bytes', () => {
    expect(byteLength('abc')).toBe(3);
    expect(byteLength('é')).toBe(2);
    expect(byteLength('😀')).toBe(4);
    // JS's default sort puts U+1F600 (a surrogate pair, 0xD83D…) before U+FF5E; Go orders by code point.
    expect(['😀', '～', 'a'].sort(compareGo)).toEqual(['a', '～', '😀']);
  });
});
