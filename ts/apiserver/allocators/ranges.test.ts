import { describe, expect, it } from 'vitest';
import { AllocationBitmap } from './bitmap.js';
import { IpRange, ipRangeOffset, parseCidr } from './ip-range.js';
import { PortAllocationOperation, PortAllocator, parsePortRange, portRangeOffset } from './port-range.js';

/** A scripted rand.Intn: answers `picks` in turn (modulo n). */
const scripted =
  (...picks: number[]) =>
  (n: number): number =>
    (picks.shift() ?? 0) % n;

describe('calculateRangeOffset', () => {
  it('is min(max(16, size/16), 256) for IPs, 0 up to 16 addresses', () => {
    expect(ipRangeOffset(parseCidr('10.96.0.0/12'))).toBe(256);
    expect(ipRangeOffset(parseCidr('10.0.0.0/16'))).toBe(256);
    expect(ipRangeOffset(parseCidr('10.0.0.0/20'))).toBe(256);
    expect(ipRangeOffset(parseCidr('10.0.0.0/22'))).toBe(64);
    expect(ipRangeOffset(parseCidr('10.0.0.0/24'))).toBe(16);
    expect(ipRangeOffset(parseCidr('10.0.0.0/27'))).toBe(16);
    expect(ipRangeOffset(parseCidr('10.0.0.0/28'))).toBe(0);
  });

  it('is min(max(16, size/32), 128) for ports, 0 up to 16 ports', () => {
    expect(portRangeOffset(parsePortRange('30000-32767'))).toBe(86);
    expect(portRangeOffset(parsePortRange('30000-39999'))).toBe(128);
    expect(portRangeOffset(parsePortRange('30000-30099'))).toBe(16);
    expect(portRangeOffset(parsePortRange('30000-30015'))).toBe(0);
  });
});

describe('AllocationBitmap', () => {
  it('draws from the upper band first, then from the static band', () => {
    const b = new AllocationBitmap(6, 2, scripted(0, 0, 0, 0, 0, 1));
    expect([b.allocateNext(), b.allocateNext(), b.allocateNext(), b.allocateNext()]).toEqual([2, 3, 4, 5]);
    expect(b.allocateNext()).toBe(1);
    expect(b.allocateNext()).toBe(0);
    expect(b.allocateNext()).toBeUndefined();
    expect(b.free()).toBe(0);
  });

  it('scans forward from the random start, wrapping within the band', () => {
    const b = new AllocationBitmap(10, 2, scripted(7, 7));
    expect(b.allocateNext()).toBe(9);
    expect(b.allocateNext()).toBe(2);
  });

  it('refuses an offset outside the range and a taken one', () => {
    const b = new AllocationBitmap(4, 0);
    expect(b.allocate(3)).toBe(true);
    expect(b.allocate(3)).toBe(false);
    expect(() => b.allocate(4)).toThrow('offset 4 out of range [0,4]');
    b.release(3);
    expect(b.allocate(3)).toBe(true);
  });
});

describe('IpRange', () => {
  it('never hands out the network or broadcast address', () => {
    const r = IpRange.parse('192.168.1.0/30');
    expect(r.free()).toBe(2);
    expect(new Set([r.allocateNext(), r.allocateNext()])).toEqual(new Set(['192.168.1.1', '192.168.1.2']));
    expect(() => r.allocateNext()).toThrow('range is full');
    expect(() => r.allocate('192.168.1.0')).toThrow(
      'the provided IP (192.168.1.0) is not in the valid range. The range of valid IPs is 192.168.1.0/30',
    );
    expect(() => r.allocate('192.168.1.3')).toThrow('not in the valid range');
  });

  it('allocates dynamically above the static band of the default range', () => {
    const r = IpRange.parse('10.96.0.0/12');
    expect(r.indexed(1)).toBe('10.96.0.1');
    for (let i = 0; i < 200; i++) {
      const ip = r.allocateNext();
      const n = ip.split('.').map(Number);
      const offset = ((n[1] as number) - 96) * 65536 + (n[2] as number) * 256 + (n[3] as number) - 1;
      expect(offset).toBeGreaterThanOrEqual(256);
    }
    r.allocate('10.96.0.10');
    expect(() => r.allocate('10.96.0.10')).toThrow('provided IP is already allocated');
    expect(r.allocateNext(true)).toBe('10.96.0.0');
  });

  it('masks host bits of the CIDR and rejects IPv6', () => {
    expect(IpRange.parse('10.96.3.4/12').toString()).toBe('10.96.0.0/12');
    expect(() => IpRange.parse('fd00::/108')).toThrow('IPv6 service ranges are not supported');
  });
});

describe('PortAllocator', () => {
  it('allocates within the range and reports the range on a miss', () => {
    const pa = PortAllocator.parse('30000-32767');
    pa.allocate(30080);
    expect(() => pa.allocate(30080)).toThrow('provided port is already allocated');
    expect(() => pa.allocate(8080)).toThrow(
      'provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    const p = pa.allocateNext();
    expect(p).toBeGreaterThanOrEqual(30000 + 86);
    expect(p).toBeLessThanOrEqual(32767);
  });

  it('rolls an unfinished operation back and defers releases to commit', () => {
    const pa = PortAllocator.parse('30000-30099');
    pa.allocate(30001);
    const op = new PortAllocationOperation(pa, false);
    op.allocate(30002);
    op.releaseLater(30001);
    op.finish();
    expect(pa.has(30002)).toBe(false);
    expect(pa.has(30001)).toBe(true);
    const op2 = new PortAllocationOperation(pa, false);
    op2.allocate(30003);
    op2.releaseLater(30001);
    op2.commit();
    op2.finish();
    expect(pa.has(30003)).toBe(true);
    expect(pa.has(30001)).toBe(false);
  });

  it('reserves nothing in a dry run', () => {
    const pa = PortAllocator.parse('30000-30099');
    const op = new PortAllocationOperation(pa, true);
    expect(op.allocateNext()).toBe(32769);
    op.allocate(30005);
    op.commit();
    expect(pa.free()).toBe(100);
  });
});
