import { describe, expect, it } from 'vitest';
import type { StatusError } from '../../api/status.js';
import { type Json, jsonPatch, mergePatch } from './json-patch.js';

describe('mergePatch (RFC 7386 appendix A)', () => {
  const cases: [Json, Json, Json][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(cases)('%j + %j', (target, patch, want) => {
    expect(mergePatch(target, patch)).toEqual(want);
  });
});

describe('jsonPatch (RFC 6902)', () => {
  it('applies add, replace, remove, move, copy and test', () => {
    const doc = { a: { b: [1, 2] }, c: 'x' };
    const out = jsonPatch(doc, [
      { op: 'add', path: '/a/b/-', value: 3 },
      { op: 'replace', path: '/c', value: 'y' },
      { op: 'copy', from: '/c', path: '/d' },
      { op: 'move', from: '/d', path: '/e~1f' },
      { op: 'remove', path: '/a/b/0' },
      { op: 'test', path: '/a/b', value: [2, 3] },
    ]);
    expect(out).toEqual({ a: { b: [2, 3] }, c: 'y', 'e/f': 'y' });
    expect(doc).toEqual({ a: { b: [1, 2] }, c: 'x' }); // the input is not changed
  });

  it('answers 422 for a failed test or a missing path, 400 for a malformed patch', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as StatusError).code;
      }
      return 0;
    };
    expect(code(() => jsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]))).toBe(422);
    expect(code(() => jsonPatch({ a: 1 }, [{ op: 'remove', path: '/b' }]))).toBe(422);
    expect(code(() => jsonPatch({ a: 1 }, [{ op: 'replace', path: '/b', value: 1 }]))).toBe(422);
    expect(code(() => jsonPatch({ a: 1 }, { op: 'add' }))).toBe(400);
    expect(code(() => jsonPatch({ a: 1 }, [{ op: 'frobnicate', path: '/a' }]))).toBe(422);
    expect(code(() => jsonPatch({ a: 1 }, [1]))).toBe(400);
  });
});
