/**
 * The EndpointSlice controller (pkg/controller/endpointslice/endpointslice_controller.go at
 * v1.32): for every Service with a selector, EndpointSlices — labelled
 * `kubernetes.io/service-name` and `endpointslice.kubernetes.io/managed-by:
 * endpointslice-controller.k8s.io`, controlled by the Service — that list its pods' endpoints
 * (reconciler.ts). Services without a selector (the apiserver's `kubernetes` Service, or any whose
 * endpoints are written by hand) and ExternalName Services are left alone, and so are slices not
 * managed by this controller.
 *
 *   const c = new EndpointSliceController({ factory, client, clock, onError });
 *   factory.start();
 *   await c.run(5);  …  await c.stop();
 *
 * Level-based, as Kubernetes': handlers only enqueue Service keys — pod changes (after the batch
 * period, 0 by default), Service changes at once, changes to managed slices that the tracker did
 * not expect (someone else's edit or delete) after at least a second — and a sync reconciles the
 * Service from the listers. A sync whose slice cache lags the controller's own writes is refused
 * (StaleInformerCacheError) and retried. Slices of a deleted Service go with it through their
 * ownerReference (the garbage collector), as in Kubernetes.
 */

import { selectorFromSet } from '../../api/labels/selector.js';
import type { KubeObject } from '../../api/meta.js';
import type { Node, Pod, Service } from '../../api/types/core/v1.js';
import type { EndpointSlice } from '../../api/types/discovery/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
  WorkQueue,
} from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';
import { ENDPOINT_SLICE_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';
import { isDeleting, podServiceMemberships, serviceSelector, servicesToUpdateOnPodChange } from './endpoint-utils.js';
import { EndpointSliceTracker, StaleInformerCacheError } from './endpointslice-tracker.js';
import { Reconciler } from './reconciler.js';
import { TriggerTimeTracker } from './trigger-time-tracker.js';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME, serviceControllerKey } from './utils.js';

// endpointslice_controller.go controllerName: the managed-by label's value.
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
// endpointslice_controller.go NewController: the Events' source component.
export const EVENT_COMPONENT = 'endpoint-slice-controller';
// endpointslice/config/v1alpha1/defaults.go: --concurrent-service-endpoint-syncs 5.
export const DEFAULT_WORKERS = 5;
// endpointslice/config/v1alpha1/defaults.go: --max-endpoints-per-slice 100; options/
// endpointslicecontroller.go allows 1 to 1000.
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;
export const MIN_MAX_ENDPOINTS_PER_SLICE = 1;
export const MAX_MAX_ENDPOINTS_PER_SLICE = 1000;
// endpointslice_controller.go maxRetries: a Service is dropped after this many failed syncs in a row.
export const MAX_RETRIES = 15;
// endpointslice_controller.go endpointSliceChangeMinSyncDelay: slice changes wait at least this.
export const ENDPOINT_SLICE_CHANGE_MIN_SYNC_DELAY_MS = 1000;
// endpointslice_controller.go defaultSyncBackOff and maxSyncBackOff: the per-Service retry back-off.
export const DEFAULT_SYNC_BACKOFF_MS = 1000;
export const MAX_SYNC_BACKOFF_MS = 1000 * 1000;
// kube-controller-manager's --endpointslice-updates-batch-period default (config v1alpha1: 0).
export const DEFAULT_ENDPOINT_UPDATES_BATCH_PERIOD_MS = 0;

type ReadonlyService = DeepReadonly<Service>;
type ReadonlySlice = DeepReadonly<EndpointSlice>;

export interface EndpointSliceControllerOptions {
  /** The shared informers: pods, Services, nodes, EndpointSlices. */
  factory: SharedInformerFactory;
  /** The controller's own client (its ServiceAccount): slice writes, Events. */
  client: Client;
  clock?: Clock;
  /** A failed sync (utilruntime.HandleError): its error and key. */
  onError?: (err: unknown, key: string) => void;
  /** --concurrent-service-endpoint-syncs (default 5). */
  workers?: number;
  /** --max-endpoints-per-slice (default 100; 1 to 1000). */
  maxEndpointsPerSlice?: number;
  /** --endpointslice-updates-batch-period in ms (default 0): pod changes wait this long. */
  endpointUpdatesBatchPeriodMs?: number;
}

