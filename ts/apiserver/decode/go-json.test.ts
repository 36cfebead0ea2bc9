import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, plainJsonFacts, scanJson } from './go-json.js';

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

describe('plainJsonFacts', () => {
  it('counts object keys, not colons in strings, and collects the strings written with escapes', () => {
    expect(plainJsonFacts('{"a:b":{"c":[1,{"d":"x:y"}]},"e":"\\"}:\\\\","f\\u0030":true}')).toEqual({
      keys: 5,
      escaped: new Set(['"}:\\', 'f0']),
    });
    expect(plainJsonFacts('{"a":"b\\\\","c":"\\\\\\"d"}')).toEqual({ keys: 2, escaped: new Set(['b\\', '\\"d']) });
    expect(plainJsonFacts(' [ ] ')).toEqual({ keys: 0, escaped: new Set() });
  });

  it('counts the keys of duplicates, which JSON.parse collapses', () => {
    expect(plainJsonFacts('{"a":1,"a":2}')?.keys).toBe(2);
  });

  it('accepts only integers a double holds exactly', () => {
    expect(plainJsonFacts('[0,-1,123456789012345,-123456789012345,true,false,null]')?.keys).toBe(0);
    for (const n of ['1.0', '1e2', '1E2', '-0', '-0.5', '0.5', '1234567890123456', '9007199254740993']) {
      expect({ n, facts: plainJsonFacts(`{"x":[${n}]}`) }).toEqual({ n, facts: undefined });
    }
  });
});
