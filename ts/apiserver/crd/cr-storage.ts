/**
 * Storage as a custom resource version sees it: with conversion strategy None, objects are stored
 * with the storage version's apiVersion and read back with the requested version's
 * (apiextensions-apiserver's nopConverter), and every read applies the version's schema defaults
 * (customresource_handler.go: defaulting on read from etcd, schemaCoercingConverter).
 */
import type { Storage } from '../../storage/storage.js';
import { convertedStorage } from '../registry/generic/converted-storage.js';
import { groupVersion, type ResourceInfo } from '../registry/resources.js';
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
  return convertedStorage(storage, { out, in: into });
}