/**
 * The Service queue's rate limiter (NewController): per Service 1 s doubling to 1000 s, and an
 * overall bucket of 10 qps, burst 100.
 */
export function endpointSliceRateLimiter(clock: Clock): RateLimiter<string> {
  return new MaxOfRateLimiter<string>(
    new ItemExponentialFailureRateLimiter<string>(DEFAULT_SYNC_BACKOFF_MS, MAX_SYNC_BACKOFF_MS),
    // endpointslice_controller.go NewController: rate.NewLimiter(rate.Limit(10), 100).
    new BucketRateLimiter<string>(10, 100, clock),
  );
}

export class EndpointSliceController implements Controller {
  readonly name = ENDPOINT_SLICE_CONTROLLER;
  /** The generations of the slices this controller wrote (exported for tests). */
  readonly tracker = new EndpointSliceTracker();
  readonly reconciler: Reconciler;
  private readonly triggerTimeTracker = new TriggerTimeTracker();
  private readonly recorder: EventRecorder;
  private readonly services: SharedIndexInformer<Service>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly slices: SharedIndexInformer<EndpointSlice>;
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;
  private readonly defaultWorkers: number;
  private readonly batchPeriodMs: number;
  private readonly onError: (err: unknown, key: string) => void;

  constructor(options: EndpointSliceControllerOptions) {
    const clock = options.clock ?? realClock;
    const maxEndpointsPerSlice = options.maxEndpointsPerSlice ?? DEFAULT_MAX_ENDPOINTS_PER_SLICE;
    if (
      !Number.isInteger(maxEndpointsPerSlice) ||
      maxEndpointsPerSlice < MIN_MAX_ENDPOINTS_PER_SLICE ||
      maxEndpointsPerSlice > MAX_MAX_ENDPOINTS_PER_SLICE
    ) {
      // options/endpointslicecontroller.go Validate.
      throw new Error(
        maxEndpointsPerSlice < MIN_MAX_ENDPOINTS_PER_SLICE
          ? `max-endpoints-per-slice must not be less than ${MIN_MAX_ENDPOINTS_PER_SLICE}, but got ${maxEndpointsPerSlice}`
          : `max-endpoints-per-slice must not be more than ${MAX_MAX_ENDPOINTS_PER_SLICE}, but got ${maxEndpointsPerSlice}`,
      );
    }
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    this.batchPeriodMs = options.endpointUpdatesBatchPeriodMs ?? DEFAULT_ENDPOINT_UPDATES_BATCH_PERIOD_MS;
    this.onError = options.onError ?? (() => {});
    this.recorder = new EventRecorder({ client: options.client, clock, component: EVENT_COMPONENT });
    this.queue = new WorkQueue<string>({ clock, rateLimiter: endpointSliceRateLimiter(clock) });

    this.services = options.factory.informerFor(RESOURCES.services);
    this.pods = options.factory.informerFor(RESOURCES.pods);
    this.nodes = options.factory.informerFor(RESOURCES.nodes);
    this.slices = options.factory.informerFor(RESOURCES.endpointslices);
    this.reconciler = new Reconciler({
      client: options.client,
      nodes: this.nodes.lister(),
      maxEndpointsPerSlice,
      tracker: this.tracker,
      controllerName: CONTROLLER_NAME,
    });

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
    handlers.add(this.slices, {
      onAdd: (slice) => {
        if (this.reconciler.managedByController(slice) && this.tracker.shouldSync(slice)) this.queueForSlice(slice);
      },
      onUpdate: (prev, cur) => this.onSliceUpdate(prev, cur),
      onDelete: (slice) => {
        if (this.reconciler.managedByController(slice) && this.tracker.has(slice)) {
          // A delete the controller did not make: the Service gets its slice back.
          if (!this.tracker.handleDeletion(slice)) this.queueForSlice(slice);
        }
      },
    });
    // The node informer is waited for (zones are read from it); without topology-aware hints its
    // events queue nothing.
    handlers.add(this.nodes, {});
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: (key) => this.syncService(key),
      onError: this.onError,
      maxRetries: MAX_RETRIES,
    });
  }

  async run(workers = this.defaultWorkers): Promise<void> {
    await this.workers.run(workers);
  }

  async stop(): Promise<void> {
    await this.workers.stop();
    await this.recorder.flush();
  }

  // --- event handlers: they only enqueue Service keys ---

  private addPod(pod: DeepReadonly<Pod>): void {
    for (const key of podServiceMemberships(this.services.lister(), pod)) this.queue.addAfter(key, this.batchPeriodMs);
  }

  private onSliceUpdate(prev: ReadonlySlice, cur: ReadonlySlice): void {
    const svcName = cur.metadata?.labels?.[LABEL_SERVICE_NAME] ?? '';
    const prevSvcName = prev.metadata?.labels?.[LABEL_SERVICE_NAME] ?? '';
    // Moved to another Service: both are synced.
    if (svcName !== prevSvcName) {
      this.queueForSlice(cur);
      this.queueForSlice(prev);
      return;
    }
    if (
      this.reconciler.managedByChanged(prev, cur) ||
      (this.reconciler.managedByController(cur) && this.tracker.shouldSync(cur))
    ) {
      this.queueForSlice(cur);
    }
  }

  /** queueServiceForEndpointSlice: the slice's Service, after at least a second (or the batch period). */
  private queueForSlice(slice: ReadonlySlice): void {
    let key: string;
    try {
      key = serviceControllerKey(slice);
    } catch (err) {
      this.onError(new Error(`Couldn't get key for EndpointSlice ${objectKey(slice)}: ${String(err)}`), '');
      return;
    }
    this.queue.addAfter(key, Math.max(ENDPOINT_SLICE_CHANGE_MIN_SYNC_DELAY_MS, this.batchPeriodMs));
  }

  // --- the sync ---

  /**
   * syncService: nothing for an ExternalName Service or one without a selector; a deleted one's
   * state forgotten (its slices go with it by ownerReference); otherwise its pods and managed
   * slices (those pending deletion aside) reconciled, unless the slice cache is stale.
   */
  async syncService(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const service = this.services.get(namespace, name);
    if (service === undefined) {
      this.triggerTimeTracker.deleteService(namespace, name);
      this.tracker.deleteService(namespace, name);
      return;
    }
    if (service.spec?.type === 'ExternalName') return;
    // No selector: its endpoints are someone else's (the apiserver's, for `kubernetes`).
    const selector = serviceSelector(service);
    if (selector === undefined) return;

    const pods = this.pods.lister().byNamespace(namespace).list(selectorFromSet(selector));
    const esSelector = selectorFromSet({ [LABEL_SERVICE_NAME]: name, [LABEL_MANAGED_BY]: CONTROLLER_NAME });
    const slices = this.slices
      .lister()
      .byNamespace(namespace)
      .list(esSelector)
      .filter((s) => !isDeleting(s));
    if (this.tracker.staleSlices(service, slices)) {
      throw new StaleInformerCacheError('EndpointSlice informer cache is out of date');
    }
    const triggerTime = this.triggerTimeTracker.computeEndpointLastChangeTriggerTime(namespace, service, pods);
    try {
      await this.reconciler.reconcile(service, pods, slices, triggerTime);
    } catch (err) {
      this.recorder.record(
        serviceRef(service),
        'Warning',
        'FailedToUpdateEndpointSlices',
        `Error updating Endpoint Slices for Service ${namespace}/${name}: ${err instanceof Error ? err.message : String(err)}`,
      );
      throw err;
    }
  }
}

/** The Service with its kind, as the Event's involvedObject names it (ref.GetReference). */
export function serviceRef(service: ReadonlyService): DeepReadonly<KubeObject> {
  return { ...service, apiVersion: 'v1', kind: 'Service' };
}
