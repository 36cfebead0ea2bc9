/**
 * The EndpointSlice reconciler (k8s.io/endpointslice reconciler.go, v0.32): turns a Service, its
 * pods and its existing slices into the creates, updates and deletes that give it, for each address
 * family it serves, slices of at most maxEndpointsPerSlice endpoints grouped by port set — changing
 * as few slices as it can: endpoints that stay keep their slice, freed room in slices being updated
 * is filled first, then the unchanged slice that new endpoints would leave closest to full, and only
 * then new slices; a slice to delete is recycled (updated in place) rather than deleting one and
 * creating another. A Service without endpoints keeps one empty placeholder slice per family.
 *
 *   const r = new Reconciler({ client, nodes: nodeInformer.lister(), maxEndpointsPerSlice: 100,
 *     tracker, controllerName: CONTROLLER_NAME });
 *   await r.reconcile(service, pods, existingSlices, triggerTime);
 *
 * Go's maps hand out port mappings and endpoints in random order; here they come in the order they
 * were first met (pods as the lister gives them), which is one of the orders Kubernetes may produce.
 */

import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type { Node, Pod, Service } from '../../api/types/core/v1.js';
import type { AddressType, EndpointSlice } from '../../api/types/discovery/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { Lister } from '../../client/informers/listers.js';
import { RESOURCES } from '../../client/resources.js';
import { aggregateErrors } from '../framework/aggregate-errors.js';
import {
  EndpointSet,
  endpointsEqualBeyondHash,
  newPortMapKey,
  portMapKeyOf,
  shouldPodBeInEndpoints,
} from './endpoint-utils.js';
import type { EndpointSliceTracker } from './endpointslice-tracker.js';
import { reconcileHints, removeHintsFromSlices } from './traffic-dist.js';
import {
  addTriggerTimeAnnotation,
  type EndpointMeta,
  getAddressTypesForService,
  getEndpointPorts,
  getSliceToFill,
  hintsEnabled,
  LABEL_MANAGED_BY,
  newEndpointSlice,
  ownedBy,
  podToEndpoint,
  setEndpointSliceLabels,
  unchangedSlices,
} from './utils.js';

type ReadonlyService = DeepReadonly<Service>;

export interface ReconcilerOptions {
  client: Client;
  nodes: Lister<Node>;
  /** --max-endpoints-per-slice. */
  maxEndpointsPerSlice: number;
  tracker: EndpointSliceTracker;
  /** The managed-by label's value: `endpointslice-controller.k8s.io`. */
  controllerName: string;
  /** ServiceTrafficDistribution (features/kube_features.go: beta, on by default in 1.32). */
  trafficDistributionEnabled?: boolean;
}

/** What one port mapping's reconcile decided. */
interface PortMappingResult {
  toCreate: EndpointSlice[];
  toUpdate: EndpointSlice[];
  toDelete: EndpointSlice[];
  added: number;
  removed: number;
}

export class Reconciler {
  readonly controllerName: string;
  private readonly client: Client;
  private readonly nodes: Lister<Node>;
  private readonly maxEndpointsPerSlice: number;
  private readonly tracker: EndpointSliceTracker;
  private readonly trafficDistributionEnabled: boolean;

  constructor(options: ReconcilerOptions) {
    this.client = options.client;
    this.nodes = options.nodes;
    this.maxEndpointsPerSlice = options.maxEndpointsPerSlice;
    this.tracker = options.tracker;
    this.controllerName = options.controllerName;
    this.trafficDistributionEnabled = options.trafficDistributionEnabled ?? true;
  }

  /**
   * Reconcile: slices of address types the Service no longer serves are deleted; each served type
   * is reconciled on its own. Every failure is gathered into one error (utilerrors.NewAggregate).
   */
  async reconcile(
    service: ReadonlyService,
    pods: readonly DeepReadonly<Pod>[],
    existingSlices: readonly DeepReadonly<EndpointSlice>[],
    triggerTime: number | undefined,
  ): Promise<void> {
    const errs: unknown[] = [];
    const toDelete: EndpointSlice[] = [];
    const byAddressType = new Map<AddressType, EndpointSlice[]>();
    const supported = getAddressTypesForService(service);
    for (const cached of existingSlices) {
      // Copies: the informer's objects are never written.
      const slice = structuredClone(cached) as EndpointSlice;
      // Semantic equality reads a null list as empty.
      slice.endpoints ??= [];
      if (!supported.includes(slice.addressType)) {
        toDelete.push(slice);
        continue;
      }
      const list = byAddressType.get(slice.addressType) ?? [];
      list.push(slice);
      byAddressType.set(slice.addressType, list);
    }
    for (const addressType of supported) {
      try {
        await this.reconcileByAddressType(
          service,
          pods,
          byAddressType.get(addressType) ?? [],
          triggerTime,
          addressType,
        );
      } catch (err) {
        errs.push(err);
      }
    }
    const { namespace = '', name = '' } = service.metadata ?? {};
    for (const slice of toDelete) {
      try {
        await this.client.delete(RESOURCES.endpointslices, namespace, slice.metadata?.name ?? '');
        this.tracker.expectDeletion(slice);
      } catch (err) {
        errs.push(
          new Error(
            `error deleting ${slice.metadata?.name ?? ''} EndpointSlice for Service ${namespace}/${name}: ${message(err)}`,
          ),
        );
      }
    }
    const err = aggregateErrors(errs);
    if (err !== undefined) throw err;
  }

