/**
 * Objects as stored: UTF-8 JSON without metadata.resourceVersion, which is filled in on every read
 * from the store revision of the object's last change (../shared/reference/store.md §3.1). Request
 * bodies are decoded here too: JSON checked by go-json.ts (Go's syntax errors, the nesting limit,
 * duplicate fields), with the decode errors kube-apiserver words (YAML bodies: yaml.ts).
 */
import { type KubeObject, OBJECT_META_FIELDS, type ObjectMeta } from '../../api/meta.js';
import { newBadRequest, StatusError } from '../../api/status.js';
import type { StoredObject } from '../../storage/storage.js';
import { withJsonText } from '../endpoints/response.js';
import { withRawJson } from './field-validation.js';
import { MAX_NESTING_DEPTH, scanJson } from './go-json.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The API object a stored value holds, with `metadata.resourceVersion` = its revision. */
export function decodeStored(stored: Pick<StoredObject, 'value' | 'revision'>): KubeObject {
  const obj = JSON.parse(decoder.decode(stored.value)) as KubeObject;
  obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: String(stored.revision) };
  return obj;
}

/**
 * The object a stored value holds, for a write that edits and stores it again: decodeStored
 * without the resourceVersion (encodeForStorage drops it anyway), `metadata` made an object.
 */
export function decodeForRewrite(value: Uint8Array): KubeObject {
  const obj = JSON.parse(decoder.decode(value)) as KubeObject;
  obj.metadata = { ...(obj.metadata ?? {}) };
  return obj;
}

// ObjectMeta fields tagged `omitempty` whose empty value Go never writes: a label removed by a
// patch leaves no `labels: {}` behind (k8s.io/apimachinery/pkg/apis/meta/v1/types.go).
const OMIT_WHEN_EMPTY = ['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields'] as const;

const isEmpty = (v: unknown): boolean =>
  Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0;

/** The bytes to store for `obj` (resourceVersion dropped: the store's revision is the truth). */
export function encodeForStorage(obj: KubeObject): Uint8Array {
  return encodeStored(obj).bytes;
}

/** The bytes a write stores and the object they are the JSON of. */
export interface Encoded {
  bytes: Uint8Array;
  stored: KubeObject;
  /** The JSON text of `stored` (what `bytes` encode). */
  text: string;
  /** Where in `text` the closing brace of `metadata` is (storedAnswer puts resourceVersion before it). */
  metaEnd: number;
}

/**
 * JSON.stringify of a plain object, one top-level field at a time so that the end of its
 * `metadata` is known: the same text (fields whose value JSON leaves out are left out).
 */
