/**
 * kube-controller-manager in the assembly (cmd/kube-controller-manager/app/controllermanager.go,
 * v1.32): the controllers of controllers/controller-descriptors.ts on the process's shared
 * informers, each with its own client as its own ServiceAccount in kube-system
 * (--use-service-account-credentials: the token requested, and renewed, by
 * system:kube-controller-manager through `serviceaccounts/<name>/token`), which their writes use.
 * Lists and watches go through the process's one factory (cluster.ts), whose client is the
 * apiserver's loopback identity, system:apiserver — one watch per resource for every component,
 * where kube-controller-manager's own informers would authenticate as itself — and their objects
 * lose their managedFields before they are cached (CreateControllerContext's trim).
 *
 * The controllers start as StartControllers starts them, without waiting for any cache. What users
 * of `kubewasm up` rely on at once — the default ServiceAccount and kube-root-ca.crt in every
 * namespace that exists — is waited for here, separately and for at most readinessTimeoutMs: a
 * cache that never syncs (a 403 on one resource) delays the cluster by that much, not forever.
 */

import type { KubeObject } from '../api/meta.js';
import { VERSION_INFO } from '../apiserver/endpoints/discovery.js';
import { type Client, createClient } from '../client/client.js';
import { controllerTransport } from '../client/controller-transport.js';
import { EventRecorder } from '../client/event-recorder.js';
import type { SharedInformerFactory } from '../client/informers/factory.js';
import { LeaderElector } from '../client/leaderelection/leader-elector.js';
import type { ResourceType } from '../client/resources.js';
import { serviceAccountTokenSource, type TokenSource } from '../client/token-source.js';
import { type BearerToken, kubernetesUserAgent, type Transport, withUserAgent } from '../client/transport.js';
import { newControllerDescriptors } from '../controllers/controller-descriptors.js';
import type { ControllerManagerOptions } from '../controllers/framework/context.js';
import { ControllerManager } from '../controllers/framework/manager.js';
import {
  ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER,
  SERVICE_ACCOUNT_CONTROLLER,
} from '../controllers/framework/names.js';
import type { Clock } from '../sim/clock.js';
import type { Logger } from '../sim/logger.js';

export interface ControllerManagerAssembly {
  /**
   * A transport to the apiserver carrying a bearer token: in-process (`inProcessTransport(api, …)`)
   * or over HTTPS from a kubeconfig (node-remote.ts, `kubewasm controller-manager`).
   */
  connect: (token: BearerToken) => Transport;
  /** system:kube-controller-manager's token. */
  token: string;
  informers: SharedInformerFactory;
  options: ControllerManagerOptions;
  /** The served resources that can be listed (the garbage collector's and namespace deleter's discovery). */
  resources: readonly ResourceType[];
  clock: Clock;
  logger: Logger;
  /** How long start-up waits for the controllers every namespace needs at once (default 30 s). */
  readinessTimeoutMs?: number;
  /**
   * Called once the controllers stopped because the Lease was lost (kube-controller-manager exits
   * there, "leaderelection lost", for its supervisor to restart it; `kubewasm controller-manager`
   * exits too). Without it the controllers stay stopped.
   */
  onLeaderElectionLost?: () => void;
}

/**
 * kubewasm's bound on the readiness wait (Kubernetes has none: kube-controller-manager does not
 * wait, and kubeadm waits for the control plane's health, not for its controllers' work).
 */
export const DEFAULT_READINESS_TIMEOUT_MS = 30_000;

/** The controllers whose first pass makes what pods need in each existing namespace. */
const NEEDED_AT_ONCE = [SERVICE_ACCOUNT_CONTROLLER, ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER];

/**
 * CreateControllerContext's informer transform: objects without their managedFields, for memory
 * (the object itself is left alone — the client may share it — a shallow copy drops them).
 */
