/**
 * The pod-template-hash (pkg/controller/controller_utils.go ComputeHash at v1.32): FNV-32a over
 * the pod template, then — when the Deployment has a collisionCount — that count as Go writes it
 * (an 8-byte buffer holding the uint32 little-endian), the 32-bit sum printed in decimal and
 * mapped through rand.SafeEncodeString's alphabet.
 *
 *   computeHash(d.spec.template, d.status?.collisionCount)   // e.g. '5d8f7b6c4'
 *   rs name: `${d.metadata.name}-${hash}`
 *
 * Deliberate difference: Kubernetes hashes a spew dump of the Go struct, which cannot be rebuilt
 * from JSON; here the input is the template's canonical JSON (object keys sorted, null and absent
 * fields dropped). The value therefore differs from Kubernetes' for the same template, while its
 * shape (digits of a uint32 through the same alphabet), its stability and its use are the same.
 */
import type { DeepReadonly } from '../../../api/types/readonly.js';

// k8s.io/apimachinery/pkg/util/rand/rand.go: alphanums, the characters SafeEncodeString uses.
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
// hash/fnv (Go standard library): offset32 and prime32.
const FNV32_OFFSET = 2166136261;
const FNV32_PRIME = 16777619;

/** hash/fnv New32a: an incremental FNV-1a 32-bit hash. */
export class Fnv32a {
  private sum = FNV32_OFFSET;

  write(bytes: Uint8Array): void {
    let h = this.sum;
    for (const b of bytes) {
      h ^= b;
      h = Math.imul(h, FNV32_PRIME) >>> 0;
    }
    this.sum = h;
  }

  sum32(): number {
    return this.sum >>> 0;
  }
}

/** rand.SafeEncodeString: each character's code modulo the alphabet's length picks a character. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += ALPHANUMS[(ch.codePointAt(0) ?? 0) % ALPHANUMS.length];
  return out;
}

/** JSON with every object's keys sorted and null/undefined members left out: one text per value. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** ComputeHash: the pod-template-hash of `template`, salted with `collisionCount` when set. */
export function computeHash(template: DeepReadonly<unknown>, collisionCount?: number | null): string {
  const hasher = new Fnv32a();
  hasher.write(new TextEncoder().encode(canonicalJson(template)));
  if (collisionCount !== undefined && collisionCount !== null) {
    // make([]byte, 8) + binary.LittleEndian.PutUint32: four count bytes, four zero bytes.
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hasher.write(bytes);
  }
  return safeEncodeString(String(hasher.sum32()));
}
