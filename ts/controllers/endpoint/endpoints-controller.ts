/**
 * The Endpoints controller (pkg/controller/endpoint/endpoints_controller.go at v1.32): the legacy
 * v1 Endpoints object of every Service with a selector, named as the Service, carrying its labels
 * (plus `service.kubernetes.io/headless` for a headless one): one address per selected pod with an
 * IP of the Service's first family — under notReadyAddresses while the pod is not Ready, unless
 * publishNotReadyAddresses — for each Service port the pod has, repacked into Kubernetes' canonical
 * subsets (repack-subsets.ts); at most 1000 addresses, the rest cut with
 * `endpoints.kubernetes.io/over-capacity: truncated`; the `last-change-trigger-time` annotation.
 *
 *   const c = new EndpointsController({ factory, client, clock, onError });
 *   factory.start();
 *   await c.run(5);  …  await c.stop();
 *
 * Services without a selector (the apiserver's `kubernetes` Service, or any whose Endpoints are
 * written by hand) and ExternalName Services are left alone. The Endpoints of a Service that is
 * gone are deleted — at the Service's deletion, and at start for every Endpoints without a
 * Service (checkLeftoverEndpoints; leader-election records aside), as Kubernetes does.
 */

import { selectorFromSet } from '../../api/labels/selector.js';
import type { KubeObject } from '../../api/meta.js';
import { hasStatusCause, isForbidden, isNotFound, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type {
  EndpointAddress,
  EndpointPort,
  EndpointSubset,
  Endpoints,
  Pod,
  Service,
  ServicePort,
} from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { defaultControllerRateLimiter, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import {
  isPodReady,
  podServiceMemberships,
  serviceSelector,
  servicesToUpdateOnPodChange,
  shouldPodBeInEndpoints,
  shouldSetHostname,
} from '../endpointslice/endpoint-utils.js';
import { rfc3339Nano, TriggerTimeTracker } from '../endpointslice/trigger-time-tracker.js';
import {
  CLUSTER_IP_NONE,
  ENDPOINTS_LAST_CHANGE_TRIGGER_TIME,
  findPort,
  isIPv6String,
  isServiceIPSet,
  LABEL_IS_HEADLESS_SERVICE,
} from '../endpointslice/utils.js';
import type { Controller } from '../framework/controller.js';
import { ENDPOINTS_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';
import { StaleEndpointsTracker } from './endpoints-tracker.js';
import { repackSubsets } from './repack-subsets.js';

// endpoints_controller.go maxRetries: a Service is dropped after this many failed syncs in a row.
export const MAX_RETRIES = 15;
// endpoints_controller.go maxCapacity: addresses an Endpoints holds at most.
export const MAX_CAPACITY = 1000;
// core/v1 annotation_key_constants.go EndpointsOverCapacity, and endpoints_controller.go truncated.
export const ENDPOINTS_OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
export const TRUNCATED = 'truncated';
// client-go tools/leaderelection/resourcelock LeaderElectionRecordAnnotationKey: such Endpoints have no Service.
export const LEADER_ELECTION_RECORD_ANNOTATION_KEY = 'control-plane.alpha.kubernetes.io/leader';
// endpoints_controller.go NewEndpointController: the Events' source component.
export const EVENT_COMPONENT = 'endpoint-controller';
// endpoint/config/v1alpha1/defaults.go: --concurrent-endpoint-syncs 5.
export const DEFAULT_WORKERS = 5;
// kube-controller-manager's --endpoint-updates-batch-period default (config v1alpha1: 0).
export const DEFAULT_ENDPOINT_UPDATES_BATCH_PERIOD_MS = 0;

type ReadonlyService = DeepReadonly<Service>;
type ReadonlyPod = DeepReadonly<Pod>;

export interface EndpointsControllerOptions {
  /** The shared informers: pods, Services, Endpoints. */
  factory: SharedInformerFactory;
  /** The controller's own client (its ServiceAccount): Endpoints writes, Events. */
  client: Client;
  clock?: Clock;
  /** A failed sync (utilruntime.HandleError): its error and key. */
  onError?: (err: unknown, key: string) => void;
  /** --concurrent-endpoint-syncs (default 5). */
  workers?: number;
  /** --endpoint-updates-batch-period in ms (default 0): pod changes wait this long. */
  endpointUpdatesBatchPeriodMs?: number;
}

export class EndpointsController implements Controller {
  readonly name = ENDPOINTS_CONTROLLER;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly services: SharedIndexInformer<Service>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly endpoints: SharedIndexInformer<Endpoints>;
  private readonly staleEndpointsTracker = new StaleEndpointsTracker();
  private readonly triggerTimeTracker = new TriggerTimeTracker();
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;
  private readonly defaultWorkers: number;
  private readonly batchPeriodMs: number;

  constructor(options: EndpointsControllerOptions) {
    const clock = options.clock ?? realClock;
    this.client = options.client;
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    this.batchPeriodMs = options.endpointUpdatesBatchPeriodMs ?? DEFAULT_ENDPOINT_UPDATES_BATCH_PERIOD_MS;
    this.recorder = new EventRecorder({ client: this.client, clock, component: EVENT_COMPONENT });
    this.queue = new WorkQueue<string>({ clock, rateLimiter: defaultControllerRateLimiter(clock) });
    this.services = options.factory.informerFor(RESOURCES.services);
    this.pods = options.factory.informerFor(RESOURCES.pods);
    this.endpoints = options.factory.informerFor(RESOURCES.endpoints);

    const handlers = new Registrations();
    handlers.add(this.services, {
      onAdd: (svc) => this.queue.add(objectKey(svc)),
      onUpdate: (_old, cur) => this.queue.add(objectKey(cur)),
      onDelete: (svc) => this.queue.add(objectKey(svc)),
    });
    handlers.add(this.pods, {
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, cur) => {
        for (const key of servicesToUpdateOnPodChange(this.services.lister(), old, cur)) {
          this.queue.addAfter(key, this.batchPeriodMs);
        }
      },
      onDelete: (pod) => this.addPod(pod),
    });
    // A deleted Endpoints is made again (or, without its Service, stays deleted).
    handlers.add(this.endpoints, { onDelete: (ep) => this.queue.add(objectKey(ep)) });
    const onError = options.onError ?? (() => {});
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: (key) => this.syncService(key),
      onError,
      maxRetries: MAX_RETRIES,
    });
  }

  async run(workers = this.defaultWorkers): Promise<void> {
    await this.workers.run(workers);
    if (!this.queue.shuttingDown()) this.checkLeftoverEndpoints();
  }

  async stop(): Promise<void> {
    await this.workers.stop();
    await this.recorder.flush();
  }

  private addPod(pod: ReadonlyPod): void {
    for (const key of podServiceMemberships(this.services.lister(), pod)) this.queue.addAfter(key, this.batchPeriodMs);
  }

  /**
   * checkLeftoverEndpoints: every Endpoints queued once at start, so those whose Service went
   * while the controller was down are deleted; leader-election records have no Service and stay.
   */
  private checkLeftoverEndpoints(): void {
    for (const ep of this.endpoints.lister().list()) {
      if (ep.metadata?.annotations?.[LEADER_ELECTION_RECORD_ANNOTATION_KEY] !== undefined) continue;
      this.queue.add(objectKey(ep));
    }
  }

  /**
   * syncService: a Service gone — its Endpoints deleted; ExternalName or no selector — nothing;
   * otherwise the Endpoints computed from the selected pods and written when the subsets, labels
   * or capacity annotation differ from what is cached.
   */
  async syncService(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const service = this.services.get(namespace, name);
    if (service === undefined) {
      // Only at the Service's deletion (or at start): one deleted while the controller was down
      // and whose Endpoints was never listed is missed, as in Kubernetes (#6877).
      try {
        await this.client.delete(RESOURCES.endpoints, namespace, name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      this.triggerTimeTracker.deleteService(namespace, name);
      this.staleEndpointsTracker.delete(namespace, name);
      return;
    }
    // ExternalName Services get no endpoints (https://issues.k8s.io/105986).
    if (service.spec?.type === 'ExternalName') return;
    // No selector: the endpoints are written out-of-band (the apiserver's, for `kubernetes`).
    const selector = serviceSelector(service);
    if (selector === undefined) return;

    const pods = this.pods.lister().byNamespace(namespace).list(selectorFromSet(selector));
    // Computed even when nothing is written, so that the tracker's state moves on.
    const triggerTime = this.triggerTimeTracker.computeEndpointLastChangeTriggerTime(namespace, service, pods);
    const tolerateUnready = service.spec?.publishNotReadyAddresses ?? false;
    const ports = service.spec?.ports ?? [];
    let subsets: EndpointSubset[] = [];
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
      const epa = podToEndpointAddressForService(service, pod);
      // No IP of the Service's family (a cluster half-way to dual-stack): left out.
      if (epa === undefined) continue;
      if (shouldSetHostname(pod, service)) epa.hostname = pod.spec?.hostname ?? '';
      // A headless Service may have no ports.
      if (ports.length === 0) {
        if (service.spec?.clusterIP === CLUSTER_IP_NONE)
          subsets.push(endpointSubset(pod, epa, undefined, tolerateUnready));
        continue;
      }
      for (const sp of ports) {
        const portNum = findPort(pod, sp);
        if (portNum === undefined) continue;
        subsets.push(endpointSubset(pod, epa, endpointPortFromServicePort(sp, portNum), tolerateUnready));
      }
    }
    subsets = repackSubsets(subsets);

    const cached = this.endpoints.get(namespace, name);
    if (cached !== undefined && this.staleEndpointsTracker.isStale(cached)) {
      throw new Error(
        `endpoints informer cache is out of date, resource version ${cached.metadata?.resourceVersion ?? ''} already processed for endpoints ${key}`,
      );
    }
    const current: DeepReadonly<Endpoints> = cached ?? {
      metadata: { name, ...(service.metadata?.labels === undefined ? {} : { labels: service.metadata.labels }) },
    };
    const createEndpoints = (current.metadata?.resourceVersion ?? '') === '';
    // The headless label is the controller's own: the Service does not carry it.
    const compareLabels = { ...(current.metadata?.labels ?? {}) };
    delete compareLabels[LABEL_IS_HEADLESS_SERVICE];
    if (
      !createEndpoints &&
      subsetsEqualIgnoreResourceVersion(current.subsets ?? [], subsets) &&
      sameLabels(compareLabels, service.metadata?.labels ?? {}) &&
      capacityAnnotationSetCorrectly(current.metadata?.annotations, current.subsets ?? [])
    ) {
      return;
    }

    const next = structuredClone(current) as Endpoints;
    next.subsets = subsets;
    const meta = next.metadata ?? {};
    next.metadata = meta;
    const labels: Record<string, string> = { ...(service.metadata?.labels ?? {}) };
    const annotations = meta.annotations ?? {};
    meta.annotations = annotations;
    if (triggerTime !== undefined) annotations[ENDPOINTS_LAST_CHANGE_TRIGGER_TIME] = rfc3339Nano(triggerTime);
    else delete annotations[ENDPOINTS_LAST_CHANGE_TRIGGER_TIME];
    if (truncateEndpoints(next)) annotations[ENDPOINTS_OVER_CAPACITY] = TRUNCATED;
    else delete annotations[ENDPOINTS_OVER_CAPACITY];
    if (!isServiceIPSet(service)) labels[LABEL_IS_HEADLESS_SERVICE] = '';
    else delete labels[LABEL_IS_HEADLESS_SERVICE];
    meta.labels = labels;

    let updated: Endpoints | undefined;
    try {
      if (createEndpoints) await this.client.create(RESOURCES.endpoints, namespace, next);
      else updated = await this.client.update(RESOURCES.endpoints, namespace, next);
    } catch (err) {
      // A terminating namespace refuses every create: the key is dropped.
      if (createEndpoints && isForbidden(err) && hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
      const text = err instanceof Error ? err.message : String(err);
      const ref: DeepReadonly<KubeObject> = {
        ...next,
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { ...meta, namespace },
      };
      if (createEndpoints) {
        this.recorder.record(
          ref,
          'Warning',
          'FailedToCreateEndpoint',
          `Failed to create endpoint for service ${namespace}/${name}: ${text}`,
        );
      } else {
        this.recorder.record(
          ref,
          'Warning',
          'FailedToUpdateEndpoint',
          `Failed to update endpoint ${namespace}/${name}: ${text}`,
        );
      }
      throw err;
    }
    // The cache still holding the old version is behind this write (a no-op write keeps it).
    if (updated !== undefined && updated.metadata?.resourceVersion !== current.metadata?.resourceVersion) {
      this.staleEndpointsTracker.stale(current);
    }
  }
}

/**
 * podToEndpointAddressForService: the pod's first IP of the Service's family — spec.ipFamilies[0];
 * without it (an old apiserver) the ClusterIP's, or for a headless Service status.podIP's.
 */
export function podToEndpointAddressForService(svc: ReadonlyService, pod: ReadonlyPod): EndpointAddress | undefined {
  let ipv6: boolean;
  const families = svc.spec?.ipFamilies ?? [];
  const clusterIP = svc.spec?.clusterIP ?? '';
  if (families.length > 0) ipv6 = families[0] === 'IPv6';
  else if (clusterIP !== '' && clusterIP !== CLUSTER_IP_NONE) ipv6 = isIPv6String(clusterIP);
  else ipv6 = isIPv6String(pod.status?.podIP ?? '');
  const ip = (pod.status?.podIPs ?? []).find((p) => isIPv6String(p.ip) === ipv6)?.ip;
  if (ip === undefined) return undefined;
  return {
    ip,
    // Always set, as Go sets &pod.Spec.NodeName.
    nodeName: pod.spec?.nodeName ?? '',
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
      uid: pod.metadata?.uid ?? '',
    },
  };
}

/** addEndpointSubset's subset: the address ready (or tolerated) or not ready, with its one port. */
function endpointSubset(
  pod: ReadonlyPod,
  epa: EndpointAddress,
  epp: EndpointPort | undefined,
  tolerateUnready: boolean,
): EndpointSubset {
  const ports = epp === undefined ? [] : [epp];
  if (tolerateUnready || isPodReady(pod)) return { addresses: [structuredClone(epa)], ports };
  return { notReadyAddresses: [structuredClone(epa)], ports };
}

/** endpointPortFromServicePort: the Service port's name, protocol and appProtocol at the pod's port. */
function endpointPortFromServicePort(sp: DeepReadonly<ServicePort>, portNum: number): EndpointPort {
  const port: EndpointPort = { name: sp.name ?? '', port: portNum, protocol: sp.protocol ?? 'TCP' };
  if (sp.appProtocol !== undefined) port.appProtocol = sp.appProtocol;
  return port;
}

/** capacityAnnotationSetCorrectly: within capacity and without the over-capacity annotation. */
export function capacityAnnotationSetCorrectly(
  annotations: Readonly<Record<string, string>> | undefined,
  subsets: readonly DeepReadonly<EndpointSubset>[],
): boolean {
  let n = 0;
  for (const s of subsets) n += (s.addresses ?? []).length + (s.notReadyAddresses ?? []).length;
  // Over capacity: it must be truncated, so the annotation cannot be right.
  if (n > MAX_CAPACITY) return false;
  return annotations?.[ENDPOINTS_OVER_CAPACITY] === undefined;
}

/**
 * truncateEndpoints: over capacity, each subset keeps its share (rounded up, within what is left)
 * of the room — ready addresses first: the not-ready ones are cut when the ready ones fit, else
 * the ready ones are cut and every not-ready one goes. Answers whether it truncated.
 */
export function truncateEndpoints(endpoints: Endpoints): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const s of endpoints.subsets ?? []) {
    totalReady += (s.addresses ?? []).length;
    totalNotReady += (s.notReadyAddresses ?? []).length;
  }
  if (totalReady + totalNotReady <= MAX_CAPACITY) return false;
  let truncateReady = false;
  let max = MAX_CAPACITY - totalReady;
  let numTotal = totalNotReady;
  if (totalReady > MAX_CAPACITY) {
    truncateReady = true;
    max = MAX_CAPACITY;
    numTotal = totalReady;
  }
  let canBeAdded = max;
  for (const subset of endpoints.subsets ?? []) {
    const numInSubset = truncateReady ? (subset.addresses ?? []).length : (subset.notReadyAddresses ?? []).length;
    // The proportion rounded up: the last subset most likely gets fewer.
    let toBeAdded = Math.ceil((numInSubset / numTotal) * max);
    if (toBeAdded > canBeAdded) toBeAdded = canBeAdded;
    if (truncateReady) {
      subset.addresses = (subset.addresses ?? []).slice(0, toBeAdded);
      delete subset.notReadyAddresses;
      canBeAdded -= subset.addresses.length;
    } else {
      subset.notReadyAddresses = (subset.notReadyAddresses ?? []).slice(0, toBeAdded);
      canBeAdded -= subset.notReadyAddresses.length;
    }
  }
  return true;
}

