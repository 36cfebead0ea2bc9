import { describe, expect, it } from 'vitest';
import { FieldPath } from '../field-errors.js';
import type { LabelSelector } from '../meta.js';
import { validateLabelSelector } from '../validation/labels.js';
import { labelSelectorAsMap, labelSelectorAsSelector, parseToLabelSelector } from './label-selector.js';
import {
  LabelSelectorError,
  parseLabelSelector,
  Requirement,
  Selector,
  selectorFromSet,
  validatedSelectorFromSet,
} from './selector.js';
import fixtures from './selector.k8s.json' with { type: 'json' };

// selector.k8s.json: the inputs of labels/selector_test.go (TestSelectorParse,
// TestSetSelectorParser, TestSelectorMatches, TestRequirementConstructor, …) and more, with what
// k8s.io/apimachinery v0.32.4 answered: the parse error or the canonical String(), and matches.

function errorOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(LabelSelectorError);
    return (err as Error).message;
  }
}

describe('labels.Parse', () => {
  it.each(fixtures.parse.map((c) => [JSON.stringify(c.in), c] as const))('%s', (_, c) => {
    let got: string | undefined;
    const err = errorOf(() => {
      got = parseLabelSelector(c.in).toString();
    });
    expect(err).toBe(c.error);
    if (c.error === undefined) expect(got).toBe(c.string);
  });
});

describe('Selector.matches', () => {
  it.each(fixtures.matches.map((c) => [`${c.selector} ~ ${JSON.stringify(c.labels)}`, c] as const))('%s', (_, c) => {
    expect(parseLabelSelector(c.selector).matches(c.labels)).toBe(c.match);
  });
});

describe('NewRequirement', () => {
  it.each(fixtures.requirements.map((c) => [`${c.key.slice(0, 20)} ${c.op} ${c.values}`, c] as const))('%s', (_, c) => {
    let got: string | undefined;
    const err = errorOf(() => {
      got = Requirement.create(c.key, c.op, c.values).toString();
    });
    expect(err).toBe(c.error);
    if (c.error === undefined) expect(got).toBe(c.string);
  });
});

describe('LabelSelectorAsSelector and ValidateLabelSelector', () => {
  it.each(fixtures.labelSelectors.map((c) => [JSON.stringify(c.selector), c] as const))('%s', (_, c) => {
    const ps = c.selector as LabelSelector | null;
    let sel: Selector | undefined;
    const err = errorOf(() => {
      sel = labelSelectorAsSelector(ps);
    });
    expect(err).toBe(c.error);
    if (c.error === undefined) {
      expect(sel?.toString()).toBe(c.string);
      expect(sel?.empty()).toBe(c.empty);
    }
    const errs = validateLabelSelector(ps, {}, FieldPath.root('spec', 'selector'));
    expect(errs.map((e) => e.message).sort()).toEqual([...c.validate].sort());
  });

  it('selects nothing for a null selector and everything for an empty one', () => {
    expect(labelSelectorAsSelector(null).matches({})).toBe(false);
    expect(labelSelectorAsSelector({}).matches({ a: 'b' })).toBe(true);
  });
});

describe('sets and the old map form', () => {
  it('builds selectors from sets, sorted by key', () => {
    expect(selectorFromSet({ b: '2', a: '1' }).toString()).toBe('a=1,b=2');
    expect(selectorFromSet({}).empty()).toBe(true);
    expect(selectorFromSet({ a: 'b c' }).matches({ a: 'b c' })).toBe(true);
    expect(() => validatedSelectorFromSet({ a: 'b c' })).toThrow(LabelSelectorError);
  });

  it('finds the value a selector requires exactly', () => {
    const sel = parseLabelSelector('a=1,b in (2),c in (3,4),d!=5');
    expect(sel.requiresExactMatch('a')).toBe('1');
    expect(sel.requiresExactMatch('b')).toBe('2');
    expect(sel.requiresExactMatch('c')).toBeUndefined();
    expect(sel.requiresExactMatch('d')).toBeUndefined();
    expect(sel.requiresExactMatch('e')).toBeUndefined();
    expect(Selector.nothing().toString()).toBe('');
  });

  it('converts to and from metav1.LabelSelector', () => {
    expect(parseToLabelSelector('a=1,b in (y,x),!c,d')).toEqual({
      matchLabels: { a: '1' },
      matchExpressions: [
        { key: 'b', operator: 'In', values: ['x', 'y'] },
        { key: 'c', operator: 'DoesNotExist' },
        { key: 'd', operator: 'Exists' },
      ],
    });
    expect(() => parseToLabelSelector('x>1')).toThrow('"gt" isn\'t supported in label selectors');
    expect(() => parseToLabelSelector('x in (')).toThrow(
      "couldn't parse the selector string \"x in (\": unable to parse requirement: found '', expected: ',', ')' or identifier",
    );
    expect(
      labelSelectorAsMap({ matchLabels: { a: '1' }, matchExpressions: [{ key: 'b', operator: 'In', values: ['2'] }] }),
    ).toEqual({
      a: '1',
      b: '2',
    });
    expect(() => labelSelectorAsMap({ matchExpressions: [{ key: 'b', operator: 'Exists' }] })).toThrow(
      'operator "Exists" cannot be converted into the old label selector format',
    );
  });
});