function stringifyTopLevel(obj: KubeObject): { text: string; metaEnd: number } {
  let text = '{';
  let metaEnd = -1;
  for (const [field, value] of Object.entries(obj)) {
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) continue;
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(field)}:${json}`;
    if (field === 'metadata') metaEnd = text.length - 1;
  }
  return { text: `${text}}`, metaEnd };
}

/**
 * ObjectMeta's fields in the order Go declares them (apimachinery pkg/apis/meta/v1/types.go), as
 * kube-apiserver writes them whatever order they came in: the bytes of an unchanged object stay the
 * same, so an update that changes nothing writes nothing. resourceVersion is left out (the store's
 * revision is the truth).
 */
const OBJECT_META_ORDER = OBJECT_META_FIELDS.filter((f) => f !== 'resourceVersion');
const IN_ORDER: ReadonlySet<string> = new Set(OBJECT_META_FIELDS);

/** encodeForStorage, keeping the object written too (storedAnswer answers with it). */
export function encodeStored(obj: KubeObject): Encoded {
  const given = (obj.metadata ?? {}) as Record<string, unknown>;
  const meta: Record<string, unknown> = {};
  for (const field of OBJECT_META_ORDER) {
    const v = given[field];
    if (v !== undefined && !(OMIT_WHEN_EMPTY.includes(field as (typeof OMIT_WHEN_EMPTY)[number]) && isEmpty(v))) {
      meta[field] = v;
    }
  }
  // Anything else (a custom resource's pruned metadata never has more) keeps its place after them.
  for (const [field, v] of Object.entries(given)) if (!IN_ORDER.has(field)) meta[field] = v;
  const stored: KubeObject = { ...obj, metadata: meta as ObjectMeta };
  const { text, metaEnd } = stringifyTopLevel(stored);
  return { bytes: encoder.encode(text), stored, text, metaEnd };
}

/**
 * The answer to a write whose stored value is `written`: decodeStored(stored), made without
 * parsing the bytes just written when the storage kept them as they were given. Its JSON is the
 * same text; it shares the objects of `written.stored`, so it is for serializing, not for editing.
 * A storage that answers other bytes (a conversion) is decoded.
 */
export function storedAnswer(written: Encoded, stored: Pick<StoredObject, 'value' | 'revision'>): KubeObject {
  if (stored.value !== written.bytes) return decodeStored(stored);
  const obj = written.stored;
  const resourceVersion = String(stored.revision);
  const answer = { ...obj, metadata: { ...(obj.metadata ?? {}), resourceVersion } };
  // Its JSON is the stored text with resourceVersion last in metadata: jsonResponse need not
  // stringify it again.
  const { text, metaEnd } = written;
  if (metaEnd > 0) {
    const field = `${text[metaEnd - 1] === '{' ? '' : ','}"resourceVersion":${JSON.stringify(resourceVersion)}`;
    withJsonText(answer, `${text.slice(0, metaEnd)}${field}${text.slice(metaEnd)}`);
  }
  return answer;
}

/** The Go type DefaultMetaFactory.Interpret decodes into (apimachinery runtime/serializer/json/meta.go). */
const FIND_KIND_TYPE =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** handlers/rest.go summarizeData(body, 30): the start of the body as text (JSON) or hex. */
function summarizeData(text: string, maxLength = 30): string {
  const bytes = encoder.encode(text);
  if (bytes.length === 0) return '<empty>';
  if (bytes[0] === 0x7b) {
    return bytes.length > maxLength ? `${decoder.decode(bytes.subarray(0, maxLength))} ...` : text;
  }
  const hex = Array.from(bytes.subarray(0, maxLength), (b) => b.toString(16).padStart(2, '0')).join('');
  return bytes.length > maxLength ? `${hex} ...` : hex;
}

/** Go's name for a JSON value's type in UnmarshalTypeError (`array`, `string`, `number`, `bool`, `object`). */
function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/**
 * The decode failure kube-apiserver answers a create or update with (handlers/rest.go
 * transformDecodeError): `the object provided is unrecognized (must be of type ConfigMap):
 * <err> (<summary>)`; without a kind (DeleteOptions, subresource bodies) just `<err>`.
 */
export function decodeError(err: string, text: string, kind: string | undefined): Error {
  if (kind === undefined) return new BodyDecodeError(err, text);
  return newBadRequest(
    `the object provided is unrecognized (must be of type ${kind}): ${err} (${summarizeData(text)})`,
  );
}

/** A body that did not decode, reported without a kind; asDecodeErrorOf can name the kind later. */
class BodyDecodeError extends StatusError {
  constructor(
    readonly detail: string,
    readonly text: string,
  ) {
    super({ status: 'Failure', message: detail, reason: 'BadRequest', code: 400 });
  }
}

/**
 * `err` as a create or update of `kind` reports it, when it is a decode failure of the body
 * (parseJsonObject without a kind); any other error unchanged. Lets the router name the kind
 * without decoding the body a second time.
 */
export function asDecodeErrorOf(err: unknown, kind: string): unknown {
  return err instanceof BodyDecodeError ? decodeError(err.detail, err.text, kind) : err;
}

/** `work`, a create or update of `kind`: a body that does not decode is reported as kube-apiserver does, naming the kind. */
export async function decodingAs<T>(kind: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asDecodeErrorOf(err, kind);
  }
}

/**
 * JSON.parse with Go's verdict: the native parser first, and the (3–4× slower) Go-faithful scan
 * only for a text it refuses or one nested deep enough to reach Go's limit — the same texts
 * pass and fail as with scanJson first, with the same error texts (`bench api` measures the gain).
 */
function parseGoJson(text: string, refuse: (goError: string) => Error): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const scan = scanJson(text);
    throw scan.error !== undefined ? refuse(scan.error) : err;
  }
  if (mayNestDeeply(text) && nestingDepth(text) >= MAX_NESTING_DEPTH) {
    const scan = scanJson(text);
    if (scan.error !== undefined) throw refuse(scan.error);
  }
  return value;
}

/** Whether the text has brackets enough to nest MAX_NESTING_DEPTH deep (counted natively, strings too). */
function mayNestDeeply(text: string): boolean {
  if (text.length < 2 * MAX_NESTING_DEPTH) return false;
  let count = 0;
  for (const open of ['{', '[']) {
    for (let i = text.indexOf(open); i >= 0; i = text.indexOf(open, i + 1)) {
      if (++count >= MAX_NESTING_DEPTH) return true;
    }
  }
  return false;
}

/** The deepest bracket nesting of a valid JSON text (brackets inside strings skipped). */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return max;
}

/**
 * Parses a JSON request body that must be an object; 400 BadRequest otherwise, with the text
 * kube-apiserver gives (`couldn't get version/kind; json parse error: unexpected end of JSON
 * input`). `kind` names the expected type for create/update bodies; `original` is the body as sent
 * (YAML) when `text` was converted from it. `null` decodes to an empty object, as Go's decoder
 * leaves the target untouched.
 */
export function parseJsonObject(text: string, kind?: string, original = text): Record<string, unknown> {
  const value = parseGoJson(text, (error) =>
    decodeError(`couldn't get version/kind; json parse error: ${error}`, original, kind),
  );
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw decodeError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(value)} into Go value of type ${FIND_KIND_TYPE}`,
      original,
      kind,
    );
  }
  const obj = value as Record<string, unknown>;
  for (const field of ['apiVersion', 'kind']) {
    const v = obj[field];
    if (Object.hasOwn(obj, field) && v !== null && typeof v !== 'string') {
      throw decodeError(
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(v)} into Go struct field .${field} of type string`,
        original,
        kind,
      );
    }
  }
  // Field validation needs the text: JSON.parse drops duplicate keys and number literals' form
  // (withRawJson takes what its fast path needs now, while obj is still the text's value).
  return withRawJson(obj, text);
}