/**
 * endpointSubsetsEqualIgnoreResourceVersion: Semantic equality (absent lists and empty ones alike,
 * absent strings and empty ones not) with the targetRefs' resourceVersions ignored.
 */
export function subsetsEqualIgnoreResourceVersion(
  a: readonly DeepReadonly<EndpointSubset>[],
  b: readonly DeepReadonly<EndpointSubset>[],
): boolean {
  return JSON.stringify(a.map(normalizeSubset)) === JSON.stringify(b.map(normalizeSubset));
}

function normalizeSubset(s: DeepReadonly<EndpointSubset>): unknown {
  const address = (x: DeepReadonly<EndpointAddress>) => [
    x.ip,
    x.hostname ?? '',
    x.nodeName ?? null,
    x.targetRef === undefined
      ? null
      : [
          x.targetRef.kind ?? '',
          x.targetRef.namespace ?? '',
          x.targetRef.name ?? '',
          x.targetRef.uid ?? '',
          x.targetRef.apiVersion ?? '',
          x.targetRef.fieldPath ?? '',
        ],
  ];
  return [
    (s.addresses ?? []).map(address),
    (s.notReadyAddresses ?? []).map(address),
    (s.ports ?? []).map((p) => [p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? null]),
  ];
}

function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => k in b && a[k] === b[k]);
}
