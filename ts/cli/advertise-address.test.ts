import { describe, expect, it } from 'vitest';
import { chooseHostAddress, parseAdvertiseAddress } from './advertise-address.js';

describe('advertise address', () => {
  it('chooses a non-loopback IPv4 address of this host, or none', () => {
    const address = chooseHostAddress();
    if (address !== undefined) {
      expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(address.startsWith('127.')).toBe(false);
    }
  });

  it('takes an IPv4 flag value and refuses loopback and non-IPv4 values', () => {
    expect(parseAdvertiseAddress('10.0.0.5')).toBe('10.0.0.5');
    expect(() => parseAdvertiseAddress('127.0.0.1')).toThrow(
      '--advertise-address 127.0.0.1 may not be in the loopback range',
    );
    expect(() => parseAdvertiseAddress('fe80::1')).toThrow('--advertise-address fe80::1 is not an IPv4 address');
    expect(() => parseAdvertiseAddress('kube')).toThrow('is not an IPv4 address');
  });
});
