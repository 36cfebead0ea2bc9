import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import {
  addPodControllerUIDIndexer,
  addPodNodeNameIndexer,
  controllerUIDIndexFunc,
  metaNamespaceIndexFunc,
  ORPHAN_POD_INDEX_KEY,
  POD_CONTROLLER_UID_INDEX,
  POD_NODE_NAME_INDEX,
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

  it('index by the controller’s UID only (not other owners), orphans under one key', () => {
    const pod = (refs: ReturnType<typeof owner>[]): KubeObject => ({ metadata: { name: 'p', ownerReferences: refs } });
    expect(controllerUIDIndexFunc(pod([owner('a'), owner('b', true)]))).toEqual(['b']);
    expect(controllerUIDIndexFunc(pod([owner('a', false)]))).toEqual([ORPHAN_POD_INDEX_KEY]);
    expect(controllerUIDIndexFunc({ metadata: { name: 'p' } })).toEqual([ORPHAN_POD_INDEX_KEY]);
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
    addPodControllerUIDIndexer(informer);
    addPodControllerUIDIndexer(informer);
    expect(Object.keys(store.getIndexers()).sort()).toEqual([POD_CONTROLLER_UID_INDEX, POD_NODE_NAME_INDEX]);
    store.add('default/p', { metadata: { name: 'p', namespace: 'default' }, spec: { nodeName: 'n1' } });
    expect(store.indexKeys(POD_NODE_NAME_INDEX, 'n1')).toEqual(['default/p']);
    expect(store.indexKeys(POD_CONTROLLER_UID_INDEX, ORPHAN_POD_INDEX_KEY)).toEqual(['default/p']);
  });
});
