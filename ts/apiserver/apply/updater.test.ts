/**
 * The typed merge and the updater on small schemas, as structured-merge-diff's merge tests state
 * them: per list type (atomic, set, map with keys), atomic maps, comparison, removal of what an
 * applier stopped applying, conflicts and their 409.
 */
import { describe, expect, it } from 'vitest';
import type { Schema } from '../openapi/data.js';
import { ANCIENT_CHANGES, capUpdateManagers } from './cap-managers.js';
import { newConflictError } from './conflicts.js';
import { FieldSet } from './field-set.js';
import { toFieldsV1 } from './fields-v1.js';
import { type Managed, managerIdentifier } from './managed-fields.js';
import { fieldElement, keyElement } from './path.js';
import { typeOfSchema } from './typed.js';
import { ConflictsError, type ManagedFields, Updater } from './updater.js';
import { compareValues, mergeValues, removeItems, toFieldSet } from './walk.js';

const SCHEMA: Schema = {
  type: 'object',
  properties: {
    atomicList: { type: 'array', items: { type: 'string' } },
    set: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    items: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, value: { type: 'string' }, extra: { type: 'integer' } },
      },
    },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    selector: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
    replicas: { type: 'integer' },
    nested: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } },
  },
};
const T = typeOfSchema(SCHEMA);
const v1 = (s: FieldSet) => JSON.stringify(toFieldsV1(s));

describe('merge (apply) per list and map type', () => {
  const live = {
    atomicList: ['a', 'b'],
    set: ['a', 'b'],
    items: [
      { name: 'x', value: '1' },
      { name: 'y', value: '2' },
    ],
    labels: { a: '1', b: '2' },
    selector: { a: '1', b: '2' },
  };
  const config = {
    atomicList: ['c'],
    set: ['c', 'a'],
    items: [{ name: 'y', value: '3' }, { name: 'z' }],
    labels: { b: '3' },
    selector: { c: '3' },
  };
  const merged = mergeValues(live, config, T);

  it('an atomic list is replaced', () => expect((merged as Record<string, unknown>).atomicList).toEqual(['c']));
  it('a set is a union, live order first', () =>
    expect((merged as Record<string, unknown>).set).toEqual(['a', 'b', 'c']));
  it('a list map merges item by key', () =>
    expect((merged as Record<string, unknown>).items).toEqual([
      { name: 'x', value: '1' },
      { name: 'y', value: '3' },
      { name: 'z' },
    ]));
  it('a granular map merges key by key', () =>
    expect((merged as Record<string, unknown>).labels).toEqual({ a: '1', b: '3' }));
  it('an atomic map is replaced', () => expect((merged as Record<string, unknown>).selector).toEqual({ c: '3' }));

  it('the field set of a configuration: items and set values, atomic leaves', () => {
    expect(v1(toFieldSet(config, T))).toBe(
      '{"f:atomicList":{},"f:items":{"k:{\\"name\\":\\"y\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"z\\"}":{".":{},"f:name":{}}},"f:labels":{"f:b":{}},"f:selector":{},"f:set":{"v:\\"a\\"":{},"v:\\"c\\"":{}}}',
    );
  });
});

describe('compare', () => {
  it('added, modified and removed', () => {
    const c = compareValues(
      { replicas: 1, labels: { a: '1' }, nested: { a: 'x' } },
      { replicas: 2, labels: { a: '1', b: '2' } },
      T,
    );
    expect(v1(c.added)).toBe('{"f:labels":{"f:b":{}}}');
    expect(v1(c.modified)).toBe('{"f:replicas":{}}');
    expect(v1(c.removed)).toBe('{"f:nested":{".":{},"f:a":{}}}');
  });
});

describe('removeItems', () => {
  it('removes members with what is below them, descends into children', () => {
    const obj = {
      items: [{ name: 'x', value: '1', extra: 2 }, { name: 'y' }],
      labels: { a: '1', b: '2' },
      replicas: 3,
    };
    const remove = toFieldSet({ labels: { a: '1' }, replicas: 0 }, T);
    remove.insert([fieldElement('items'), keyElement([['name', 'y']])]);
    expect(removeItems(obj, T, remove)).toEqual({ items: [{ name: 'x', value: '1', extra: 2 }], labels: { b: '2' } });
  });
});

