import { describe, expect, it } from 'vitest';
import { canonicalJson, computeHash, Fnv32a, safeEncodeString } from './hash.js';

const template = (version: number) => ({
  metadata: { labels: { app: 'web', version: String(version) } },
  spec: { containers: [{ name: 'c', image: `nginx:${version}` }], dnsPolicy: 'ClusterFirst' },
});

describe('pod-template-hash', () => {
  it('FNV-32a as Go hash/fnv computes it', () => {
    const h = new Fnv32a();
    expect(h.sum32()).toBe(0x811c9dc5);
    h.write(new TextEncoder().encode('a'));
    expect(h.sum32()).toBe(0xe40c292c);
    const f = new Fnv32a();
    f.write(new TextEncoder().encode('foobar'));
    expect(f.sum32()).toBe(0xbf9cf968);
  });

  it('SafeEncodeString maps each character through the alphabet', () => {
    // '0' is 48: 48 % 27 = 21 → '4'; '9' is 57: 57 % 27 = 3 → 'f'.
    expect(safeEncodeString('0')).toBe('4');
    expect(safeEncodeString('9')).toBe('f');
    expect(safeEncodeString('1234567890')).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{10}$/);
  });

  it('does not depend on key order or absent fields', () => {
    expect(canonicalJson({ b: 1, a: { d: null, c: [1, { f: 2, e: 3 }] } })).toBe('{"a":{"c":[1,{"e":3,"f":2}]},"b":1}');
    expect(computeHash({ spec: { b: 1, a: 2 } })).toBe(computeHash({ spec: { a: 2, b: 1, c: undefined } }));
  });

  it('has no collisions over 1000 templates (TestPodTemplateSpecHash)', () => {
    const seen = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const hash = computeHash(template(i));
      expect(seen.get(hash)).toBeUndefined();
      seen.set(hash, i);
    }
  });

  it('a collision count changes it, and 0 differs from none', () => {
    const none = computeHash(template(1));
    const zero = computeHash(template(1), 0);
    const one = computeHash(template(1), 1);
    expect(new Set([none, zero, one]).size).toBe(3);
    expect(computeHash(template(1), 1)).toBe(one);
    expect(one).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  });
});
