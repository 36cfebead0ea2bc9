/**
 * The controllers kube-controller-manager runs in kubewasm, as its NewControllerDescriptors
 * registers them (cmd/kube-controller-manager/app/controllermanager.go, core.go, certificates.go
 * at v1.32): each name with its aliases, and how it is built on the ControllerContext — its own
 * client from the client builder (named as kube-controller-manager names it), the shared informers,
 * the options of its flags.
 *
 *   const manager = new ControllerManager(newControllerDescriptors(), ctx);
 */
import type { ControllerContext } from './framework/context.js';
import { ControllerDescriptors } from './framework/manager.js';
import {
  GARBAGE_COLLECTOR_CONTROLLER,
  NAMESPACE_CONTROLLER,
  RESOURCE_QUOTA_CONTROLLER,
  ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER,
  SERVICE_ACCOUNT_CONTROLLER,
} from './framework/names.js';
import { GarbageCollector } from './garbagecollector/garbage-collector.js';
import { NamespaceController } from './namespace/namespace-controller.js';
import { ResourceQuotaController } from './resourcequota/resource-quota-controller.js';
import { RootCAPublisher } from './rootcacertpublisher/publisher.js';
import { ServiceAccountsController } from './serviceaccount/serviceaccounts-controller.js';

/** HandleError for a controller's keys: through its logger, the key as the message. */
const reportTo =
  (ctx: ControllerContext) =>
  (err: unknown, key: string): void =>
    ctx.logger.error(err, key);

/** NewControllerDescriptors: the registry of the controllers kubewasm has. */
export function newControllerDescriptors(): ControllerDescriptors {
  return new ControllerDescriptors([
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
          resources: ctx.resources,
          clock: ctx.clock,
          ...(ctx.options.concurrentGCSyncs === undefined ? {} : { workers: ctx.options.concurrentGCSyncs }),
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
