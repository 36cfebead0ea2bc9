/**
 * The cluster assembly: one Kubernetes control plane in this process — the store, kube-apiserver
 * with its post-start hooks, the identities of its parts, kube-scheduler and
 * kube-controller-manager — all reading one shared informer factory, so that each resource is
 * listed and watched once however many components read it — started in the order a kubeadm
 * cluster comes up and stopped in reverse. No `node:` imports: a browser Worker runs it as it is;
 * Node adds a data directory and an HTTPS front (node.ts, which `kubewasm up` uses).
 *
 *   const cluster = await createCluster({ kubewasm: await loadKubewasm() });
 *   await cluster.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'shop' } });
 *   …  await cluster.stop();
 *
 *   storage ─▶ apiserver ─▶ post-start hooks ─▶ serve? ─▶ kubernetes Service ─▶ scheduler
 *      shared informers ┘ (the apiserver's readers, the scheduler's, the controllers')  ─▶ controller manager
 */
import { BUILTIN_RESOURCES, type ResourceType } from '../api/resources.js';
import { IpRange } from '../apiserver/allocators/ip-range.js';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE } from '../apiserver/allocators/service-allocation.js';
import type { UserInfo } from '../apiserver/authn/tokens.js';
import type { ApiServerOptions } from '../apiserver/config.js';
import { VERSION_INFO } from '../apiserver/endpoints/discovery.js';
import { loopbackInformers } from '../apiserver/informers/loopback.js';
import { type ApiServer, createApiServer } from '../apiserver/server.js';
import { type Client, createClient } from '../client/client.js';
import type { SharedInformerFactory } from '../client/informers/factory.js';
import { inProcessTransport, kubernetesUserAgent, withUserAgent } from '../client/transport.js';
import type { ControllerManagerOptions } from '../controllers/framework/context.js';
import { Scheduler } from '../scheduler/loop/scheduler.js';
import { type Clock, realClock } from '../sim/clock.js';
import { discardLogger, type Logger } from '../sim/logger.js';
import type { Storage } from '../storage/storage.js';
import { WasmStorage } from '../storage/wasm/wasm-storage.js';
import type { Kubewasm } from '../wasm/kubewasm.js';
import { type RunningControllerManager, startControllerManager, trimManagedFields } from './controller-manager.js';
import { type ControlPlaneTokens, controlPlaneTokens } from './identities.js';
import { type PostStart, runPostStartHooks, startKubernetesService } from './post-start.js';

/** kube-apiserver's default --secure-port: the `kubernetes` Service's target without a front. */
const DEFAULT_SECURE_PORT = 6443;

/** The apiserver's settings a cluster passes through (its flags); the rest the assembly wires. */
export type ApiServerSettings = Omit<ApiServerOptions, 'storage' | 'tokens' | 'clock' | 'explainer' | 'informers'>;

/** Where a front serves the apiserver (node.ts serves HTTPS on loopback). */
export interface ServingEndpoint {
  /** `https://127.0.0.1:6443` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** The loaded wasm core (ts/wasm/node.ts or browser.ts). */
  kubewasm: Kubewasm;
  /** The store; default an in-memory one. The cluster owns it: stop() closes it. */
  storage?: Storage;
  clock?: Clock;
  /** Where every component's log lines go (default: dropped). */
  logger?: Logger;
  /**
   * Users by bearer token (a token file, --token-auth-file). The admin's, scheduler's and
   * controller manager's tokens are taken from it where it has those users, else made.
   */
  tokens?: ReadonlyMap<string, UserInfo>;
  /** kube-apiserver's flags: protection, admission, service ranges, certificates, keys. */
  apiserver?: ApiServerSettings;
  /** kube-controller-manager's flags (default --controllers '*'). */
  controllerManager?: Partial<ControllerManagerOptions>;
  /** Run kube-scheduler (default true). */
  scheduler?: boolean;
  /** A front for the apiserver, started once its post-start hooks have run (Node: HTTPS). */
  serve?: (api: ApiServer) => Promise<ServingEndpoint>;
  /** --advertise-address: the address in the `kubernetes` Endpoints (none: no Endpoints). */
  advertiseAddress?: string;
}

export interface Cluster {
  readonly api: ApiServer;
  /** An in-process client as the admin (system:masters). */
  readonly client: Client;
  readonly tokens: ControlPlaneTokens;
  /**
   * The process's shared informers: one list+watch per resource for every component — the
   * apiserver's admission plugins, RBAC authorizer and CRD registry, the scheduler, the
   * controllers — as the loopback user (system:apiserver: kube-apiserver's own readers must not
   * need RBAC to read RBAC).
   */
  readonly informers: SharedInformerFactory;
  readonly scheduler: Scheduler | undefined;
  /** The controller manager's controllers that run. */
  readonly controllers: readonly string[];
  /** The front's address, when `serve` was given. */
  readonly endpoint: ServingEndpoint | undefined;
  readonly storage: Storage;
  /** Stops every part in reverse order, the front and the store last. */
  stop(): Promise<void>;
}

