/**
 * Storage as a custom resource version sees it: with conversion strategy None, objects are stored
 * with the storage version's apiVersion and read back with the requested version's
 * (apiextensions-apiserver's nopConverter), and every read applies the version's schema defaults
 * (customresource_handler.go: defaulting on read from etcd, schemaCoercingConverter).
 */
import type { Storage, StoredObject, Watch, WatchEvent } from '../../storage/storage.js';
import { groupVersion, type ResourceInfo } from '../resources.js';
import { applyDefaults } from './schema-api.js';

type Obj = Record<string, unknown>;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `storage` for the custom resource `info` (info.custom set); the identity for anything else. */
export function customResourceStorage(storage: Storage, info: ResourceInfo): Storage {
  const custom = info.custom;
  if (custom === undefined) return storage;
  const served = groupVersion(info);
  const stored = groupVersion({ group: info.group, version: custom.storageVersion });
  const out = (bytes: Uint8Array): Uint8Array => {
    if (bytes.length === 0) return bytes;
    const o = JSON.parse(decoder.decode(bytes)) as Obj;
    o.apiVersion = served;
    if (custom.schema !== undefined) applyDefaults(custom.schema, o);
    return encoder.encode(JSON.stringify(o));
  };
  const into = (bytes: Uint8Array): Uint8Array => {
    if (served === stored) return bytes;
    const o = JSON.parse(decoder.decode(bytes)) as Obj;
    o.apiVersion = stored;
    return encoder.encode(JSON.stringify(o));
  };
  const outObj = (s: StoredObject): StoredObject => ({ ...s, value: out(s.value) });
  const outEvent = (e: WatchEvent): WatchEvent => ({
    ...e,
    value: out(e.value),
    ...(e.prevValue === undefined ? {} : { prevValue: out(e.prevValue) }),
  });
  return {
    currentRevision: () => storage.currentRevision(),
    create: async (key, value, options) => outObj(await storage.create(key, into(value), options)),
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
            return into(next);
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
