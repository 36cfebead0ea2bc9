/** The exports of gen-api-types.mjs, for the tests that regenerate ts/api/types/ in memory. */

/** Paths relative to the repository root. */
export const OPENAPI: string;
export const GO_TYPES: string;
export const OUT_DIR: string;

/** The go-types table (go-types.k8s.json). */
export interface GoTypes {
  /** `core/v1.PodSpec` → its JSON fields in Go's order: `name type[ omitempty]`. */
  structs: Record<string, string[]>;
  /** `core/v1.RestartPolicy` → [underlying type, first sentence of its doc comment]. */
  named: Record<string, [string, string]>;
}

/** The generated files, path under OUT_DIR → text; `openapi` is the parsed OPENAPI file. */
export function generate(openapi: { schemas: Record<string, unknown> }, goTypes: GoTypes): Map<string, string>;

/** The files under OUT_DIR that carry the generator's header, relative to OUT_DIR, sorted. */
export function committedFiles(root?: string): string[];

/** The first sentence of a description, on one line, shortened past 200 characters. */
export function firstSentence(description: string): string;
