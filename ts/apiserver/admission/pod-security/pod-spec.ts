/**
 * The parts of a v1 Pod (or pod template) the Pod Security checks read, over the decoded JSON,
 * and the helpers the checks share (policy/visitor.go, policy/helpers.go). The object has passed
 * kind validation, so fields have their API types; a JSON null reads as an unset pointer.
 */

export interface Capabilities {
  add?: string[] | null;
  drop?: string[] | null;
}

export interface SELinuxOptions {
  user?: string;
  role?: string;
  type?: string;
  level?: string;
}

export interface TypedProfile {
  type?: string;
}

export interface WindowsOptions {
  hostProcess?: boolean | null;
}

export interface SecurityContext {
  privileged?: boolean | null;
  allowPrivilegeEscalation?: boolean | null;
  capabilities?: Capabilities | null;
  runAsNonRoot?: boolean | null;
  runAsUser?: number | null;
  seLinuxOptions?: SELinuxOptions | null;
  seccompProfile?: TypedProfile | null;
  appArmorProfile?: TypedProfile | null;
  procMount?: string | null;
  windowsOptions?: WindowsOptions | null;
}

export interface PodSecurityContext {
  runAsNonRoot?: boolean | null;
  runAsUser?: number | null;
  seLinuxOptions?: SELinuxOptions | null;
  seccompProfile?: TypedProfile | null;
  appArmorProfile?: TypedProfile | null;
  sysctls?: Array<{ name?: string; value?: string }> | null;
  windowsOptions?: WindowsOptions | null;
}

export interface Container {
  name?: string;
  image?: string;
  ports?: Array<{ hostPort?: number | null }> | null;
  securityContext?: SecurityContext | null;
}

/** A volume: its name and exactly one source field (`hostPath`, `configMap`, …). */
export type Volume = { name?: string } & Record<string, unknown>;

export interface PodSpec {
  hostNetwork?: boolean | null;
  hostPID?: boolean | null;
  hostIPC?: boolean | null;
  securityContext?: PodSecurityContext | null;
  initContainers?: Container[] | null;
  containers?: Container[] | null;
  ephemeralContainers?: Container[] | null;
  volumes?: Volume[] | null;
  os?: { name?: string } | null;
  runtimeClassName?: string | null;
}

export interface PodMetadata {
  name?: string;
  annotations?: Record<string, string> | null;
}

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
