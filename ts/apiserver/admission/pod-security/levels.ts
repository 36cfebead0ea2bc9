/**
 * Pod Security levels and policy versions, as k8s.io/pod-security-admission api/constants.go and
 * api/helpers.go define them: a level is privileged < baseline < restricted; a version is `latest`
 * or `v1.<minor>` (only major 1 exists), and `latest` is newer than every version, even future ones.
 */

// api.LevelPrivileged, LevelBaseline, LevelRestricted (api/constants.go).
export type Level = 'privileged' | 'baseline' | 'restricted';
export const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** api.Version: `{ latest: true }` or v1.<minor>. */
export type Version = { readonly latest: true } | { readonly latest: false; readonly minor: number };

export const LATEST: Version = { latest: true };

export const v1 = (minor: number): Version => ({ latest: false, minor });

/** Version.String(): `latest` or `v1.25`. */
export function versionString(v: Version): string {
  return v.latest ? 'latest' : `v1.${v.minor}`;
}

/** Version.Older: whether `a` is older than `b` (`latest` is never older, everything else is older than it). */
export function older(a: Version, b: Version): boolean {
  if (a.latest) return false;
  if (b.latest) return true;
  return a.minor < b.minor;
}

export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}

/** LevelVersion.String(): `restricted:latest`, `baseline:v1.25`. */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return levelVersionString(a) === levelVersionString(b);
}

/**
 * api.ParseLevel: an unknown level yields `restricted` (fail closed) and
 * `must be one of privileged, baseline, restricted`.
 */
export function parseLevel(level: string): { level: Level; error?: string } {
  if ((LEVELS as readonly string[]).includes(level)) return { level: level as Level };
  return { level: 'restricted', error: `must be one of ${LEVELS.join(', ')}` };
}

// versionRegexp (api/helpers.go).
const VERSION_RE = /^v1\.([0-9]|[1-9][0-9]*)$/;
// strconv.Atoi's range: Go's int is 64 bits.
const MAX_INT64 = 9223372036854775807n;

/** api.ParseVersion: `latest` or `v1.x`; anything else yields latest and `must be "latest" or "v1.x"`. */
export function parseVersion(version: string): { version: Version; error?: string } {
  if (version === 'latest') return { version: LATEST };
  const m = VERSION_RE.exec(version);
  if (m === null || BigInt(m[1] as string) > MAX_INT64) {
    return { version: LATEST, error: 'must be "latest" or "v1.x"' };
  }
  return { version: v1(Number(m[1])) };
}

/**
 * api.CompareLevels: 0 when equal, -1 when `a` is less strict than `b`, +1 when stricter.
 */
export function compareLevels(a: Level, b: Level): number {
  if (a === b) return 0;
  if (a === 'privileged') return -1;
  if (a === 'restricted') return 1;
  return b === 'privileged' ? 1 : -1;
}
