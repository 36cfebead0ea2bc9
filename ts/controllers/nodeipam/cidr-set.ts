/**
 * A cluster CIDR cut into node CIDRs (pkg/controller/nodeipam/ipam/cidrset/cidr_set.go at v1.32):
 * a bitmap of the 2^(nodeMask − clusterMask) blocks, handed out round-robin from the block after
 * the last one given (so a released block is not reused at once), occupied by what nodes already
 * have, released when they go.
 *
 *   const set = CidrSet.parse('10.244.0.0/16', 24);
 *   set.allocateNext();              // '10.244.0.0/24', then '10.244.1.0/24', …
 *   set.occupy('10.244.7.0/24');  set.release('10.244.0.0/24');
 *
 * Addresses are BigInts, so IPv4 and IPv6 are one code path.
 */
import { parseIPSloppy } from '../../api/validation/kinds/ip.js';

// cidr_set.go clusterSubnetMaxDiff: an IPv6 cluster CIDR is cut into at most 2^16 node CIDRs.
const CLUSTER_SUBNET_MAX_DIFF = 16;

// cidr_set.go's errors.
export const ERR_NO_CIDRS_REMAINING =
  'CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range';
export const ERR_SUBNET_TOO_BIG = 'New CIDR set failed; the node CIDR size is too big';

/** An IP network: its (masked) address, prefix length and family width in bits. */
export interface IPNet {
  ip: bigint;
  prefix: number;
  bits: 32 | 128;
}

/** ParseCIDRSloppy: the network of `text` (its address masked), or an error. */
export function parseCIDR(text: string): IPNet {
  const slash = text.indexOf('/');
  const bytes = slash < 0 ? undefined : parseIPSloppy(text.slice(0, slash));
  const prefixText = slash < 0 ? '' : text.slice(slash + 1);
  const bits = bytes?.length === 4 ? 32 : 128;
  if (bytes === undefined || !/^[0-9]{1,3}$/.test(prefixText) || Number(prefixText) > bits) {
    throw new Error(`invalid CIDR address: ${text}`);
  }
  const prefix = Number(prefixText);
  const ip = bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
  return { ip: ip & mask(prefix, bits), prefix, bits };
}

/** The prefix's mask over `bits` bits. */
function mask(prefix: number, bits: number): bigint {
  return ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - prefix)) - 1n);
}

/** net.IPNet.String(): `10.244.1.0/24`, `fd00:10:244:1::/64`. */
export function formatCIDR(net: IPNet): string {
  return `${formatIP(net.ip, net.bits)}/${net.prefix}`;
}

function formatIP(ip: bigint, bits: 32 | 128): string {
  if (bits === 32) return [24n, 16n, 8n, 0n].map((s) => String((ip >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((ip >> BigInt(112 - 16 * i)) & 0xffffn));
  // The longest run of two or more zero groups becomes `::` (RFC 5952, as Go prints).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** Whether `net` contains `ip`. */
function contains(net: IPNet, ip: bigint): boolean {
  return (ip & mask(net.prefix, net.bits)) === net.ip;
}

export class CidrSet {
  private readonly maxCIDRs: number;
  private readonly used = new Set<number>();
  private nextCandidate = 0;

  constructor(
    readonly clusterCIDR: IPNet,
    readonly nodeMaskSize: number,
  ) {
    if (clusterCIDR.bits === 128 && nodeMaskSize - clusterCIDR.prefix > CLUSTER_SUBNET_MAX_DIFF) {
      throw new Error(ERR_SUBNET_TOO_BIG);
    }
    this.maxCIDRs = 2 ** (nodeMaskSize - clusterCIDR.prefix);
  }

  static parse(clusterCIDR: string, nodeMaskSize: number): CidrSet {
    return new CidrSet(parseCIDR(clusterCIDR), nodeMaskSize);
  }

  /** How many node CIDRs are taken. */
  get allocated(): number {
    return this.used.size;
  }

  /** AllocateNext: the first free block from the one after the last handed out. */
  allocateNext(): string {
    if (this.used.size === this.maxCIDRs) throw new Error(ERR_NO_CIDRS_REMAINING);
    let candidate = this.nextCandidate;
    for (let i = 0; i < this.maxCIDRs && this.used.has(candidate); i++) candidate = (candidate + 1) % this.maxCIDRs;
    this.nextCandidate = (candidate + 1) % this.maxCIDRs;
    this.used.add(candidate);
    return this.cidrAt(candidate);
  }

  /** indexToCIDRBlock: the node CIDR at `index`. */
  cidrAt(index: number): string {
    const { bits } = this.clusterCIDR;
    const ip = this.clusterCIDR.ip | (BigInt(index) << BigInt(bits - this.nodeMaskSize));
    return formatCIDR({ ip, prefix: this.nodeMaskSize, bits });
  }

  /** Occupy: every block `cidr` covers marked taken (a node's CIDR at start-up, the service range). */
  occupy(cidr: string | IPNet): void {
    const [begin, end] = this.indices(typeof cidr === 'string' ? parseCIDR(cidr) : cidr);
    for (let i = begin; i <= end; i++) this.used.add(i);
  }

  /** Release: every block `cidr` covers free again. */
  release(cidr: string): void {
    const [begin, end] = this.indices(parseCIDR(cidr));
    for (let i = begin; i <= end; i++) this.used.delete(i);
  }

  /** getBeginningAndEndIndices: the blocks `cidr` spans, or an error when it is outside the cluster CIDR. */
  private indices(cidr: IPNet): [number, number] {
    const cluster = this.clusterCIDR;
    if (cidr.bits !== cluster.bits || (!contains(cluster, cidr.ip) && !contains(cidr, cluster.ip))) {
      throw new Error(`cidr ${formatCIDR(cidr)} is out the range of cluster cidr ${formatCIDR(cluster)}`);
    }
    if (cluster.prefix >= cidr.prefix) return [0, this.maxCIDRs - 1];
    const last = cidr.ip | ((1n << BigInt(cidr.bits - cidr.prefix)) - 1n);
    return [this.indexForIP(cidr.ip), this.indexForIP(last)];
  }

  private indexForIP(ip: bigint): number {
    const shift = BigInt(this.clusterCIDR.bits - this.nodeMaskSize);
    const index = (this.clusterCIDR.ip ^ ip) >> shift;
    if (index >= BigInt(this.maxCIDRs)) {
      throw new Error(
        `CIDR: ${formatIP((ip >> shift) << shift, this.clusterCIDR.bits)}/${this.nodeMaskSize} is out of the range of CIDR allocator`,
      );
    }
    return Number(index);
  }
}
