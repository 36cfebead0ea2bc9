import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import type { Pod } from '../../api/types/core/v1.js';
import {
  addPodControllerIndexer,
  addPodNodeNameIndexer,
  filterPodsByOwner,
  metaNamespaceIndexFunc,
  POD_CONTROLLER_INDEX,
  POD_NODE_NAME_INDEX,
  podControllerIndexFunc,
  podControllerIndexKey,
  podNodeNameIndexFunc,
} from './index-funcs.js';
import { ThreadSafeStore } from './thread-safe-store.js';

const owner = (uid: string, controller?: boolean) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name: `rs-${uid}`,
  uid,
  ...(controller === undefined ? {} : { controller }),
});

describe('index functions', () => {
  it('index by namespace, cluster-scoped objects under ""', () => {
    expect(metaNamespaceIndexFunc({ metadata: { name: 'p', namespace: 'team-a' } })).toEqual(['team-a']);
    expect(metaNamespaceIndexFunc({ metadata: { name: 'n1' } })).toEqual(['']);
  });

  // controller_utils.go PodControllerIndexKey after kubernetes#134654: the controller's namespace,
  // kind, name and UID (1.33's index had the UID alone, and one key for every orphan of the
  // cluster); an orphan under its namespace.
  it('index by the controller (not other owners): namespace, kind, name and UID; orphans by namespace', () => {
    const pod = (refs: ReturnType<typeof owner>[]): KubeObject => ({
      metadata: { name: 'p', namespace: 'team-a', ownerReferences: refs },
    });
    expect(podControllerIndexFunc(pod([owner('a'), owner('b', true)]))).toEqual(['team-a/ReplicaSet/rs-b/b']);
    expect(podControllerIndexFunc(pod([owner('a', false)]))).toEqual(['team-a']);
    expect(podControllerIndexFunc({ metadata: { name: 'p', namespace: 'team-b' } })).toEqual(['team-b']);
    expect(podControllerIndexKey('ns', { kind: 'Job', name: 'j', uid: 'u' })).toEqual('ns/Job/j/u');
    expect(podControllerIndexKey('ns')).toEqual('ns');
  });

  it('filterPodsByOwner: the owner’s pods, not those naming its UID with another kind, name or namespace; orphans on ask', () => {
    const store = new ThreadSafeStore<Pod>({ [POD_CONTROLLER_INDEX]: podControllerIndexFunc });
    const ref = (kind: string, name: string) => ({ apiVersion: 'apps/v1', kind, name, uid: 'u1', controller: true });
    const add = (namespace: string, name: string, refs: ReturnType<typeof ref>[] = []) =>
      store.add(`${namespace}/${name}`, { metadata: { name, namespace, ownerReferences: refs } });
    add('default', 'mine', [ref('ReplicaSet', 'web')]);
    add('default', 'other-kind', [ref('StatefulSet', 'web')]);
    add('default', 'other-name', [ref('ReplicaSet', 'api')]);
    add('team-a', 'other-namespace', [ref('ReplicaSet', 'web')]);
    add('default', 'orphan');
    add('team-a', 'orphan');
    const web = { namespace: 'default', name: 'web', uid: 'u1' };
    const names = (pods: readonly { readonly metadata?: { readonly name?: string } }[]) =>
      pods.map((p) => p.metadata?.name);
    expect(names(filterPodsByOwner(store, web, 'ReplicaSet', false))).toEqual(['mine']);
    expect(names(filterPodsByOwner(store, web, 'ReplicaSet', true))).toEqual(['mine', 'orphan']);
    expect(() => filterPodsByOwner(store, { name: 'web', uid: 'u1' }, 'ReplicaSet', true)).toThrow(
      'no owner namespace provided',
    );
    expect(() => filterPodsByOwner(store, { namespace: 'default', uid: 'u1' }, 'ReplicaSet', true)).toThrow(
      'no owner name provided',
    );
    expect(() => filterPodsByOwner(store, { namespace: 'default', name: 'web' }, 'ReplicaSet', true)).toThrow(
      'no owner uid provided',
    );
    expect(() => filterPodsByOwner(store, web, '', true)).toThrow('no owner kind provided');
  });

  it('index bound pods by spec.nodeName; unbound ones are in no bucket', () => {
    expect(podNodeNameIndexFunc({ metadata: { name: 'p' }, spec: { nodeName: 'n1' } })).toEqual(['n1']);
    expect(podNodeNameIndexFunc({ metadata: { name: 'p' }, spec: { nodeName: '' } })).toEqual([]);
    expect(podNodeNameIndexFunc({ metadata: { name: 'p' }, spec: {} })).toEqual([]);
  });

  it('AddPod…Indexer adds its index once, whoever asks first', () => {
    const store = new ThreadSafeStore<KubeObject>();
    const informer = {
      addIndexers: (i: Parameters<typeof store.addIndexers>[0]) => store.addIndexers(i),
      getIndexer: () => store,
    };
    addPodNodeNameIndexer(informer);
    addPodNodeNameIndexer(informer);
    addPodControllerIndexer(informer);
    addPodControllerIndexer(informer);
    expect(Object.keys(store.getIndexers()).sort()).toEqual([POD_CONTROLLER_INDEX, POD_NODE_NAME_INDEX]);
    store.add('default/p', { metadata: { name: 'p', namespace: 'default' }, spec: { nodeName: 'n1' } });
    expect(store.indexKeys(POD_NODE_NAME_INDEX, 'n1')).toEqual(['default/p']);
    expect(store.indexKeys(POD_CONTROLLER_INDEX, podControllerIndexKey('default'))).toEqual(['default/p']);
  });
});
