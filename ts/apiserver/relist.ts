/**
 * The re-list of an in-server index kept from a storage watch (auth/rbac-index.ts,
 * crd/registry.ts), after its watch ended or failed: the store may be unavailable (closing, or etcd
 * away), so a few tries with a doubling wait, then the index stays as it is.
 */

// Tries and the first wait: 200 ms, 400 ms, … 3.2 s.
const ATTEMPTS = 5;
const FIRST_WAIT_MS = 200;

/** The revision `relist` answered, or undefined when every try failed or `stopped()` turned true. */
export async function relistWithRetries(
  relist: () => Promise<bigint>,
  stopped: () => boolean,
): Promise<bigint | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS && !stopped(); attempt++) {
    try {
      return await relist();
    } catch {
      // An unref'd timer: a closed store must not keep the process alive.
      await new Promise<void>((r) => {
        const t: unknown = setTimeout(r, FIRST_WAIT_MS * 2 ** attempt);
        (t as { unref?: () => void }).unref?.();
      });
    }
  }
  return undefined;
}
