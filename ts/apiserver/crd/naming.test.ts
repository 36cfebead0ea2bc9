import { describe, expect, it } from 'vitest';
import { calculateNames } from './naming.js';
import type { Crd } from './types.js';

const crd = (plural: string, kind: string, accepted?: { plural: string; kind: string }): Crd => ({
  metadata: { name: `${plural}.example.com` },
  spec: { group: 'example.com', names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` } },
  ...(accepted === undefined ? {} : { status: { acceptedNames: accepted } }),
});

describe('calculateNames (naming_controller.go)', () => {
  it('accepts fresh names: NamesAccepted NoConflicts, Established Installing', () => {
    const c = crd('widgets', 'Widget');
    const r = calculateNames(c, [c]);
    expect(r.names).toEqual({ plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' });
    expect(r.namesAccepted).toEqual({
      type: 'NamesAccepted',
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    });
    expect(r.established).toEqual({
      type: 'Established',
      status: 'False',
      reason: 'Installing',
      message: 'the initial names have been accepted',
    });
  });

  it('refuses a kind another CRD of the group has accepted', () => {
    const other = crd('gadgets', 'Widget', { plural: 'gadgets', kind: 'Widget' });
    const c = crd('widgets', 'Widget');
    const r = calculateNames(c, [other, c]);
    expect(r.namesAccepted).toEqual({
      type: 'NamesAccepted',
      status: 'False',
      reason: 'KindConflict',
      message: '"Widget" is already in use',
    });
    expect(r.names.kind).toBe('');
    expect(r.names.plural).toBe('widgets');
    expect(r.established).toEqual({
      type: 'Established',
      status: 'False',
      reason: 'NotAccepted',
      message: 'not all names are accepted',
    });
  });

  it('refuses a short name that is another CRD plural', () => {
    const other = crd('gadgets', 'Gadget', { plural: 'gadgets', kind: 'Gadget' });
    const c = crd('widgets', 'Widget');
    c.spec = { ...c.spec, names: { ...c.spec?.names, shortNames: ['gadgets'] } };
    const r = calculateNames(c, [other, c]);
    expect(r.namesAccepted.reason).toBe('ShortNamesConflict');
    expect(r.namesAccepted.message).toBe('"gadgets" is already in use');
  });
});