/**
 * The served resources that can be listed, one (the preferred) version per group and resource: the
 * garbage collector and the namespace deleter select resources by their verbs, as discovery gives
 * them to kube-controller-manager, so create-only ones (access reviews) are left out.
 */
export function servedResources(): ResourceType[] {
  const seen = new Set<string>();
  const out: ResourceType[] = [];
  for (const r of BUILTIN_RESOURCES) {
    if (!r.verbs.includes('list')) continue;
    const key = `${r.group}/${r.resource}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ group: r.group, version: r.version, resource: r.resource, kind: r.kind, namespaced: r.namespaced });
  }
  return out;
}

/** Assembles and starts a cluster; resolves once every part runs. */
export async function createCluster(options: ClusterOptions): Promise<Cluster> {
  const clock = options.clock ?? realClock;
  const logger = options.logger ?? discardLogger;
  const storage = options.storage ?? new WasmStorage({ store: options.kubewasm.newStore(), clock });
  const { users, tokens } = controlPlaneTokens(options.tokens);
  const settings = options.apiserver ?? {};

  // One factory for the process, over the apiserver's loopback client (it reads the apiserver made
  // next): kube-apiserver's, kube-scheduler's and kube-controller-manager's informers in one, each
  // object without its managedFields before anything caches it (CreateControllerContext's transform).
  const informers = loopbackInformers(() => api, tokens.loopback, {
    clock,
    transform: trimManagedFields,
    onError: (err, gvr) => logger.withName('shared-informers').error(err, 'list or watch failed', { ...gvr }),
  });
  // SchedulingExplanation requests are answered by the scheduler, once it runs.
  let scheduler: Scheduler | undefined;
  const api: ApiServer = createApiServer({
    ...settings,
    storage,
    tokens: users,
    clock,
    informers,
    logger: logger.withName('kube-apiserver'),
    explainer: () => (scheduler?.state === 'running' ? scheduler : undefined),
  });
  const loopback = createClient(inProcessTransport(api, tokens.loopback));
  // What has started, stopped in reverse by stop() (also when a later step fails): the informers
  // after every reader of them, the apiserver's background work before the store closes.
  const started: Array<() => Promise<void>> = [
    async () => storage.close(),
    async () => api.close?.(),
    () => informers.shutdown(),
  ];
  const stop = async (): Promise<void> => {
    for (const step of started.splice(0).reverse()) {
      try {
        await step();
      } catch (err) {
        logger.error(err, 'stopping the cluster');
      }
    }
  };
  try {
    const hooks: PostStart = await runPostStartHooks({
      api,
      loopback,
      loopbackToken: tokens.loopback,
      clock,
      logger: logger.withName('kube-apiserver'),
    });
    started.push(() => hooks.stop());

    const endpoint = options.serve === undefined ? undefined : await options.serve(api);
    if (endpoint !== undefined) started.push(() => endpoint.close());
    const kubernetesService = await startKubernetesService({
      loopback,
      clusterIP: IpRange.parse(settings.serviceClusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE).indexed(1),
      advertiseAddress: options.advertiseAddress,
      port: endpoint?.port ?? DEFAULT_SECURE_PORT,
      clock,
      logger: logger.withName('kube-apiserver'),
    });
    started.push(() => kubernetesService.stop());

    if (options.scheduler !== false) {
      const schedulerLog = logger.withName('kube-scheduler');
      const running = new Scheduler({
        client: createClient(
          withUserAgent(inProcessTransport(api, tokens.scheduler), kubernetesUserAgent('kube-scheduler', VERSION_INFO)),
        ),
        informers,
        kubewasm: options.kubewasm,
        clock,
        onError: (err, context) => schedulerLog.error(err, context),
      });
      await running.start();
      scheduler = running;
      started.push(() => running.stop());
    }

    const manager: RunningControllerManager = await startControllerManager({
      connect: (token) => inProcessTransport(api, token),
      token: tokens.controllerManager,
      informers,
      options: {
        controllers: ['*'],
        serviceCIDR: settings.serviceClusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE,
        ...options.controllerManager,
      },
      resources: servedResources(),
      clock,
      logger,
    });
    started.push(() => manager.stop());

    return {
      api,
      client: createClient(inProcessTransport(api, tokens.admin)),
      tokens,
      informers,
      scheduler,
      get controllers() {
        return manager.controllers;
      },
      endpoint,
      storage,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
