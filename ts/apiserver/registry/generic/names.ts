/** Object identity the apiserver assigns: generated names, UIDs and timestamps. */

// k8s.io/apimachinery/pkg/util/rand: the alphabet without vowels and confusable characters.
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
// names.SimpleNameGenerator: maxNameLength 63, randomLength 5, maxGeneratedNameLength 58.
const MAX_GENERATED_NAME_LENGTH = 58;
const RANDOM_LENGTH = 5;

/** generateName → `<base><5 random chars>`, the base cut to 58 characters (names.SimpleNameGenerator). */
export function generateName(base: string, random: () => number = Math.random): string {
  const prefix = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base;
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += ALPHANUMS[Math.floor(random() * ALPHANUMS.length)];
  return prefix + suffix;
}

let lastSecond = Number.NaN;
let lastText = '';

/** metav1.Time on the wire: RFC 3339 at second precision (the last second's text kept: writes come in bursts). */
export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastText;
}

/** A random UUID (types.UID). */
export function newUid(): string {
  return globalThis.crypto.randomUUID();
}
