/**
 * The two generic patch formats: JSON merge patch (RFC 7386) and JSON patch (RFC 6902). Failures
 * are Status errors as kube-apiserver reports them: a malformed patch is 400, a patch that cannot
 * be applied (a failed `test`, a missing path) is 422 (../shared/reference/api.md §2).
 * Strategic merge patch and server-side apply are not implemented.
 */
import { newBadRequest, StatusError } from '../../api/status.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is { [key: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `obj[key] = value` as a data property of `obj` itself: keys come from request bodies, and an
 * assignment to `__proto__` would replace the object's prototype (the key then vanishes from the
 * JSON) instead of storing the field.
 */
export function setOwn(obj: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `obj[key]` when `obj` has that key itself; never a value inherited from Object.prototype. */
export function getOwn(obj: { [key: string]: Json }, key: string): Json | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** RFC 7386: objects merge recursively, null deletes a key, anything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: { [key: string]: Json } = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, mergePatch(getOwn(out, k) ?? null, v));
  }
  return out;
}

/**
 * 422 for a JSON patch that decoded but does not apply. kube-apiserver (handlers/patch.go
 * applyJSPatch) answers every failure of jsonpatch's Apply with NewGenericServerResponse(422),
 * whose message drops the cause: `the server rejected our request due to an error in our request`.
 * `cause` says what went wrong, for the server's own reading.
 */
function unprocessable(cause: string): StatusError {
  const err = new StatusError({
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: {},
    code: 422,
  });
  err.cause = cause;
  return err;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw unprocessable(`invalid JSON pointer: ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function clone(v: Json): Json {
  return JSON.parse(JSON.stringify(v)) as Json;
}

function equal(a: Json, b: Json): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: Json): Json {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObject(v)) {
    const out: { [key: string]: Json } = {};
    for (const k of Object.keys(v).sort()) setOwn(out, k, canonical(v[k] as Json));
    return out;
  }
  return v;
}

/** The container holding the last segment, and that segment. */
function parentOf(doc: Json, path: string[], op: string): { parent: Json; key: string } {
  let cur = doc;
  for (const seg of path.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(seg)] ?? null;
    else if (isObject(cur) && Object.hasOwn(cur, seg)) cur = cur[seg] as Json;
    else throw unprocessable(`${op} operation does not apply: doc is missing path: /${path.join('/')}`);
    if (cur === null) throw unprocessable(`${op} operation does not apply: doc is missing path: /${path.join('/')}`);
  }
  return { parent: cur, key: path[path.length - 1] as string };
}

function getAt(doc: Json, path: string[], op: string): Json {
  if (path.length === 0) return doc;
  const { parent, key } = parentOf(doc, path, op);
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) {
      throw unprocessable(`${op} operation does not apply: doc is missing path: /${path.join('/')}`);
    }
    return parent[i] as Json;
  }
  if (isObject(parent) && Object.hasOwn(parent, key)) return parent[key] as Json;
  throw unprocessable(`${op} operation does not apply: doc is missing path: /${path.join('/')}`);
}

function removeAt(doc: Json, path: string[], op: string): Json {
  getAt(doc, path, op);
  const { parent, key } = parentOf(doc, path, op);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (isObject(parent)) delete parent[key];
  return doc;
}

function addAt(doc: Json, path: string[], value: Json, op: string, replace: boolean): Json {
  if (path.length === 0) return value;
  const { parent, key } = parentOf(doc, path, op);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > parent.length || (replace && i === parent.length)) {
      throw unprocessable(`${op} operation does not apply: doc is missing path: /${path.join('/')}`);
    }
    if (replace) parent[i] = value;
    else parent.splice(i, 0, value);
  } else if (isObject(parent)) {
    if (replace && !Object.hasOwn(parent, key)) {
      throw unprocessable(`${op} operation does not apply: doc is missing key: /${path.join('/')}`);
    }
    setOwn(parent, key, value);
  } else {
    throw unprocessable(`${op} operation does not apply: doc is missing path: /${path.join('/')}`);
  }
  return doc;
}

/** RFC 6902 on a copy of `target`. */
export function jsonPatch(target: Json, patch: Json): Json {
  if (!Array.isArray(patch)) throw newBadRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc = clone(target);
  for (const raw of patch) {
    if (!isObject(raw)) {
      const type = Array.isArray(raw)
        ? 'array'
        : raw === null
          ? 'null'
          : typeof raw === 'boolean'
            ? 'bool'
            : typeof raw;
      // A null element decodes to an empty operation, which then has no kind.
      if (raw !== null) throw newBadRequest(`json: cannot unmarshal ${type} into Go value of type jsonpatch.Operation`);
      throw unprocessable('Unexpected kind: unknown');
    }
    const op = typeof raw.op === 'string' ? raw.op : 'unknown';
    if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(op))
      throw unprocessable(`Unexpected kind: ${op}`);
    if (typeof raw.path !== 'string') throw unprocessable(`${op} operation missing path`);
    const path = pointer(raw.path);
    const value = (): Json => {
      if (!Object.hasOwn(raw, 'value')) throw unprocessable(`${op} operation missing value`);
      return clone(raw.value as Json);
    };
    const from = (): string[] => {
      if (typeof raw.from !== 'string') throw unprocessable(`${op} operation missing from`);
      return pointer(raw.from);
    };
    switch (op) {
      case 'add':
        doc = addAt(doc, path, value(), op, false);
        break;
      case 'replace':
        if (path.length === 0) doc = value();
        else doc = addAt(doc, path, value(), op, true);
        break;
      case 'remove':
        doc = removeAt(doc, path, op);
        break;
      case 'move': {
        const f = from();
        const v = getAt(doc, f, op);
        doc = removeAt(doc, f, op);
        doc = addAt(doc, path, v, op, false);
        break;
      }
      case 'copy':
        doc = addAt(doc, path, clone(getAt(doc, from(), op)), op, false);
        break;
      case 'test':
        if (!equal(getAt(doc, path, op), value())) throw unprocessable(`testing value ${raw.path} failed: test failed`);
        break;
      default:
        throw unprocessable(`Unexpected kind: ${op}`);
    }
  }
  return doc;
}
