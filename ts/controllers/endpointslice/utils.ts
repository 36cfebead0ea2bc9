/**
 * The reconciler's helpers (k8s.io/endpointslice utils.go, v0.32): a pod's endpoint for one
 * address family, the EndpointPorts a Service gives a pod, a new slice's metadata and labels, which
 * address families a Service wants, and where remaining endpoints fit.
 *
 *   const ep = podToEndpoint(pod, node, service, 'IPv4');
 *   const slice = newEndpointSlice(service, { ports, addressType: 'IPv4' }, CONTROLLER_NAME);
 */

import type { Node, Pod, Service, ServicePort } from '../../api/types/core/v1.js';
import type { AddressType, Endpoint, EndpointPort, EndpointSlice } from '../../api/types/discovery/v1.js';
import type { IntOrString } from '../../api/types/intstr.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { parseIPSloppy } from '../../api/validation/kinds/ip.js';
import { isDNS1123Subdomain } from '../../api/validation/names.js';
import { isDeleting, isPodReady, shouldSetHostname } from './endpoint-utils.js';
import { rfc3339Nano } from './trigger-time-tracker.js';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyService = DeepReadonly<Service>;
type ReadonlySlice = DeepReadonly<EndpointSlice>;

// discovery/v1 well_known_labels.go: the Service a slice belongs to, and who manages it.
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
// core/v1 well_known_labels.go IsHeadlessService: on the slices and Endpoints of a headless Service.
export const LABEL_IS_HEADLESS_SERVICE = 'service.kubernetes.io/headless';
// core/v1 well_known_labels.go LabelTopologyZone: the node's zone, copied into its endpoints.
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
// core/v1 annotation_key_constants.go EndpointsLastChangeTriggerTime.
export const ENDPOINTS_LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
// core/v1 annotation_key_constants.go: topology-aware hints' annotations (the deprecated one wins).
export const DEPRECATED_ANNOTATION_TOPOLOGY_AWARE_HINTS = 'service.kubernetes.io/topology-aware-hints';
export const ANNOTATION_TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
// core/v1 types.go ClusterIPNone: a headless Service's clusterIP.
export const CLUSTER_IP_NONE = 'None';

/** The part of a slice that a port mapping's slices share (reconciler.go endpointMeta). */
export interface EndpointMeta {
  ports: EndpointPort[];
  addressType: AddressType;
}

/**
 * podToEndpoint: the pod's addresses of `addressType`; serving = Ready, terminating = being deleted,
 * ready = serving and not terminating (always true with publishNotReadyAddresses); nodeName, the
 * node's zone, the hostname when the pod's subdomain is the Service, a targetRef to the pod.
 */
export function podToEndpoint(
  pod: ReadonlyPod,
  node: DeepReadonly<Node> | undefined,
  service: ReadonlyService,
  addressType: AddressType,
): Endpoint {
  const serving = isPodReady(pod);
  const terminating = isDeleting(pod);
  // For compatibility, never ready while terminating unless publishNotReadyAddresses is set.
  const ready = (service.spec?.publishNotReadyAddresses ?? false) || (serving && !terminating);
  const ep: Endpoint = {
    addresses: endpointAddresses(pod, addressType),
    conditions: { ready, serving, terminating },
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
      uid: pod.metadata?.uid ?? '',
    },
  };
  const nodeName = pod.spec?.nodeName ?? '';
  if (nodeName !== '') ep.nodeName = nodeName;
  const zone = node?.metadata?.labels?.[LABEL_TOPOLOGY_ZONE] ?? '';
  if (zone !== '') ep.zone = zone;
  if (shouldSetHostname(pod, service)) ep.hostname = pod.spec?.hostname ?? '';
  return ep;
}

/**
 * getEndpointPorts: one EndpointPort per Service port whose target the pod has (a number, or a
 * named container port of the same protocol); none for a headless Service without ports.
 */
export function getEndpointPorts(service: ReadonlyService, pod: ReadonlyPod): EndpointPort[] {
  const out: EndpointPort[] = [];
  const ports = service.spec?.ports ?? [];
  if (ports.length === 0 && service.spec?.clusterIP === CLUSTER_IP_NONE) return out;
  for (const sp of ports) {
    const portNum = findPort(pod, sp);
    // Not found: that port is left out for this pod (logged at V(4) in Kubernetes).
    if (portNum === undefined) continue;
    const ep: EndpointPort = { name: sp.name ?? '', port: portNum, protocol: sp.protocol ?? 'TCP' };
    if (sp.appProtocol !== undefined) ep.appProtocol = sp.appProtocol;
    out.push(ep);
  }
  return out;
}

