/** listItemKey and compareItems: listItemElement's key and compareElements' order, without the elements. */
import { describe, expect, it } from 'vitest';
import { compareItems, listItemElement, listItemKey, TypedError } from './list-items.js';
import { compareElements, type Value } from './path.js';
import { DEDUCED, type ListType } from './typed.js';

const list = (keys: string[], defaults: [string, Value][] = []): ListType => ({
  kind: 'list',
  atomic: false,
  keys,
  keyDefaults: new Map(defaults),
  element: DEDUCED,
});

const BY_NAME = list(['name']);
const PORTS = list(['containerPort', 'protocol'], [['protocol', 'TCP']]);
const SET = list([]);

const ITEMS: [string, ListType, Value][] = [
  ['a name', BY_NAME, { name: 'web', image: 'x' }],
  ['a quoted name', BY_NAME, { name: 'a"b\\c\u00e9' }],
  ['an empty name', BY_NAME, { name: '' }],
  ['a number', BY_NAME, { name: 80 }],
  ['minus zero', BY_NAME, { name: -0 }],
  ['a string that looks like a number', BY_NAME, { name: '80' }],
  ['a boolean (not cached)', BY_NAME, { name: true }],
  ['a map (not cached)', BY_NAME, { name: { b: 1, a: 2 } }],
  ['two keys', PORTS, { containerPort: 80, protocol: 'UDP' }],
  ['two keys, one defaulted', PORTS, { containerPort: 80 }],
  ['two keys with a comma', PORTS, { containerPort: '80,"x"', protocol: 'a' }],
  ['two keys, the comma elsewhere', PORTS, { containerPort: '80', protocol: 'x",a' }],
  ['a set string', SET, 'x'],
  ['a set number', SET, 8],
  ['a set boolean', SET, false],
];

describe('listItemKey', () => {
  it.each(ITEMS)('%s: the key of listItemElement, cached or not', (_, t, item) => {
    const key = listItemElement(t, item).key;
    expect(listItemKey(t, item)).toBe(key);
    expect(listItemKey(t, item)).toBe(key);
  });

  it('tells apart items whose key values differ only in type or in where a comma is', () => {
    const keys = ITEMS.map(([, t, item]) => `${t.keys.join()}|${listItemKey(t, item)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has the errors of listItemElement', () => {
    for (const [t, item] of [
      [BY_NAME, null],
      [BY_NAME, 'x'],
      [BY_NAME, {}],
      [SET, null],
      [SET, {}],
      [SET, []],
    ] as [ListType, Value][]) {
      expect(() => listItemKey(t, item)).toThrow(TypedError);
    }
  });

  it('stays right past the bound of remembered keys', () => {
    const t = list(['name']);
    for (let i = 0; i < 2500; i++) expect(listItemKey(t, { name: `n${i % 1200}` })).toBe(`k:{"name":"n${i % 1200}"}`);
  });
});

describe('compareItems', () => {
  it('orders items as compareElements orders their elements', () => {
    const lists: [ListType, Value[]][] = [
      [
        BY_NAME,
        [{ name: 'b' }, { name: 'a' }, { name: 'B' }, { name: 10 }, { name: '10' }, { name: '9' }, { name: true }],
      ],
      [
        PORTS,
        [{ containerPort: 80 }, { containerPort: 80, protocol: 'SCTP' }, { containerPort: 443 }, { containerPort: 8 }],
      ],
      [SET, ['b', 'a', 3, 1, true]],
    ];
    for (const [t, items] of lists) {
      for (const a of items) {
        for (const b of items) {
          expect(Math.sign(compareItems(t, a, b))).toBe(
            Math.sign(compareElements(listItemElement(t, a), listItemElement(t, b))),
          );
        }
      }
    }
  });
});
