/**
 * IP and CIDR parsing as k8s.io/utils/net ParseIPSloppy / ParseCIDRSloppy accept them (IPv4 parts
 * may have leading zeros), and the special ranges ValidateNonSpecialIP rejects.
 */

/** The 4 (IPv4) or 16 (IPv6) bytes of an address, or undefined. */
export function parseIPSloppy(s: string): number[] | undefined {
  if (s.includes(':')) return parseIPv6(s);
  return parseIPv4(s);
}

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): number[] | undefined {
  let tail: number[] = [];
  let text = s;
  // An embedded IPv4 address at the end (::ffff:1.2.3.4).
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail = v4;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0] ?? '');
  const rest = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (head === undefined || rest === undefined) return undefined;
  let all: number[];
  if (halves.length === 2) {
    if (head.length + rest.length > 7) return undefined;
    all = [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  } else {
    if (head.length !== 8) return undefined;
    all = head;
  }
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** ParseCIDRSloppy: `addr/prefix` with a prefix in range. */
export function isValidCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = parseIPSloppy(s.slice(0, slash));
  const prefix = s.slice(slash + 1);
  if (ip === undefined || !/^[0-9]{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= ip.length * 8;
}

export const isIPv6String = (s: string): boolean => parseIPSloppy(s)?.length === 16;

/** The IPv4 bytes of an address (IPv4, or IPv4-mapped IPv6), else undefined. */
function v4Of(b: number[]): number[] | undefined {
  if (b.length === 4) return b;
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return b.slice(12);
  return undefined;
}

/** ValidateNonSpecialIP's messages for an address in a special range (empty for a plain one). */
export function specialIPMessages(s: string): string[] {
  const b = parseIPSloppy(s);
  if (b === undefined) return ['must be a valid IP address'];
  const v4 = v4Of(b);
  const out: string[] = [];
  const unspecified = v4 ? v4.every((x) => x === 0) : b.every((x) => x === 0);
  const loopback = v4 ? v4[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  const linkLocalUnicast = v4 ? v4[0] === 169 && v4[1] === 254 : b[0] === 0xfe && ((b[1] ?? 0) & 0xc0) === 0x80;
  const linkLocalMulticast = v4
    ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0
    : b[0] === 0xff && ((b[1] ?? 0) & 0x0f) === 0x02;
  if (unspecified) out.push(`may not be unspecified (${s})`);
  if (loopback) out.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  if (linkLocalUnicast) out.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  if (linkLocalMulticast) out.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  return out;
}

/** IsValidIP's message. */
export const INVALID_IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
/** IsValidCIDR's message. */
export const INVALID_CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
