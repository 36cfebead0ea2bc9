/**
 * Kubernetes protobuf request bodies → the same object as its JSON form. The envelope is the
 * magic `k8s\0` and a runtime.Unknown {typeMeta{apiVersion,kind}=1, raw=2, contentEncoding=3,
 * contentType=4} (apimachinery runtime/serializer/protobuf). Empty strings and zero numbers are
 * dropped, as JSON's omitempty would (gogo-protobuf writes them for non-pointer fields). A field
 * number the schema does not know makes the whole body a 415, so nothing is silently lost.
 */
import { newUnsupportedMediaType } from '../../../api/status.js';
import { rfc3339 } from '../../../api/time.js';
import { type FieldSpec, MESSAGES } from './schemas.js';
import { ProtobufError, readFields, type WireField } from './wire.js';

export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = [0x6b, 0x38, 0x73, 0x00];
const decoder = new TextDecoder();
/** The kinds a protobuf body may hold here, with their apiVersion. */
const TOP_LEVEL: ReadonlyMap<string, string> = new Map([
  ['Namespace', 'v1'],
  ['ConfigMap', 'v1'],
  ['Secret', 'v1'],
  ['ServiceAccount', 'v1'],
  ['Service', 'v1'],
  ['ResourceQuota', 'v1'],
  ['Deployment', 'apps/v1'],
  ['Job', 'batch/v1'],
  ['CronJob', 'batch/v1'],
  ['PriorityClass', 'scheduling.k8s.io/v1'],
  ['Role', 'rbac.authorization.k8s.io/v1'],
  ['RoleBinding', 'rbac.authorization.k8s.io/v1'],
  ['ClusterRole', 'rbac.authorization.k8s.io/v1'],
  ['ClusterRoleBinding', 'rbac.authorization.k8s.io/v1'],
  ['PodDisruptionBudget', 'policy/v1'],
  ['HorizontalPodAutoscaler', 'autoscaling/v1'],
  // `kubectl create token` (serviceaccounts/<name>/token).
  ['TokenRequest', 'authentication.k8s.io/v1'],
  // `kubectl auth whoami`; TokenReview for typed clients.
  ['SelfSubjectReview', 'authentication.k8s.io/v1'],
  ['TokenReview', 'authentication.k8s.io/v1'],
  // `kubectl auth can-i` (and --list); the other two reviews for typed clients.
  ['SelfSubjectAccessReview', 'authorization.k8s.io/v1'],
  ['SelfSubjectRulesReview', 'authorization.k8s.io/v1'],
  ['SubjectAccessReview', 'authorization.k8s.io/v1'],
  ['LocalSubjectAccessReview', 'authorization.k8s.io/v1'],
]);

type Obj = Record<string, unknown>;

function base64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function timeOf(bytes: Uint8Array): string | undefined {
  let seconds = 0n;
  for (const f of readFields(bytes)) if (f.number === 1 && f.varint !== undefined) seconds = f.varint;
  if (seconds === 0n) return undefined;
  return rfc3339(Number(seconds) * 1000);
}

/** resource.Quantity on the wire: a message holding its string form as field 1. */
function quantity(bytes: Uint8Array): string {
  let out = '';
  for (const f of readFields(bytes)) if (f.number === 1 && f.bytes) out = decoder.decode(f.bytes);
  return out;
}

/** intstr.IntOrString: {type=1 (0 int, 1 string), intVal=2, strVal=3}. */
function intOrString(bytes: Uint8Array): number | string {
  let type = 0n;
  let intVal = 0n;
  let strVal = '';
  for (const f of readFields(bytes)) {
    if (f.number === 1 && f.varint !== undefined) type = f.varint;
    if (f.number === 2 && f.varint !== undefined) intVal = f.varint;
    if (f.number === 3 && f.bytes) strVal = decoder.decode(f.bytes);
  }
  return type === 1n ? strVal : Number(BigInt.asIntN(32, intVal));
}

