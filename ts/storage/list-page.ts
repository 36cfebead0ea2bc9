/**
 * A page of a directory list, as both backends make it from one range read: where to start (the
 * directory, or the key and pinned revision a continue token carries), and the next token when
 * the limit cut the page — Kubernetes' etcd3 store's GetList, without the store.
 */
import { decodeContinue, encodeContinue } from './continue-token.js';
import { asDirectory, encodeKey, prefixEnd } from './keys.js';
import type { ListOptions, ListResult, ReadAt, StoredObject } from './storage.js';

/** What a backend's range read returns. */
export interface RangeRead {
  items: StoredObject[];
  /** The limit cut keys off. */
  more: boolean;
  /** Keys in the whole range. */
  count: number;
  /** The store's current revision (the header revision). */
  revision: bigint;
}

export async function listPage(
  prefix: string,
  options: ListOptions,
  readRevision: (at: ReadAt) => bigint | Promise<bigint>,
  range: (from: string, rangeEnd: Uint8Array, revision: bigint, limit: number) => RangeRead | Promise<RangeRead>,
): Promise<ListResult> {
  const dir = asDirectory(prefix);
  const { fromKey, revision } = options.continue
    ? decodeContinue(options.continue, dir)
    : { fromKey: dir, revision: await readRevision(options) };
  const page = await range(fromKey, prefixEnd(encodeKey(dir)), revision, options.limit ?? 0);
  const listRevision = revision > 0n ? revision : page.revision;
  const result: ListResult = { items: page.items, revision: listRevision };
  const last = page.items[page.items.length - 1];
  if (page.more && last) {
    result.continue = encodeContinue(`${last.key}\u0000`, dir, listRevision);
    result.remainingItemCount = page.count - page.items.length;
  }
  return result;
}
