/**
 * The cache key of an object, as client-go's tools/cache/store.go makes it (MetaNamespaceKeyFunc,
 * SplitMetaNamespaceKey): `namespace/name`, or `name` for a cluster-scoped object. Informer
 * caches, listers and controllers' work queues all use it.
 */
import { goQuote } from '../../api/go-format.js';

/** MetaNamespaceKeyFunc: `namespace/name`, or `name` when cluster-scoped. */
export function objectKey(obj: {
  readonly metadata?: { readonly namespace?: string; readonly name?: string };
}): string {
  const ns = obj.metadata?.namespace ?? '';
  const name = obj.metadata?.name ?? '';
  return ns === '' ? name : `${ns}/${name}`;
}

/** The key of `name` in `namespace` ('' or undefined: cluster-scoped). */
export function keyOf(namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

/**
 * SplitMetaNamespaceKey: `ns/name` → { namespace: 'ns', name }; `name` → { namespace: '', name }.
 * Throws on more than one `/`, with client-go's message.
 */
export function splitObjectKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: key };
  if (parts.length === 2) return { namespace: parts[0] as string, name: parts[1] as string };
  throw new Error(`unexpected key format: ${goQuote(key)}`);
}
