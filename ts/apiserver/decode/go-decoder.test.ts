import { beforeAll, describe, expect, it } from 'vitest';
import { podBodies, runningPodStored } from '../../../bench/api-pods.js';
import { loadOpenApiData, type OpenApiData, type Schema, schemaOfKind } from '../openapi/data.js';
import { base64ErrorOffset, decodeAgainstSchema, decodesCleanly, parseJsonNode } from './go-decoder.js';
import { faithfulParse } from './go-json.js';

describe('base64ErrorOffset (encoding/base64 decodeQuantum)', () => {
  it.each([
    ['', -1],
    ['aGk=', -1],
    ['aGVsbG8=', -1],
    ['aGk', 0],
    ['aGVsbG', 4],
    ['a===', 1],
    ['ab=c', 2],
    ['ab=', 3],
    ['aGk=x', 4],
    ['aG\nk=', -1],
  ])('%j → %d', (input, offset) => {
    expect(base64ErrorOffset(input)).toBe(offset);
  });
});

describe('parseJsonNode', () => {
  it('keeps duplicate keys, escapes and number text', () => {
    expect(parseJsonNode(' {"a":1.0,"a":[true,null,"\\u0041"]} ')).toEqual({
      t: 'object',
      entries: [
        ['a', { t: 'number', raw: '1.0' }],
        [
          'a',
          {
            t: 'array',
            items: [{ t: 'bool', raw: 'true' }, { t: 'null' }, { t: 'string', value: 'A', raw: '"\\u0041"' }],
          },
        ],
      ],
    });
  });
});

