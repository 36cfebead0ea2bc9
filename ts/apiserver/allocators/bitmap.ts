/**
 * A bitmap of allocated offsets with Kubernetes' random scan split into a static and a dynamic band
 * (pkg/registry/core/service/allocator/bitmap.go, v1.32: AllocationBitmap with
 * randomScanStrategyWithOffset). Offsets below `offset` are the static band users are expected to
 * pick explicitly from; AllocateNext draws from `[offset, max)` first and only then from `[0, offset)`.
 */

/** A source of integers in `[0, n)`, Go's `rand.Intn`; injectable so tests are deterministic. */
export type RandomIntn = (n: number) => number;

export const mathRandomIntn: RandomIntn = (n) => Math.floor(Math.random() * n);

export class AllocationBitmap {
  private readonly bits: Uint8Array;
  private count_ = 0;

  constructor(
    /** Number of usable offsets. */
    readonly max: number,
    /** Size of the static band at the bottom (0: the whole range is dynamic). */
    readonly offset: number,
    private readonly intn: RandomIntn = mathRandomIntn,
  ) {
    this.bits = new Uint8Array(Math.ceil(Math.max(0, max) / 8));
  }

  get count(): number {
    return this.count_;
  }

  /** Items left in the range. */
  free(): number {
    return this.max - this.count_;
  }

  has(offset: number): boolean {
    if (!Number.isInteger(offset) || offset < 0 || offset >= this.max) return false;
    return ((this.bits[offset >> 3] as number) & (1 << (offset & 7))) !== 0;
  }

  /** Reserves `offset`; false when it was already taken. Throws when out of `[0, max)`. */
  allocate(offset: number): boolean {
    if (!Number.isInteger(offset) || offset < 0 || offset >= this.max) {
      // bitmap.go Allocate: fmt.Errorf("offset %d out of range [0,%d]", offset, r.max)
      throw new RangeError(`offset ${offset} out of range [0,${this.max}]`);
    }
    if (this.has(offset)) return false;
    this.set(offset, true);
    return true;
  }

  /** randomScanStrategyWithOffset.AllocateBit; undefined when the range is full. */
  allocateNext(): number | undefined {
    if (this.count_ >= this.max) return undefined;
    const subrangeMax = this.max - this.offset;
    if (subrangeMax > 0) {
      const start = this.intn(subrangeMax);
      for (let i = 0; i < subrangeMax; i++) {
        const at = this.offset + ((start + i) % subrangeMax);
        if (!this.has(at)) {
          this.set(at, true);
          return at;
        }
      }
    }
    if (this.offset > 0) {
      const start = this.intn(this.offset);
      for (let i = 0; i < this.offset; i++) {
        const at = (start + i) % this.offset;
        if (!this.has(at)) {
          this.set(at, true);
          return at;
        }
      }
    }
    return undefined;
  }

  /** Releasing a free or out-of-range offset is a no-op, as in Kubernetes. */
  release(offset: number): void {
    if (this.has(offset)) this.set(offset, false);
  }

  /** Every allocated offset, ascending. */
  *allocated(): IterableIterator<number> {
    for (let i = 0; i < this.max; i++) if (this.has(i)) yield i;
  }

  private set(offset: number, on: boolean): void {
    const i = offset >> 3;
    const mask = 1 << (offset & 7);
    const byte = this.bits[i] as number;
    if (on) {
      this.bits[i] = byte | mask;
      this.count_++;
    } else {
      this.bits[i] = byte & ~mask;
      this.count_--;
    }
  }
}