/** getEndpointAddresses: the pod's status.podIPs of `addressType`'s family. */
export function endpointAddresses(pod: ReadonlyPod, addressType: AddressType): string[] {
  const out: string[] = [];
  for (const { ip } of pod.status?.podIPs ?? []) {
    const v6 = isIPv6String(ip);
    if (v6 && addressType === 'IPv6') out.push(ip);
    if (!v6 && addressType === 'IPv4') out.push(ip);
  }
  return out;
}

/**
 * podutil.FindPort: a numeric targetPort as it is; a named one from the containers' ports (and the
 * sidecars', init containers with restartPolicy Always) of the same protocol; undefined when absent.
 */
export function findPort(pod: ReadonlyPod, sp: DeepReadonly<ServicePort>): number | undefined {
  const target: IntOrString = sp.targetPort ?? sp.port;
  const protocol = sp.protocol ?? 'TCP';
  if (typeof target === 'number') return target;
  const containers = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  for (const c of containers) {
    for (const p of c.ports ?? []) {
      if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
    }
  }
  // intstr.IntValue of a string that is a number: Kubernetes' apiserver refuses one in validation.
  return undefined;
}

/** utilnet.IsIPv6String: parses, and is not an IPv4 (or IPv4-mapped) address. */
export function isIPv6String(ip: string): boolean {
  const bytes = parseIPSloppy(ip);
  if (bytes === undefined || bytes.length !== 16) return false;
  const v4Mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return !v4Mapped;
}

/**
 * newEndpointSlice: a slice to create for `service` (generateName `<service>-`, controlled by it),
 * with the ports and address type of its port mapping and the Service's labels.
 */
export function newEndpointSlice(service: ReadonlyService, meta: EndpointMeta, controllerName: string): EndpointSlice {
  const slice: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      labels: {},
      generateName: getEndpointSlicePrefix(service.metadata?.name ?? ''),
      ownerReferences: [
        {
          // metav1.NewControllerRef(service, v1 Service).
          apiVersion: 'v1',
          kind: 'Service',
          name: service.metadata?.name ?? '',
          uid: service.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      namespace: service.metadata?.namespace ?? '',
    },
    ports: meta.ports,
    addressType: meta.addressType,
    endpoints: [],
  };
  (slice.metadata ?? {}).labels = setEndpointSliceLabels(slice, service, controllerName).labels;
  return slice;
}

/** getEndpointSlicePrefix: `<name>-` when that is a valid generateName, else the name. */
export function getEndpointSlicePrefix(serviceName: string): string {
  const prefix = `${serviceName}-`;
  // NameIsDNSSubdomain(prefix, true): a generateName's trailing dash is masked before the check.
  const masked = prefix.length > 1 ? `${prefix.slice(0, -1)}a` : prefix;
  return isDNS1123Subdomain(masked).length !== 0 ? serviceName : prefix;
}

/** ownedBy: an ownerReference (any, controller or not) to the Service by UID, kind and v1. */
export function ownedBy(slice: ReadonlySlice, svc: ReadonlyService): boolean {
  return (slice.metadata?.ownerReferences ?? []).some(
    (o) => o.uid === svc.metadata?.uid && o.kind === 'Service' && o.apiVersion === 'v1',
  );
}

/**
 * getSliceToFill: the slice that `numEndpoints` more would leave closest to full without going over
 * `maxEndpoints`; the first of equals; undefined when none fits.
 */
export function getSliceToFill<S extends { endpoints: readonly unknown[] }>(
  slices: readonly S[],
  numEndpoints: number,
  maxEndpoints: number,
): S | undefined {
  let closestDiff = maxEndpoints;
  let closest: S | undefined;
  for (const slice of slices) {
    const diff = maxEndpoints - (numEndpoints + slice.endpoints.length);
    if (diff >= 0 && diff < closestDiff) {
      closestDiff = diff;
      closest = slice;
      if (closestDiff === 0) return closest;
    }
  }
  return closest;
}

