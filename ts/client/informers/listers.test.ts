import { describe, expect, it } from 'vitest';
import { parseLabelSelector } from '../../api/labels/selector.js';
import type { KubeObject } from '../../api/meta.js';
import { metaNamespaceIndexFunc, NAMESPACE_INDEX } from './index-funcs.js';
import { objectKey } from './keys.js';
import { Lister } from './listers.js';
import { ThreadSafeStore } from './thread-safe-store.js';

const obj = (namespace: string, name: string, labels: Record<string, string> = {}): KubeObject => ({
  metadata: { name, ...(namespace === '' ? {} : { namespace }), labels },
});

function lister(indexed: boolean): Lister<KubeObject> {
  const store = new ThreadSafeStore<KubeObject>(indexed ? { [NAMESPACE_INDEX]: metaNamespaceIndexFunc } : {});
  for (const o of [
    obj('default', 'web-0', { app: 'web', tier: 'front' }),
    obj('default', 'db-0', { app: 'db' }),
    obj('team-a', 'web-0', { app: 'web' }),
    obj('', 'node-1', { zone: 'a' }),
  ]) {
    store.add(objectKey(o), o);
  }
  return new Lister(store);
}

const keys = (objs: readonly Parameters<typeof objectKey>[0][]) => objs.map(objectKey).sort();

describe.each([true, false])('Lister (namespace index: %s)', (indexed) => {
  it('lists everything, or what a label selector matches', () => {
    const l = lister(indexed);
    expect(keys(l.list())).toEqual(['default/db-0', 'default/web-0', 'node-1', 'team-a/web-0']);
    expect(keys(l.list(parseLabelSelector('app=web')))).toEqual(['default/web-0', 'team-a/web-0']);
    expect(keys(l.list(parseLabelSelector('app in (web,db),tier!=front')))).toEqual(['default/db-0', 'team-a/web-0']);
  });

  it('lists one namespace, with a selector; "" is every namespace', () => {
    const l = lister(indexed);
    expect(keys(l.byNamespace('default').list())).toEqual(['default/db-0', 'default/web-0']);
    expect(keys(l.byNamespace('default').list(parseLabelSelector('app=web')))).toEqual(['default/web-0']);
    expect(keys(l.byNamespace('nowhere').list())).toEqual([]);
    expect(keys(l.byNamespace('').list(parseLabelSelector('app=web')))).toEqual(['default/web-0', 'team-a/web-0']);
  });

  it('gets by namespace and name, and cluster-scoped objects by name', () => {
    const l = lister(indexed);
    expect(l.get('team-a', 'web-0')?.metadata?.labels).toEqual({ app: 'web' });
    expect(l.byNamespace('default').get('db-0')?.metadata?.name).toBe('db-0');
    expect(l.get(undefined, 'node-1')?.metadata?.name).toBe('node-1');
    expect(l.get('', 'node-1')?.metadata?.name).toBe('node-1');
    expect(l.get('default', 'missing')).toBeUndefined();
  });
});
