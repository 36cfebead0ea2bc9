/**
 * DeepReadonly<T>: what a cache reader gets. Informers share one copy of every object among all
 * their readers (kube-rs' reflector Store hands out `Arc<K>`); the type keeps a reader from
 * changing it under the others. To change an object, copy it (`structuredClone`) and write the
 * copy through the client.
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyMap<infer K, infer V>
    ? ReadonlyMap<DeepReadonly<K>, DeepReadonly<V>>
    : T extends ReadonlySet<infer V>
      ? ReadonlySet<DeepReadonly<V>>
      : T extends object
        ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
        : T;
