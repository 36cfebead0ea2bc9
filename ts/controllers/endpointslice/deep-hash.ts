/**
 * The orders Kubernetes gives ports and Endpoints subsets: by the md5 of each value's
 * `dump.ForHash` text (go-spew `%#v` with DisablePointerAddresses, DisableCapacities, SortKeys) —
 * hashutil.DeepHashObject (pkg/util/hash/hash.go) and endpointslice util's deepHashObjectToString.
 * The texts here are those spew prints for the Go types involved (checked against Go in
 * deep-hash.test.ts), so the orders come out as Kubernetes'.
 *
 *   ports.sort((a, b) => compareHex(md5Hex(dumpSlicePort(a)), md5Hex(dumpSlicePort(b))));
 */
import type { EndpointPort as CoreEndpointPort, EndpointAddress, EndpointSubset } from '../../api/types/core/v1.js';
import type { EndpointPort } from '../../api/types/discovery/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';

/** A pointer field: its value, or `<nil>`. */
const ptr = (type: string, v: string | number | undefined): string =>
  `(*${type})${v === undefined ? '<nil>' : String(v)}`;

/** discovery/v1 EndpointPort (all pointers), as spew prints the value: `(v1.EndpointPort){…}`. */
export function dumpSlicePort(p: DeepReadonly<EndpointPort>): string {
  return `(v1.EndpointPort){${slicePortFields(p)}}`;
}

function slicePortFields(p: DeepReadonly<EndpointPort>): string {
  return [
    `Name:${ptr('string', p.name)}`,
    `Protocol:${ptr('v1.Protocol', p.protocol)}`,
    `Port:${ptr('int32', p.port)}`,
    `AppProtocol:${ptr('string', p.appProtocol)}`,
  ].join(' ');
}

/** core/v1 EndpointPort: `(v1.EndpointPort){Name:(string)… Port:(int32)… …}`. */
export function dumpCorePort(p: DeepReadonly<CoreEndpointPort>): string {
  return `(v1.EndpointPort){${corePortFields(p)}}`;
}

function corePortFields(p: DeepReadonly<CoreEndpointPort>): string {
  return [
    `Name:(string)${p.name ?? ''}`,
    `Port:(int32)${p.port}`,
    `Protocol:(v1.Protocol)${p.protocol ?? ''}`,
    `AppProtocol:${ptr('string', p.appProtocol)}`,
  ].join(' ');
}

function addressFields(a: DeepReadonly<EndpointAddress>): string {
  const r = a.targetRef;
  const ref =
    r === undefined
      ? '(*v1.ObjectReference)<nil>'
      : `(*v1.ObjectReference){${[
          `Kind:(string)${r.kind ?? ''}`,
          `Namespace:(string)${r.namespace ?? ''}`,
          `Name:(string)${r.name ?? ''}`,
          `UID:(types.UID)${r.uid ?? ''}`,
          `APIVersion:(string)${r.apiVersion ?? ''}`,
          `ResourceVersion:(string)${r.resourceVersion ?? ''}`,
          `FieldPath:(string)${r.fieldPath ?? ''}`,
        ].join(' ')}}`;
  return [
    `IP:(string)${a.ip}`,
    `Hostname:(string)${a.hostname ?? ''}`,
    `NodeName:${ptr('string', a.nodeName)}`,
    `TargetRef:${ref}`,
  ].join(' ');
}

/** A Go slice of structs: `([]T)<nil>` for nil (undefined here), `([]T)[{…} {…}]` otherwise. */
function list<T>(type: string, items: readonly T[] | undefined, fields: (item: T) => string): string {
  if (items === undefined) return `([]${type})<nil>`;
  return `([]${type})[${items.map((i) => `{${fields(i)}}`).join(' ')}]`;
}

/** core/v1 EndpointSubset; an absent list is a nil slice, an empty one an empty slice. */
export function dumpSubset(s: DeepReadonly<EndpointSubset>): string {
  return `(v1.EndpointSubset){${[
    `Addresses:${list('v1.EndpointAddress', s.addresses, addressFields)}`,
    `NotReadyAddresses:${list('v1.EndpointAddress', s.notReadyAddresses, addressFields)}`,
    `Ports:${list('v1.EndpointPort', s.ports, corePortFields)}`,
  ].join(' ')}}`;
}

/** Byte order of two hex digests (lowercase hex sorts as its bytes do). */
export function compareHex(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// --- md5 (RFC 1321) over the UTF-8 bytes of a string ---

const S = [
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4,
  11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

/** The md5 digest of `text`'s UTF-8 bytes, in lowercase hex (hex.EncodeToString(md5.Sum)). */
export function md5Hex(text: string): string {
  const input = new TextEncoder().encode(text);
  const bitLength = input.length * 8;
  const padded = new Uint8Array((((input.length + 8) >> 6) + 1) << 6);
  padded.set(input);
  padded[input.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, bitLength >>> 0, true);
  view.setUint32(padded.length - 4, Math.floor(bitLength / 2 ** 32), true);
  let a0 = 0x67452301;
  let b0 = 0xefcdab89;
  let c0 = 0x98badcfe;
  let d0 = 0x10325476;
  for (let off = 0; off < padded.length; off += 64) {
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
      }
      const m = view.getUint32(off + g * 4, true);
      const sum = (a + f + (K[i] as number) + m) >>> 0;
      const s = S[i] as number;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << s) | (sum >>> (32 - s)))) >>> 0;
    }
    a0 = (a0 + a) >>> 0;
    b0 = (b0 + b) >>> 0;
    c0 = (c0 + c) >>> 0;
    d0 = (d0 + d) >>> 0;
  }
  const out = new DataView(new ArrayBuffer(16));
  out.setUint32(0, a0, true);
  out.setUint32(4, b0, true);
  out.setUint32(8, c0, true);
  out.setUint32(12, d0, true);
  return Array.from(new Uint8Array(out.buffer), (x) => x.toString(16).padStart(2, '0')).join('');
}
