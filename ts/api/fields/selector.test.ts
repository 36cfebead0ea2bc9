import { describe, expect, it } from 'vitest';
import {
  escapeValue,
  FieldSelectorError,
  fieldSelectorFromSet,
  parseFieldSelector,
  unescapeValue,
} from './selector.js';
import fixtures from './selector.k8s.json' with { type: 'json' };

// selector.k8s.json: inputs from fields/selector_test.go and more, with what
// k8s.io/apimachinery v0.32.4's ParseSelector, Matches, EscapeValue and UnescapeValue answered.

function errorOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(FieldSelectorError);
    return (err as Error).message;
  }
}

describe('fields.ParseSelector', () => {
  it.each(fixtures.parse.map((c) => [JSON.stringify(c.in), c] as const))('%s', (_, c) => {
    let got: string | undefined;
    const err = errorOf(() => {
      got = parseFieldSelector(c.in).toString();
    });
    expect(err).toBe(c.error);
    if (c.error === undefined) expect(got).toBe(c.string);
  });
});

describe('FieldSelector.matches', () => {
  it.each(fixtures.matches.map((c) => [`${c.selector} ~ ${JSON.stringify(c.fields)}`, c] as const))('%s', (_, c) => {
    expect(parseFieldSelector(c.selector).matches(c.fields)).toBe(c.match);
  });
});

describe('EscapeValue / UnescapeValue', () => {
  it.each(fixtures.escape.map((c) => [JSON.stringify(c.in), c] as const))('%s', (_, c) => {
    expect(escapeValue(c.in)).toBe(c.escaped);
    let got: string | undefined;
    const err = errorOf(() => {
      got = unescapeValue(c.in);
    });
    expect(err).toBe(c.error);
    if (c.error === undefined) expect(got).toBe(c.unescaped);
    expect(unescapeValue(escapeValue(c.in))).toBe(c.in);
  });
});

describe('selector helpers', () => {
  it('finds the value an = term requires and transforms terms', () => {
    const sel = parseFieldSelector('metadata.name=web,spec.host!=n1');
    expect(sel.requiresExactMatch('metadata.name')).toBe('web');
    expect(sel.requiresExactMatch('spec.host')).toBeUndefined();
    const moved = sel.transform((field, value) =>
      field === 'spec.host' ? { field: 'spec.nodeName', value } : { field, value },
    );
    expect(moved.toString()).toBe('metadata.name=web,spec.nodeName!=n1');
    expect(sel.transform(() => ({ field: '', value: '' })).empty()).toBe(true);
    expect(fieldSelectorFromSet({ a: 'x,y' }).toString()).toBe('a=x\\,y');
  });
});