function mapEntry(bytes: Uint8Array, value: 'string' | 'bytes' | 'quantity'): [string, string] {
  let key = '';
  let out = '';
  for (const f of readFields(bytes)) {
    if (f.number === 1 && f.bytes) key = decoder.decode(f.bytes);
    if (f.number === 2 && f.bytes) {
      out = value === 'bytes' ? base64(f.bytes) : value === 'quantity' ? quantity(f.bytes) : decoder.decode(f.bytes);
    }
  }
  return [key, out];
}

const MAP_VALUES = {
  'map<string,string>': 'string',
  'map<string,bytes>': 'bytes',
  'map<string,quantity>': 'quantity',
} as const;

/** Value fields with omitempty: their zero is what JSON would leave out. */
const OMIT_ZERO = new Set(['string', 'int', 'bool']);
const isZero = (v: unknown): boolean => v === '' || v === 0 || v === false;

function scalar(spec: FieldSpec, f: WireField): unknown {
  switch (spec.type) {
    case 'string':
    case 'optstring':
      return f.bytes ? decoder.decode(f.bytes) : undefined;
    case 'bytes':
      return f.bytes ? base64(f.bytes) : undefined;
    case 'int':
    case 'optint':
      return f.varint === undefined ? undefined : Number(BigInt.asIntN(64, f.varint));
    case 'bool':
    case 'optbool':
      return f.varint === undefined ? undefined : f.varint !== 0n;
    case 'intOrString':
      return f.bytes ? intOrString(f.bytes) : undefined;
    case 'time':
      return f.bytes ? timeOf(f.bytes) : undefined;
    default:
      if (typeof spec.type === 'object' && f.bytes) return decodeMessage(spec.type.message, f.bytes);
      return undefined;
  }
}

/** One message of a known type as a JSON-shaped object. */
export function decodeMessage(type: string, bytes: Uint8Array): Obj {
  const schema = MESSAGES[type];
  if (schema === undefined) throw new ProtobufError(`no schema for ${type}`);
  const out: Obj = {};
  for (const f of readFields(bytes)) {
    const spec = schema[f.number];
    // A field this server cannot represent: refuse the body rather than drop data.
    if (spec === undefined) throw new ProtobufError(`${type}: unsupported field ${f.number}`);
    if (typeof spec.type === 'string' && spec.type in MAP_VALUES) {
      if (!f.bytes) continue;
      const [k, v] = mapEntry(f.bytes, MAP_VALUES[spec.type as keyof typeof MAP_VALUES]);
      out[spec.name] ??= {};
      (out[spec.name] as Obj)[k] = v;
      continue;
    }
    const value = scalar(spec, f);
    if (spec.repeated) {
      if (value !== undefined) {
        out[spec.name] ??= [];
        (out[spec.name] as unknown[]).push(value);
      }
    } else if (value !== undefined && !(typeof spec.type === 'string' && OMIT_ZERO.has(spec.type) && isZero(value))) {
      out[spec.name] = value;
    }
  }
  return out;
}

/**
 * A `application/vnd.kubernetes.protobuf` body as JSON text; 415 for kinds without a schema
 * (the client may then resend as JSON, as kubectl does not).
 */
export function protobufBodyToJson(body: Uint8Array): string {
  // Only JSON is accepted in general; protobuf only for the few kinds in schemas.ts.
  const unsupported = () => newUnsupportedMediaType(['application/json']);
  if (body.length < 4 || MAGIC.some((b, i) => body[i] !== b)) throw unsupported();
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array = new Uint8Array();
  try {
    for (const f of readFields(body.subarray(4))) {
      if (f.number === 1 && f.bytes) {
        for (const t of readFields(f.bytes)) {
          if (t.number === 1 && t.bytes) apiVersion = decoder.decode(t.bytes);
          if (t.number === 2 && t.bytes) kind = decoder.decode(t.bytes);
        }
      } else if (f.number === 2 && f.bytes) {
        raw = f.bytes;
      }
    }
    if (TOP_LEVEL.get(kind) !== apiVersion) throw unsupported();
    return JSON.stringify({ apiVersion, kind, ...decodeMessage(kind, raw) });
  } catch (err) {
    if (err instanceof ProtobufError) throw unsupported();
    throw err;
  }
}
