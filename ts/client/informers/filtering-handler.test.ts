import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { filteringHandler } from './filtering-handler.js';

const obj = (name: string, bound: boolean): KubeObject => ({
  metadata: { name, ...(bound ? { labels: { bound: 'yes' } } : {}) },
});
const a = obj('a', false);
const b = obj('b', true);

describe('filteringHandler (FilteringResourceEventHandler)', () => {
  // [what, event, what the inner handler is told]
  const cases: Array<[string, (h: ReturnType<typeof filteringHandler<KubeObject>>) => void, string[]]> = [
    ['an add it accepts', (h) => h.onAdd?.(b, true), ['add b true']],
    ['an add it refuses', (h) => h.onAdd?.(a, false), []],
    ['an update on both sides', (h) => h.onUpdate?.(b, b), ['update b b']],
    ['an update into the filter: an add', (h) => h.onUpdate?.(a, b), ['add b false']],
    ['an update out of the filter: a delete of the old object', (h) => h.onUpdate?.(b, a), ['delete b']],
    ['an update outside the filter', (h) => h.onUpdate?.(a, a), []],
    ['a delete it accepts', (h) => h.onDelete?.(b), ['delete b']],
    ['a delete it refuses', (h) => h.onDelete?.(a), []],
  ];
  it.each(cases)('%s', (_what, event, want) => {
    const told: string[] = [];
    const name = (o: { readonly metadata?: { readonly name?: string } }) => o.metadata?.name ?? '';
    const handler = filteringHandler<KubeObject>((o) => o.metadata?.labels?.bound === 'yes', {
      onAdd: (o, initial) => told.push(`add ${name(o)} ${initial}`),
      onUpdate: (o, n) => told.push(`update ${name(o)} ${name(n)}`),
      onDelete: (o) => told.push(`delete ${name(o)}`),
    });
    event(handler);
    expect(told).toEqual(want);
  });
});
