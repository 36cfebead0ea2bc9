/** The own-entry update fast path gives the general path's managedFields, edit for edit. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ManagedFieldsEntry } from '../../api/meta.js';
import { loadOpenApiData } from '../openapi/data.js';
import type { ResourceInfo } from '../registry/resources.js';
import { type FieldManagerScope, recordOwnUpdate, recordUpdate, updateManaged } from './field-manager.js';
import { FieldSet } from './field-set.js';
import { TypedError } from './list-items.js';
import { decodeManagedFields, encodeManagedFields } from './managed-fields.js';
import { fieldElement, type Value } from './path.js';
import { builtinScope } from './scope.js';

type Obj = { [key: string]: Value };

const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'p',
    namespace: 'n',
    uid: 'u',
    labels: { a: 'b', c: 'd' },
    annotations: { x: '1', y: '2' },
    finalizers: ['f1', 'f2'],
    ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u1' }],
  },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'i',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        args: ['a', 'b'],
        resources: { limits: { cpu: '1' } },
      },
      { name: 'd', image: 'j' },
    ],
    tolerations: [{ key: 'k', operator: 'Exists' }],
    volumes: [{ name: 'v', emptyDir: {} }],
    nodeSelector: { zone: 'a' },
  },
  status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] },
} as const satisfies Obj;

function scopeOf(subresource: string): FieldManagerScope {
  const info = { group: '', version: 'v1', kind: 'Pod', resource: 'pods', namespaced: true } as unknown as ResourceInfo;
  const s = builtinScope(info, subresource);
  if (s === undefined) throw new Error('no scope');
  return s;
}

const clone = <T>(v: T): T => structuredClone(v);
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const stripMF = (o: Obj): Obj => {
  const c = clone(o);
  if (isObj(c.metadata)) delete c.metadata.managedFields;
  return c;
};

/** recordUpdate's choice and decoding of the entries (sent ones if they decode, else live's; none: undecodable). */
function decoded(scope: FieldManagerScope, live: Obj, next: Obj) {
  const sent = isObj(next.metadata) ? (next.metadata.managedFields as ManagedFieldsEntry[] | undefined) : undefined;
  const liveEntries = (live.metadata as Obj).managedFields as ManagedFieldsEntry[];
  const or = (entries: ManagedFieldsEntry[], fallback: () => ReturnType<typeof decodeManagedFields>) => {
    try {
      const m = decodeManagedFields(entries);
      return m.fields.size === 0 ? fallback() : m;
    } catch {
      return fallback();
    }
  };
  const fromLive = () => or(liveEntries, () => decodeManagedFields(undefined));
  return scope.subresource === '' && Array.isArray(sent) && sent.length > 0 ? or(sent, fromLive) : fromLive();
}

/** The general path's managedFields for `next` (sent ones, else live's, decoded as recordUpdate does). */
function general(scope: FieldManagerScope, live: Obj, next: Obj, manager: string, now: string): string | undefined {
  if (!isObj(next.metadata)) return undefined; // recordUpdate writes its result to no object
  const managed0 = decoded(scope, live, next);
  if (managed0.fields.size === 0) return undefined; // skipnonapplied: the live object has a uid
  try {
    const managed = updateManaged(scope, stripMF(live), stripMF(next), managed0, manager, now);
    const out = encodeManagedFields(managed);
    return out === undefined ? undefined : JSON.stringify(out);
  } catch (err) {
    if (err instanceof TypedError) return undefined;
    throw err;
  }
}

function fast(scope: FieldManagerScope, live: Obj, next: Obj, manager: string, now: string): string | undefined {
  const n = clone(next);
  recordUpdate(scope, live, n, manager, now);
  const mf = isObj(n.metadata) ? n.metadata.managedFields : undefined;
  return mf === undefined ? undefined : JSON.stringify(mf);
}

/** Whether recordUpdate takes the fast path for this write (on a copy of `next`). */
const takesFastPath = (scope: FieldManagerScope, live: Obj, next: Obj, manager: string): boolean =>
  recordOwnUpdate(scope, live, clone(next), manager, 'NOW');

/** An object created by `manager` (its one Update entry), through the create path. */
function created(scope: FieldManagerScope, obj: Obj, manager: string): Obj {
  const o = clone(obj);
  recordUpdate(scope, undefined, o, manager, '2025-01-01T00:00:00Z');
  return o;
}

