/**
 * What every controller is built from (cmd/kube-controller-manager/app ControllerContext, v1.32):
 * the shared informer factory all of them read, a client builder that gives each controller its
 * own client (--use-service-account-credentials: its ServiceAccount's token), the clock, a
 * logger, the controller manager's options, and the resources the cluster serves (discovery's
 * role).
 *
 *   const client = await ctx.clientBuilder.client('namespace-controller');
 *   const namespaces = ctx.informerFactory.informerFor(RESOURCES.namespaces);
 */
import type { Client } from '../../client/client.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { ResourceType } from '../../client/resources.js';
import type { Clock } from '../../sim/clock.js';
import type { Logger } from '../../sim/logger.js';

/** ControllerClientBuilder: a client per controller, named as kube-controller-manager names its ServiceAccount. */
export interface ClientBuilder {
  /** `client('generic-garbage-collector')`: the client as that controller's own identity. */
  client(name: string): Promise<Client>;
}

/** The kube-controller-manager options kubewasm's controllers read (KubeControllerManagerConfiguration). */
export interface ControllerManagerOptions {
  /** --controllers, aliases resolved to names (manager.ts parseControllers). Default `['*']`. */
  controllers: readonly string[];
  /** --concurrent-namespace-syncs (default 10). */
  concurrentNamespaceSyncs?: number;
  /** --concurrent-gc-syncs (default 20). */
  concurrentGCSyncs?: number;
  /** --concurrent-resource-quota-syncs (default 5). */
  concurrentResourceQuotaSyncs?: number;
  /** --concurrent-daemonset-syncs (default 2). */
  concurrentDaemonSetSyncs?: number;
  /** --concurrent-deployment-syncs (default 5). */
  concurrentDeploymentSyncs?: number;
  /** --concurrent-job-syncs (default 5). */
  concurrentJobSyncs?: number;
  /** --concurrent-replicaset-syncs (default 5). */
  concurrentReplicaSetSyncs?: number;
  /** --leader-elect (default true): run only while holding the kube-system/kube-controller-manager Lease. */
  leaderElect?: boolean;
  /** --terminated-pod-gc-threshold (default 12500; 0 or less: terminated pods are kept). */
  terminatedPodGCThreshold?: number;
  /** --allocate-node-cidrs: node IPAM runs only with it (kubewasm's default: on, as kubeadm and kind set it). */
  allocateNodeCIDRs?: boolean;
  /** --cluster-cidr: the pods' CIDRs, comma-separated, one per family (default 10.244.0.0/16). */
  clusterCIDR?: string;
  /** --service-cluster-ip-range: kept out of the node CIDRs. */
  serviceCIDR?: string;
  /** --resource-quota-sync-period in ms (default 5m0s). */
  resourceQuotaSyncPeriodMs?: number;
  /** The contents of --root-ca-file: the CA the root-ca-certificate-publisher puts in every namespace. */
  rootCA?: string;
}

export interface ControllerContext {
  /** The shared informers: one list+watch per resource for every controller of the process. */
  readonly informerFactory: SharedInformerFactory;
  readonly clientBuilder: ClientBuilder;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly options: ControllerManagerOptions;
  /** The served resources that can be listed, one (the preferred) version per group and resource. */
  readonly resources: readonly ResourceType[];
}
