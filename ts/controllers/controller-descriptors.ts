/**
 * kube-controller-manager's controllers, as its NewControllerDescriptors registers them
 * (cmd/kube-controller-manager/app/controllermanager.go and the descriptors of core.go, apps.go,
 * batch.go, certificates.go, bootstrap.go … at v1.32): every 1.32 name with its aliases and
 * whether it is off by default, so that `--controllers` takes what kube-controller-manager takes
 * (kubeadm's `*,bootstrapsigner,tokencleaner`, `*,-deployment-controller`). The ones kubewasm runs
 * have an init — their own client from the client builder (named as kube-controller-manager names
 * it), the shared informers, the options of their flags; the others have none yet, and the
 * manager skips them as kube-controller-manager skips a controller whose init did not start it.
 *
 *   const manager = new ControllerManager(newControllerDescriptors(), ctx);
 */
import { BUILTIN_RESOURCES } from '../api/resources.js';
import { CronJobController } from './cronjob/cronjob-controller.js';
import { DaemonSetsController } from './daemon/daemon-set-controller.js';
import { DeploymentController } from './deployment/deployment-controller.js';
import { DisruptionController } from './disruption/disruption-controller.js';
import { EndpointsController } from './endpoint/endpoints-controller.js';
import { EndpointSliceController } from './endpointslice/endpointslice-controller.js';
import type { ControllerContext } from './framework/context.js';
import { type ControllerDescriptor, ControllerDescriptors } from './framework/manager.js';
import * as names from './framework/names.js';
import {
  DEPLOYMENT_CONTROLLER,
  ENDPOINT_SLICE_CONTROLLER,
  ENDPOINTS_CONTROLLER,
  GARBAGE_COLLECTOR_CONTROLLER,
  JOB_CONTROLLER,
  NAMESPACE_CONTROLLER,
  NODE_IPAM_CONTROLLER,
  NODE_LIFECYCLE_CONTROLLER,
  POD_GARBAGE_COLLECTOR_CONTROLLER,
  REPLICA_SET_CONTROLLER,
  RESOURCE_QUOTA_CONTROLLER,
  ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER,
  SERVICE_ACCOUNT_CONTROLLER,
  TAINT_EVICTION_CONTROLLER,
  TTL_AFTER_FINISHED_CONTROLLER,
} from './framework/names.js';
import { GarbageCollector } from './garbagecollector/garbage-collector.js';
import { JobController } from './job/job-controller.js';
import { NamespaceController } from './namespace/namespace-controller.js';
import { NodeIpamController } from './nodeipam/node-ipam-controller.js';
import { NodeLifecycleController } from './nodelifecycle/node-lifecycle-controller.js';
import { PodGCController } from './podgc/gc-controller.js';
import { ReplicaSetController } from './replicaset/replica-set-controller.js';
import { ReplicationManager } from './replication/replication-controller.js';
import { ResourceQuotaController } from './resourcequota/resource-quota-controller.js';
import { RootCAPublisher } from './rootcacertpublisher/publisher.js';
import { ServiceAccountsController } from './serviceaccount/serviceaccounts-controller.js';
import { StatefulSetController } from './statefulset/stateful-set-controller.js';
import { TaintEvictionController } from './tainteviction/taint-eviction-controller.js';
import { TTLAfterFinishedController } from './ttlafterfinished/ttl-after-finished-controller.js';

/** HandleError for a controller's keys: through its logger, the key as the message. */
const reportTo =
  (ctx: ControllerContext) =>
  (err: unknown, key: string): void =>
    ctx.logger.error(err, key);

/**
 * The 1.32 controllers kubewasm does not run yet, in NewControllerDescriptors' order, with the
 * aliases and the disabled-by-default flag of their descriptors (the file of each in the comment).
 */