describe('updatedFieldsV1 through recordUpdate', () => {
  beforeAll(() => loadOpenApiData());

  it('an annotation changed by the creator: same set, new time', () => {
    const scope = scopeOf('');
    const live = created(scope, POD, 'kubectl');
    const next = clone(live);
    delete (next.metadata as Obj).managedFields;
    ((next.metadata as Obj).annotations as Obj).x = 'changed';
    const got = fast(scope, live, next, 'kubectl', '2025-01-02T00:00:00Z');
    expect(got).toBe(general(scope, live, next, 'kubectl', '2025-01-02T00:00:00Z'));
    expect(got).toContain('2025-01-02T00:00:00Z');
    // Nothing changed: the time stays.
    const same = fast(scope, live, stripMF(live), 'kubectl', '2025-01-03T00:00:00Z');
    expect(same).toBe(general(scope, live, stripMF(live), 'kubectl', '2025-01-03T00:00:00Z'));
    expect(same).toContain('2025-01-01T00:00:00Z');
  });

  it('a PUT without the reset fields (status) takes the fast path unless the writer owns some', () => {
    // The pods strategy's reset fields (the apiserver's scope has them; builtinScope alone has none).
    const scope = { ...scopeOf(''), resetFields: FieldSet.of([fieldElement('status')]) };
    const live = created(scope, POD, 'kubectl');
    const next = stripMF(live);
    delete next.status;
    ((next.metadata as Obj).labels as Obj).a = 'changed';
    expect(fast(scope, live, next, 'kubectl', 'NOW')).toBe(general(scope, live, next, 'kubectl', 'NOW'));
    expect(takesFastPath(scope, live, next, 'kubectl')).toBe(true);
    // Stored fields under status (written before status was a reset field, say): the general path.
    const l = clone(live);
    const entry = ((l.metadata as Obj).managedFields as Obj[])[0] as Obj;
    entry.fieldsV1 = { ...(entry.fieldsV1 as Obj), 'f:status': { 'f:phase': {} } };
    expect(fast(scope, l, next, 'kubectl', 'NOW')).toBe(general(scope, l, next, 'kubectl', 'NOW'));
    expect(takesFastPath(scope, l, next, 'kubectl')).toBe(false);
  });

  it('agrees with the general path over random edits, for the main resource and status', () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const scalars: Value[] = ['z', '', 1, 0, true, null];
    // Add, remove, change or null a field; reorder or drop list items; replace a subtree.
    const mutate = (v: Value, depth: number): Value => {
      if (Array.isArray(v)) {
        let items = v.map((x) => (random() < 0.3 ? mutate(x, depth + 1) : x));
        if (random() < 0.2) items = [...items].reverse();
        if (random() < 0.15) items = items.slice(1);
        return items;
      }
      if (v === null || typeof v !== 'object') return random() < 0.3 ? pick(scalars) : v;
      const out: Obj = {};
      for (const k of Object.keys(v)) {
        const r = random();
        if (r < 0.08) continue;
        if (r < 0.12) out[k] = null;
        else out[k] = r < 0.5 ? mutate(v[k] as Value, depth + 1) : (v[k] as Value);
      }
      if (random() < 0.1) out[pick(['x', 'name', 'image', 'zone', 'key'])] = pick(scalars);
      return out;
    };
    const editMeta = (o: Obj): void => {
      const m = o.metadata as Obj;
      const r = random();
      if (r < 0.3) m.annotations = { ...((m.annotations as Obj) ?? {}), [`k${Math.floor(random() * 4)}`]: 'v' };
      else if (r < 0.4) delete m.annotations;
      else if (r < 0.5) m.labels = { a: 'b' };
      else if (r < 0.55) m.resourceVersion = '7';
      else if (r < 0.6) m.generation = 3;
    };
    const stats = { compared: 0, fast: 0 };
    for (const subresource of ['', 'status']) {
      const scope = scopeOf(subresource);
      const base = created(scope, POD, 'mgr');
      for (let i = 0; i < 300; i++) {
        // Sometimes an older edit owned by the same manager is the live object.
        const live = random() < 0.3 ? created(scope, { ...clone(POD), spec: mutate(clone(POD.spec), 0) }, 'mgr') : base;
        const next = stripMF(random() < 0.2 ? live : (mutate(live, 0) as Obj));
        if (isObj(next.metadata)) editMeta(next);
        if (random() < 0.2 && subresource === '' && isObj(next.metadata))
          next.metadata.managedFields = clone((live.metadata as Obj).managedFields as Value);
        const manager = random() < 0.1 ? 'other' : 'mgr';
        const expected =
          !isObj(live.metadata) || live.metadata.managedFields === undefined
            ? 'skip'
            : general(scope, live, next, manager, 'NOW');
        if (expected === 'skip') continue;
        expect(fast(scope, live, next, manager, 'NOW')).toBe(expected);
        stats.compared++;
        if (takesFastPath(scope, live, next, manager)) stats.fast++;
      }
    }
    expect(stats.compared).toBeGreaterThan(400);
    // The fast path must be what agreed with the general one for many of them (312 of 575: the rest
    // are another manager's, undeclared fields, or spec changes through status).
    expect(stats.fast).toBeGreaterThan(250);
  });

  it('takes the general path for stale, non-canonical or undecodable stored fields', () => {
    const scope = scopeOf('');
    const live = created(scope, POD, 'kubectl');
    const entry = ((live.metadata as Obj).managedFields as Obj[])[0] as Obj;
    // [stored FieldsV1, whether the fast path handles it]
    const variants: [Value, boolean][] = [
      [{ 'f:metadata': { 'f:gone': {}, 'f:labels': { '.': {}, 'f:zz': { '.': {} } } } }, false],
      [{ 'f:spec': { 'f:volumes': { 'k:{"name":"old"}': {} } } }, false],
      [{ 'f:spec': { 'f:containers': { 'v:1.0': {} } } }, false],
      [{ 'f:spec': { 'f:nope': 5 } }, false],
      [{ 'f:spec': { 'x:y': {} } }, false],
      [{ 'f:metadata': { 'f:name': { 'f:x': {} } } }, false],
      // The root is never a member: its `"."` goes.
      [{ '.': {}, 'f:status': { 'f:phase': {} } }, true],
      [{}, true],
    ];
    for (const [fieldsV1, fastPath] of variants) {
      const l = clone(live);
      ((l.metadata as Obj).managedFields as Obj[])[0] = { ...entry, fieldsV1 };
      const next = stripMF(l);
      ((next.metadata as Obj).labels as Obj).n = 'new';
      expect(fast(scope, l, next, 'kubectl', 'NOW')).toBe(general(scope, l, next, 'kubectl', 'NOW'));
      expect(takesFastPath(scope, l, next, 'kubectl')).toBe(fastPath);
    }
  });
});
