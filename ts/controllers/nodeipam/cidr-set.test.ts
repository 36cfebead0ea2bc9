// The facts of pkg/controller/nodeipam/ipam/cidrset/cidr_set_test.go (v1.32).
import { describe, expect, it } from 'vitest';
import { CidrSet, ERR_NO_CIDRS_REMAINING, ERR_SUBNET_TOO_BIG } from './cidr-set.js';

describe('CidrSet', () => {
  it.each([
    ['127.123.234.0/30', 30, '127.123.234.0/30'],
    ['beef:1234::/30', 30, 'beef:1234::/30'],
  ])(
    'hands out the one CIDR of %s, then none, then it again once released (TestCIDRSetFullyAllocated)',
    (cluster, size, cidr) => {
      const set = CidrSet.parse(cluster, size);
      expect(set.allocateNext()).toBe(cidr);
      expect(() => set.allocateNext()).toThrow(ERR_NO_CIDRS_REMAINING);
      set.release(cidr);
      expect(set.allocateNext()).toBe(cidr);
      expect(() => set.allocateNext()).toThrow(ERR_NO_CIDRS_REMAINING);
    },
  );

  it.each([
    ['127.123.3.0/16', 24, 0, '127.123.0.0/24'],
    ['127.123.0.0/16', 24, 15, '127.123.15.0/24'],
    ['192.168.5.219/28', 32, 5, '192.168.5.213/32'],
    ['2001:0db8:1234:3::/48', 64, 0, '2001:db8:1234::/64'],
    ['2001:0db8:1234::/48', 64, 15, '2001:db8:1234:f::/64'],
    ['2001:0db8:85a3::8a2e:0370:7334/50', 63, 6425, '2001:db8:85a3:3232::/63'],
    ['2001:0db8::/32', 48, 0, '2001:db8::/48'],
    ['2001:0db8::/32', 48, 15, '2001:db8:f::/48'],
    ['2001:0db8:85a3::8a2e:0370:7334/32', 48, 6425, '2001:db8:1919::/48'],
    ['2001:0db8:1234:ff00::/56', 72, 0, '2001:db8:1234:ff00::/72'],
    ['2001:0db8:1234:ff00::/56', 72, 15, '2001:db8:1234:ff00:f00::/72'],
    ['2001:0db8:1234:ff00::0370:7334/56', 72, 6425, '2001:db8:1234:ff19:1900::/72'],
    ['2001:0db8:1234:0:1234::/80', 96, 0, '2001:db8:1234:0:1234::/96'],
    ['2001:0db8:1234:0:1234::/80', 96, 15, '2001:db8:1234:0:1234:f::/96'],
    ['2001:0db8:1234:ff00::0370:7334/80', 96, 6425, '2001:db8:1234:ff00:0:1919::/96'],
  ])('%s cut into /%i has block %i at %s (TestIndexToCIDRBlock)', (cluster, size, index, cidr) => {
    expect(CidrSet.parse(cluster, size).cidrAt(index)).toBe(cidr);
  });

  it.each(['127.123.234.0/16', 'beef:1234::/16'])(
    'hands the same 256 /24s out again once all are released (TestCIDRSet_RandomishAllocation, %s)',
    (cluster) => {
      const set = CidrSet.parse(cluster, 24);
      const first = Array.from({ length: 256 }, () => set.allocateNext());
      expect(() => set.allocateNext()).toThrow(ERR_NO_CIDRS_REMAINING);
      for (const cidr of first) set.release(cidr);
      const again = Array.from({ length: 256 }, () => set.allocateNext());
      expect(() => set.allocateNext()).toThrow(ERR_NO_CIDRS_REMAINING);
      expect(again).toEqual(first);
    },
  );

  it.each(['127.123.234.0/16', 'beef:1234::/16'])(
    'never hands out an occupied CIDR (TestCIDRSet_AllocationOccupied, %s)',
    (cluster) => {
      const set = CidrSet.parse(cluster, 24);
      const all = Array.from({ length: 256 }, () => set.allocateNext());
      for (const cidr of all) set.release(cidr);
      for (const cidr of all.slice(128)) set.occupy(cidr);
      set.occupy(all[128] ?? '');
      const rest = Array.from({ length: 128 }, () => set.allocateNext());
      expect(() => set.allocateNext()).toThrow(ERR_NO_CIDRS_REMAINING);
      expect([...rest, ...all.slice(128)]).toEqual(all);
    },
  );

  it('occupies every block a wider CIDR covers, and refuses one outside the cluster CIDR (TestOccupy)', () => {
    const set = CidrSet.parse('10.244.0.0/16', 24);
    set.occupy('10.244.0.0/22');
    expect(set.allocated).toBe(4);
    expect(set.allocateNext()).toBe('10.244.4.0/24');
    // The whole cluster CIDR, or a range containing it: every block.
    set.occupy('10.0.0.0/8');
    expect(set.allocated).toBe(256);
    expect(() => set.occupy('192.168.0.0/24')).toThrow(
      'cidr 192.168.0.0/24 is out the range of cluster cidr 10.244.0.0/16',
    );
  });

  it.each([
    ['127.0.0.0/8', 32, ['127.0.0.0/32', '127.0.0.1/32']],
    ['2001:beef:1234:369b::/60', 64, ['2001:beef:1234:3690::/64', '2001:beef:1234:3691::/64']],
  ])('cuts %s into /%i from the start (TestCIDRSetv6)', (cluster, size, first) => {
    const set = CidrSet.parse(cluster, size);
    expect([set.allocateNext(), set.allocateNext()]).toEqual(first);
  });

  it('refuses an IPv6 cluster CIDR cut into more than 2^16 blocks (TestCIDRSetv6)', () => {
    expect(() => CidrSet.parse('beef:1234::/32', 49)).toThrow(ERR_SUBNET_TOO_BIG);
    expect(() => CidrSet.parse('beef:1234::/32', 48)).not.toThrow();
  });
});