const NOT_YET_RUN: readonly ControllerDescriptor[] = [
  // controllermanager.go newServiceAccountTokenControllerDescriptor
  { name: names.SERVICE_ACCOUNT_TOKEN_CONTROLLER, aliases: ['serviceaccount-token'] },
  // core.go
  // discovery.go
  { name: names.ENDPOINT_SLICE_MIRRORING_CONTROLLER, aliases: ['endpointslicemirroring'] },
  // apps.go
  // batch.go
  // apps.go
  // autoscaling.go
  { name: names.HORIZONTAL_POD_AUTOSCALER_CONTROLLER, aliases: ['horizontalpodautoscaling'] },
  // apps.go
  // batch.go
  // certificates.go
  { name: names.CERTIFICATE_SIGNING_REQUEST_SIGNING_CONTROLLER, aliases: ['csrsigning'] },
  { name: names.CERTIFICATE_SIGNING_REQUEST_APPROVING_CONTROLLER, aliases: ['csrapproving'] },
  { name: names.CERTIFICATE_SIGNING_REQUEST_CLEANER_CONTROLLER, aliases: ['csrcleaner'] },
  // core.go
  { name: names.TTL_CONTROLLER, aliases: ['ttl'] },
  // bootstrap.go: both off unless named (kubeadm names them).
  { name: names.BOOTSTRAP_SIGNER_CONTROLLER, aliases: ['bootstrapsigner'], disabledByDefault: true },
  { name: names.TOKEN_CLEANER_CONTROLLER, aliases: ['tokencleaner'], disabledByDefault: true },
  // core.go
  // core.go: the cloud provider controllers.
  { name: names.SERVICE_LB_CONTROLLER, aliases: ['service'] },
  { name: names.NODE_ROUTE_CONTROLLER, aliases: ['route'] },
  { name: names.CLOUD_NODE_LIFECYCLE_CONTROLLER, aliases: ['cloud-node-lifecycle'] },
  // core.go
  { name: names.PERSISTENT_VOLUME_BINDER_CONTROLLER, aliases: ['persistentvolume-binder'] },
  { name: names.PERSISTENT_VOLUME_ATTACH_DETACH_CONTROLLER, aliases: ['attachdetach'] },
  { name: names.PERSISTENT_VOLUME_EXPANDER_CONTROLLER, aliases: ['persistentvolume-expander'] },
  // rbac.go
  { name: names.CLUSTER_ROLE_AGGREGATION_CONTROLLER, aliases: ['clusterrole-aggregation'] },
  // core.go
  { name: names.PERSISTENT_VOLUME_CLAIM_PROTECTION_CONTROLLER, aliases: ['pvc-protection'] },
  { name: names.PERSISTENT_VOLUME_PROTECTION_CONTROLLER, aliases: ['pv-protection'] },
  { name: names.VOLUME_ATTRIBUTES_CLASS_PROTECTION_CONTROLLER },
  { name: names.EPHEMERAL_VOLUME_CONTROLLER, aliases: ['ephemeral-volume'] },
  // core.go … storageversionmigrator.go, selinux: the feature-gated ones.
  { name: names.STORAGE_VERSION_GARBAGE_COLLECTOR_CONTROLLER, aliases: ['storage-version-gc'] },
  { name: names.RESOURCE_CLAIM_CONTROLLER, aliases: ['resource-claim-controller'] },
  { name: names.LEGACY_SERVICE_ACCOUNT_TOKEN_CLEANER_CONTROLLER, aliases: ['legacy-service-account-token-cleaner'] },
  { name: names.VALIDATING_ADMISSION_POLICY_STATUS_CONTROLLER },
  { name: names.SERVICE_CIDR_CONTROLLER },
  { name: names.STORAGE_VERSION_MIGRATOR_CONTROLLER, aliases: ['svm'] },
  { name: names.SELINUX_WARNING_CONTROLLER, disabledByDefault: true },
];