  /**
   * reconcileByAddressType: the desired endpoints by port mapping (pods that should be in
   * endpoints, with an address of this type, on a known node), each mapping reconciled against
   * the slices of the same ports; slices of other owners or of ports no pod has are deleted.
   */
  private async reconcileByAddressType(
    service: ReadonlyService,
    pods: readonly DeepReadonly<Pod>[],
    existingSlices: EndpointSlice[],
    triggerTime: number | undefined,
    addressType: AddressType,
  ): Promise<void> {
    const errs: unknown[] = [];
    let toCreate: EndpointSlice[] = [];
    let toUpdate: EndpointSlice[] = [];
    let toDelete: EndpointSlice[] = [];
    const existingByPortMap = new Map<string, EndpointSlice[]>();
    for (const slice of existingSlices) {
      if (ownedBy(slice, service)) {
        const key = portMapKeyOf(slice.ports);
        const list = existingByPortMap.get(key) ?? [];
        list.push(slice);
        existingByPortMap.set(key, list);
      } else {
        toDelete.push(slice);
      }
    }

    const desiredMeta = new Map<string, EndpointMeta>();
    const desiredEndpoints = new Map<string, EndpointSet>();
    const { namespace = '', name = '' } = service.metadata ?? {};
    const publishNotReady = service.spec?.publishNotReadyAddresses ?? false;
    for (const pod of pods) {
      // Terminating pods are included: their endpoints say so.
      if (!shouldPodBeInEndpoints(pod, true)) continue;
      const ports = getEndpointPorts(service, pod);
      const key = newPortMapKey(ports);
      if (!desiredEndpoints.has(key)) desiredEndpoints.set(key, new EndpointSet());
      if (!desiredMeta.has(key)) desiredMeta.set(key, { addressType, ports });
      const nodeName = pod.spec?.nodeName ?? '';
      const node = this.nodes.get(undefined, nodeName);
      if (node === undefined && !publishNotReady) {
        errs.push(
          new Error(
            `skipping Pod ${pod.metadata?.name ?? ''} for Service ${namespace}/${name}: Node ${nodeName} Not Found`,
          ),
        );
        continue;
      }
      const ep = podToEndpoint(pod, node, service, addressType);
      if (ep.addresses.length > 0) desiredEndpoints.get(key)?.insert(ep);
    }

    for (const [key, desired] of desiredEndpoints) {
      const meta = desiredMeta.get(key) ?? { addressType, ports: [] };
      const r = this.reconcileByPortMapping(service, existingByPortMap.get(key) ?? [], desired, meta);
      toCreate.push(...r.toCreate);
      toUpdate.push(...r.toUpdate);
      toDelete.push(...r.toDelete);
    }
    // Slices of port mappings no pod has any more.
    for (const [key, slices] of existingByPortMap) {
      if (!desiredEndpoints.has(key)) toDelete.push(...slices);
    }

    // A Service always has a slice: when all would go and none come, an empty placeholder (kept
    // when the only slice to delete already is one).
    if (existingSlices.length === toDelete.length && toCreate.length < 1) {
      const placeholder = newEndpointSlice(service, { ports: [], addressType }, this.controllerName);
      const [only] = toDelete;
      if (toDelete.length === 1 && only !== undefined && placeholderSliceEqual(only, placeholder)) {
        toDelete = [];
      } else {
        toCreate.push(placeholder);
      }
    }

    const unchanged = unchangedSlices(existingSlices, toUpdate, toDelete);
    const annotated = hintsEnabled(service.metadata?.annotations);
    if (this.trafficDistributionEnabled && !annotated) {
      ({ toCreate, toUpdate } = reconcileHints(service.spec?.trafficDistribution, toCreate, toUpdate, unchanged));
    } else {
      // Topology-aware hints (the annotation) are not computed here: their slices carry none.
      ({ toCreate, toUpdate } = removeHintsFromSlices(toCreate, toUpdate, unchanged));
    }

    try {
      await this.finalize(service, toCreate, toUpdate, toDelete, triggerTime);
    } catch (err) {
      errs.push(err);
    }
    const err = aggregateErrors(errs);
    if (err !== undefined) throw err;
  }

