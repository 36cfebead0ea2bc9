/** Key-range helpers shared by the storage backends (etcd's range conventions). */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const encodeKey = (key: string): Uint8Array => encoder.encode(key);
export const decodeKey = (key: Uint8Array): string => decoder.decode(key);

/**
 * The first key after every key that starts with `prefix` (etcd's GetPrefixRangeEnd):
 * the prefix with its last byte below 0xff incremented and the rest dropped.
 */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  for (let i = prefix.length - 1; i >= 0; i--) {
    if ((prefix[i] as number) < 0xff) {
      const end = prefix.slice(0, i + 1);
      end[i] = (end[i] as number) + 1;
      return end;
    }
  }
  // All 0xff (or empty): every key from prefix on.
  return new Uint8Array([0]);
}

/** Kubernetes lists a "directory": the key with a trailing slash. */
export function asDirectory(key: string): string {
  return key.endsWith('/') ? key : `${key}/`;
}
