/**
 * ClusterIPs and NodePorts for Services, as the service REST does it
 * (pkg/registry/core/service/storage/alloc.go and rest.go, v1.32), IPv4 single-stack:
 * - create: `clusterIP: None` is headless, ExternalName gets nothing, otherwise the requested IP is
 *   reserved (422 on `spec.clusterIPs` when taken or outside the range) or a random one is drawn;
 *   NodePort and LoadBalancer ports get their requested node port or a random one;
 * - update: the allocated values a client left out are patched back in (patchAllocatedValues), type
 *   changes allocate or release, the primary ClusterIP may not change;
 * - delete releases everything. Every write is a transaction: commit() after the object is stored,
 *   revert() when the write failed, so nothing leaks. Dry runs reserve nothing.
 *
 * The state is rebuilt from the stored Services before the first use (the repair controllers'
 * job in Kubernetes, pkg/registry/core/service/{ipallocator,portallocator}/controller/repair.go);
 * no RangeAllocation object is persisted.
 */
import { type ErrorList, FieldPath, invalid } from '../../api/field-errors.js';
import type { KubeObject } from '../../api/meta.js';
import { newInternalError, newInvalid } from '../../api/status.js';
import type { Storage } from '../../storage/storage.js';
import { decodeStored } from '../decode/codec.js';
import type { RandomIntn } from './bitmap.js';
import { AllocationError, IpRange } from './ip-range.js';
import { PortAllocationOperation, PortAllocator } from './port-range.js';

// kube-apiserver flags --service-cluster-ip-range (kubeadm's DefaultServicesSubnet,
// cmd/kubeadm/app/apis/kubeadm/v1beta4/defaults.go) and --service-node-port-range
// (pkg/kubeapiserver/options/options.go DefaultServiceNodePortRange).
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.96.0.0/12';
export const DEFAULT_SERVICE_NODE_PORT_RANGE = '30000-32767';
// api.ClusterIPNone
export const CLUSTER_IP_NONE = 'None';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What a write did to the allocators: commit once stored, revert when the write failed. */
export interface AllocationTxn {
  commit(): void;
  revert(): void;
}

const NOOP_TXN: AllocationTxn = { commit: () => {}, revert: () => {} };

function specOf(svc: KubeObject): Obj {
  const o = svc as Obj;
  if (!isObj(o.spec)) o.spec = {};
  return o.spec as Obj;
}

const typeOf = (spec: Obj): string => (typeof spec.type === 'string' && spec.type !== '' ? spec.type : 'ClusterIP');
const needsClusterIP = (spec: Obj): boolean => typeOf(spec) !== 'ExternalName';
const needsNodePort = (spec: Obj): boolean => typeOf(spec) === 'NodePort' || typeOf(spec) === 'LoadBalancer';
const needsHealthCheckNodePort = (spec: Obj): boolean =>
  typeOf(spec) === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

/** shouldAllocateNodePorts: NodePort always; LoadBalancer unless allocateLoadBalancerNodePorts is false. */
function shouldAllocateNodePorts(spec: Obj): boolean {
  if (typeOf(spec) === 'NodePort') return true;
  if (typeOf(spec) === 'LoadBalancer') return spec.allocateLoadBalancerNodePorts !== false;
  return false;
}

function clusterIPs(spec: Obj): string[] {
  return Array.isArray(spec.clusterIPs) ? spec.clusterIPs.filter((x): x is string => typeof x === 'string') : [];
}

function ports(spec: Obj): Obj[] {
  return Array.isArray(spec.ports) ? spec.ports.filter(isObj) : [];
}

const nodePortOf = (p: Obj): number => (typeof p.nodePort === 'number' ? p.nodePort : 0);

/** collectServiceNodePorts: every node port and the health check node port. */
function collectNodePorts(spec: Obj): number[] {
  const out = ports(spec)
    .map(nodePortOf)
    .filter((n) => n !== 0);
  if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort !== 0)
    out.push(spec.healthCheckNodePort);
  return out;
}

const sameList = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

const invalidService = (name: string, errs: ErrorList) => newInvalid({ group: '', kind: 'Service' }, name, errs);

