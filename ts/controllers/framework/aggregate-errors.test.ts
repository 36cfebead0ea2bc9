import { describe, expect, it } from 'vitest';
import { aggregateErrors, aggregateMessage } from './aggregate-errors.js';

// k8s.io/apimachinery/pkg/util/errors/errors_test.go (v0.32): TestAggregateWithNil, TestSingularAggregate,
// TestPluralAggregate, TestDedupeAggregate, TestDedupePluralAggregate, TestFlattenAndDedupeAggregate.
describe('aggregateErrors (utilerrors.NewAggregate)', () => {
  const e = (m: string) => new Error(m);

  it('is nothing for no error, or only nil ones', () => {
    expect(aggregateErrors([])).toBeUndefined();
    expect(aggregateErrors([undefined, null])).toBeUndefined();
  });

  it('is the one error as it is', () => {
    const only = e('err');
    expect(aggregateErrors([undefined, only])).toBe(only);
  });

  it.each([
    ['plural', ['abc', '123'], '[abc, 123]'],
    ['dedupe', ['abc', 'abc'], 'abc'],
    ['dedupe plural', ['abc', 'abc', '123'], '[abc, 123]'],
  ])('%s', (_name, messages, want) => {
    expect(aggregateErrors(messages.map(e))?.message).toBe(want);
    expect(aggregateMessage(messages)).toBe(want);
  });

  it('flattens nested aggregates before it dedupes', () => {
    const nested = aggregateErrors([e('abc'), e('abc'), aggregateErrors([e('abc'), e('123')])]);
    expect(nested?.message).toBe('[abc, 123]');
  });
});
