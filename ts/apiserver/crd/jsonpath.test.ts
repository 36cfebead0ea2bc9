import { describe, expect, it } from 'vitest';
import { findResults, parseJsonPath, printText } from './jsonpath.js';

const obj = {
  spec: { replicas: 3, 'a.b': 'dotted', tags: ['x', 'y'] },
  status: {
    conditions: [
      { type: 'Progressing', status: 'True' },
      { type: 'Ready', status: 'False' },
    ],
  },
};
const find = (p: string) => findResults(obj, parseJsonPath(p) ?? []);

describe('printer column JSONPath', () => {
  it('reads fields, quoted keys, indexes and filters', () => {
    expect(find('.spec.replicas')).toEqual([3]);
    expect(find(".spec['a.b']")).toEqual(['dotted']);
    expect(find('.spec.tags[1]')).toEqual(['y']);
    expect(find('.spec.tags[-1]')).toEqual(['y']);
    expect(find('.spec.tags[*]')).toEqual(['x', 'y']);
    expect(find('.status.conditions[?(@.type=="Ready")].status')).toEqual(['False']);
    expect(find('.status.conditions[?(@.type!="Ready")].type')).toEqual(['Progressing']);
  });

  it('finds nothing for missing keys (AllowMissingKeys)', () => {
    expect(find('.spec.absent.deeper')).toEqual([]);
    expect(find('.spec.tags[5]')).toEqual([]);
  });

  it('prints values as the jsonpath printer does', () => {
    expect(printText('text')).toBe('text');
    expect(printText(3)).toBe('3');
    expect(printText(1.5)).toBe('1.5');
    expect(printText(true)).toBe('true');
    expect(printText({ a: 1 })).toBe('{"a":1}');
  });
});
