/**
 * What the EndpointSlice and Endpoints controllers share (k8s.io/endpointslice util/
 * controller_utils.go and endpointset.go, v0.32): which pods belong in endpoints, which services a
 * pod change touches, and the set of desired endpoints keyed as the reconciler keys them.
 *
 *   const keys = servicesToUpdateOnPodChange(services.lister(), oldPod, newPod);
 *   for (const key of keys) queue.addAfter(key, batchPeriodMs);
 *
 *   const set = new EndpointSet();  set.insert(endpoint);  set.get(existing);  set.popAny();
 */
import { selectorFromSet } from '../../api/labels/selector.js';
import type { Pod, PodCondition, Service } from '../../api/types/core/v1.js';
import type { Endpoint, EndpointPort } from '../../api/types/discovery/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { objectKey } from '../../client/informers/keys.js';
import type { Lister } from '../../client/informers/listers.js';
import { compareHex, dumpSlicePort, md5Hex } from './deep-hash.js';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyService = DeepReadonly<Service>;

/** getPodReadyCondition: the first Ready condition, as Go's loop finds it. */
export function podReadyCondition(pod: ReadonlyPod): DeepReadonly<PodCondition> | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
}

/** IsPodReady: the Ready condition is True. */
export function isPodReady(pod: ReadonlyPod): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** isPodTerminal: Failed or Succeeded. */
export function isPodTerminal(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Failed' || phase === 'Succeeded';
}

/**
 * ShouldPodBeInEndpoints: not terminal, with an IP, and — unless `includeTerminating` — not being
 * deleted.
 */
export function shouldPodBeInEndpoints(pod: ReadonlyPod, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if ((pod.status?.podIP ?? '') === '' && (pod.status?.podIPs ?? []).length === 0) return false;
  if (!includeTerminating && isDeleting(pod)) return false;
  return true;
}

/** ShouldSetHostname: the pod names a hostname and its subdomain is the service, in its namespace. */
export function shouldSetHostname(pod: ReadonlyPod, svc: ReadonlyService): boolean {
  return (
    (pod.spec?.hostname ?? '') !== '' &&
    (pod.spec?.subdomain ?? '') === (svc.metadata?.name ?? '') &&
    (svc.metadata?.namespace ?? '') === (pod.metadata?.namespace ?? '')
  );
}

export const isDeleting = (obj: { readonly metadata?: { readonly deletionTimestamp?: string | null } }): boolean =>
  (obj.metadata?.deletionTimestamp ?? null) !== null;

/**
 * spec.selector, undefined for none. An empty one is none too: Kubernetes' apiserver never hands
 * out an empty map (omitempty drops it, so the controllers' `Selector == nil` holds), while
 * kubewasm's keeps `selector: {}` — read as Kubernetes would receive it.
 */
export function serviceSelector(svc: ReadonlyService): Readonly<Record<string, string>> | undefined {
  const selector = svc.spec?.selector;
  return selector === undefined || Object.keys(selector).length === 0 ? undefined : selector;
}

/**
 * GetPodServiceMemberships: the keys of the services in the pod's namespace whose selector matches
 * its labels; services without a selector select nothing.
 */
export function podServiceMemberships(services: Lister<Service>, pod: ReadonlyPod): Set<string> {
  const set = new Set<string>();
  const labels = pod.metadata?.labels ?? {};
  for (const svc of services.byNamespace(pod.metadata?.namespace ?? '').list()) {
    const selector = serviceSelector(svc);
    if (selector === undefined) continue;
    if (selectorFromSet(selector).matches(labels)) set.add(objectKey(svc));
  }
  return set;
}

/**
 * podEndpointsChanged: [whether what endpoints carry of the pod changed (deletion, readiness, IPs),
 * whether its labels or hostname/subdomain changed (its memberships may have)].
 */
export function podEndpointsChanged(oldPod: ReadonlyPod, newPod: ReadonlyPod): [boolean, boolean] {
  const labelsChanged =
    !sameStringMap(newPod.metadata?.labels, oldPod.metadata?.labels) ||
    (newPod.spec?.hostname ?? '') !== (oldPod.spec?.hostname ?? '') ||
    (newPod.spec?.subdomain ?? '') !== (oldPod.spec?.subdomain ?? '');
  // Go compares the *metav1.Time pointers: any two distinct objects differ; here, their values.
  if ((newPod.metadata?.deletionTimestamp ?? null) !== (oldPod.metadata?.deletionTimestamp ?? null)) {
    return [true, labelsChanged];
  }
  if (isPodReady(oldPod) !== isPodReady(newPod)) return [true, labelsChanged];
  const oldIPs = oldPod.status?.podIPs ?? [];
  const newIPs = newPod.status?.podIPs ?? [];
  if (oldIPs.length !== newIPs.length) return [true, labelsChanged];
  for (let i = 0; i < oldIPs.length; i++) {
    if (oldIPs[i]?.ip !== newIPs[i]?.ip) return [true, labelsChanged];
  }
  return [false, labelsChanged];
}

