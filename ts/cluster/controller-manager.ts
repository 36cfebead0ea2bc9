/**
 * kube-controller-manager in the assembly (cmd/kube-controller-manager/app/controllermanager.go,
 * v1.32): the controllers of controllers/controller-descriptors.ts on the process's shared
 * informers, each with its own client as its own ServiceAccount in kube-system
 * (--use-service-account-credentials: the token requested, and renewed, by
 * system:kube-controller-manager through `serviceaccounts/<name>/token`); lists and watches go
 * through the shared informers' credential, as client-go's do.
 */
import type { ApiServer } from '../apiserver/server.js';
import { type Client, createClient } from '../client/client.js';
import { controllerTransport } from '../client/controller-transport.js';
import type { SharedInformerFactory } from '../client/informers/factory.js';
import type { ResourceType } from '../client/resources.js';
import { serviceAccountTokenSource, type TokenSource } from '../client/token-source.js';
import { inProcessTransport } from '../client/transport.js';
import { newControllerDescriptors } from '../controllers/controller-descriptors.js';
import type { ControllerManagerOptions } from '../controllers/framework/context.js';
import { ControllerManager } from '../controllers/framework/manager.js';
import type { Clock } from '../sim/clock.js';
import type { Logger } from '../sim/logger.js';

export interface ControllerManagerAssembly {
  api: ApiServer;
  /** system:kube-controller-manager's token. */
  token: string;
  informers: SharedInformerFactory;
  options: ControllerManagerOptions;
  /** The served resources that can be listed (the garbage collector's and namespace deleter's discovery). */
  resources: readonly ResourceType[];
  clock: Clock;
  logger: Logger;
}

export interface RunningControllerManager {
  /** The names of the controllers started. */
  readonly controllers: readonly string[];
  stop(): Promise<void>;
}

/** Builds and starts the enabled controllers; resolves once every one of them runs. */
export async function startControllerManager(assembly: ControllerManagerAssembly): Promise<RunningControllerManager> {
  const { api, clock } = assembly;
  const logger = assembly.logger.withName('kube-controller-manager');
  const managerTransport = inProcessTransport(api, assembly.token);
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
    return createClient(controllerTransport(managerTransport, inProcessTransport(api, source.current)));
  };
  const manager = new ControllerManager(newControllerDescriptors(), {
    informerFactory: assembly.informers,
    clientBuilder: { client },
    clock,
    logger,
    options: assembly.options,
    resources: assembly.resources,
  });
  const controllers = await manager.start();
  return {
    controllers,
    async stop() {
      await manager.stop();
      for (const source of tokenSources) source.stop();
    },
  };
}