/** addTriggerTimeAnnotation: the trigger time in RFC3339Nano, or the annotation removed when there is none. */
export function addTriggerTimeAnnotation(slice: EndpointSlice, triggerTime: number | undefined): void {
  const meta = slice.metadata ?? {};
  slice.metadata = meta;
  const annotations = meta.annotations ?? {};
  meta.annotations = annotations;
  if (triggerTime !== undefined) annotations[ENDPOINTS_LAST_CHANGE_TRIGGER_TIME] = rfc3339Nano(triggerTime);
  else delete annotations[ENDPOINTS_LAST_CHANGE_TRIGGER_TIME];
}

/** ServiceControllerKey: the Service key a slice names by its service-name label. */
export function serviceControllerKey(slice: ReadonlySlice): string {
  const serviceName = slice.metadata?.labels?.[LABEL_SERVICE_NAME] ?? '';
  if (serviceName === '') throw new Error(`EndpointSlice missing ${LABEL_SERVICE_NAME} label`);
  return `${slice.metadata?.namespace ?? ''}/${serviceName}`;
}

/** isReservedLabelKey: the labels the controller owns on a slice. */
export function isReservedLabelKey(key: string): boolean {
  return key === LABEL_SERVICE_NAME || key === LABEL_MANAGED_BY || key === LABEL_IS_HEADLESS_SERVICE;
}

/**
 * setEndpointSliceLabels: the slice's labels should be the Service's (reserved keys aside), plus
 * the headless label when the Service has no ClusterIP, the service-name and managed-by labels;
 * `updated` when the non-reserved ones differ from the Service's.
 */
export function setEndpointSliceLabels(
  slice: ReadonlySlice,
  service: ReadonlyService,
  controllerName: string,
): { labels: Record<string, string>; updated: boolean } {
  const epLabels: Record<string, string> = {};
  const svcLabels: Record<string, string> = {};
  for (const [k, v] of Object.entries(slice.metadata?.labels ?? {})) if (!isReservedLabelKey(k)) epLabels[k] = v;
  // A Service's own reserved labels are skipped (Kubernetes logs them).
  for (const [k, v] of Object.entries(service.metadata?.labels ?? {})) if (!isReservedLabelKey(k)) svcLabels[k] = v;
  const updated = !sameLabels(epLabels, svcLabels);
  if (!isServiceIPSet(service)) svcLabels[LABEL_IS_HEADLESS_SERVICE] = '';
  svcLabels[LABEL_SERVICE_NAME] = service.metadata?.name ?? '';
  svcLabels[LABEL_MANAGED_BY] = controllerName;
  return { labels: svcLabels, updated };
}

/**
 * getAddressTypesForService: from spec.ipFamilies; without them (an old apiserver), the ClusterIP's
 * family, or both for a headless Service. In IPv4, IPv6 order.
 */
export function getAddressTypesForService(service: ReadonlyService): AddressType[] {
  const families = service.spec?.ipFamilies ?? [];
  const out: AddressType[] = [];
  if (families.includes('IPv4')) out.push('IPv4');
  if (families.includes('IPv6')) out.push('IPv6');
  if (out.length > 0) return out;
  const clusterIP = service.spec?.clusterIP ?? '';
  if (clusterIP !== '' && clusterIP !== CLUSTER_IP_NONE) return [isIPv6String(clusterIP) ? 'IPv6' : 'IPv4'];
  return ['IPv4', 'IPv6'];
}

/** unchangedSlices: the existing slices neither updated nor deleted. */
export function unchangedSlices<S extends ReadonlySlice>(
  existing: readonly S[],
  toUpdate: readonly ReadonlySlice[],
  toDelete: readonly ReadonlySlice[],
): S[] {
  const changed = new Set<string>();
  for (const s of toUpdate) changed.add(s.metadata?.name ?? '');
  for (const s of toDelete) changed.add(s.metadata?.name ?? '');
  return existing.filter((s) => !changed.has(s.metadata?.name ?? ''));
}

/** hintsEnabled: topology-aware hints asked for ("Auto" or "auto"); the deprecated annotation wins. */
export function hintsEnabled(annotations: Readonly<Record<string, string>> | undefined): boolean {
  const a = annotations ?? {};
  const val = a[DEPRECATED_ANNOTATION_TOPOLOGY_AWARE_HINTS] ?? a[ANNOTATION_TOPOLOGY_MODE];
  return val === 'Auto' || val === 'auto';
}

/** isServiceIPSet: a ClusterIP that is neither empty nor None. */
export function isServiceIPSet(service: ReadonlyService): boolean {
  const ip = service.spec?.clusterIP ?? '';
  return ip !== CLUSTER_IP_NONE && ip !== '';
}

function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => k in b && a[k] === b[k]);
}