export interface ServiceAllocatorOptions {
  storage: Storage;
  clusterIPRange?: string;
  nodePortRange?: string;
  /** Random source for both bitmaps (tests). */
  intn?: RandomIntn;
}

export class ServiceAllocators {
  readonly ips: IpRange;
  readonly nodePorts: PortAllocator;
  private readonly storage: Storage;
  private repaired: Promise<void> | undefined;

  constructor(options: ServiceAllocatorOptions) {
    this.storage = options.storage;
    this.ips = IpRange.parse(options.clusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE, options.intn);
    this.nodePorts = PortAllocator.parse(options.nodePortRange ?? DEFAULT_SERVICE_NODE_PORT_RANGE, options.intn);
  }

  /** Rebuilds the allocations from the stored Services, once, before the first allocation. */
  ready(): Promise<void> {
    this.repaired ??= this.repair();
    return this.repaired;
  }

  private async repair(): Promise<void> {
    const page = await this.storage.list('/registry/services/');
    for (const stored of page.items) {
      const spec = specOf(decodeStored(stored));
      // repair.go: addresses out of range or taken twice are reported, not fatal; here they stay out.
      if (needsClusterIP(spec)) {
        for (const ip of clusterIPs(spec)) {
          if (ip === CLUSTER_IP_NONE || !this.ips.contains(ip) || this.ips.has(ip)) continue;
          this.ips.allocate(ip);
        }
      }
      for (const port of collectNodePorts(spec)) {
        if (this.nodePorts.contains(port) && !this.nodePorts.has(port)) this.nodePorts.allocate(port);
      }
    }
  }

  /** allocateCreate: fills spec.clusterIP(s), ipFamilies, ipFamilyPolicy and node ports of `svc`. */
  allocateCreate(svc: KubeObject, dryRun: boolean): AllocationTxn {
    const spec = specOf(svc);
    const name = svc.metadata?.name ?? '';
    prepareServiceCreate(svc);
    initIPFamilyFields(spec);
    const ipTxn = this.allocClusterIPs(spec, name, dryRun);
    try {
      const portTxn = this.allocNodePortsCreate(spec, name, dryRun);
      return chain(ipTxn, portTxn);
    } catch (err) {
      ipTxn.revert();
      throw err;
    }
  }

  /** allocateUpdate, after the service strategy's dropTypeDependentFields. */
  allocateUpdate(svc: KubeObject, old: KubeObject, dryRun: boolean): AllocationTxn {
    const spec = specOf(svc);
    const oldSpec = specOf(structuredClone(old));
    const name = svc.metadata?.name ?? '';
    prepareServiceUpdate(svc, old);
    initIPFamilyFields(spec, oldSpec);
    const errs = validateClusterIPsUpdate(spec, oldSpec);
    if (errs.length > 0) throw invalidService(name, errs);

    // updateClusterIPs, single-stack: ExternalName → other allocates, other → ExternalName releases.
    let ipTxn: AllocationTxn = NOOP_TXN;
    const oldType = typeOf(oldSpec);
    const newType = typeOf(spec);
    if (oldType === 'ExternalName' && newType !== 'ExternalName') {
      ipTxn = this.allocClusterIPs(spec, name, dryRun);
    } else if (oldType !== 'ExternalName' && newType === 'ExternalName' && clusterIPs(oldSpec)[0] !== CLUSTER_IP_NONE) {
      const release = clusterIPs(oldSpec);
      ipTxn = {
        commit: () => {
          if (!dryRun) for (const ip of release) this.ips.release(ip);
        },
        revert: () => {},
      };
    }
    try {
      const portTxn = this.updateNodePorts(spec, oldSpec, name, dryRun);
      return chain(ipTxn, portTxn);
    } catch (err) {
      ipTxn.revert();
      throw err;
    }
  }

  /** releaseAllocatedResources: after the Service is gone. */
  release(svc: KubeObject): void {
    const spec = specOf(structuredClone(svc));
    if (needsClusterIP(spec)) for (const ip of clusterIPs(spec)) if (ip !== CLUSTER_IP_NONE) this.ips.release(ip);
    for (const port of collectNodePorts(spec)) this.nodePorts.release(port);
  }

