/**
 * The request as the handlers read it, fetch-like: `Incoming` over a web Request (`handle`) or over
 * a `DirectCall` (`handleCall`: an in-process caller's or a Node front's parts, no web Request
 * built), with the same answers — the method normalized, headers as Headers keeps them, the body
 * read as Request.text() / arrayBuffer() would, to at most the body limit (413 beyond it,
 * handlers/rest.go limitedReadBody).
 */
import { newRequestEntityTooLarge } from '../api/status.js';
import type { ConnectionInfo } from './authn/connection.js';

/** MaxRequestBodyBytes, 3 MiB (k8s.io/apiserver pkg/server/config.go NewConfig). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/**
 * A request as an in-process caller or a Node front makes it: the method, the URL, headers (a
 * repeated one joined with ", " as Headers joins it) and a body as text, or as the bytes received
 * (which, as in fetch, get no default Content-Type and decode as Request.text() decodes them).
 */
export interface DirectCall {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string | Uint8Array<ArrayBuffer>;
}

/** What the handlers read of a request, whether a web Request or a DirectCall. */
export interface Incoming {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null; entries(): Iterable<[string, string]> };
  /** The TLS connection it came on (Node fronts only): never taken from a header. */
  readonly connection?: ConnectionInfo;
  /** The body as text, however long. */
  text(): Promise<string>;
  /** The body's bytes, read to `limit` (413 past it). */
  bytes(limit: number): Promise<Uint8Array>;
  /** The body as UTF-8 text, read to `limit` bytes (413 past it). */
  textWithin(limit: number): Promise<string>;
}

const utf8 = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** A Headers' pairs (repeated headers joined with ", "), for impersonation's Impersonate-Extra-*. */
function headerEntries(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, key) => {
    out.push([key, value]);
  });
  return out;
}

/** A web Request as the handlers read it. */
export function incomingRequest(request: Request, connection?: ConnectionInfo): Incoming {
  return {
    method: request.method,
    url: request.url,
    headers: { get: (name) => request.headers.get(name), entries: () => headerEntries(request.headers) },
    ...(connection === undefined ? {} : { connection }),
    text: () => request.text(),
    bytes: (limit) => readBodyLimited(request, limit),
    textWithin: async (limit) => utf8.decode(await readBodyLimited(request, limit)),
  };
}

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// The methods the fetch standard writes in upper case whatever case they are given in.
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/** Headers' value normalization: only HTTP whitespace (tab, LF, CR, space) is trimmed, not String.trim()'s. */
const HTTP_WHITESPACE_ENDS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function isHttpWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** A header value as Headers keeps it (the regular expression only when an end needs it). */
function headerValue(value: string): string {
  return isHttpWhitespace(value.charCodeAt(0)) || isHttpWhitespace(value.charCodeAt(value.length - 1))
    ? value.replace(HTTP_WHITESPACE_ENDS, '')
    : value;
}

/** Headers' pair order: by (lower-case) name — repeated names are joined already. */
function byName(a: [string, string], b: [string, string]): number {
  return a[0] < b[0] ? -1 : 1;
}

/** A body received as bytes, as a Request holding it reads: one check of the limit, decoded once. */
function bytesBody(bytes: Uint8Array): Pick<Incoming, 'text' | 'bytes' | 'textWithin'> {
  let text: string | undefined;
  const decoded = (): string => {
    text ??= utf8.decode(bytes);
    return text;
  };
  const within = (limit: number): void => {
    if (bytes.length > limit) throw newRequestEntityTooLarge(`limit is ${limit}`);
  };
  return {
    text: async () => decoded(),
    bytes: async (limit) => {
      within(limit);
      return bytes;
    },
    textWithin: async (limit) => {
      within(limit);
      return decoded();
    },
  };
}

/** A body given as text, as a Request holding it reads: its UTF-8 bytes decoded again — without making them. */
function textBody(raw: string): Pick<Incoming, 'text' | 'bytes' | 'textWithin'> {
  // Lone surrogates become U+FFFD, a byte order mark is dropped.
  const text = (SURROGATE.test(raw) ? raw.replace(LONE_SURROGATE, '\uFFFD') : raw).replace(/^\uFEFF/, '');
  const within = (limit: number): void => {
    // A character is at most 3 UTF-8 bytes (a surrogate pair 4 for 2); count only when it matters.
    if (raw.length * 3 > limit && utf8Encoder.encode(raw).length > limit) {
      throw newRequestEntityTooLarge(`limit is ${limit}`);
    }
  };
  return {
    text: async () => text,
    bytes: async (limit) => {
      within(limit);
      return utf8Encoder.encode(raw);
    },
    textWithin: async (limit) => {
      within(limit);
      return text;
    },
  };
}

/**
 * A DirectCall as the handlers read it, as `new Request(url, call)` would give it: the method
 * normalized, header names in lower case and values trimmed, pairs in Headers' order, a text
 * body's default Content-Type, and the body read as Request.text() / arrayBuffer() would.
 */
export function incomingCall(call: DirectCall, connection?: ConnectionInfo): Incoming {
  const upper = call.method.toUpperCase();
  const method = NORMALIZED_METHODS.has(upper) ? upper : call.method;
  if (call.body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new TypeError('Request with GET/HEAD method cannot have body.');
  }
  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries(call.headers)) {
    // Names differing only in case are one header, its values joined as Headers.append joins them.
    const name = k.toLowerCase();
    const before = headers.get(name);
    headers.set(name, before === undefined ? headerValue(v) : `${before}, ${headerValue(v)}`);
  }
  if (typeof call.body === 'string' && !headers.has('content-type')) {
    headers.set('content-type', 'text/plain;charset=UTF-8');
  }
  return {
    method,
    url: call.url,
    headers: {
      get: (name) => headers.get(name.toLowerCase()) ?? null,
      entries: () => [...headers.entries()].sort(byName),
    },
    ...(connection === undefined ? {} : { connection }),
    ...(call.body instanceof Uint8Array ? bytesBody(call.body) : textBody(call.body ?? '')),
  };
}

/**
 * handlers/rest.go limitedReadBody: the body read to at most `limit` bytes; one byte more is 413
 * `Request entity too large: limit is 3145728`.
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw newRequestEntityTooLarge(`limit is ${limit}`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
