/**
 * Storage seen through a value conversion: every value read is converted on its way out (gets,
 * lists, watch events, the current object handed to guaranteedUpdate and delete's validate) and
 * every value written on its way in. versioned-storage.ts (a built-in resource served in a version other
 * than its storage version) and crd/cr-storage.ts (custom resource versions) are the two users.
 */
import type { Storage, StoredObject, Watch, WatchEvent } from '../../../storage/storage.js';

/** How a stored value (JSON bytes) and the served one map to each other. */
export interface ValueConversion {
  /** A stored value as the served version reads it. */
  out(stored: Uint8Array): Uint8Array;
  /** A served value as stored; `current` is the stored value it replaces, if any. */
  in(served: Uint8Array, current?: Uint8Array): Uint8Array;
}

/** `storage` with `conversion` applied to every value crossing it. */
export function convertedStorage(storage: Storage, conversion: ValueConversion): Storage {
  // Empty values (BOOKMARK and ERROR watch events) carry no object to convert.
  const out = (bytes: Uint8Array): Uint8Array => (bytes.length === 0 ? bytes : conversion.out(bytes));
  const outObj = (s: StoredObject): StoredObject => ({ ...s, value: out(s.value) });
  const outEvent = (e: WatchEvent): WatchEvent => ({
    ...e,
    value: out(e.value),
    ...(e.prevValue === undefined ? {} : { prevValue: out(e.prevValue) }),
  });
  return {
    currentRevision: () => storage.currentRevision(),
    create: async (key, value, options) => outObj(await storage.create(key, conversion.in(value), options)),
    get: async (key, options) => {
      const got = await storage.get(key, options);
      return got === undefined ? undefined : outObj(got);
    },
    list: async (prefix, options) => {
      const page = await storage.list(prefix, options);
      return { ...page, items: page.items.map(outObj) };
    },
    count: (prefix) => storage.count(prefix),
    guaranteedUpdate: async (key, tryUpdate, options) =>
      outObj(
        await storage.guaranteedUpdate(
          key,
          async (current) => {
            const next = await tryUpdate(current === undefined ? undefined : outObj(current));
            // The callback answered with the served form of the current value: nothing changes.
            if (current !== undefined && sameBytes(next, out(current.value))) return current.value;
            return conversion.in(next, current?.value);
          },
          options,
        ),
      ),
    delete: async (key, options) => {
      const validate = options?.validate;
      return outObj(
        await storage.delete(key, {
          ...options,
          ...(validate === undefined ? {} : { validate: (current: StoredObject) => validate(outObj(current)) }),
        }),
      );
    },
    watch: (key, options): Watch => {
      const w = storage.watch(key, options);
      return {
        stop: () => w.stop(),
        async *[Symbol.asyncIterator]() {
          for await (const batch of w) yield batch.map(outEvent);
        },
      };
    },
    requestProgress: () => storage.requestProgress(),
    compact: (revision) => storage.compact(revision),
    close: () => storage.close(),
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
