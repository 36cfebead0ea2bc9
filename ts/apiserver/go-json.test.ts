import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, scanJson } from './go-json.js';

describe('scanJson', () => {
  // Texts of Go's encoding/json scanner (scanner.go), which kube-apiserver's decoders return.
  it.each([
    ['', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a":1}x', "invalid character 'x' after top-level value"],
    ['tru', 'unexpected end of JSON input'],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['nil', "invalid character 'i' in literal null (expecting 'u')"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['"\\q"', "invalid character 'q' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\u0001"', "invalid character '\\x01' in string literal"],
    ["'a'", `invalid character '\\'' looking for beginning of value`],
  ])('%j → %s', (text, error) => {
    expect(scanJson(text).error).toBe(error);
  });

  it('accepts what JSON.parse accepts', () => {
    for (const text of ['{}', '[]', '0', '-1.5e+3', '"\\u00e9\\n"', ' {"a":[true,false,null,{"b":""}]} ', 'null']) {
      expect(scanJson(text)).toEqual({ duplicates: [] });
      expect(() => JSON.parse(text)).not.toThrow();
    }
  });

  it('stops at the nesting limit with the error Go gives at its own', () => {
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(scanJson(nested(MAX_NESTING_DEPTH)).error).toBeUndefined();
    expect(scanJson(nested(MAX_NESTING_DEPTH + 1)).error).toBe("invalid character '[' exceeded max depth");
    expect(scanJson(`{"a":${nested(MAX_NESTING_DEPTH)}}`).error).toBe("invalid character '[' exceeded max depth");
  });

  it('names duplicate fields with sigs.k8s.io/json paths, in document order', () => {
    const text = '{"a":1,"a":2,"s":{"c":[{"n":1},{"n":1,"n":2}]},"m":{"x":1,"y":{"__proto__":1,"__proto__":2}}}';
    expect(scanJson(text).duplicates).toEqual(['a', 's.c[1].n', 'm.y.__proto__']);
  });
});
