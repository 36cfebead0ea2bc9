/**
 * What the admission plugins are given (kube-apiserver's admission initializers hand them informers
 * and a client): reads of the stored objects they consult — ServiceAccounts, LimitRanges,
 * PriorityClasses, Namespaces — from the lister kept from a storage watch (lister.ts), which answers
 * as a storage read would.
 */
import type { KubeObject } from '../../api/meta.js';
import type { Clock } from '../../sim/clock.js';
import type { Storage } from '../../storage/storage.js';
import { collectionPrefix, findResource, objectKey, type ResourceInfo } from '../registry/resources.js';
import { decodedOnce, storedLister } from './lister.js';

export interface AdmissionDeps {
  storage: Storage;
  clock: Clock;
  /** Waits between live lookups (ServiceAccount's retries for `default`); real time by default. */
  sleep?: (ms: number) => Promise<void>;
}

function served(group: string, version: string, resource: string): ResourceInfo {
  const info = findResource(group, version, resource);
  if (info === undefined) throw new Error(`admission: ${resource}.${group} is not served`);
  return info;
}

/** One stored object, or undefined; shared with other lookups (lister.ts decodedOnce): read only. */
export async function getStored<T extends KubeObject = KubeObject>(
  deps: AdmissionDeps,
  gvr: readonly [group: string, version: string, resource: string],
  namespace: string,
  name: string,
): Promise<T | undefined> {
  const stored = await storedLister(deps.storage).get(objectKey(served(...gvr), namespace, name));
  return stored === undefined ? undefined : (decodedOnce(stored) as T);
}

/** Every stored object of a resource in `namespace` ('' for all, or cluster-scoped); read only, as getStored's. */
export async function listStored<T extends KubeObject = KubeObject>(
  deps: AdmissionDeps,
  gvr: readonly [group: string, version: string, resource: string],
  namespace: string,
): Promise<T[]> {
  const items = await storedLister(deps.storage).list(collectionPrefix(served(...gvr), namespace));
  return items.map((s) => decodedOnce(s) as T);
}

export const realSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    (t as { unref?: () => void }).unref?.();
  });
