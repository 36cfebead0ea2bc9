/** Object identity the apiserver assigns: generated names and UIDs (timestamps: ts/api/time.ts). */

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

/** A random UUID (types.UID). */
export function newUid(): string {
  return globalThis.crypto.randomUUID();
}
