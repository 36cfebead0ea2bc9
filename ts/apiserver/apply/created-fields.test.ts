/** The create fast path gives the general updater's FieldsV1, object for object. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiData } from '../openapi/data.js';
import { createdFieldsV1 } from './created-fields.js';
import { FastPathRefused } from './direct-walk.js';
import { FieldSet } from './field-set.js';
import { type FieldsV1, toFieldsV1 } from './fields-v1.js';
import { TypedError } from './list-items.js';
import { fieldElement, type Value } from './path.js';
import { DEDUCED, type TypeNode, typeOfKind, zeroObjectOfKind } from './typed.js';
import { Updater } from './updater.js';

const STRIP = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'uid', 'generation', 'resourceVersion'].map((f) => [
    fieldElement('metadata'),
    fieldElement(f),
  ]),
);
const STATUS = FieldSet.of([fieldElement('status')]);

const OBJECTS: [string, string, string, Record<string, Value>][] = [
  [
    '',
    'v1',
    'Pod',
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', labels: { a: 'b' }, annotations: {}, finalizers: ['x', 'y'] },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'i',
            env: [{ name: 'A', value: '1' }],
            resources: {},
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            args: ['a', 'b'],
          },
          { name: 'd', image: 'j', command: null },
        ],
        tolerations: [{ key: 'k', operator: 'Exists' }],
        nodeSelector: null,
        securityContext: {},
        volumes: [{ name: 'v', emptyDir: {} }],
      },
      status: { phase: 'Pending' },
    },
  ],
  [
    'apps',
    'v1',
    'Deployment',
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: { app: 'x' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'x' } },
        strategy: {},
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'x' } },
          spec: { containers: [{ name: 'c', image: 'i' }] },
        },
      },
    },
  ],
  [
    '',
    'v1',
    'ConfigMap',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1', b: '' }, binaryData: {} },
  ],
];

/** The general path's FieldsV1 (undefined when empty), as recordUpdate would store it. */
function generalFieldsV1(t: TypeNode, live: Value, obj: Value, ignored: FieldSet): string | undefined {
  const general = new Updater(t, ignored).updateFields(live, obj, new Map(), 'm', 'v1').get('m')?.set ?? new FieldSet();
  general.removeAll(STRIP);
  return general.empty() ? undefined : JSON.stringify(toFieldsV1(general));
}

function typeOf(group: string, version: string, kind: string): TypeNode {
  const t = typeOfKind(group, version, kind);
  if (t === undefined) throw new Error('no type');
  return t;
}