/**
 * GetServicesToUpdateOnPodChange: nothing for a resync (same resourceVersion) or a change endpoints
 * do not show; the new memberships, and with a label change the old ones too (all of them when the
 * endpoints changed as well, else only those that differ).
 */
export function servicesToUpdateOnPodChange(
  services: Lister<Service>,
  oldPod: ReadonlyPod,
  newPod: ReadonlyPod,
): Set<string> {
  if (newPod.metadata?.resourceVersion === oldPod.metadata?.resourceVersion) return new Set();
  const [podChanged, labelsChanged] = podEndpointsChanged(oldPod, newPod);
  if (!podChanged && !labelsChanged) return new Set();
  const current = podServiceMemberships(services, newPod);
  if (!labelsChanged) return current;
  return determineNeededServiceUpdates(podServiceMemberships(services, oldPod), current, podChanged);
}

/** determineNeededServiceUpdates: the union when the pod changed, else the symmetric difference. */
export function determineNeededServiceUpdates(
  oldServices: ReadonlySet<string>,
  services: ReadonlySet<string>,
  podChanged: boolean,
): Set<string> {
  if (podChanged) return new Set([...services, ...oldServices]);
  const out = new Set<string>();
  for (const s of services) if (!oldServices.has(s)) out.add(s);
  for (const s of oldServices) if (!services.has(s)) out.add(s);
  return out;
}

/**
 * EndpointsEqualBeyondHash: what the endpoint set's key leaves out — nodeName, zone, the three
 * conditions and the targetRef (its resourceVersion aside) — is equal.
 */
export function endpointsEqualBeyondHash(ep1: DeepReadonly<Endpoint>, ep2: DeepReadonly<Endpoint>): boolean {
  if (ep1.nodeName !== ep2.nodeName || ep1.zone !== ep2.zone) return false;
  const c1 = ep1.conditions ?? {};
  const c2 = ep2.conditions ?? {};
  if (c1.ready !== c2.ready || c1.serving !== c2.serving || c1.terminating !== c2.terminating) return false;
  const r1 = ep1.targetRef;
  const r2 = ep2.targetRef;
  if (r1 === undefined || r2 === undefined) return r1 === r2;
  return (
    r1.kind === r2.kind &&
    r1.namespace === r2.namespace &&
    r1.name === r2.name &&
    r1.uid === r2.uid &&
    r1.apiVersion === r2.apiVersion &&
    r1.fieldPath === r2.fieldPath
  );
}

/**
 * hashEndpoint's identity: the sorted addresses, the hostname and the targetRef's namespace and
 * name (Go hashes these with md5; only equality matters, so the text itself is the key).
 */
export function endpointKey(ep: DeepReadonly<Endpoint>): string {
  const addresses = [...ep.addresses].sort();
  return JSON.stringify([addresses, ep.hostname ?? '', ep.targetRef?.namespace ?? '', ep.targetRef?.name ?? '']);
}

/**
 * EndpointSet: endpoints by their key. Go's map hands them out in random order; this one in
 * insertion order (one of the orders Kubernetes may produce).
 */
export class EndpointSet {
  private readonly items = new Map<string, Endpoint>();

  insert(ep: Endpoint): void {
    this.items.set(endpointKey(ep), ep);
  }

  delete(ep: DeepReadonly<Endpoint>): void {
    this.items.delete(endpointKey(ep));
  }

  has(ep: DeepReadonly<Endpoint>): boolean {
    return this.items.has(endpointKey(ep));
  }

  get(ep: DeepReadonly<Endpoint>): Endpoint | undefined {
    return this.items.get(endpointKey(ep));
  }

  popAny(): Endpoint | undefined {
    for (const [key, ep] of this.items) {
      this.items.delete(key);
      return ep;
    }
    return undefined;
  }

  get size(): number {
    return this.items.size;
  }

  list(): Endpoint[] {
    return [...this.items.values()];
  }
}

/**
 * NewPortMapKey: sorts `ports` in place (portsInOrder) and answers the key of that port set — the
 * slices of one port mapping share it.
 */
export function newPortMapKey(ports: EndpointPort[]): string {
  ports.sort(comparePortsInOrder);
  return JSON.stringify(ports.map(portTuple));
}

/** The key of ports read from the cache (sorted on a copy: the cache is not written). */
export function portMapKeyOf(ports: readonly DeepReadonly<EndpointPort>[] | null | undefined): string {
  return newPortMapKey((ports ?? []).map((p) => ({ ...p })));
}

/** portsInOrder: by the md5 of each port's dump.ForHash text, as Kubernetes sorts them. */
export function comparePortsInOrder(a: DeepReadonly<EndpointPort>, b: DeepReadonly<EndpointPort>): number {
  return compareHex(md5Hex(dumpSlicePort(a)), md5Hex(dumpSlicePort(b)));
}

const portTuple = (p: DeepReadonly<EndpointPort>): [string | null, number | null, string | null, string | null] => [
  p.name ?? null,
  p.port ?? null,
  p.protocol ?? null,
  p.appProtocol ?? null,
];

function sameStringMap(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => b !== undefined && k in b && a?.[k] === b[k]);
}
