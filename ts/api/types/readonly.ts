/**
 * DeepReadonly<T>: a read-only view of an API object, all the way down. Shared-informer listers
 * hand these out, because every reader of a process shares the one cached object: client-go's
 * rule that objects from a lister or an informer's store must never be mutated (copy with
 * `structuredClone` first, as Go code calls `DeepCopy()`; k8s.io/client-go/tools/cache).
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly DeepReadonly<E>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/** The mutable type of a read-only view: DeepReadonly undone, all the way down. */
export type DeepWritable<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? DeepWritable<E>[]
    : T extends object
      ? { -readonly [K in keyof T]: DeepWritable<T[K]> }
      : T;

/**
 * DeepCopy(): a copy of a shared (cached, read-only) object that the caller may change, as Go
 * code copies what a lister hands out before it writes (`structuredClone`, typed back mutable).
 */
export function deepCopy<T>(obj: T): DeepWritable<T> {
  return structuredClone(obj) as DeepWritable<T>;
}
