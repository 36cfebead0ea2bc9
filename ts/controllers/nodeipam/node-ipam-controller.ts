/**
 * The node IPAM controller with its range allocator (pkg/controller/nodeipam/node_ipam_controller.go
 * and ipam/range_allocator.go at v1.32): every node gets a pod CIDR per cluster CIDR (a /24 of
 * 10.244.0.0/16 by default), patched into spec.podCIDR and spec.podCIDRs; the CIDRs nodes
 * already have are occupied before any is handed out, the service range is kept out, and a
 * deleted node's CIDRs are released. When the range is exhausted the node gets a
 * CIDRNotAvailable Event and is retried with back-off.
 *
 *   const ipam = new NodeIpamController({ factory, client, clusterCIDRs: ['10.244.0.0/16'] });
 *   factory.start();
 *   await ipam.run();
 *
 * kube-controller-manager runs it only with --allocate-node-cidrs (kubeadm and kind pass it with
 * their pod subnet); kubewasm's cluster does the same with --cluster-cidr's default 10.244.0.0/16,
 * kind's.
 */
import type { Node } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey } from '../../client/informers/keys.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { defaultControllerRateLimiter, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';
import { NODE_IPAM_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';
import { CidrSet, parseCIDR } from './cidr-set.js';

// kind's and the kubeadm docs' pod subnet: kubewasm's --cluster-cidr default.
export const DEFAULT_CLUSTER_CIDR = '10.244.0.0/16';
// cmd/kube-controller-manager/app/core.go defaultNodeMaskCIDRIPv4 / defaultNodeMaskCIDRIPv6.
export const DEFAULT_NODE_MASK_IPV4 = 24;
export const DEFAULT_NODE_MASK_IPV6 = 64;
// ipam/cidr_allocator.go cidrUpdateWorkers and cidrUpdateRetries.
const CIDR_UPDATE_WORKERS = 30;
const CIDR_UPDATE_RETRIES = 3;
// range_allocator.go: the event source of the allocator's Events.
const COMPONENT = 'cidrAllocator';

export interface NodeIpamControllerOptions {
  /** The shared informers: nodes. */
  factory: SharedInformerFactory;
  /** node-controller's client: the node patches and Events. */
  client: Client;
  /** --cluster-cidr, one per family (default 10.244.0.0/16). */
  clusterCIDRs?: readonly string[];
  /** --node-cidr-mask-size-ipv4 / -ipv6, per cluster CIDR (default 24 for IPv4, 64 for IPv6). */
  nodeCIDRMaskSizes?: readonly number[];
  /** --service-cluster-ip-range: kept out of the cluster CIDRs it overlaps. */
  serviceCIDRs?: readonly string[];
  clock?: Clock;
  onError?: (err: unknown, key: string) => void;
}

export class NodeIpamController implements Controller {
  readonly name = NODE_IPAM_CONTROLLER;
  private readonly client: Client;
  private readonly cidrSets: CidrSet[];
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly handlers = new Registrations();
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;
  private readonly recorder: EventRecorder;
  private readonly onError: (err: unknown, key: string) => void;

  constructor(options: NodeIpamControllerOptions) {
    const clock = options.clock ?? realClock;
    this.client = options.client;
    this.onError = options.onError ?? (() => {});
    const clusterCIDRs = (options.clusterCIDRs ?? [DEFAULT_CLUSTER_CIDR]).map(parseCIDR);
    this.cidrSets = clusterCIDRs.map(
      (cidr, i) =>
        new CidrSet(
          cidr,
          options.nodeCIDRMaskSizes?.[i] ?? (cidr.bits === 32 ? DEFAULT_NODE_MASK_IPV4 : DEFAULT_NODE_MASK_IPV6),
        ),
    );
    // filterOutServiceRange: the service range's addresses are never a node's.
    for (const service of (options.serviceCIDRs ?? []).map(parseCIDR)) {
      for (const set of this.cidrSets) {
        try {
          set.occupy(service);
        } catch {
          // Not overlapping this cluster CIDR.
        }
      }
    }
    this.recorder = new EventRecorder({ client: this.client, clock, component: COMPONENT });
    this.queue = new WorkQueue<string>({ clock, rateLimiter: defaultControllerRateLimiter(clock) });
    this.nodes = options.factory.informerFor(RESOURCES.nodes);
    this.handlers.add(this.nodes, {
      onAdd: (node) => this.queue.add(objectKey(node)),
      onUpdate: (_old, node) => this.queue.add(objectKey(node)),
      onDelete: (node) => {
        try {
          this.releaseCIDRs(node);
        } catch (err) {
          this.onError(new Error(`error while processing CIDR Release: ${String(err)}`), objectKey(node));
        }
      },
    });
    this.workers = new Workers({
      queue: this.queue,
      handlers: this.handlers,
      sync: (key) => this.syncNode(key),
      onError: this.onError,
    });
  }

  /**
   * Run: once the node cache has synced, the CIDRs of the nodes that exist are occupied (as
   * NewCIDRRangeAllocator does with its node list), then the workers allocate.
   */
  async run(workers = CIDR_UPDATE_WORKERS): Promise<void> {
    if (!(await this.handlers.synced())) return;
    for (const node of this.nodes.lister().list()) {
      try {
        this.occupyCIDRs(node);
      } catch (err) {
        this.onError(err, objectKey(node));
      }
    }
    await this.workers.run(workers);
  }

  async stop(): Promise<void> {
    await this.workers.stop();
    await this.recorder.flush();
  }

  /** syncNode: a node that exists and is not being deleted gets its CIDRs, or has them occupied. */
  private async syncNode(key: string): Promise<void> {
    const node = this.nodes.get(undefined, key);
    if (node === undefined || (node.metadata?.deletionTimestamp ?? null) !== null) return;
    if ((node.spec?.podCIDRs ?? []).length > 0) {
      this.occupyCIDRs(node);
      return;
    }
    const allocated: string[] = [];
    for (const [idx, set] of this.cidrSets.entries()) {
      try {
        allocated.push(set.allocateNext());
      } catch (err) {
        this.recordNodeStatusChange(node, 'CIDRNotAvailable');
        throw new Error(`failed to allocate cidr from cluster cidr at idx:${idx}: ${(err as Error).message}`);
      }
    }
    await this.updateCIDRsAllocation(key, allocated);
  }

  /** updateCIDRsAllocation: the patch, retried; the CIDRs released again when it is not needed or fails. */
  private async updateCIDRsAllocation(name: string, cidrs: string[]): Promise<void> {
    const release = () => {
      for (const [idx, cidr] of cidrs.entries()) this.cidrSets[idx]?.release(cidr);
    };
    const node = this.nodes.get(undefined, name);
    if (node === undefined) {
      release();
      throw new Error(`node "${name}" not found`);
    }
    const current = node.spec?.podCIDRs ?? [];
    if (current.length === cidrs.length && current.every((c, i) => c === cidrs[i])) return;
    // Someone else gave it CIDRs meanwhile: ours go back.
    if (current.length !== 0) {
      release();
      return;
    }
    let error: unknown;
    for (let i = 0; i < CIDR_UPDATE_RETRIES; i++) {
      try {
        // nodeutil.PatchNodeCIDRs: the legacy single field and the list.
        await this.client.patch(RESOURCES.nodes, undefined, name, 'strategic', {
          spec: { podCIDR: cidrs[0], podCIDRs: cidrs },
        });
        return;
      } catch (err) {
        error = new Error(`failed to patch node CIDR: ${(err as Error).message}`, { cause: err });
      }
    }
    this.recordNodeStatusChange(node, 'CIDRAssignmentFailed');
    release();
    throw error;
  }

  private occupyCIDRs(node: DeepReadonly<Node>): void {
    const name = node.metadata?.name ?? '';
    for (const [idx, cidr] of (node.spec?.podCIDRs ?? []).entries()) {
      const set = this.cidrSets[idx];
      if (set === undefined) {
        throw new Error(
          `node:${name} has an allocated cidr: ${cidr} at index:${idx} that does not exist in cluster cidrs configuration`,
        );
      }
      try {
        set.occupy(cidr);
      } catch (err) {
        throw new Error(
          `failed to mark cidr[${cidr}] at idx [${idx}] as occupied for node: ${name}: ${(err as Error).message}`,
        );
      }
    }
  }

  private releaseCIDRs(node: DeepReadonly<Node>): void {
    for (const [idx, cidr] of (node.spec?.podCIDRs ?? []).entries()) this.cidrSets[idx]?.release(cidr);
  }

  /** controllerutil.RecordNodeStatusChange: a Normal Event on the node, `Node <name> status is now: <status>`. */
  private recordNodeStatusChange(node: DeepReadonly<Node>, status: string): void {
    const name = node.metadata?.name ?? '';
    this.recorder.record(node, 'Normal', status, `Node ${name} status is now: ${status}`);
  }
}
