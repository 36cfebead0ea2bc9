/**
 * utilerrors.NewAggregate (k8s.io/apimachinery/pkg/util/errors/errors.go at v0.32): several errors
 * as one, whose message lists each distinct message once, in order — `[a, b]`, or just `a` when
 * only one distinct message remains (one error, or the same one several times). Nested
 * aggregates are flattened as Go's visit does.
 *
 *   aggregateErrors([new Error('a'), new Error('a')])?.message   // 'a'
 *   aggregateErrors([new Error('a'), new Error('b')])?.message   // '[a, b]'
 */

/** aggregate.Error(): the distinct messages, `[a, b]`, or the one alone. */
export function aggregateMessage(messages: readonly string[]): string {
  const seen = [...new Set(messages)];
  return seen.length === 1 ? (seen[0] as string) : `[${seen.join(', ')}]`;
}

/** The messages of `err`, an aggregate's flattened (aggregate.visit). */
function messagesOf(err: unknown): string[] {
  if (err instanceof AggregateError) return err.errors.flatMap(messagesOf);
  return [err instanceof Error ? err.message : String(err)];
}

/** NewAggregate: undefined for none; the error itself for one; an AggregateError for more. */
export function aggregateErrors(errors: readonly unknown[]): Error | undefined {
  const present = errors.filter((e) => e !== undefined && e !== null);
  if (present.length === 0) return undefined;
  if (present.length === 1) {
    const [only] = present;
    return only instanceof Error ? only : new Error(String(only));
  }
  return new AggregateError(present, aggregateMessage(present.flatMap(messagesOf)));
}
