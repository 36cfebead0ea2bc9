/**
 * slowStartBatch (pkg/controller/replicaset/replica_set.go at v1.32, with SlowStartInitialBatchSize
 * from controller_utils.go): `count` calls of `fn` in batches of 1, 2, 4, … each batch run at once;
 * the first batch with a failure is waited for and ends it — with the failure that happened first
 * (the first off Go's error channel) — so a controller whose creates are refused (quota,
 * admission) sends one request, not hundreds.
 *
 *   const { successes, error } = await slowStartBatch(diff, SLOW_START_INITIAL_BATCH_SIZE, () => create());
 */

// controller_utils.go SlowStartInitialBatchSize.
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** The successful calls, and the first error of the batch that stopped it (undefined: all succeeded). */
export async function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: () => Promise<void>,
): Promise<{ successes: number; error: unknown }> {
  let remaining = count;
  let successes = 0;
  for (
    let batchSize = Math.min(remaining, initialBatchSize);
    batchSize > 0;
    batchSize = Math.min(2 * batchSize, remaining)
  ) {
    // errCh: the failures in the order they happen; Go returns the first one received.
    const failures: unknown[] = [];
    await Promise.all(
      Array.from({ length: batchSize }, () =>
        fn().catch((err: unknown) => {
          failures.push(err);
        }),
      ),
    );
    successes += batchSize - failures.length;
    if (failures.length > 0) return { successes, error: failures[0] };
    remaining -= batchSize;
  }
  return { successes, error: undefined };
}
