/**
 * The NodePort allocator (pkg/registry/core/service/portallocator/allocator.go, v1.32): a port
 * range such as `30000-32767` over an AllocationBitmap whose static band is calculateRangeOffset's
 * `min(max(16, size/32), 128)` ports at the bottom.
 */
import { AllocationBitmap, mathRandomIntn, type RandomIntn } from './bitmap.js';
import { AllocationError } from './ip-range.js';

// portallocator/allocator.go
export const ERR_PORT_FULL = 'range is full';
export const ERR_PORT_ALLOCATED = 'provided port is already allocated';

/** k8s.io/apimachinery/pkg/util/net PortRange: `base` and `size` ports from it. */
export interface PortRangeSpec {
  base: number;
  size: number;
}

/** ParsePortRange: `30000-32767` or a single port `30000`. */
export function parsePortRange(text: string): PortRangeSpec {
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
  const low = m ? Number(m[1]) : Number.NaN;
  const high = m?.[2] !== undefined ? Number(m[2]) : low;
  if (!m || low > 65535 || high > 65535 || high < low) {
    throw new Error(`invalid port range ${JSON.stringify(text)}`);
  }
  return { base: low, size: high - low + 1 };
}

/** PortRange.String(): `30000-32767` (`""` for an empty range). */
export function portRangeString(pr: PortRangeSpec): string {
  return pr.size === 0 ? '' : `${pr.base}-${pr.base + pr.size - 1}`;
}

/** portallocator calculateRangeOffset: `min(max(16, size/32), 128)`, 0 when size ≤ 16. */
export function portRangeOffset(pr: PortRangeSpec): number {
  const min = 16;
  const max = 128;
  const step = 32;
  if (pr.size <= min) return 0;
  return Math.min(Math.max(Math.floor(pr.size / step), min), max);
}

export class PortAllocator {
  private readonly bitmap: AllocationBitmap;

  constructor(
    readonly range: PortRangeSpec,
    intn: RandomIntn = mathRandomIntn,
  ) {
    this.bitmap = new AllocationBitmap(range.size, portRangeOffset(range), intn);
  }

  static parse(text: string, intn?: RandomIntn): PortAllocator {
    return new PortAllocator(parsePortRange(text), intn);
  }

  toString(): string {
    return portRangeString(this.range);
  }

  contains(port: number): boolean {
    return Number.isInteger(port) && port >= this.range.base && port < this.range.base + this.range.size;
  }

  has(port: number): boolean {
    return this.contains(port) && this.bitmap.has(port - this.range.base);
  }

  free(): number {
    return this.bitmap.free();
  }

  allocate(port: number): void {
    if (!this.contains(port)) {
      // ErrNotInRange.Error()
      throw new AllocationError(
        `provided port is not in the valid range. The range of valid ports is ${this.toString()}`,
        'NotInRange',
      );
    }
    if (!this.bitmap.allocate(port - this.range.base)) throw new AllocationError(ERR_PORT_ALLOCATED, 'Allocated');
  }

  allocateNext(): number {
    const o = this.bitmap.allocateNext();
    if (o === undefined) throw new AllocationError(ERR_PORT_FULL, 'Full');
    return this.range.base + o;
  }

  release(port: number): void {
    if (this.contains(port)) this.bitmap.release(port - this.range.base);
  }
}

/**
 * PortAllocationOperation (portallocator/operation.go): allocations happen at once, releases are
 * deferred to commit; finish() without commit rolls the allocations back. In dry run nothing is
 * reserved or released and AllocateNext answers dummy ports above 32768, as Kubernetes does.
 */
export class PortAllocationOperation {
  private readonly allocated: number[] = [];
  private readonly releaseDeferred: number[] = [];
  private shouldRollback = true;

  constructor(
    private readonly pa: PortAllocator,
    private readonly dryRun: boolean,
  ) {}

  allocate(port: number): void {
    if (this.dryRun) {
      if (this.pa.has(port) || this.allocated.includes(port)) {
        throw new AllocationError(ERR_PORT_ALLOCATED, 'Allocated');
      }
      this.allocated.push(port);
      return;
    }
    this.pa.allocate(port);
    this.allocated.push(port);
  }

  allocateNext(): number {
    if (this.dryRun) {
      // operation.go: the next dummy port after the largest one handed out so far (32768 to start).
      const last = this.allocated.length === 0 ? 32768 : Math.max(...this.allocated);
      this.allocated.push(last + 1);
      return last + 1;
    }
    const port = this.pa.allocateNext();
    this.allocated.push(port);
    return port;
  }

  releaseLater(port: number): void {
    this.releaseDeferred.push(port);
  }

  /** Performs the deferred releases; the allocations stay. */
  commit(): void {
    if (!this.dryRun) for (const p of this.releaseDeferred) this.pa.release(p);
    this.shouldRollback = false;
  }

  /** Rolls the allocations back unless committed. */
  finish(): void {
    if (this.shouldRollback && !this.dryRun) for (const p of this.allocated) this.pa.release(p);
    this.shouldRollback = false;
  }
}
