/**
 * An informer's cache with its indexes (client-go tools/cache/thread_safe_store.go at v0.32): the
 * objects by key, and per named index the keys under each indexed value, kept in step on every
 * add, update, delete and replace. One writer (the informer) changes it; every reader gets the
 * read-only `Indexer` view — JavaScript has one thread, so "thread-safe" here means only that,
 * as in kube-rs' reflector: one writer, many cheap readers, nobody mutating what they read.
 *
 * An index function that throws for an object (client-go panics there) refuses that write with an
 * IndexError before anything changes: the store keeps, under that key, what it had, with its
 * index entries — a cache never half-updated.
 *
 *   const store = new ThreadSafeStore<Pod>({ [NAMESPACE_INDEX]: metaNamespaceIndexFunc });
 *   store.update('default/web-0', pod);
 *   store.byIndex(NAMESPACE_INDEX, 'default');
 */

import { goQuote } from '../../api/go-format.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Indexers, IndexFunc } from './index-funcs.js';

/** An index function threw for an object: the write was refused (client-go's message, which it panics with). */
export class IndexError extends Error {
  override readonly name = 'IndexError';
  constructor(
    readonly key: string,
    readonly indexName: string,
    cause: unknown,
  ) {
    super(
      `unable to calculate an index entry for key ${goQuote(key)} on index ${goQuote(indexName)}: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
  }
}

/** An object's values in each index, computed before the store changes. */
type IndexValues = ReadonlyMap<string, readonly string[]>;

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

  /** Stores `obj` under `key`; an IndexError (nothing changed) when an index function throws for it. */
  add(key: string, obj: T): void {
    this.update(key, obj);
  }

  /** Stores `obj` under `key`; an IndexError (nothing changed) when an index function throws for it. */
  update(key: string, obj: T): void {
    const old = this.items.get(key);
    const newValues = this.valuesOf(key, obj);
    const oldValues = old === undefined ? undefined : this.storedValuesOf(key, old);
    this.items.set(key, obj);
    for (const name of Object.keys(this.indexers)) {
      this.moveKey(name, key, oldValues?.get(name) ?? [], newValues.get(name) ?? []);
    }
  }

  delete(key: string): void {
    const old = this.items.get(key);
    if (old === undefined) return;
    const oldValues = this.storedValuesOf(key, old);
    for (const name of Object.keys(this.indexers)) this.moveKey(name, key, oldValues.get(name) ?? [], []);
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

  /**
   * The store becomes `items`; every index is rebuilt. An object an index function throws for is
   * not stored (its key keeps what the store had, if anything); those failures are returned.
   */
  replace(items: ReadonlyMap<string, T>): IndexError[] {
    const failures: IndexError[] = [];
    const next = new Map<string, T>();
    const values = new Map<string, IndexValues>();
    for (const [key, obj] of items) {
      try {
        values.set(key, this.valuesOf(key, obj));
        next.set(key, obj);
      } catch (err) {
        if (!(err instanceof IndexError)) throw err;
        failures.push(err);
        const old = this.items.get(key);
        const oldValues = old === undefined ? undefined : this.tryValuesOf(key, old);
        if (old !== undefined && oldValues !== undefined) {
          values.set(key, oldValues);
          next.set(key, old);
        }
      }
    }
    this.items = next;
    this.indices = new Map();
    for (const [key, objValues] of values) {
      for (const [name, v] of objValues) this.moveKey(name, key, [], v);
    }
    return failures;
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

  /**
   * AddIndexers: more indexes, the objects already stored indexed at once; a taken name is
   * refused, and so (IndexError, nothing added) is an index function that throws for a stored object.
   */
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
    const added = Object.entries(newIndexers);
    const values: Array<[string, string, readonly string[]]> = [];
    for (const [key, obj] of this.items) {
      for (const [name, fn] of added) values.push([key, name, indexValues(key, name, fn, obj)]);
    }
    Object.assign(this.indexers, newIndexers);
    for (const [key, name, v] of values) this.moveKey(name, key, [], v);
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

  /** `obj`'s values in every index; an IndexError when an index function throws. */
  private valuesOf(key: string, obj: T): IndexValues {
    const values = new Map<string, readonly string[]>();
    for (const [name, fn] of Object.entries(this.indexers)) values.set(name, indexValues(key, name, fn, obj));
    return values;
  }

  private tryValuesOf(key: string, obj: T): IndexValues | undefined {
    try {
      return this.valuesOf(key, obj);
    } catch {
      return undefined;
    }
  }

  /**
   * The values a stored object is indexed under. An index function that throws now for an object
   * it indexed before (it should not) is answered by looking the key up in that index's buckets.
   */
  private storedValuesOf(key: string, obj: T): IndexValues {
    const values = new Map<string, readonly string[]>();
    for (const [name, fn] of Object.entries(this.indexers)) {
      try {
        values.set(name, fn(obj));
      } catch {
        const found: string[] = [];
        for (const [value, keys] of this.indices.get(name) ?? []) if (keys.has(key)) found.push(value);
        values.set(name, found);
      }
    }
    return values;
  }

  /** updateSingleIndex: the key moved from its old values' buckets to its new ones'. */
  private moveKey(name: string, key: string, oldValues: readonly string[], newValues: readonly string[]): void {
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

/** One index function's values for `obj`, its failure an IndexError. */
function indexValues<T>(key: string, name: string, fn: IndexFunc<T>, obj: T): readonly string[] {
  try {
    return fn(obj);
  } catch (err) {
    throw new IndexError(key, name, err);
  }
}
