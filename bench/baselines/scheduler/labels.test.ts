// Selector semantics of k8s.io/apimachinery/pkg/labels and component-helpers nodeaffinity.

import { describe, expect, it } from 'vitest';
import {
  affinityTermMatches,
  labelSelectorAsSelector,
  newAffinityTerm,
  nodeSelectorTermMatches,
  SelectorError,
  selectorMatches,
} from './labels.js';
import { makeNode } from './testing.js';

describe('labelSelectorAsSelector', () => {
  it('nil selects nothing, {} selects everything', () => {
    expect(selectorMatches(labelSelectorAsSelector(null), { a: '1' })).toBe(false);
    expect(selectorMatches(labelSelectorAsSelector(undefined), {})).toBe(false);
    expect(selectorMatches(labelSelectorAsSelector({}), {})).toBe(true);
    expect(selectorMatches(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] }), { a: '1' })).toBe(true);
  });
  it('NotIn and DoesNotExist match objects without the key', () => {
    const s = labelSelectorAsSelector({
      matchExpressions: [
        { key: 'a', operator: 'NotIn', values: ['x'] },
        { key: 'b', operator: 'DoesNotExist' },
      ],
    });
    expect(selectorMatches(s, {})).toBe(true);
    expect(selectorMatches(s, { a: 'x' })).toBe(false);
    expect(selectorMatches(s, { a: 'y', b: '' })).toBe(false);
  });
  it('matchLabels and expressions are ANDed; empty label values count as present', () => {
    const s = labelSelectorAsSelector({
      matchLabels: { foo: '' },
      matchExpressions: [{ key: 'bar', operator: 'Exists' }],
    });
    expect(selectorMatches(s, { foo: '', bar: 'x' })).toBe(true);
    expect(selectorMatches(s, { foo: '' })).toBe(false);
  });
  it('rejects In without values', () => {
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      SelectorError,
    );
  });
});

describe('node selector terms', () => {
  const node = makeNode('n1', { labels: { version: '0206', zone: 'a' } });
  it('Gt/Lt compare integers; a non-integer label does not match', () => {
    expect(
      nodeSelectorTermMatches({ matchExpressions: [{ key: 'version', operator: 'Gt', values: ['0204'] }] }, node),
    ).toBe(true);
    expect(nodeSelectorTermMatches({ matchExpressions: [{ key: 'zone', operator: 'Lt', values: ['5'] }] }, node)).toBe(
      false,
    );
  });
  it('an invalid term matches nothing', () => {
    expect(
      nodeSelectorTermMatches({ matchExpressions: [{ key: 'version', operator: 'Gt', values: ['x'] }] }, node),
    ).toBe(false);
    expect(
      nodeSelectorTermMatches({ matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['n1'] }] }, node),
    ).toBe(false);
  });
  it('matchFields matches metadata.name', () => {
    expect(
      nodeSelectorTermMatches({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }, node),
    ).toBe(true);
    expect(
      nodeSelectorTermMatches({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] }, node),
    ).toBe(false);
  });
});

describe('affinity terms', () => {
  it('default to the owner namespace; namespaceSelector {} means all namespaces', () => {
    const own = newAffinityTerm('ns1', {}, { labelSelector: {}, topologyKey: 'zone' });
    expect(affinityTermMatches(own, 'ns1', {}, {})).toBe(true);
    expect(affinityTermMatches(own, 'ns2', {}, {})).toBe(false);
    const all = newAffinityTerm('ns1', {}, { labelSelector: {}, namespaceSelector: {}, topologyKey: 'zone' });
    expect(affinityTermMatches(all, 'ns2', {}, undefined)).toBe(true);
  });
  it('matchLabelKeys / mismatchLabelKeys merge the owner labels into the selector', () => {
    const t = newAffinityTerm(
      'ns',
      { app: 'web', track: 'canary' },
      {
        labelSelector: {},
        topologyKey: 'zone',
        matchLabelKeys: ['app'],
        mismatchLabelKeys: ['track'],
      },
    );
    expect(affinityTermMatches(t, 'ns', { app: 'web', track: 'stable' }, {})).toBe(true);
    expect(affinityTermMatches(t, 'ns', { app: 'web', track: 'canary' }, {})).toBe(false);
    expect(affinityTermMatches(t, 'ns', { app: 'db' }, {})).toBe(false);
  });
});
