/**
 * An informer's cache with its indexes (client-go tools/cache/thread_safe_store.go at v0.32): the
 * objects by key, and per named index the keys under each indexed value, kept in step on every
 * add, update, delete and replace. One writer (the informer) changes it; every reader gets the
 * read-only `Indexer` view — JavaScript has one thread, so "thread-safe" here means only that,
 * as in kube-rs' reflector: one writer, many cheap readers, nobody mutating what they read.
 *
 *   const store = new ThreadSafeStore<Pod>({ [NAMESPACE_INDEX]: metaNamespaceIndexFunc });
 *   store.update('default/web-0', pod);
 *   store.byIndex(NAMESPACE_INDEX, 'default');
 */

import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Indexers, IndexFunc } from './index-funcs.js';

/** The read side of the cache: what informers hand to listers and controllers. */
export interface Indexer<T> {
  getByKey(key: string): DeepReadonly<T> | undefined;
  list(): DeepReadonly<T>[];
  listKeys(): string[];
  /** The objects whose indexed values intersect `obj`'s, for the named index. */
  index(indexName: string, obj: T): DeepReadonly<T>[];
  /** The keys of the objects whose indexed values include `indexedValue`. */
  indexKeys(indexName: string, indexedValue: string): string[];
  /** Every value the named index has objects under. */
  listIndexFuncValues(indexName: string): string[];
  /** The objects whose indexed values include `indexedValue`. */
  byIndex(indexName: string, indexedValue: string): DeepReadonly<T>[];
  getIndexers(): Indexers<T>;
}

/** storeIndex + threadSafeMap: the objects, and for each index its value → keys buckets. */
export class ThreadSafeStore<T> implements Indexer<T> {
  private items = new Map<string, T>();
  private readonly indexers: Record<string, IndexFunc<T>> = {};
  /** index name → indexed value → keys. */
  private indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Indexers<T> = {}) {
    Object.assign(this.indexers, indexers);
  }

  add(key: string, obj: T): void {
    this.update(key, obj);
  }

  update(key: string, obj: T): void {
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.updateIndices(old, obj, key);
  }

  delete(key: string): void {
    const old = this.items.get(key);
    if (old === undefined) return;
    this.updateIndices(old, undefined, key);
    this.items.delete(key);
  }

  getByKey(key: string): DeepReadonly<T> | undefined {
    return this.items.get(key) as DeepReadonly<T> | undefined;
  }

  /** The stored object itself, for the writer. */
  getMutable(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): DeepReadonly<T>[] {
    return [...this.items.values()] as DeepReadonly<T>[];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  /** Every stored entry, for the writer. */
  entries(): IterableIterator<[string, T]> {
    return this.items.entries();
  }

  get size(): number {
    return this.items.size;
  }

  /** The store becomes `items`; every index is rebuilt. */
  replace(items: ReadonlyMap<string, T>): void {
    this.items = new Map(items);
    this.indices = new Map();
    for (const [key, obj] of this.items) this.updateIndices(undefined, obj, key);
  }

  index(indexName: string, obj: T): DeepReadonly<T>[] {
    const fn = this.indexFunc(indexName);
    const index = this.indices.get(indexName);
    const keys = new Set<string>();
    for (const value of fn(obj)) for (const key of index?.get(value) ?? []) keys.add(key);
    return this.objectsOf(keys);
  }

  byIndex(indexName: string, indexedValue: string): DeepReadonly<T>[] {
    this.indexFunc(indexName);
    return this.objectsOf(this.indices.get(indexName)?.get(indexedValue) ?? []);
  }

  indexKeys(indexName: string, indexedValue: string): string[] {
    this.indexFunc(indexName);
    // sets.String.List(): sorted.
    return [...(this.indices.get(indexName)?.get(indexedValue) ?? [])].sort();
  }

  listIndexFuncValues(indexName: string): string[] {
    return [...(this.indices.get(indexName)?.keys() ?? [])];
  }

  getIndexers(): Indexers<T> {
    return { ...this.indexers };
  }

  /** AddIndexers: more indexes, the objects already stored indexed at once; a taken name is refused. */
  addIndexers(newIndexers: Indexers<T>): void {
    const conflicts = Object.keys(newIndexers).filter((name) => Object.hasOwn(this.indexers, name));
    // Go prints the sets.String of the names taken: `indexer conflict: map[namespace:{}]`.
    if (conflicts.length > 0) {
      throw new Error(
        `indexer conflict: map[${conflicts
          .sort()
          .map((n) => `${n}:{}`)
          .join(' ')}]`,
      );
    }
    Object.assign(this.indexers, newIndexers);
    for (const [key, obj] of this.items) {
      for (const name of Object.keys(newIndexers)) this.updateSingleIndex(name, undefined, obj, key);
    }
  }

  private indexFunc(indexName: string): IndexFunc<T> {
    const fn = Object.hasOwn(this.indexers, indexName) ? this.indexers[indexName] : undefined;
    if (fn === undefined) throw new Error(`Index with name ${indexName} does not exist`);
    return fn;
  }

  private objectsOf(keys: Iterable<string>): DeepReadonly<T>[] {
    const out: DeepReadonly<T>[] = [];
    for (const key of keys) {
      const obj = this.items.get(key);
      if (obj !== undefined) out.push(obj as DeepReadonly<T>);
    }
    return out;
  }

  private updateIndices(oldObj: T | undefined, newObj: T | undefined, key: string): void {
    for (const name of Object.keys(this.indexers)) this.updateSingleIndex(name, oldObj, newObj, key);
  }

  /** updateSingleIndex: the key moved from the old object's buckets to the new one's. */
  private updateSingleIndex(name: string, oldObj: T | undefined, newObj: T | undefined, key: string): void {
    const fn = this.indexFunc(name);
    const oldValues = oldObj === undefined ? [] : fn(oldObj);
    const newValues = newObj === undefined ? [] : fn(newObj);
    let index = this.indices.get(name);
    if (index === undefined) {
      index = new Map();
      this.indices.set(name, index);
    }
    // The common case: one value, unchanged.
    if (oldValues.length === 1 && newValues.length === 1 && oldValues[0] === newValues[0]) return;
    for (const value of oldValues) {
      const set = index.get(value);
      if (set === undefined) continue;
      set.delete(key);
      // An empty bucket goes, or short-lived high-cardinality values leak (kubernetes#84959).
      if (set.size === 0) index.delete(value);
    }
    for (const value of newValues) {
      let set = index.get(value);
      if (set === undefined) {
        set = new Set();
        index.set(value, set);
      }
      set.add(key);
    }
  }
}
