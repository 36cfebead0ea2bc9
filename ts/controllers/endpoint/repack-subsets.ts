/**
 * The canonical form of Endpoints subsets (pkg/api/v1/endpoints/util.go at v1.32): RepackSubsets
 * expands subsets to (address, port) pairs — addresses deduplicated by IP and targetRef UID, an
 * address not ready for a port if any subset said so — and packs them again, one subset per set
 * of addresses that share the same ports; SortSubsets orders addresses by IP then UID, and ports
 * and subsets by the md5 of their dump (deep-hash.ts), so the result is Kubernetes' byte for byte.
 *
 *   endpoints.subsets = repackSubsets(subsets);
 */
import type { EndpointAddress, EndpointPort, EndpointSubset } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { compareHex, dumpCorePort, dumpSubset, md5Hex } from '../endpointslice/deep-hash.js';

/**
 * RepackSubsets: a new list in the canonical layout. A list left empty is absent (Go's nil); the
 * ports of addresses that had none are absent too.
 */
export function repackSubsets(subsets: readonly DeepReadonly<EndpointSubset>[]): EndpointSubset[] {
  // Each address once (by IP and UID), and for each port the addresses offering it with their readiness.
  const allAddrs = new Map<string, EndpointAddress>();
  const portToAddrReady = new Map<string, { port: EndpointPort | undefined; addrs: Map<EndpointAddress, boolean> }>();
  const mapAddress = (addr: DeepReadonly<EndpointAddress>, port: EndpointPort | undefined, ready: boolean) => {
    const addrKey = JSON.stringify([addr.ip, addr.targetRef?.uid ?? '']);
    let existing = allAddrs.get(addrKey);
    if (existing === undefined) {
      existing = structuredClone(addr) as EndpointAddress;
      allAddrs.set(addrKey, existing);
    }
    // The sentinel for addresses without ports is port -1 (never a real port).
    const portKey =
      port === undefined ? 'sentinel' : JSON.stringify([port.name, port.port, port.protocol, port.appProtocol]);
    let entry = portToAddrReady.get(portKey);
    if (entry === undefined) {
      entry = { port, addrs: new Map() };
      portToAddrReady.set(portKey, entry);
    }
    // Not ready always trumps ready.
    const was = entry.addrs.get(existing);
    if (was === undefined || was) entry.addrs.set(existing, ready);
  };
  for (const subset of subsets) {
    const ports: readonly (EndpointPort | undefined)[] =
      (subset.ports ?? []).length === 0 ? [undefined] : (subset.ports ?? []).map((p) => ({ ...p }));
    for (const port of ports) {
      for (const a of subset.addresses ?? []) mapAddress(a, port, true);
      for (const a of subset.notReadyAddresses ?? []) mapAddress(a, port, false);
    }
  }

  // The sets of addresses, keyed by their content, and the ports each set offers.
  const keyToAddrs = new Map<string, Map<EndpointAddress, boolean>>();
  const keyToPorts = new Map<string, EndpointPort[] | undefined>();
  for (const { port, addrs } of portToAddrReady.values()) {
    const key = hashAddresses(addrs);
    keyToAddrs.set(key, addrs);
    if (port !== undefined) {
      const list = keyToPorts.get(key) ?? [];
      list.push(port);
      keyToPorts.set(key, list);
    } else if (!keyToPorts.has(key)) {
      keyToPorts.set(key, undefined);
    }
  }

  const final: EndpointSubset[] = [];
  for (const [key, ports] of keyToPorts) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [addr, isReady] of keyToAddrs.get(key) ?? []) (isReady ? ready : notReady).push(addr);
    const subset: EndpointSubset = {};
    if (ready.length > 0) subset.addresses = ready;
    if (notReady.length > 0) subset.notReadyAddresses = notReady;
    if (ports !== undefined) subset.ports = ports;
    final.push(subset);
  }
  return sortSubsets(final);
}

/** hashAddresses' identity: the set's addresses in LessEndpointAddress order with their readiness. */
function hashAddresses(addrs: ReadonlyMap<EndpointAddress, boolean>): string {
  const list = [...addrs].sort(([a], [b]) => compareEndpointAddress(a, b));
  return JSON.stringify(list);
}

/** LessEndpointAddress as a comparison: IP bytes, then targetRef UID (none first). */
export function compareEndpointAddress(a: DeepReadonly<EndpointAddress>, b: DeepReadonly<EndpointAddress>): number {
  const less = (x: DeepReadonly<EndpointAddress>, y: DeepReadonly<EndpointAddress>): boolean => {
    const c = compareBytes(x.ip, y.ip);
    if (c !== 0) return c < 0;
    if (y.targetRef === undefined) return false;
    if (x.targetRef === undefined) return true;
    return compareBytes(x.targetRef.uid ?? '', y.targetRef.uid ?? '') < 0;
  };
  return less(a, b) ? -1 : less(b, a) ? 1 : 0;
}

/** SortSubsets: in place — addresses by IP and UID, ports and then subsets by hash; answers the list. */
export function sortSubsets(subsets: EndpointSubset[]): EndpointSubset[] {
  for (const s of subsets) {
    s.addresses?.sort(compareEndpointAddress);
    s.notReadyAddresses?.sort(compareEndpointAddress);
    s.ports?.sort((a, b) => compareHex(md5Hex(dumpCorePort(a)), md5Hex(dumpCorePort(b))));
  }
  const hashes = new Map(subsets.map((s) => [s, md5Hex(dumpSubset(s))]));
  return subsets.sort((a, b) => compareHex(hashes.get(a) ?? '', hashes.get(b) ?? ''));
}

/** bytes.Compare of two strings' UTF-8 bytes. */
function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}
