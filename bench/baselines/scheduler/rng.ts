/**
 * The seeded generator used to break score ties in `selectHost` (kube-scheduler calls Go's
 * `rand.Intn`; no reproducible equivalent exists, so this port and the Rust engine share this one).
 *
 * Algorithm — SplitMix64 (Steele, Lea, Flood 2014), all arithmetic modulo 2^64:
 *
 *     state  = state + 0x9E3779B97F4A7C15
 *     z      = state
 *     z      = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
 *     z      = (z ^ (z >> 27)) * 0x94D049BB133111EB
 *     output = z ^ (z >> 31)
 *
 * The initial state is the seed as an unsigned 64-bit integer (a JS number seed must be a safe
 * non-negative integer; a bigint seed is taken modulo 2^64).
 *
 * Drawing an index in [0, n) — Lemire's multiply-shift without rejection: one output `x`, then
 * `(x * n) >> 64` computed exactly in 128 bits. `n = 0` yields 0 and still consumes no output.
 * `n = 1` consumes one output and yields 0. (The bias is below n / 2^64.)
 *
 * `selectHost` draws `below(count)` once for every node whose total equals the running maximum
 * (count = how many such nodes seen so far, including this one, so ≥ 2), and takes that node when
 * the draw is 0. This matches crates/sched/src/rng.rs (`SplitMix64::next_u64`, `below`).
 */

const MASK64 = (1n << 64n) - 1n;
const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;
const MIX1 = 0xbf58476d1ce4e5b9n;
const MIX2 = 0x94d049bb133111ebn;

export class SplitMix64 {
  private state: bigint;

  constructor(seed: number | bigint) {
    if (typeof seed === 'number' && !(Number.isSafeInteger(seed) && seed >= 0)) {
      throw new RangeError(`seed must be a non-negative safe integer, got ${seed}`);
    }
    this.state = BigInt(seed) & MASK64;
  }

  /** The next 64-bit output as an unsigned bigint. */
  nextU64(): bigint {
    this.state = (this.state + GOLDEN_GAMMA) & MASK64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * MIX1) & MASK64;
    z = ((z ^ (z >> 27n)) * MIX2) & MASK64;
    return z ^ (z >> 31n);
  }

  /** A uniform index in [0, n): `(nextU64() * n) >> 64`. `below(0) === 0` without drawing. */
  below(n: number): number {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`n must be a non-negative safe integer, got ${n}`);
    if (n === 0) return 0;
    return Number((this.nextU64() * BigInt(n)) >> 64n);
  }
}