  /**
   * reconcileByPortMapping: existing slices keep the desired endpoints they hold (updated when one
   * changed beyond its key or some went; deleted when none stay; label changes alone update too);
   * the remaining desired endpoints fill the slices being updated (fullest first), then the
   * unchanged slice they would leave closest to full, then new slices.
   */
  private reconcileByPortMapping(
    service: ReadonlyService,
    existingSlices: readonly EndpointSlice[],
    desired: EndpointSet,
    meta: EndpointMeta,
  ): PortMappingResult {
    const max = this.maxEndpointsPerSlice;
    const byName = new Map<string, EndpointSlice>();
    const unchangedNames = new Set<string>();
    const updateNames = new Set<string>();
    const deleteNames = new Set<string>();
    let removed = 0;

    for (const existing of existingSlices) {
      const sliceName = existing.metadata?.name ?? '';
      byName.set(sliceName, existing);
      const kept = [];
      let endpointUpdated = false;
      for (const ep of existing.endpoints) {
        const got = desired.get(ep);
        if (got === undefined) continue;
        kept.push(got);
        if (!endpointsEqualBeyondHash(got, ep)) endpointUpdated = true;
        desired.delete(ep);
      }
      const { labels, updated: labelsChanged } = setEndpointSliceLabels(existing, service, this.controllerName);
      if (endpointUpdated || existing.endpoints.length !== kept.length) {
        if (existing.endpoints.length > kept.length) removed += existing.endpoints.length - kept.length;
        if (kept.length === 0) {
          deleteNames.add(sliceName);
        } else {
          const slice = structuredClone(existing);
          slice.endpoints = kept;
          (slice.metadata ?? {}).labels = labels;
          byName.set(sliceName, slice);
          updateNames.add(sliceName);
        }
      } else if (labelsChanged) {
        const slice = structuredClone(existing);
        (slice.metadata ?? {}).labels = labels;
        byName.set(sliceName, slice);
        updateNames.add(sliceName);
      } else {
        unchangedNames.add(sliceName);
      }
    }

    const added = desired.size;

    // Room freed in slices already being updated is filled first, fullest slice first.
    if (desired.size > 0 && updateNames.size > 0) {
      const slices = [...updateNames].map((n) => byName.get(n)).filter((s) => s !== undefined);
      // sort.Sort is not stable; a stable sort is one of its outcomes.
      slices.sort((a, b) => b.endpoints.length - a.endpoints.length);
      for (const slice of slices) {
        while (desired.size > 0 && slice.endpoints.length < max) {
          const ep = desired.popAny();
          if (ep !== undefined) slice.endpoints.push(ep);
        }
      }
    }

    const toCreate: EndpointSlice[] = [];
    while (desired.size > 0) {
      let sliceToFill: EndpointSlice | undefined;
      // Fewer than a full slice left: the unchanged slice they fit best, to avoid a new one.
      if (desired.size < max && unchangedNames.size > 0) {
        const unchanged = [...unchangedNames].map((n) => byName.get(n)).filter((s) => s !== undefined);
        sliceToFill = getSliceToFill(unchanged, desired.size, max);
      }
      if (sliceToFill === undefined) {
        sliceToFill = newEndpointSlice(service, meta, this.controllerName);
      } else {
        sliceToFill = structuredClone(sliceToFill);
        byName.set(sliceToFill.metadata?.name ?? '', sliceToFill);
      }
      while (desired.size > 0 && sliceToFill.endpoints.length < max) {
        const ep = desired.popAny();
        if (ep !== undefined) sliceToFill.endpoints.push(ep);
      }
      const fillName = sliceToFill.metadata?.name ?? '';
      if (fillName !== '') {
        updateNames.add(fillName);
        unchangedNames.delete(fillName);
      } else {
        toCreate.push(sliceToFill);
      }
    }

    const pick = (names: Set<string>) => [...names].map((n) => byName.get(n)).filter((s) => s !== undefined);
    return { toCreate, toUpdate: pick(updateNames), toDelete: pick(deleteNames), added, removed };
  }