/** A pod with the lists a create has: keyed by one field, by two (ports), sets, atomic ones, defaults. */
function podWith(spec: Record<string, Value>, metadata: Record<string, Value> = { name: 'p' }): Record<string, Value> {
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

const MORE_PODS: [string, Record<string, Value>][] = [
  [
    'ports keyed by two fields, out of order, one taking the protocol default',
    podWith({
      containers: [
        {
          name: 'c',
          ports: [
            { containerPort: 8080, protocol: 'UDP' },
            { containerPort: 80 },
            { containerPort: 80, protocol: 'UDP', name: 'u' },
            { containerPort: 443, protocol: 'TCP' },
          ],
        },
      ],
    }),
  ],
  [
    'items out of order, numbers and strings, a set of finalizers',
    podWith(
      {
        containers: [
          { name: 'z', env: [{ name: 'B' }, { name: 'A', value: '' }, { name: 'a' }, { name: '\u00e9' }] },
          { name: 'a"quoted"', image: 'x' },
          { name: '10' },
          { name: '9' },
        ],
        volumes: [{ name: 'v2' }, { name: 'v1', emptyDir: {} }],
      },
      { name: 'p', finalizers: ['b', 'a', 'c'], labels: {}, annotations: { z: '', a: 'x' } },
    ),
  ],
  ['nulls against the zero object', podWith({ containers: null, securityContext: null, volumes: [] })],
  ['no spec at all', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'n' } }],
  ['only stripped fields', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'n' }, spec: {} }],
  [
    'more annotations than the insertion sort takes',
    podWith(
      {},
      { name: 'p', annotations: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${(i * 37) % 60}`, ''])) },
    ),
  ],
];

describe('createdFieldsV1', () => {
  beforeAll(() => loadOpenApiData());

  it.each(OBJECTS)('%s/%s %s: the same FieldsV1 as Updater.updateFields', (group, version, kind, obj) => {
    const t = typeOf(group, version, kind);
    const zero = zeroObjectOfKind(group, version, kind);
    const fast = createdFieldsV1(zero, obj, t, STATUS, STRIP);
    const general =
      new Updater(t, STATUS).updateFields(zero, obj, new Map(), 'm', version).get('m')?.set ?? new FieldSet();
    general.removeAll(STRIP);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(toFieldsV1(general)));
  });

  it.each(MORE_PODS)('pod with %s: the same FieldsV1 as the general path', (_, obj) => {
    const t = typeOf('', 'v1', 'Pod');
    const zero = zeroObjectOfKind('', 'v1', 'Pod');
    // Twice: the second walk takes the list item keys from the cache.
    for (let i = 0; i < 2; i++) {
      const fast = createdFieldsV1(zero, obj, t, STATUS, STRIP);
      expect(fast === undefined ? undefined : JSON.stringify(fast)).toBe(generalFieldsV1(t, zero, obj, STATUS));
    }
  });

  it('takes out reset fields below the root: a status write (spec, metadata.labels and ownerReferences)', () => {
    const t = typeOf('', 'v1', 'Pod');
    const resets = FieldSet.of(
      [fieldElement('spec')],
      [fieldElement('metadata'), fieldElement('labels')],
      [fieldElement('metadata'), fieldElement('ownerReferences')],
    );
    const obj = OBJECTS[0]?.[3] as Record<string, Value>;
    const withOwners = {
      ...obj,
      metadata: {
        ...(obj.metadata as object),
        ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }],
      },
    };
    for (const live of [zeroObjectOfKind('', 'v1', 'Pod'), {}]) {
      const fast = createdFieldsV1(live, withOwners, t, resets, STRIP);
      expect(JSON.stringify(fast)).toBe(generalFieldsV1(t, live, withOwners, resets));
      expect(JSON.stringify(fast)).not.toContain('f:spec');
      expect(JSON.stringify(fast)).not.toContain('f:labels');
    }
  });

  it('a custom resource: deduced fields against an empty live object, metadata stripped of its membership', () => {
    const cases: Value[] = [
      { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec: { a: [1, 2], b: { c: null, d: {} } } },
      { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a', labels: { l: 'v' } } },
      { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' } },
    ];
    for (const obj of cases) {
      const fast = createdFieldsV1({}, obj, DEDUCED, new FieldSet(), STRIP);
      expect(fast === undefined ? undefined : JSON.stringify(fast)).toBe(
        generalFieldsV1(DEDUCED, {}, obj, new FieldSet()),
      );
    }
  });

  it('owns nothing of a null where the zero object has fields (the general path does not fail there)', () => {
    const t = typeOf('apps', 'v1', 'Deployment');
    const zero = zeroObjectOfKind('apps', 'v1', 'Deployment');
    const obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { a: 'b' } }, spec: null };
    const fast = createdFieldsV1(zero, obj, t, STATUS, STRIP);
    expect(JSON.stringify(fast)).toBe(generalFieldsV1(t, zero, obj, STATUS));
  });

  it('agrees with the general path on pods shuffled, pruned and nulled at random', () => {
    const t = typeOf('', 'v1', 'Pod');
    const zero = zeroObjectOfKind('', 'v1', 'Pod');
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Object keys reordered, some dropped or nulled; lists reversed at random.
    const mutate = (v: Value): Value => {
      if (Array.isArray(v)) return (random() < 0.5 ? [...v].reverse() : v).map(mutate);
      if (v === null || typeof v !== 'object') return v;
      const out: Record<string, Value> = {};
      for (const k of Object.keys(v).sort(() => random() - 0.5)) {
        const r = random();
        if (r < 0.1) continue;
        out[k] = r < 0.15 ? null : mutate(v[k] as Value);
      }
      return out;
    };
    let refused = 0;
    for (const [, obj] of [...MORE_PODS, ['', OBJECTS[0]?.[3] as Record<string, Value>] as const]) {
      for (let i = 0; i < 40; i++) {
        const m = mutate(obj);
        let fast: FieldsV1 | undefined;
        try {
          fast = createdFieldsV1(zero, m, t, STATUS, STRIP);
        } catch (err) {
          // A refusal (a key dropped made two items alike) only where the general path fails too.
          expect(err instanceof FastPathRefused || err instanceof TypedError).toBe(true);
          expect(() => generalFieldsV1(t, zero, m, STATUS)).toThrow(TypedError);
          refused++;
          continue;
        }
        expect(fast === undefined ? undefined : JSON.stringify(fast)).toBe(generalFieldsV1(t, zero, m, STATUS));
      }
    }
    expect(refused).toBeLessThan(40);
  });

  it('gives fresh, ordinary objects each time', () => {
    const t = typeOf('', 'v1', 'Pod');
    const obj = OBJECTS[0]?.[3] as Record<string, Value>;
    const a = createdFieldsV1({}, obj, t, STATUS, STRIP) as FieldsV1;
    const b = createdFieldsV1({}, obj, t, STATUS, STRIP) as FieldsV1;
    expect(b).toEqual(a);
    const leaf = (a['f:metadata'] as FieldsV1)['f:labels'] as FieldsV1;
    expect(Object.isFrozen(leaf)).toBe(false);
    leaf.x = {};
    expect(JSON.stringify(b)).not.toContain('"x"');
  });

  it('refuses what the general path reports: duplicate keys, undeclared fields, bad items', () => {
    const t = typeOf('', 'v1', 'Pod');
    const dup = { spec: { containers: [{ name: 'c' }, { name: 'c' }] } };
    expect(() => createdFieldsV1({}, dup, t, STATUS, STRIP)).toThrow(FastPathRefused);
    const manyDup = {
      spec: { containers: [...Array.from({ length: 12 }, (_, i) => ({ name: `c${i}` })), { name: 'c3' }] },
    };
    expect(() => createdFieldsV1({}, manyDup, t, STATUS, STRIP)).toThrow(FastPathRefused);
    const dupPorts = {
      spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }, { containerPort: 80, protocol: 'TCP' }] }] },
    };
    expect(() => createdFieldsV1({}, dupPorts, t, STATUS, STRIP)).toThrow(FastPathRefused);
    expect(() => createdFieldsV1({}, { spec: { nope: 1 } }, t, STATUS, STRIP)).toThrow(FastPathRefused);
    expect(() => createdFieldsV1({}, { spec: { containers: ['c'] } }, t, STATUS, STRIP)).toThrow(TypedError);
    expect(() => createdFieldsV1({}, { metadata: { finalizers: [{}] } }, t, STATUS, STRIP)).toThrow(TypedError);
    // Reset fields are still checked: the general path fails on them too.
    const badStatus = { status: { conditions: [{ type: 'Ready' }, { type: 'Ready' }] } };
    expect(() => createdFieldsV1({}, badStatus, t, STATUS, STRIP)).toThrow(FastPathRefused);
    expect(() => createdFieldsV1({}, { status: { nope: 1 } }, t, STATUS, STRIP)).toThrow(FastPathRefused);
  });
});