describe('decodesCleanly (the fast path) ≡ decodeAgainstSchema of the text', () => {
  let data: OpenApiData;
  beforeAll(async () => {
    data = await loadOpenApiData();
  });
  const kind = (group: string, version: string, name: string): Schema => {
    const schema = schemaOfKind(group, version, name);
    if (schema === undefined) throw new Error(`no schema for ${name}`);
    return schema;
  };
  const slow = (schema: Schema, text: string, strict: boolean) =>
    decodeAgainstSchema(data.schemas, schema, parseJsonNode(text), strict, false, data.goTypes);
  /**
   * The fast path as checkUnknownFields takes it: the facts of the text taken at parse time, then
   * (as decode/type-meta.ts checkTypeMeta does) apiVersion and kind set when missing or empty.
   */
  const fast = (schema: Schema, text: string, strict: boolean, typeMeta: Record<string, unknown> = {}) => {
    const value = JSON.parse(text) as Record<string, unknown>;
    const faithful = faithfulParse(text, value);
    if (faithful === undefined) return false;
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    for (const [field, want] of isObject ? Object.entries(typeMeta) : []) {
      if (value[field] === undefined || value[field] === '') value[field] = want;
    }
    return decodesCleanly(data.schemas, schema, value, faithful.escaped, strict);
  };

  /** Valid bodies of several kinds: structs, maps, IntOrString, Quantity, Time, []byte, raw JSON, floats. */
  const bases = (): [Schema, Record<string, unknown>][] => {
    const pod = kind('', 'v1', 'Pod');
    return [
      [pod, JSON.parse(podBodies('team-a')('web-1', '0'))],
      [pod, JSON.parse(runningPodStored('team-a', 'web-2', 7))],
      [
        pod,
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'p',
            managedFields: [{ manager: 'm', operation: 'Update', fieldsV1: { 'f:metadata': { 'f:labels': {} } } }],
          },
          spec: {
            containers: [
              {
                name: 'c',
                command: ['sh', '-c', 'echo "a:b" \\ done'],
                resources: { limits: { cpu: 2, memory: '1Gi' }, requests: { cpu: '250m' } },
                livenessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 5 },
              },
            ],
            overhead: { cpu: '10m' },
            activeDeadlineSeconds: 123456789012345,
          },
        },
      ],
      [
        kind('apps', 'v1', 'Deployment'),
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', labels: { app: 'web' } },
          spec: {
            replicas: 3,
            selector: { matchLabels: { app: 'web' } },
            strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
            template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
          },
        },
      ],
      [
        kind('', 'v1', 'Service'),
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 's' },
          spec: {
            selector: { app: 'web' },
            ports: [
              { name: 'http', port: 80, targetPort: 'http' },
              { name: 'alt', port: 8080, targetPort: 8080, protocol: 'TCP' },
            ],
            sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
          },
        },
      ],
      [
        kind('', 'v1', 'Secret'),
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 's' },
          data: { a: 'aGk=', b: [104, 105] },
          type: 'Opaque',
        },
      ],
      [
        kind('apps', 'v1', 'ControllerRevision'),
        {
          apiVersion: 'apps/v1',
          kind: 'ControllerRevision',
          metadata: { name: 'r' },
          data: { any: [1, { x: 2 }] },
          revision: 2,
        },
      ],
      [
        kind('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition'),
        {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: 'widgets.example.com' },
          spec: {
            group: 'example.com',
            names: { plural: 'widgets', kind: 'Widget' },
            scope: 'Namespaced',
            versions: [
              {
                name: 'v1',
                served: true,
                storage: true,
                schema: {
                  openAPIV3Schema: {
                    type: 'object',
                    properties: { spec: { type: 'object', properties: { size: { type: 'integer', maximum: 10 } } } },
                    'x-kubernetes-preserve-unknown-fields': true,
                  },
                },
              },
            ],
          },
        },
      ],
    ];
  };

  type Path = (string | number)[];
  /** Every value's path in `v` (the root included). */
  const paths = (v: unknown, at: Path = []): Path[] => {
    const out: Path[] = [at];
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push(...paths(x, [...at, i]));
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
    }
    return out;
  };
  const MARK = '@@MARK@@';
  /** The text of `base` with the value at `path` changed by `edit` (which may leave MARK for `literal`). */
  const mutated = (base: unknown, path: Path, edit: (v: unknown) => unknown, literal = ''): string => {
    const copy = structuredClone(base) as Record<string | number, unknown>;
    let parent: Record<string | number, unknown> | undefined;
    let node: unknown = copy;
    for (const seg of path) {
      parent = node as Record<string | number, unknown>;
      node = parent[seg];
    }
    const edited = edit(node);
    const root = parent === undefined ? edited : copy;
    if (parent !== undefined) parent[path[path.length - 1] as string | number] = edited;
    return JSON.stringify(root).replaceAll(JSON.stringify(MARK), literal);
  };
  // Number literals JSON.parse cannot tell apart, type mismatches, and strings with escapes.
  const LITERALS = [
    '1.0',
    '1e2',
    '-0',
    '0',
    '-1',
    '2147483648',
    '9007199254740993',
    '123456789012345',
    '1234567890123456',
    '99999999999999999999',
    '1.5',
    'null',
    'true',
    '"x"',
    '"100m"',
    '"1\\u00300m"',
    '"2024-01-01T00:00:00Z"',
    '"a\\"b:c"',
    '{}',
    '[]',
    '{"a":1}',
    '[1,"x"]',
    '{"q":1,"q":2}',
  ];

  it('never answers "clean" when the text decodes with a warning or an error', () => {
    let checked = 0;
    let slowClean = 0;
    let provenClean = 0;
    // Each body as sent, and without apiVersion and kind (which checkTypeMeta then sets).
    const bodies = bases().flatMap(([schema, base]): [Schema, Record<string, unknown>, Record<string, unknown>][] => {
      const { apiVersion, kind, ...rest } = base;
      return [
        [schema, base, { apiVersion, kind }],
        [schema, rest, { apiVersion, kind }],
      ];
    });
    for (const [schema, base, typeMeta] of bodies) {
      const texts = [JSON.stringify(base)];
      for (const path of paths(base)) {
        for (const literal of LITERALS) texts.push(mutated(base, path, () => MARK, literal));
        const value = path.reduce<unknown>((v, seg) => (v as Record<string | number, unknown>)[seg], base);
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
          texts.push(mutated(base, path, (v) => ({ ...(v as object), zz: 1 })));
          const first = Object.keys(value)[0];
          if (first !== undefined) {
            // A duplicate of the first key (same value, then another one), as only the text can have it.
            for (const dup of [(value as Record<string, unknown>)[first], 'dup']) {
              const text = mutated(base, path, (v) => ({ ...(v as object), [MARK]: dup }), JSON.stringify(first));
              texts.push(text);
            }
          }
        }
      }
      for (const text of texts) {
        for (const strict of [true, false]) {
          checked++;
          const result = slow(schema, text, strict);
          const clean = result.error === undefined && result.strict.length === 0;
          if (clean) slowClean++;
          if (!fast(schema, text, strict, typeMeta)) continue;
          provenClean++;
          expect({ text, strict, result }).toEqual({ text, strict, result: { strict: [] } });
        }
      }
    }
    expect(checked).toBeGreaterThan(30000);
    // The fast path is taken for most clean texts: the rest have numbers or duplicates only the text shows.
    expect(provenClean).toBeGreaterThan(slowClean * 0.6);
  }, 60_000); // some 40,000 decodes: seconds on a busy machine

  it('answers "clean" for the valid bodies, strict or not', () => {
    for (const [schema, base] of bases()) {
      const text = JSON.stringify(base);
      expect(slow(schema, text, true)).toEqual({ strict: [] });
      expect(fast(schema, text, true)).toBe(true);
      expect(fast(schema, text, false)).toBe(true);
    }
  });

  it('falls back on what only the text shows, or anything to report', () => {
    const cm = kind('', 'v1', 'ConfigMap');
    const deploy = kind('apps', 'v1', 'Deployment');
    const pod = kind('', 'v1', 'Pod');
    const cases: [Schema, string, boolean][] = [
      [cm, '{"metadata":{"name":"a","name":"b"}}', false], // duplicate in a struct, even with Ignore
      [cm, '{"data":{"k":"1","k":"1"}}', false], // duplicate in a map
      [deploy, '{"spec":{"template":{"metadata":{"annotations":{"a":"1"}},"spec":{"x":1}}}}', false], // unknown at depth
      [deploy, '{"spec":{"replicas":1.0}}', false], // a fraction where an integer is expected
      [deploy, '{"spec":{"replicas":1e0}}', false],
      [deploy, '{"spec":{"replicas":-0}}', false],
      [deploy, '{"spec":{"replicas":"1"}}', false],
      [deploy, '{"spec":{"progressDeadlineSeconds":9007199254740993}}', false], // beyond 2^53
      [pod, '{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1\\u0030"}}}]}}', false], // escaped quantity
      [pod, '{"spec":{"containers":[{"name":"c\\u0030","args":["a\\"b:c"]}]}}', true], // other escapes are fine
      [pod, '{"metadata":{"name":"a:b","labels":{"x:y":"{\\"z\\":1}"}}}', true], // colons in strings are not keys
    ];
    for (const [schema, text, clean] of cases) {
      expect({ text, fast: fast(schema, text, true) }).toEqual({ text, fast: clean });
    }
    // Without strict checks an unknown field is no reason to fall back; a duplicate still is.
    expect(fast(cm, '{"metadata":{"name":"a"},"zz":{"y":1}}', false)).toBe(true);
    expect(fast(cm, '{"metadata":{"name":"a"},"zz":{"y":1,"y":2}}', false)).toBe(false);
  });
});