  /**
   * finalize: creates turned into updates of slices to delete (same address type, owned), then the
   * creates (none while the Service is being deleted; a terminating namespace ends the sync
   * quietly), updates and deletes — each recorded in the tracker; the first failure ends it.
   */
  private async finalize(
    service: ReadonlyService,
    slicesToCreate: EndpointSlice[],
    slicesToUpdate: EndpointSlice[],
    slicesToDelete: EndpointSlice[],
    triggerTime: number | undefined,
  ): Promise<void> {
    const toCreate = [...slicesToCreate];
    const toUpdate = [...slicesToUpdate];
    const toDelete = [...slicesToDelete];
    for (let i = 0; i < toDelete.length; ) {
      if (toCreate.length === 0) break;
      const sliceToDelete = toDelete[i] as EndpointSlice;
      const slice = toCreate[toCreate.length - 1] as EndpointSlice;
      if (sliceToDelete.addressType === slice.addressType && ownedBy(sliceToDelete, service)) {
        // Recycled: an update under the deleted slice's name (unconditional, as in Kubernetes).
        (slice.metadata ?? {}).name = sliceToDelete.metadata?.name ?? '';
        toCreate.pop();
        toUpdate.push(slice);
        toDelete.splice(i, 1);
      } else {
        i++;
      }
    }

    const { namespace = '', name = '' } = service.metadata ?? {};
    if ((service.metadata?.deletionTimestamp ?? null) === null) {
      for (const slice of toCreate) {
        addTriggerTimeAnnotation(slice, triggerTime);
        let created: EndpointSlice;
        try {
          created = await this.client.create(RESOURCES.endpointslices, namespace, slice);
        } catch (err) {
          // A namespace being deleted refuses every create: nothing to retry.
          if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
          throw new Error(`failed to create EndpointSlice for Service ${namespace}/${name}: ${message(err)}`);
        }
        this.tracker.update(created);
      }
    }

    for (const slice of toUpdate) {
      addTriggerTimeAnnotation(slice, triggerTime);
      let updated: EndpointSlice;
      try {
        updated = await this.client.update(RESOURCES.endpointslices, namespace, slice);
      } catch (err) {
        throw new Error(
          `failed to update ${slice.metadata?.name ?? ''} EndpointSlice for Service ${namespace}/${name}: ${message(err)}`,
        );
      }
      this.tracker.update(updated);
    }

    for (const slice of toDelete) {
      try {
        await this.client.delete(RESOURCES.endpointslices, namespace, slice.metadata?.name ?? '');
      } catch (err) {
        throw new Error(
          `failed to delete ${slice.metadata?.name ?? ''} EndpointSlice for Service ${namespace}/${name}: ${message(err)}`,
        );
      }
      this.tracker.expectDeletion(slice);
    }
  }

  /** ManagedByController: the slice's managed-by label names this controller. */
  managedByController(slice: DeepReadonly<EndpointSlice>): boolean {
    return slice.metadata?.labels?.[LABEL_MANAGED_BY] === this.controllerName;
  }

  /** ManagedByChanged: one of the two is this controller's and the other not. */
  managedByChanged(a: DeepReadonly<EndpointSlice>, b: DeepReadonly<EndpointSlice>): boolean {
    return this.managedByController(a) !== this.managedByController(b);
  }
}

/**
 * placeholderSliceCompare: the same namespace and labels (the rest of the metadata ignored), owner
 * references, address type, and no endpoints or ports (Semantic equality: nil equals empty).
 */
export function placeholderSliceEqual(
  slice: DeepReadonly<EndpointSlice>,
  placeholder: DeepReadonly<EndpointSlice>,
): boolean {
  const a = slice.metadata ?? {};
  const b = placeholder.metadata ?? {};
  if ((a.namespace ?? '') !== (b.namespace ?? '')) return false;
  const la = a.labels ?? {};
  const lb = b.labels ?? {};
  if (Object.keys(la).length !== Object.keys(lb).length) return false;
  if (!Object.entries(la).every(([k, v]) => lb[k] === v)) return false;
  const ra = a.ownerReferences ?? [];
  const rb = b.ownerReferences ?? [];
  if (ra.length !== rb.length) return false;
  for (let i = 0; i < ra.length; i++) {
    const x = ra[i];
    const y = rb[i];
    if (
      x?.apiVersion !== y?.apiVersion ||
      x?.kind !== y?.kind ||
      x?.name !== y?.name ||
      x?.uid !== y?.uid ||
      (x?.controller ?? null) !== (y?.controller ?? null) ||
      (x?.blockOwnerDeletion ?? null) !== (y?.blockOwnerDeletion ?? null)
    ) {
      return false;
    }
  }
  return (
    slice.addressType === placeholder.addressType &&
    slice.endpoints.length === placeholder.endpoints.length &&
    (slice.ports ?? []).length === (placeholder.ports ?? []).length
  );
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
