/**
 * The `continue` token of paginated lists, byte for byte as Kubernetes writes it
 * (k8s.io/apiserver/pkg/storage/continue.go): base64url(JSON {v, rv, start}), where `start` is
 * the next key with the list's key prefix removed.
 */
import { StorageError } from './errors.js';

interface Token {
  v: string;
  rv: number;
  start: string;
}

const API_VERSION = 'meta.k8s.io/v1';

/** Encodes where the next page starts (`nextKey`, under `keyPrefix`) and the pinned revision. */
export function encodeContinue(nextKey: string, keyPrefix: string, revision: bigint): string {
  if (!nextKey.startsWith(keyPrefix) || nextKey === keyPrefix) {
    throw new StorageError('InvalidRequest', 'unable to encode next field: the key and key prefix do not match');
  }
  const token: Token = { v: API_VERSION, rv: Number(revision), start: nextKey.slice(keyPrefix.length) };
  return base64url(JSON.stringify(token));
}

/** Decodes a token back to the key to start from and the revision to read at. */
export function decodeContinue(value: string, keyPrefix: string): { fromKey: string; revision: bigint } {
  const invalid = (why: string) => new StorageError('InvalidRequest', `continue key is not valid: ${why}`);
  let token: unknown;
  try {
    token = JSON.parse(fromBase64url(value));
  } catch (err) {
    throw invalid(err instanceof Error ? err.message : String(err));
  }
  if (typeof token !== 'object' || token === null) throw invalid('not an object');
  const { v, rv, start } = token as Partial<Token>;
  if (v !== API_VERSION) throw invalid(`incorrect encoded start resourceVersion (version ${API_VERSION})`);
  if (typeof start !== 'string' || start.length === 0) throw invalid('encoded start key empty');
  if (typeof rv !== 'number' || !Number.isSafeInteger(rv)) throw invalid('incorrect encoded start resourceVersion');
  // Only keys under the prefix: a cleaned absolute path equal to itself (no "..", no "//").
  const key = start.startsWith('/') ? start : `/${start}`;
  if (cleanPath(key) !== key) throw invalid(key);
  return { fromKey: keyPrefix + key.slice(1), revision: BigInt(rv) };
}

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64url(value: string): string {
  // encoding/base64's CorruptInputError: the offset of the first bad byte, or of a lone last one.
  const bad = value.search(/[^A-Za-z0-9_-]/);
  if (bad >= 0) throw new Error(`illegal base64 data at input byte ${bad}`);
  if (value.length % 4 === 1) throw new Error(`illegal base64 data at input byte ${value.length - 1}`);
  const binary = atob(value.replaceAll('-', '+').replaceAll('_', '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** Go's path.Clean for absolute paths. */
function cleanPath(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}
