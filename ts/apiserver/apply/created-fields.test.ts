/** The create fast path gives the general updater's FieldsV1, object for object. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiData } from '../openapi/data.js';
import { createdFieldsV1, FastPathRefused } from './created-fields.js';
import { FieldSet } from './field-set.js';
import { toFieldsV1 } from './fields-v1.js';
import { fieldElement, type Value } from './path.js';
import { typeOfKind, zeroObjectOfKind } from './typed.js';
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

describe('createdFieldsV1', () => {
  beforeAll(() => loadOpenApiData());

  it.each(OBJECTS)('%s/%s %s: the same FieldsV1 as Updater.updateFields', (group, version, kind, obj) => {
    const t = typeOfKind(group, version, kind);
    if (t === undefined) throw new Error('no type');
    const zero = zeroObjectOfKind(group, version, kind);
    const fast = createdFieldsV1(zero, obj, t, STATUS, STRIP);
    const general =
      new Updater(t, STATUS).updateFields(zero, obj, new Map(), 'm', version).get('m')?.set ?? new FieldSet();
    general.removeAll(STRIP);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(toFieldsV1(general)));
  });

  it('refuses what the general path reports: duplicate keys, undeclared fields', () => {
    const t = typeOfKind('', 'v1', 'Pod');
    if (t === undefined) throw new Error('no type');
    const dup = { spec: { containers: [{ name: 'c' }, { name: 'c' }] } };
    expect(() => createdFieldsV1({}, dup, t, STATUS, STRIP)).toThrow(FastPathRefused);
    expect(() => createdFieldsV1({}, { spec: { nope: 1 } }, t, STATUS, STRIP)).toThrow(FastPathRefused);
  });
});
