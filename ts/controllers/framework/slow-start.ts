/**
 * slowStartBatch (pkg/controller/replicaset/replica_set.go at v1.32, with SlowStartInitialBatchSize
 * from controller_utils.go): `count` calls of `fn` in batches of 1, 2, 4, … each batch run at once;
 * the first batch with a failure is waited for and ends it, so a controller whose creates are
 * refused (quota, admission) sends one request, not hundreds.
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
    const results = await Promise.allSettled(Array.from({ length: batchSize }, () => fn()));
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += batchSize - failures.length;
    if (failures.length > 0) return { successes, error: (failures[0] as PromiseRejectedResult).reason };
    remaining -= batchSize;
  }
  return { successes, error: undefined };
}
