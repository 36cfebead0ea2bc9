/**
 * The parts of a v1 Pod (or pod template) the Pod Security checks read — the generated API types
 * (ts/api/types), read leniently — and the helpers the checks share (policy/visitor.go,
 * policy/helpers.go). The object has passed kind validation, so fields have their API types; a
 * JSON null reads as an unset pointer (the checks compare with `!= null`).
 */

import type * as v1 from '../../../api/types/core/v1.js';
import type { ObjectMeta } from '../../../api/types/meta/v1.js';

/**
 * A decoded object of API type T as the checks read it: read-only, and any field may be absent or
 * a JSON null (an unset pointer) — the checks never rely on validation having filled a field in.
 */
export type Lenient<T> = T extends readonly (infer E)[]
  ? readonly Lenient<E>[]
  : T extends object
    ? string extends keyof T
      ? Readonly<T> // a map (annotations, resource lists): its values as they are
      : { readonly [K in keyof T]?: Lenient<T[K]> | null }
    : T;

export type Capabilities = Lenient<v1.Capabilities>;
export type SELinuxOptions = Lenient<v1.SELinuxOptions>;
export type SecurityContext = Lenient<v1.SecurityContext>;
export type PodSecurityContext = Lenient<v1.PodSecurityContext>;
/** A container, an init container or the common part of an ephemeral container. */
export type Container = Lenient<v1.Container> | Lenient<v1.EphemeralContainer>;
export type Volume = Lenient<v1.Volume>;
export type PodSpec = Lenient<v1.PodSpec>;
export type PodMetadata = Lenient<Pick<ObjectMeta, 'name' | 'annotations'>>;

/** A JSON array field, or none. */
export function list<T>(v: readonly T[] | null | undefined): readonly T[] {
  return Array.isArray(v) ? v : [];
}

/**
 * visitContainers (policy/visitor.go): init containers, then containers, then ephemeral
 * containers (their common fields are a Container's).
 */
export function visitContainers(spec: PodSpec, visit: (c: Container) => void): void {
  for (const c of list(spec.initContainers)) visit(c);
  for (const c of list(spec.containers)) visit(c);
  for (const c of list(spec.ephemeralContainers)) visit(c);
}

/** joinQuote (policy/helpers.go): `"a", "b"` — quotes added, nothing escaped. */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

/** pluralize (policy/helpers.go). */
export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** sets.NewString(...).List(): unique and sorted (byte order, as Go sorts strings). */
export function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

/** corev1.Windows: pods with `spec.os.name: windows` skip the Linux-only restricted checks from v1.25. */
export function isWindowsPod(spec: PodSpec): boolean {
  return spec.os?.name === 'windows';
}
