import { describe, expect, it } from 'vitest';
import { compileGoRegexp } from './go-regexp.js';

function matches(pattern: string, s: string): boolean {
  const c = compileGoRegexp(pattern);
  if (!c.ok) throw new Error(c.error);
  return c.re.test(s);
}

function error(pattern: string): string {
  const c = compileGoRegexp(pattern);
  return c.ok ? '' : c.error;
}

describe('compileGoRegexp', () => {
  it('compiles RE2 patterns with their meaning', () => {
    expect(matches('^[a-z]+$', 'abc')).toBe(true);
    expect(matches('^[a-z]+$', 'aBc')).toBe(false);
    expect(matches('(?i)^abc$', 'ABC')).toBe(true);
    expect(matches('^(?P<x>a)b$', 'ab')).toBe(true);
    expect(matches('\\Aab\\z', 'ab')).toBe(true);
    expect(matches('\\Aab\\z', 'ab\n')).toBe(false);
    expect(matches('^\\d{3}\\.x$', '123.x')).toBe(true);
    expect(matches('[\\w-]+', 'a-b')).toBe(true);
  });

  it('reports what RE2 refuses with Go texts', () => {
    expect(error('[a-z')).toBe('error parsing regexp: missing closing ]: `[a-z`');
    expect(error('(ab')).toBe('error parsing regexp: missing closing ): `(ab`');
    expect(error('ab)')).toBe('error parsing regexp: unexpected ): `ab)`');
    expect(error('*a')).toBe('error parsing regexp: missing argument to repetition operator: `*`');
    expect(error('a**')).toBe('error parsing regexp: invalid nested repetition operator: `**`');
    expect(error('a(?=b)')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
    expect(error('(a)\\1')).toBe('error parsing regexp: invalid escape sequence: `\\1`');
  });
});