/** NewControllerDescriptors: every kube-controller-manager 1.32 controller; those kubewasm runs with their init. */
export function newControllerDescriptors(): ControllerDescriptors {
  return new ControllerDescriptors([
    ...NOT_YET_RUN,
    {
      name: NAMESPACE_CONTROLLER,
      aliases: ['namespace'],
      // startModifiedNamespaceController: the deleter sees every namespaced type, CRDs' included.
      init: async (ctx) =>
        new NamespaceController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('namespace-controller'),
          resources: ctx.resources.filter((r) => r.namespaced),
          customResources: true,
          clock: ctx.clock,
          ...(ctx.options.concurrentNamespaceSyncs === undefined
            ? {}
            : { workers: ctx.options.concurrentNamespaceSyncs }),
          onError: reportTo(ctx),
        }),
    },
    {
      name: GARBAGE_COLLECTOR_CONTROLLER,
      aliases: ['garbagecollector'],
      init: async (ctx) =>
        new GarbageCollector({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('generic-garbage-collector'),
          // Every served resource, and the custom ones as CRDs come and go (resyncMonitors).
          resources: ctx.resources,
          customResources: true,
          clock: ctx.clock,
          ...(ctx.options.concurrentGCSyncs === undefined ? {} : { workers: ctx.options.concurrentGCSyncs }),
          onError: reportTo(ctx),
        }),
    },
    {
      name: names.CRON_JOB_CONTROLLER,
      aliases: ['cronjob'],
      // batch.go startCronJobController.
      init: async (ctx) =>
        new CronJobController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('cronjob-controller'),
          clock: ctx.clock,
          onError: reportTo(ctx),
          logger: ctx.logger,
        }),
    },
    {
      name: JOB_CONTROLLER,
      aliases: ['job'],
      // batch.go startJobController.
      init: async (ctx) =>
        new JobController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('job-controller'),
          clock: ctx.clock,
          ...(ctx.options.concurrentJobSyncs === undefined ? {} : { workers: ctx.options.concurrentJobSyncs }),
          onError: reportTo(ctx),
          logger: ctx.logger,
        }),
    },
    {
      name: TTL_AFTER_FINISHED_CONTROLLER,
      aliases: ['ttl-after-finished'],
      // core.go startTTLAfterFinishedController.
      init: async (ctx) =>
        new TTLAfterFinishedController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('ttl-after-finished-controller'),
          clock: ctx.clock,
          onError: reportTo(ctx),
          logger: ctx.logger,
        }),
    },
    {
      name: NODE_IPAM_CONTROLLER,
      aliases: ['nodeipam'],
      // core.go startNodeIpamController: only with --allocate-node-cidrs; the range allocator.
      init: async (ctx) =>
        ctx.options.allocateNodeCIDRs === false
          ? undefined
          : new NodeIpamController({
              factory: ctx.informerFactory,
              client: await ctx.clientBuilder.client('node-controller'),
              ...(ctx.options.clusterCIDR === undefined
                ? {}
                : { clusterCIDRs: ctx.options.clusterCIDR.split(',').map((c) => c.trim()) }),
              ...(ctx.options.serviceCIDR === undefined
                ? {}
                : { serviceCIDRs: ctx.options.serviceCIDR.split(',').map((c) => c.trim()) }),
              clock: ctx.clock,
              onError: reportTo(ctx),
            }),
    },
    {
      name: NODE_LIFECYCLE_CONTROLLER,
      aliases: ['nodelifecycle'],
      // core.go startNodeLifecycleController: node-controller's client.
      init: async (ctx) =>
        new NodeLifecycleController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('node-controller'),
          clock: ctx.clock,
          onError: reportTo(ctx),
          logger: ctx.logger,
        }),
    },
    {
      name: TAINT_EVICTION_CONTROLLER,
      // core.go startTaintEvictionController: "taint-manager uses existing cluster role from node-controller".
      init: async (ctx) =>
        new TaintEvictionController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('node-controller'),
          clock: ctx.clock,
          onError: reportTo(ctx),
          logger: ctx.logger,
        }),
    },
    {
      name: POD_GARBAGE_COLLECTOR_CONTROLLER,
      aliases: ['podgc'],
      // core.go startPodGCController.
      init: async (ctx) =>
        new PodGCController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('pod-garbage-collector'),
          ...(ctx.options.terminatedPodGCThreshold === undefined
            ? {}
            : { terminatedPodThreshold: ctx.options.terminatedPodGCThreshold }),
          clock: ctx.clock,
          onError: reportTo(ctx),
        }),
    },
    {
      name: ENDPOINTS_CONTROLLER,
      aliases: ['endpoint'],
      // core.go startEndpointsController.
      init: async (ctx) =>
        new EndpointsController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('endpoint-controller'),
          clock: ctx.clock,
          onError: reportTo(ctx),
        }),
    },
    {
      name: ENDPOINT_SLICE_CONTROLLER,
      aliases: ['endpointslice'],
      // discovery.go startEndpointSliceController.
      init: async (ctx) =>
        new EndpointSliceController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('endpointslice-controller'),
          clock: ctx.clock,
          onError: reportTo(ctx),
        }),
    },
    {
      name: names.DAEMON_SET_CONTROLLER,
      aliases: ['daemonset'],
      // apps.go startDaemonSetController.
      init: async (ctx) =>
        new DaemonSetsController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('daemon-set-controller'),
          clock: ctx.clock,
          ...(ctx.options.concurrentDaemonSetSyncs === undefined
            ? {}
            : { workers: ctx.options.concurrentDaemonSetSyncs }),
          onError: reportTo(ctx),
          logger: ctx.logger,
        }),
    },
    {
      name: names.STATEFUL_SET_CONTROLLER,
      aliases: ['statefulset'],
      // apps.go startStatefulSetController (--concurrent-statefulset-syncs 5).
      init: async (ctx) =>
        new StatefulSetController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('statefulset-controller'),
          clock: ctx.clock,
          onError: reportTo(ctx),
          logger: ctx.logger,
        }),
    },
    {
      name: DEPLOYMENT_CONTROLLER,
      aliases: ['deployment'],
      // apps.go startDeploymentController.
      init: async (ctx) =>
        new DeploymentController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('deployment-controller'),
          clock: ctx.clock,
          ...(ctx.options.concurrentDeploymentSyncs === undefined
            ? {}
            : { workers: ctx.options.concurrentDeploymentSyncs }),
          onError: reportTo(ctx),
          logger: ctx.logger,
        }),
    },
    {
      name: REPLICA_SET_CONTROLLER,
      aliases: ['replicaset'],
      // apps.go startReplicaSetController.
      init: async (ctx) =>
        new ReplicaSetController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('replicaset-controller'),
          clock: ctx.clock,
          ...(ctx.options.concurrentReplicaSetSyncs === undefined
            ? {}
            : { workers: ctx.options.concurrentReplicaSetSyncs }),
          onError: reportTo(ctx),
        }),
    },
    {
      name: names.REPLICATION_CONTROLLER_CONTROLLER,
      aliases: ['replicationcontroller'],
      // core.go startReplicationController: the replication-controller client, --concurrent-rc-syncs 5.
      init: async (ctx) =>
        new ReplicationManager({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('replication-controller'),
          clock: ctx.clock,
          onError: reportTo(ctx),
        }),
    },
    {
      name: names.DISRUPTION_CONTROLLER,
      aliases: ['disruption'],
      // policy.go newDisruptionControllerDescriptor: the scale finder maps kinds over the served resources.
      init: async (ctx) =>
        new DisruptionController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('disruption-controller'),
          clock: ctx.clock,
          resources: ctx.resources.map(
            (r) =>
              BUILTIN_RESOURCES.find(
                (b) => b.group === r.group && b.version === r.version && b.resource === r.resource,
              ) ?? r,
          ),
          customResources: true,
          onError: reportTo(ctx),
        }),
    },
    {
      name: RESOURCE_QUOTA_CONTROLLER,
      aliases: ['resourcequota'],
      init: async (ctx) =>
        new ResourceQuotaController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('resourcequota-controller'),
          resources: ctx.resources.filter((r) => r.namespaced),
          clock: ctx.clock,
          ...(ctx.options.concurrentResourceQuotaSyncs === undefined
            ? {}
            : { workers: ctx.options.concurrentResourceQuotaSyncs }),
          ...(ctx.options.resourceQuotaSyncPeriodMs === undefined
            ? {}
            : { resyncPeriodMs: ctx.options.resourceQuotaSyncPeriodMs }),
          onError: reportTo(ctx),
          logger: ctx.logger,
        }),
    },
    {
      name: SERVICE_ACCOUNT_CONTROLLER,
      aliases: ['serviceaccount'],
      init: async (ctx) =>
        new ServiceAccountsController({
          factory: ctx.informerFactory,
          client: await ctx.clientBuilder.client('service-account-controller'),
          clock: ctx.clock,
          onError: reportTo(ctx),
        }),
    },
    {
      name: ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER,
      aliases: ['root-ca-cert-publisher'],
      // Without a root CA to publish there is nothing to run.
      init: async (ctx) =>
        ctx.options.rootCA === undefined
          ? undefined
          : new RootCAPublisher({
              factory: ctx.informerFactory,
              client: await ctx.clientBuilder.client('root-ca-cert-publisher'),
              rootCA: ctx.options.rootCA,
              clock: ctx.clock,
              onError: reportTo(ctx),
            }),
    },
  ]);
}