  /** allocClusterIPs + allocIPs for the one IPv4 family. */
  private allocClusterIPs(spec: Obj, name: string, dryRun: boolean): AllocationTxn {
    if (!needsClusterIP(spec)) return NOOP_TXN;
    const ips = clusterIPs(spec);
    if (ips[0] === CLUSTER_IP_NONE) return NOOP_TXN;
    const requested = ips[0] ?? '';
    let ip: string;
    if (requested === '') {
      try {
        ip = this.ips.allocateNext(dryRun);
      } catch (err) {
        throw newInternalError(`failed to allocate a serviceIP: ${(err as Error).message}`);
      }
    } else {
      try {
        this.ips.allocate(requested, dryRun);
      } catch (err) {
        if (!(err instanceof AllocationError)) throw err;
        throw invalidService(name, [
          invalid(FieldPath.root('spec', 'clusterIPs'), ips, `failed to allocate IP ${requested}: ${err.message}`),
        ]);
      }
      ip = requested;
    }
    spec.clusterIPs = [ip, ...ips.slice(1)];
    spec.clusterIP = ip;
    return {
      commit: () => {},
      revert: () => {
        if (!dryRun) this.ips.release(ip);
      },
    };
  }

  /** txnAllocNodePorts + initNodePorts: one node port per service port number. */
  private allocNodePortsCreate(spec: Obj, name: string, dryRun: boolean): AllocationTxn {
    const op = new PortAllocationOperation(this.nodePorts, dryRun);
    try {
      if (needsNodePort(spec)) {
        const list = ports(spec);
        const byServicePort = new Map<unknown, number>();
        list.forEach((p, i) => {
          if (nodePortOf(p) === 0 && !shouldAllocateNodePorts(spec)) return;
          const already = byServicePort.get(p.port) ?? 0;
          if (already === 0) {
            const requested = nodePortOf(list.slice(i).find((q) => q.port === p.port && nodePortOf(q) !== 0) ?? {});
            if (requested !== 0) {
              this.allocatePort(op, requested, i, name);
              p.nodePort = requested;
              byServicePort.set(p.port, requested);
            } else {
              p.nodePort = this.nextPort(op);
              byServicePort.set(p.port, p.nodePort as number);
            }
          } else if (nodePortOf(p) !== already) {
            if (nodePortOf(p) === 0) p.nodePort = already;
            else this.allocatePort(op, nodePortOf(p), i, name);
          }
        });
      }
      if (needsHealthCheckNodePort(spec)) this.allocHealthCheckNodePort(spec, op);
    } catch (err) {
      op.finish();
      throw err;
    }
    return { commit: () => op.commit(), revert: () => op.finish() };
  }

  /** txnUpdateNodePorts + updateNodePorts. */
  private updateNodePorts(spec: Obj, oldSpec: Obj, name: string, dryRun: boolean): AllocationTxn {
    const op = new PortAllocationOperation(this.nodePorts, dryRun);
    try {
      const oldNumbers = collectNodePorts(oldSpec);
      if (needsNodePort(oldSpec) && !needsNodePort(spec)) for (const n of oldNumbers) op.releaseLater(n);
      if (needsNodePort(spec)) {
        const taken = new Set<number>();
        ports(spec).forEach((p, i) => {
          if (nodePortOf(p) === 0 && !shouldAllocateNodePorts(spec)) return;
          const np = nodePortOf(p);
          if (np !== 0) {
            if (!oldNumbers.includes(np) && !taken.has(np)) {
              this.allocatePort(op, np, i, name);
              taken.add(np);
            }
          } else {
            p.nodePort = this.nextPort(op);
          }
        });
        const newNumbers = collectNodePorts(spec);
        for (const n of oldNumbers) if (!newNumbers.includes(n)) op.releaseLater(n);
      }
      const hadHC = needsHealthCheckNodePort(oldSpec);
      const needsHC = needsHealthCheckNodePort(spec);
      if (!hadHC && needsHC) this.allocHealthCheckNodePort(spec, op);
      else if (hadHC && !needsHC && typeof oldSpec.healthCheckNodePort === 'number') {
        op.releaseLater(oldSpec.healthCheckNodePort);
        delete spec.healthCheckNodePort;
      }
    } catch (err) {
      op.finish();
      throw err;
    }
    return { commit: () => op.commit(), revert: () => op.finish() };
  }

