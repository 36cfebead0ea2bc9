/**
 * Versions stored once: a resource served in a version other than its storage version
 * (ResourceInfo.storageVersion) reads and writes through versionedStorage, which converts every
 * value on its way out of and into the store with the conversion its strategy gives for the
 * version (ResourceStrategy.conversions; today autoscaling/v1 HorizontalPodAutoscalers, stored as
 * autoscaling/v2).
 */
import type { Storage } from '../../../storage/storage.js';
import type { ResourceInfo } from '../resources.js';
import { strategyFor } from '../strategies.js';
import type { VersionConversion } from '../strategy.js';
import { convertedStorage } from './converted-storage.js';

type Obj = Record<string, unknown>;

function conversionFor(info: ResourceInfo): VersionConversion | undefined {
  if (info.storageVersion === undefined || info.storageVersion === info.version) return undefined;
  const conversion = strategyFor(info).conversions?.[info.version];
  if (conversion !== undefined) return conversion;
  throw new Error(`no conversion from ${info.group}/${info.storageVersion} to ${info.version} ${info.kind}`);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const parse = (bytes: Uint8Array): Obj => JSON.parse(decoder.decode(bytes)) as Obj;
const bytesOf = (o: Obj): Uint8Array => encoder.encode(JSON.stringify(o));

/**
 * `storage` as seen from `info`'s version: values read are converted from the storage version,
 * values written back into it (keeping what only the storage version can hold). The identity for
 * resources stored in their own version.
 */
export function versionedStorage(storage: Storage, info: ResourceInfo): Storage {
  const c = conversionFor(info);
  if (c === undefined) return storage;
  return convertedStorage(storage, {
    out: (stored) => bytesOf(c.out(parse(stored))),
    in: (served, current) => bytesOf(c.in(parse(served), current === undefined ? undefined : parse(current))),
  });
}
