import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import type { Indexers } from './index-funcs.js';
import { objectKey } from './keys.js';
import { IndexError, ThreadSafeStore } from './thread-safe-store.js';

/** The keys under `value` in `index`, sorted (the Go tests compare sets.String.List()). */
const bucket = (store: ThreadSafeStore<string>, index: string, value: string): string[] =>
  store.indexKeys(index, value);

// thread_safe_store_test.go (client-go v0.32)
describe('ThreadSafeStore', () => {
  const byValue: Indexers<string> = { testIndexer: (obj) => [obj] };

  it('drops a bucket that a delete empties (TestThreadSafeStoreDeleteRemovesEmptySetsFromIndex)', () => {
    const store = new ThreadSafeStore<string>(byValue);
    store.add('testKey', 'testKey');
    expect(bucket(store, 'testIndexer', 'testKey')).toEqual(['testKey']);
    store.delete('testKey');
    expect(store.listIndexFuncValues('testIndexer')).toEqual([]);
  });

  it('keeps a bucket that still has keys after a delete (TestThreadSafeStoreAddKeepsNonEmptySetPostDeleteFromIndex)', () => {
    const store = new ThreadSafeStore<string>({ testIndexer: () => ['testIndex'] });
    store.add('retain', 'retain');
    store.add('delete', 'delete');
    expect(bucket(store, 'testIndexer', 'testIndex')).toEqual(['delete', 'retain']);
    store.delete('delete');
    expect(store.listIndexFuncValues('testIndexer')).toEqual(['testIndex']);
    expect(bucket(store, 'testIndexer', 'testIndex')).toEqual(['retain']);
  });

  it('moves keys between buckets of a multi-valued index (TestThreadSafeStoreIndexingFunctionsWithMultipleValues)', () => {
    const store = new ThreadSafeStore<string>({ testIndexer: (obj) => obj.split(',') });
    const check = (want: Record<string, string[]>) => {
      for (const [value, keys] of Object.entries(want)) expect(bucket(store, 'testIndexer', value)).toEqual(keys);
    };
    store.add('key1', 'foo');
    store.add('key2', 'bar');
    check({ foo: ['key1'], bar: ['key2'] });
    store.update('key2', 'foo,bar');
    check({ foo: ['key1', 'key2'], bar: ['key2'] });
    store.update('key1', 'foo,bar');
    check({ foo: ['key1', 'key2'], bar: ['key1', 'key2'] });
    store.add('key3', 'foo,bar,baz');
    check({ foo: ['key1', 'key2', 'key3'], bar: ['key1', 'key2', 'key3'], baz: ['key3'] });
    store.update('key1', 'foo');
    check({ foo: ['key1', 'key2', 'key3'], bar: ['key2', 'key3'], baz: ['key3'] });
    store.update('key2', 'bar');
    check({ foo: ['key1', 'key3'], bar: ['key2', 'key3'], baz: ['key3'] });
    store.delete('key1');
    check({ foo: ['key3'], bar: ['key2', 'key3'], baz: ['key3'] });
    store.delete('key3');
    check({ foo: [], bar: ['key2'], baz: [] });
  });

  it('rebuilds every index on replace', () => {
    const store = new ThreadSafeStore<string>(byValue);
    store.add('a', 'x');
    store.replace(
      new Map([
        ['b', 'y'],
        ['c', 'y'],
      ]),
    );
    expect(store.listKeys().sort()).toEqual(['b', 'c']);
    expect(store.listIndexFuncValues('testIndexer')).toEqual(['y']);
    expect(bucket(store, 'testIndexer', 'y')).toEqual(['b', 'c']);
  });

  it('indexes what it holds when an index is added later, and refuses a taken name', () => {
    const store = new ThreadSafeStore<string>(byValue);
    store.add('a', 'x,y');
    store.addIndexers({ split: (obj) => obj.split(',') });
    expect(store.listIndexFuncValues('split').sort()).toEqual(['x', 'y']);
    expect(() => store.addIndexers({ testIndexer: (obj) => [obj] })).toThrow('indexer conflict: map[testIndexer:{}]');
  });

  it('refuses an index it does not have, with client-go’s message', () => {
    const store = new ThreadSafeStore<string>();
    expect(() => store.byIndex('nope', 'x')).toThrow('Index with name nope does not exist');
    expect(() => store.indexKeys('nope', 'x')).toThrow('Index with name nope does not exist');
    expect(() => store.index('nope', 'x')).toThrow('Index with name nope does not exist');
  });
});

