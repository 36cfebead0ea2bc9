// The facts of pkg/controller/history/controller_history_test.go (v1.32): revision names and the
// hash label, SortControllerRevisions (TestSortControllerRevisions), FindEqualRevisions
// (TestFindEqualRevisions), and CreateControllerRevision's collision handling against a real
// in-process apiserver (TestRealHistory_CreateControllerRevision).
import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector } from '../../api/labels/label-selector.js';
import type { ControllerRevision } from '../../api/types/apps/v1.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, harness } from '../../client/testing/harness.js';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  ControllerHistory,
  controllerRevisionName,
  findEqualRevisions,
  hashControllerRevision,
  newControllerRevision,
  sortControllerRevisions,
} from './controller-history.js';
import { templatePatch } from './template-patch.js';

const KIND = { group: 'apps', version: 'v1', kind: 'StatefulSet' };
const parent = (name: string, uid: string) => ({ metadata: { name, namespace: 'default', uid } });
const data = (labels: Record<string, string>) =>
  JSON.parse(templatePatch({ metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } })) as unknown;

describe('revisions', () => {
  it('names <parent>-<hash>, the hash in its label, the prefix cut at 223', () => {
    const rev = newControllerRevision(parent('ss1', 'ss1'), KIND, { foo: 'bar' }, data({ foo: 'bar' }), 1, 0);
    const hash = rev.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rev.metadata?.name).toBe(`ss1-${hash}`);
    expect(rev.metadata?.labels?.foo).toBe('bar');
    expect(rev.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', uid: 'ss1', controller: true });
    expect(controllerRevisionName('x'.repeat(300), 'h')).toBe(`${'x'.repeat(223)}-h`);
    // The probe salts the hash; the same data hashes the same.
    expect(hashControllerRevision(rev, 1)).not.toBe(hashControllerRevision(rev, 0));
    expect(hashControllerRevision(rev, 0)).toBe(hash);
  });

  it('SortControllerRevisions: by revision, then creation time, then name', () => {
    const mk = (name: string, revision: number, t: number): ControllerRevision => ({
      metadata: { name, creationTimestamp: new Date(t).toISOString() },
      revision,
    });
    const r1 = mk('r1', 1, 0);
    const r2 = mk('r2', 2, 0);
    const r3 = mk('r3', 3, 0);
    const r3t2 = mk('r3t2', 3, 1000);
    const r3t2b = mk('r3t2b', 3, 1000);
    expect(sortControllerRevisions([r2, r1, r3]).map((r) => r.metadata?.name)).toEqual(['r1', 'r2', 'r3']);
    expect(sortControllerRevisions([r3, r2, r1]).map((r) => r.metadata?.name)).toEqual(['r1', 'r2', 'r3']);
    expect(sortControllerRevisions([r3t2b, r3, r3t2, r2, r1]).map((r) => r.metadata?.name)).toEqual([
      'r1',
      'r2',
      'r3',
      'r3t2',
      'r3t2b',
    ]);
    expect(sortControllerRevisions([])).toEqual([]);
  });

  it('FindEqualRevisions: by data', () => {
    const ss1r1 = newControllerRevision(parent('ss1', 'ss1'), KIND, {}, data({ foo: 'bar' }), 1, 0);
    const ss2r1 = newControllerRevision(parent('ss2', 'ss2'), KIND, {}, data({ goo: 'car' }), 1, 0);
    const ss2r2 = newControllerRevision(parent('ss2', 'ss2'), KIND, {}, data({ goo: 'car' }), 2, 0);
    expect(findEqualRevisions([ss1r1, ss2r1, ss2r2], ss1r1)).toEqual([ss1r1]);
    expect(findEqualRevisions([], ss1r1)).toEqual([]);
    expect(findEqualRevisions([ss2r2, ss2r1], ss1r1)).toEqual([]);
  });

  it('CreateControllerRevision: the same data returns the existing one; other data under the name raises the collision count', async () => {
    const h = await harness('in-process');
    const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const informer = factory.informerFor(RESOURCES.controllerrevisions);
    factory.start();
    await factory.waitForCacheSync();
    try {
      const history = new ControllerHistory(h.client, informer, h.server.clock);
      const owner = parent('ss1', 'uid-1');
      const rev = newControllerRevision(owner, KIND, { foo: 'bar' }, data({ foo: 'bar' }), 1, 0);
      const collision = { count: 0 };
      const created = await history.createControllerRevision(owner, rev, collision);
      expect(created.metadata?.name).toBe(rev.metadata?.name);
      expect(await history.createControllerRevision(owner, rev, collision)).toMatchObject({
        metadata: { uid: created.metadata?.uid },
      });
      expect(collision.count).toBe(0);
      // Another revision's data stored under the name this one hashes to: a collision.
      const other = newControllerRevision(owner, KIND, { foo: 'bar' }, data({ foo: 'baz' }), 2, 0);
      await h.client.delete(RESOURCES.controllerrevisions, 'default', created.metadata?.name ?? '');
      await h.client.create(RESOURCES.controllerrevisions, 'default', {
        ...other,
        metadata: { ...other.metadata, name: rev.metadata?.name ?? '' },
      });
      const again = await history.createControllerRevision(owner, rev, collision);
      expect(collision.count).toBe(1);
      expect(again.metadata?.name).toBe(controllerRevisionName('ss1', hashControllerRevision(rev, 1)));
      // Listing: only the parent's and orphans, by selector.
      await eventually(() => informer.getIndexer().list().length === 2);
      const selector = labelSelectorAsSelector({ matchLabels: { foo: 'bar' } });
      expect(history.listControllerRevisions(owner, selector)).toHaveLength(2);
      expect(history.listControllerRevisions(parent('ss1', 'uid-2'), selector)).toHaveLength(0);
    } finally {
      await factory.shutdown();
    }
  });
});