describe('Updater', () => {
  const APPLIER = managerIdentifier({ manager: 'applier', operation: 'Apply' });
  const OTHER = managerIdentifier({ manager: 'other', operation: 'Apply' });
  const EDITOR = managerIdentifier({ manager: 'editor', operation: 'Update', apiVersion: 'v1' });
  const u = new Updater(T);

  it('an update owns what it changed; others lose it', () => {
    let m: ManagedFields = new Map();
    m = u.updateFields({}, { replicas: 1, labels: { a: '1' } }, m, 'creator', 'v1');
    m = u.updateFields({ replicas: 1, labels: { a: '1' } }, { replicas: 2, labels: { a: '1' } }, m, EDITOR, 'v1');
    expect(v1(m.get('creator')?.set ?? new FieldSet())).toBe('{"f:labels":{".":{},"f:a":{}}}');
    expect(v1(m.get(EDITOR)?.set ?? new FieldSet())).toBe('{"f:replicas":{}}');
  });

  it('an apply conflicts with another owner of a changed field; force moves it', () => {
    const live = { replicas: 1, labels: { a: '1' } };
    const m: ManagedFields = new Map([
      [EDITOR, { set: toFieldSet({ replicas: 1 }, T), apiVersion: 'v1', applied: false }],
    ]);
    let err: unknown;
    try {
      u.apply(live, { replicas: 2, labels: { a: '1' } }, m, APPLIER, 'v1', false);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConflictsError);
    const status = newConflictError((err as ConflictsError).conflicts).status;
    expect(status.message).toBe('Apply failed with 1 conflict: conflict with "editor" using v1: .replicas');
    const forced = u.apply(live, { replicas: 2 }, m, APPLIER, 'v1', true);
    expect(forced.object).toEqual({ replicas: 2, labels: { a: '1' } });
    expect(forced.managers.has(EDITOR)).toBe(false);
    expect(v1(forced.managers.get(APPLIER)?.set ?? new FieldSet())).toBe('{"f:replicas":{}}');
  });

  it('the same value applied again is shared, not a conflict', () => {
    const live = { replicas: 2 };
    const m: ManagedFields = new Map([[OTHER, { set: toFieldSet(live, T), apiVersion: 'v1', applied: true }]]);
    const res = u.apply(live, { replicas: 2 }, m, APPLIER, 'v1', false);
    expect(res.object).toBeUndefined();
    expect([...res.managers.keys()].sort()).toEqual([APPLIER, OTHER].sort());
  });

  it('fields an applier stops applying are removed unless someone else owns them', () => {
    const first = u.apply(
      {},
      { replicas: 1, labels: { a: '1', b: '2' }, items: [{ name: 'x', value: '1' }] },
      new Map(),
      APPLIER,
      'v1',
      false,
    );
    const withOther = u.apply(first.object ?? {}, { labels: { b: '2' } }, first.managers, OTHER, 'v1', false);
    const second = u.apply(
      withOther.object ?? first.object ?? {},
      { replicas: 1 },
      withOther.managers,
      APPLIER,
      'v1',
      false,
    );
    expect(second.object).toEqual({ replicas: 1, labels: { b: '2' } });
  });

  it('several conflicts: the message lists them per manager', () => {
    const live = { replicas: 1, labels: { a: '1' }, nested: { a: 'x' } };
    const m: ManagedFields = new Map([
      [EDITOR, { set: toFieldSet({ replicas: 1, labels: { a: '1' } }, T), apiVersion: 'v1', applied: false }],
      [OTHER, { set: toFieldSet({ nested: { a: 'x' } }, T), apiVersion: 'v1', applied: true }],
    ]);
    let err: unknown;
    try {
      u.apply(live, { replicas: 5, labels: { a: '2' }, nested: { a: 'y' } }, m, APPLIER, 'v1', false);
    } catch (e) {
      err = e;
    }
    const status = newConflictError((err as ConflictsError).conflicts).status;
    expect(status.message).toBe(
      'Apply failed with 3 conflicts: conflicts with "editor" using v1:\n- .replicas\n- .labels.a\nconflicts with "other":\n- .nested.a',
    );
    expect(status.details?.causes?.map((c) => c.field)).toEqual(['.replicas', '.labels.a', '.nested.a']);
  });
});

describe('capUpdateManagers', () => {
  it('keeps 10 Update entries, merging the oldest into ancient-changes (Apply entries are not counted)', () => {
    const managed: Managed = { fields: new Map(), times: new Map() };
    for (let i = 0; i < 12; i++) {
      const id = managerIdentifier({ manager: `m${i}`, operation: 'Update', apiVersion: 'v1' });
      managed.fields.set(id, { set: FieldSet.of([fieldElement(`f${i}`)]), apiVersion: 'v1', applied: false });
      managed.times.set(id, `2025-01-01T00:00:${String(10 + i).padStart(2, '0')}Z`);
    }
    managed.fields.set('applier', { set: FieldSet.of([fieldElement('x')]), apiVersion: 'v1', applied: true });
    capUpdateManagers(managed);
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: 'v1' });
    expect([...managed.fields.values()].filter((v) => !v.applied)).toHaveLength(10);
    expect(v1(managed.fields.get(bucket)?.set ?? new FieldSet())).toBe('{"f:f0":{},"f:f1":{},"f:f2":{}}');
    expect(managed.times.get(bucket)).toBe('2025-01-01T00:00:12Z');
    expect(managed.fields.has('applier')).toBe(true);
  });
});