  private allocatePort(op: PortAllocationOperation, port: number, index: number, name: string): void {
    try {
      op.allocate(port);
    } catch (err) {
      if (!(err instanceof AllocationError)) throw err;
      throw invalidService(name, [
        invalid(FieldPath.root('spec', 'ports').index(index).child('nodePort'), port, err.message),
      ]);
    }
  }

  private nextPort(op: PortAllocationOperation): number {
    try {
      return op.allocateNext();
    } catch (err) {
      throw newInternalError(`failed to allocate a nodePort: ${(err as Error).message}`);
    }
  }

  private allocHealthCheckNodePort(spec: Obj, op: PortAllocationOperation): void {
    const requested = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
    try {
      if (requested !== 0) op.allocate(requested);
      else spec.healthCheckNodePort = op.allocateNext();
    } catch (err) {
      const what =
        requested !== 0
          ? `failed to allocate requested HealthCheck NodePort ${requested}`
          : 'failed to allocate a HealthCheck NodePort 0';
      throw newInternalError(`${what}: ${(err as Error).message}`);
    }
  }
}

/** The service strategy's PrepareForCreate part that allocation relies on (NormalizeClusterIPs). */
export function prepareServiceCreate(svc: KubeObject): void {
  normalizeClusterIPsOnCreate(specOf(svc));
}

/**
 * Before validation on update: dropTypeDependentFields (PrepareForUpdate), then what the REST's
 * beginUpdate does first: patchAllocatedValues and NormalizeClusterIPs. Idempotent.
 */
export function prepareServiceUpdate(svc: KubeObject, old: KubeObject): void {
  const spec = specOf(svc);
  // A patched object may share its port objects with the stored one; change copies only.
  if (Array.isArray(spec.ports)) spec.ports = structuredClone(spec.ports);
  const oldSpec = specOf(structuredClone(old));
  dropTypeDependentFields(spec, oldSpec);
  patchAllocatedValues(spec, oldSpec);
  normalizeClusterIPsOnUpdate(spec, oldSpec);
}

function chain(a: AllocationTxn, b: AllocationTxn): AllocationTxn {
  return {
    commit: () => {
      a.commit();
      b.commit();
    },
    revert: () => {
      b.revert();
      a.revert();
    },
  };
}

/** NormalizeClusterIPs on create: a client that sent only clusterIP gets clusterIPs = [clusterIP]. */
function normalizeClusterIPsOnCreate(spec: Obj): void {
  if (typeof spec.clusterIP === 'string' && spec.clusterIP !== '' && clusterIPs(spec).length === 0) {
    spec.clusterIPs = [spec.clusterIP];
  }
}

/** NormalizeClusterIPs on update (pkg/registry/core/service/strategy.go). */
function normalizeClusterIPsOnUpdate(spec: Obj, oldSpec: Obj): void {
  const oldIPs = clusterIPs(oldSpec);
  const oldIP = typeof oldSpec.clusterIP === 'string' ? oldSpec.clusterIP : '';
  const newIP = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
  if (oldIPs.length > 0 && clusterIPs(spec).length === 0 && oldIP === newIP) spec.clusterIPs = oldIPs;
  if (oldIP !== newIP) {
    const same = sameList(oldIPs, clusterIPs(spec));
    if (oldIP !== '' && newIP === '' && same) delete spec.clusterIPs;
    if (newIP !== '' && same) spec.clusterIPs = [newIP];
  }
}

