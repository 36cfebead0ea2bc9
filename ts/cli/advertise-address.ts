/**
 * The address the apiserver advertises in the `kubernetes` Endpoints: --advertise-address, else
 * what kube-apiserver picks for a loopback --bind-address (utilnet.ResolveBindAddress →
 * ChooseHostInterface): the IPv4 address of the interface holding the default route, else the first
 * non-loopback IPv4 address. Endpoints never take a loopback address (ValidateNonSpecialIP).
 */
import { readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';

/** The interface of the IPv4 default route in /proc/net/route (Destination 00000000), if any. */
function defaultRouteInterface(): string | undefined {
  try {
    for (const line of readFileSync('/proc/net/route', 'utf8').split('\n').slice(1)) {
      const [iface, destination, , , , , , mask] = line.trim().split(/\s+/);
      if (destination === '00000000' && mask === '00000000') return iface;
    }
  } catch {
    // Not Linux: fall through to the first non-loopback address.
  }
  return undefined;
}

/** The host's non-loopback IPv4 address kube-apiserver would advertise, or undefined when it has none. */
export function chooseHostAddress(): string | undefined {
  const interfaces = networkInterfaces();
  const ipv4 = (name: string) =>
    (interfaces[name] ?? []).find((a) => a.family === 'IPv4' && !a.internal && !a.address.startsWith('127.'))?.address;
  const preferred = defaultRouteInterface();
  if (preferred !== undefined) {
    const address = ipv4(preferred);
    if (address !== undefined) return address;
  }
  for (const name of Object.keys(interfaces)) {
    const address = ipv4(name);
    if (address !== undefined) return address;
  }
  return undefined;
}

/** --advertise-address checked: an IPv4 address outside the loopback range. */
export function parseAdvertiseAddress(value: string): string {
  if (!isIPv4(value)) throw new Error(`--advertise-address ${value} is not an IPv4 address`);
  if (value.startsWith('127.')) throw new Error(`--advertise-address ${value} may not be in the loopback range`);
  return value;
}
