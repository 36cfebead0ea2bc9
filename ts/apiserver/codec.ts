/**
 * Objects as stored: UTF-8 JSON without metadata.resourceVersion, which is filled in on every read
 * from the store revision of the object's last change (../shared/reference/store.md §3.1).
 */
import type { KubeObject } from '../api/meta.js';
import { newBadRequest } from '../api/status.js';
import type { StoredObject } from '../storage/storage.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The API object a stored value holds, with `metadata.resourceVersion` = its revision. */
export function decodeStored(stored: Pick<StoredObject, 'value' | 'revision'>): KubeObject {
  const obj = JSON.parse(decoder.decode(stored.value)) as KubeObject;
  obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: String(stored.revision) };
  return obj;
}

/** The bytes to store for `obj` (resourceVersion dropped: the store's revision is the truth). */
export function encodeForStorage(obj: KubeObject): Uint8Array {
  const { resourceVersion: _rv, ...metadata } = obj.metadata ?? {};
  return encoder.encode(JSON.stringify({ ...obj, metadata }));
}

/** Parses a JSON request body that must be an object; 400 BadRequest otherwise. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw newBadRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw newBadRequest("couldn't get version/kind; json parse error: the body is not a JSON object");
  }
  return value as Record<string, unknown>;
}