export function trimManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata?.managedFields === undefined) return obj;
  const { managedFields: _trimmed, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

export interface RunningControllerManager {
  /** The names of the controllers started (none while standing by). */
  readonly controllers: readonly string[];
  stop(): Promise<void>;
}

// controllermanager.go: the Lease kube-controller-manager's instances elect a leader with.
const LEASE_NAMESPACE = 'kube-system';
const LEASE_NAME = 'kube-controller-manager';
const LEASE_DESCRIPTION = `${LEASE_NAMESPACE}/${LEASE_NAME}`;

/**
 * The election of controllermanager.go's leaderElectAndRun: this process's identity
 * (`<host>_<uuid>`; "kubewasm" stands for the hostname a browser lacks), the Lease's events from
 * kube-controller-manager, `leading` resolved once it leads (false if it is stopped first),
 * `othersLead` once it has seen another identity hold the Lease (it then stands by). A lost
 * lease stops the controllers — kube-controller-manager exits ("leaderelection lost"), and nothing
 * here restarts it.
 */
function leaderElector(
  assembly: ControllerManagerAssembly,
  client: Client,
  logger: Logger,
  manager: ControllerManager,
): { leading: Promise<boolean>; othersLead: Promise<void>; stop(): Promise<void> } {
  const { clock } = assembly;
  const recorder = new EventRecorder({ client, clock, component: 'kube-controller-manager' });
  let led = false;
  let stopping = false;
  let resolveLeading: (leads: boolean) => void = () => {};
  const leading = new Promise<boolean>((resolve) => {
    resolveLeading = resolve;
  });
  let resolveOthersLead: () => void = () => {};
  const othersLead = new Promise<void>((resolve) => {
    resolveOthersLead = resolve;
  });
  const identity = `kubewasm_${crypto.randomUUID()}`;
  const elector = new LeaderElector({
    client,
    namespace: LEASE_NAMESPACE,
    name: LEASE_NAME,
    identity,
    clock,
    recorder,
    onStartedLeading: () => {
      led = true;
      resolveLeading(true);
    },
    onStoppedLeading: () => {
      resolveLeading(false);
      if (led && !stopping) {
        logger.error(new Error('leaderelection lost'), 'leaderelection lost', { lease: LEASE_DESCRIPTION });
        void manager.stop().then(() => assembly.onLeaderElectionLost?.());
      }
    },
    onNewLeader: (leader) => {
      if (leader !== identity) resolveOthersLead();
    },
    onError: (err) => logger.error(err, 'leader election', { lease: LEASE_DESCRIPTION }),
  });
  void elector.run();
  return {
    leading,
    othersLead,
    async stop() {
      stopping = true;
      await elector.stop();
      await recorder.flush();
    },
  };
}

/**
 * Builds and starts the enabled controllers once this process leads — at once without
 * --leader-elect, later for a standby, when the leader's Lease lapses — then waits (bounded) for
 * the serviceaccount and root-ca-certificate-publisher controllers' first pass over the namespaces
 * that exist; a standby returns as soon as it has seen the other leader.
 */
export async function startControllerManager(assembly: ControllerManagerAssembly): Promise<RunningControllerManager> {
  const { connect, clock } = assembly;
  const logger = assembly.logger.withName('kube-controller-manager');
  const managerTransport = connect(assembly.token);
  const managerClient = createClient(managerTransport);
  const tokenSources: TokenSource[] = [];
  const client = async (serviceAccount: string): Promise<Client> => {
    const source = await serviceAccountTokenSource({
      client: managerClient,
      transport: managerTransport,
      namespace: 'kube-system',
      name: serviceAccount,
      clock,
      onError: (err) => logger.error(err, 'renewing a controller credential', { serviceAccount }),
    });
    tokenSources.push(source);
    // AddUserAgent(config, name): the controller's writes are managed by `kube-controller-manager`.
    const userAgent = kubernetesUserAgent('kube-controller-manager', VERSION_INFO, serviceAccount);
    return createClient(withUserAgent(controllerTransport(managerTransport, connect(source.current)), userAgent));
  };
  const manager = new ControllerManager(newControllerDescriptors(), {
    informerFactory: assembly.informers,
    clientBuilder: { client },
    clock,
    logger,
    options: assembly.options,
    resources: assembly.resources,
  });
  const timeoutMs = assembly.readinessTimeoutMs ?? DEFAULT_READINESS_TIMEOUT_MS;
  let cancel = (): void => {};
  const timedOut = new Promise<boolean>((resolve) => {
    cancel = clock.setTimer(() => resolve(true), timeoutMs);
  });
  // --leader-elect (default true): the controllers start once this process holds the Lease — at
  // once, or when the leader's Lease lapses (a standby takes over).
  const elector =
    assembly.options.leaderElect === false ? undefined : leaderElector(assembly, managerClient, logger, manager);
  const leading = elector === undefined ? Promise.resolve(true) : elector.leading;
  let stopping = false;
  let led = false;
  let controllers: readonly string[] = [];
  const started = leading.then(async (leads) => {
    if (!leads || stopping) return false;
    led = true;
    controllers = await manager.start();
    return true;
  });
  const running = started.then((leads) => (leads ? manager.waitForRunning(NEEDED_AT_ONCE) : undefined));
  // Another leader seen: no need to wait out the timeout to know this one stands by.
  const standingBy = elector === undefined ? new Promise<void>(() => {}) : elector.othersLead;
  const ready = await Promise.race([
    running.then(() => true),
    timedOut.then(() => false),
    standingBy.then(() => false),
  ]);
  cancel();
  // Building the controllers waits for no cache: a leader's start-up has its names.
  if (led) await started;
  if (!ready) {
    running.catch((err: unknown) => logger.error(err, 'starting the controllers'));
    if (!led) {
      logger.info('Warning: another controller manager leads, standing by', { lease: LEASE_DESCRIPTION });
    } else {
      logger.info('Warning: controllers not ready in time, going on', {
        controllers: NEEDED_AT_ONCE.filter((c) => controllers.includes(c)),
        timeout: `${timeoutMs / 1000}s`,
      });
    }
  }
  return {
    get controllers() {
      return controllers;
    },
    async stop() {
      stopping = true;
      await elector?.stop();
      await started.catch(() => {});
      await manager.stop();
      for (const source of tokenSources) source.stop();
    },
  };
}