// index_test.go (client-go v0.32)
describe('Indexer', () => {
  const pod = (name: string, labels: Record<string, string> = {}, annotations: Record<string, string> = {}) =>
    ({ metadata: { name, labels, annotations } }) as KubeObject;
  const names = (objs: readonly { metadata?: { name?: string } }[]) => objs.map((o) => o.metadata?.name).sort();

  it('lists the values of an index (TestGetIndexFuncValues)', () => {
    const store = new ThreadSafeStore<KubeObject>({ testmodes: (p) => [p.metadata?.labels?.foo ?? ''] });
    for (const p of [pod('one', { foo: 'bar' }), pod('two', { foo: 'bar' }), pod('tre', { foo: 'biz' })]) {
      store.add(objectKey(p), p);
    }
    expect(store.listIndexFuncValues('testmodes').sort()).toEqual(['bar', 'biz']);
  });

  it('finds objects under each of their values, through deletes and updates (TestMultiIndexKeys)', () => {
    const store = new ThreadSafeStore<KubeObject>({
      byUser: (p) => (p.metadata?.annotations?.users ?? '').split(','),
    });
    const pod2 = pod('two', {}, { users: 'bert,oscar' });
    const pod3 = pod('tre', {}, { users: 'ernie,elmo' });
    for (const p of [pod('one', {}, { users: 'ernie,bert' }), pod2, pod3]) store.add(objectKey(p), p);
    const expected: Record<string, string[]> = {
      ernie: ['one', 'tre'],
      bert: ['one', 'two'],
      elmo: ['tre'],
      oscar: ['two'],
      elmo1: [],
    };
    for (const [user, want] of Object.entries(expected)) expect(names(store.byIndex('byUser', user))).toEqual(want);

    store.delete(objectKey(pod3));
    expect(names(store.byIndex('byUser', 'ernie'))).toEqual(['one']);
    expect(store.byIndex('byUser', 'elmo')).toEqual([]);

    const copyOfPod2 = structuredClone(pod2);
    (copyOfPod2.metadata?.annotations as Record<string, string>).users = 'oscar';
    store.update(objectKey(copyOfPod2), copyOfPod2);
    expect(names(store.byIndex('byUser', 'bert'))).toEqual(['one']);
    // Index: the objects sharing any value with the given one.
    expect(names(store.index('byUser', pod('x', {}, { users: 'oscar,ernie' })))).toEqual(['one', 'two']);
  });
});

describe('ThreadSafeStore with an index function that throws', () => {
  /** Indexes a string by its letters; throws for one with a '!'. */
  const letters: Indexers<string> = {
    letters: (obj) => {
      if (obj.includes('!')) throw new Error(`cannot index ${obj}`);
      return [...new Set(obj)];
    },
  };

  it('refuses the write before changing anything', () => {
    const store = new ThreadSafeStore<string>(letters);
    store.add('k', 'ab');
    expect(() => store.update('k', 'c!')).toThrow(IndexError);
    expect(() => store.add('other', '!')).toThrow(
      'unable to calculate an index entry for key "other" on index "letters": cannot index !',
    );
    expect(store.getByKey('k')).toBe('ab');
    expect(store.getByKey('other')).toBeUndefined();
    expect(store.listIndexFuncValues('letters').sort()).toEqual(['a', 'b']);
  });

  it('refuses new indexers that throw for a stored object, adding none of them', () => {
    const store = new ThreadSafeStore<string>();
    store.add('k', 'a!');
    expect(() => store.addIndexers({ first: (o) => [o], ...letters })).toThrow(IndexError);
    expect(Object.keys(store.getIndexers())).toEqual([]);
  });

  it('still deletes an object its index function now throws for, from every bucket it is in', () => {
    let broken = false;
    const store = new ThreadSafeStore<string>({
      flaky: (obj) => {
        if (broken) throw new Error('broken');
        return [obj, 'all'];
      },
    });
    store.add('k', 'x');
    store.add('j', 'y');
    broken = true;
    store.delete('k');
    expect(store.indexKeys('flaky', 'all')).toEqual(['j']);
    expect(store.listIndexFuncValues('flaky').sort()).toEqual(['all', 'y']);
  });
});
