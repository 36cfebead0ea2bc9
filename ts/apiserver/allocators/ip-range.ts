/**
 * The ClusterIP range allocator (pkg/registry/core/service/ipallocator/bitmap.go, v1.32), IPv4:
 * the network address and the broadcast address are never handed out, the usable addresses sit in
 * an AllocationBitmap whose static band (calculateRangeOffset) is left for explicit requests.
 *
 *   const r = IpRange.parse('10.96.0.0/12');
 *   r.allocate('10.96.0.10'); const ip = r.allocateNext();
 */
import { AllocationBitmap, mathRandomIntn, type RandomIntn } from './bitmap.js';

// ipallocator/interfaces.go
export const ERR_IP_FULL = 'range is full';
export const ERR_IP_ALLOCATED = 'provided IP is already allocated';

/** A failed allocation; `message` is the Go error text the REST layer quotes. */
export class AllocationError extends Error {
  override readonly name = 'AllocationError';
  constructor(
    message: string,
    readonly code: 'NotInRange' | 'Allocated' | 'Full',
  ) {
    super(message);
  }
}

/** Parses a dotted-quad IPv4 address to a 32-bit unsigned number, or undefined. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const v = Number(p);
    if (v > 255) return undefined;
    n = n * 256 + v;
  }
  return n;
}

export function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** An IPv4 CIDR: its base address (masked) and prefix length. */
export interface Cidr {
  base: number;
  prefix: number;
  /** Total addresses, netutils.RangeSize. */
  size: number;
}

/** Parses `10.96.0.0/12` (host bits are masked off, as net.ParseCIDR does); throws on anything else. */
export function parseCidr(text: string): Cidr {
  const m = /^([^/]+)\/(\d{1,2})$/.exec(text.trim());
  const ip = m ? parseIPv4(m[1] as string) : undefined;
  const prefix = m ? Number(m[2]) : Number.NaN;
  if (ip === undefined || !(prefix >= 0 && prefix <= 32)) {
    throw new Error(`invalid IPv4 CIDR ${JSON.stringify(text)} (IPv6 service ranges are not supported)`);
  }
  const size = 2 ** (32 - prefix);
  return { base: ip - (ip % size), prefix, size };
}

export function cidrString(c: Cidr): string {
  return `${formatIPv4(c.base)}/${c.prefix}`;
}

/**
 * calculateRangeOffset: `min(max(16, size/16), 256)`, 0 when the CIDR has 16 addresses or fewer
 * (ipallocator/bitmap.go; the ServiceIPStaticSubrange split, GA in 1.26).
 */
export function ipRangeOffset(c: Cidr): number {
  const min = 16;
  const max = 256;
  const step = 16;
  if (c.size <= min) return 0;
  const offset = Math.floor(c.size / step);
  return Math.min(Math.max(offset, min), max);
}

export class IpRange {
  readonly cidr: Cidr;
  private readonly bitmap: AllocationBitmap;
  /** The first usable address (network + 1). */
  private readonly first: number;

  constructor(cidr: Cidr, intn: RandomIntn = mathRandomIntn) {
    this.cidr = cidr;
    // New(): max = RangeSize - 1 (broadcast) - 1 (network), never below 0.
    const max = Math.max(0, cidr.size - 2);
    this.first = cidr.base + 1;
    this.bitmap = new AllocationBitmap(max, ipRangeOffset(cidr), intn);
  }

  static parse(text: string, intn?: RandomIntn): IpRange {
    return new IpRange(parseCidr(text), intn);
  }

  toString(): string {
    return cidrString(this.cidr);
  }

  /** The address at `index` in the CIDR (GetIndexedIP): index 1 is the `kubernetes` service's. */
  indexed(index: number): string {
    return formatIPv4(this.cidr.base + index);
  }

  free(): number {
    return this.bitmap.free();
  }

  used(): number {
    return this.bitmap.max - this.bitmap.free();
  }

  /** The bitmap offset of `ip`, or undefined when it is outside the usable addresses (contains()). */
  private offsetOf(ip: string): number | undefined {
    const n = parseIPv4(ip);
    if (n === undefined) return undefined;
    const offset = n - this.first;
    return offset >= 0 && offset < this.bitmap.max ? offset : undefined;
  }

  contains(ip: string): boolean {
    return this.offsetOf(ip) !== undefined;
  }

  has(ip: string): boolean {
    const o = this.offsetOf(ip);
    return o !== undefined && this.bitmap.has(o);
  }

  /** Reserves `ip`; with dryRun only the range is checked (Range.allocate with dryRun). */
  allocate(ip: string, dryRun = false): void {
    const o = this.offsetOf(ip);
    if (o === undefined) {
      // ipallocator/interfaces.go ErrNotInRange.Error() (v1.32).
      throw new AllocationError(
        `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.toString()}`,
        'NotInRange',
      );
    }
    if (dryRun) return;
    if (!this.bitmap.allocate(o)) throw new AllocationError(ERR_IP_ALLOCATED, 'Allocated');
  }

  /** A random free address; dryRun answers the network address without reserving (allocateNext). */
  allocateNext(dryRun = false): string {
    if (dryRun) return formatIPv4(this.cidr.base);
    const o = this.bitmap.allocateNext();
    if (o === undefined) throw new AllocationError(ERR_IP_FULL, 'Full');
    return formatIPv4(this.first + o);
  }

  /** Releasing an unallocated or out-of-range address is a no-op. */
  release(ip: string): void {
    const o = this.offsetOf(ip);
    if (o !== undefined) this.bitmap.release(o);
  }
}