/** patchAllocatedValues: values allocated for the client that a resubmitted manifest leaves out. */
function patchAllocatedValues(spec: Obj, oldSpec: Obj): void {
  if (needsClusterIP(oldSpec) && needsClusterIP(spec)) {
    if ((spec.clusterIP ?? '') === '' && oldSpec.clusterIP !== undefined) spec.clusterIP = oldSpec.clusterIP;
    if (clusterIPs(spec).length === 0 && clusterIPs(oldSpec).length > 0) spec.clusterIPs = clusterIPs(oldSpec);
  }
  if (needsNodePort(oldSpec) && needsNodePort(spec)) {
    const oldUsed = new Set(ports(oldSpec).map(nodePortOf));
    const used = new Set(
      ports(spec)
        .map(nodePortOf)
        .filter((n) => oldUsed.has(n)),
    );
    const byName = new Map(ports(oldSpec).map((p) => [p.name ?? '', nodePortOf(p)]));
    for (const p of ports(spec)) {
      if (nodePortOf(p) !== 0) continue;
      const oldVal = byName.get(p.name ?? '') ?? 0;
      if (oldVal !== 0 && !used.has(oldVal)) p.nodePort = oldVal;
    }
  }
  if (needsHealthCheckNodePort(oldSpec) && needsHealthCheckNodePort(spec) && !spec.healthCheckNodePort) {
    if (oldSpec.healthCheckNodePort !== undefined) spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
}

/** The service strategy's dropTypeDependentFields for the fields allocation owns. */
function dropTypeDependentFields(spec: Obj, oldSpec: Obj): void {
  if (needsClusterIP(oldSpec) && !needsClusterIP(spec)) {
    if ((spec.clusterIP ?? '') === (oldSpec.clusterIP ?? '') && sameList(clusterIPs(spec), clusterIPs(oldSpec))) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (JSON.stringify(spec.ipFamilies) === JSON.stringify(oldSpec.ipFamilies)) delete spec.ipFamilies;
    if (spec.ipFamilyPolicy === oldSpec.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(oldSpec) && !needsNodePort(spec)) {
    const same = sameList(ports(spec).map(nodePortOf), ports(oldSpec).map(nodePortOf));
    if (same) for (const p of ports(spec)) delete p.nodePort;
  }
  if (needsHealthCheckNodePort(oldSpec) && !needsHealthCheckNodePort(spec)) {
    if (spec.healthCheckNodePort === oldSpec.healthCheckNodePort) delete spec.healthCheckNodePort;
  }
  if (needsNodePort(oldSpec) && !needsNodePort(spec) && spec.externalTrafficPolicy === oldSpec.externalTrafficPolicy) {
    delete spec.externalTrafficPolicy;
  }
}

/**
 * initIPFamilyFields for a single-stack IPv4 cluster: ipFamilyPolicy defaults to SingleStack
 * (RequireDualStack for a headless service without selector, whose families then stay IPv4 only
 * here) and ipFamilies to [IPv4]; SetDefaults_Service's traffic policies come along.
 */
function initIPFamilyFields(spec: Obj, oldSpec?: Obj): void {
  if (!needsClusterIP(spec)) return;
  if (spec.ipFamilyPolicy === undefined) {
    const headlessSelectorless =
      clusterIPs(spec)[0] === CLUSTER_IP_NONE && (!isObj(spec.selector) || Object.keys(spec.selector).length === 0);
    spec.ipFamilyPolicy =
      oldSpec?.ipFamilyPolicy !== undefined
        ? oldSpec.ipFamilyPolicy
        : headlessSelectorless
          ? 'RequireDualStack'
          : 'SingleStack';
  }
  if (!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) spec.ipFamilies = ['IPv4'];
  // SetDefaults_Service (pkg/apis/core/v1/defaults.go).
  spec.internalTrafficPolicy ??= 'Cluster';
  if (needsNodePort(spec)) spec.externalTrafficPolicy ??= 'Cluster';
  if (typeOf(spec) === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
}

/** validateUpgradeDowngradeClusterIPs for one family: the primary ClusterIP is immutable. */
function validateClusterIPsUpdate(spec: Obj, oldSpec: Obj): ErrorList {
  if (!needsClusterIP(spec) || !needsClusterIP(oldSpec)) return [];
  const oldIPs = clusterIPs(oldSpec);
  const newIPs = clusterIPs(spec);
  if (oldIPs[0] === CLUSTER_IP_NONE && newIPs[0] === CLUSTER_IP_NONE) return [];
  const path = FieldPath.root('spec', 'clusterIPs').index(0);
  if (oldIPs.length > 0 && newIPs.length === 0) return [invalid(path, newIPs, 'primary clusterIP can not be unset')];
  if (oldIPs.length > 0 && newIPs[0] !== oldIPs[0]) return [invalid(path, newIPs, 'may not change once set')];
  return [];
}
