/**
 * `kubewasm controller-manager --kubeconfig FILE …` — kube-controller-manager as a process of its
 * own against any kubewasm apiserver over HTTPS (a `kubewasm up`'s DIR/controller-manager.conf, as
 * kubeadm gives kube-controller-manager its controller-manager.conf). With --leader-elect (the
 * default) a second one beside `kubewasm up`'s stands by until the leader's Lease lapses. This
 * file is flags → assembly → signals.
 */
import { readFileSync } from 'node:fs';
import type { RunningControllerManager } from '../cluster/controller-manager.js';
import { loadKubeconfig, type RemoteCluster, remoteTransport } from '../cluster/node-remote.js';
import {
  type StandaloneControllerManagerOptions,
  startStandaloneControllerManager,
} from '../cluster/standalone-controller-manager.js';
import { type Flags, parseFlags } from './flags.js';
import { stderrLogger } from './logger.js';
import { untilSignalled } from './signals.js';
import {
  CONTROLLER_MANAGER_FLAG_SPEC,
  CONTROLLER_MANAGER_FLAG_USAGE,
  controllerManagerOptions,
  SERVICE_FLAG_SPEC,
  serviceRanges,
} from './up-flags.js';

const USAGE = `usage: kubewasm controller-manager --kubeconfig FILE
  --kubeconfig FILE                 how to reach the apiserver, as whom (its current context); the user's
                                    token is kube-controller-manager's own, and every controller acts as
                                    its ServiceAccount in kube-system (--use-service-account-credentials)
  --context NAME                    a context of the kubeconfig other than its current one
  --root-ca-file FILE               the CA put in every namespace's kube-root-ca.crt (default: the kubeconfig's)
  --service-cluster-ip-range CIDR   the Services' range, kept out of the nodes' pod CIDRs (default 10.96.0.0/12)
${CONTROLLER_MANAGER_FLAG_USAGE}`;

export async function controllerManager(args: string[]): Promise<number> {
  const refuse = (message: string): number => {
    console.error(`kubewasm controller-manager: ${message}\n${USAGE}`);
    return 2;
  };
  let flags: Flags;
  let remote: RemoteCluster;
  let options: StandaloneControllerManagerOptions;
  try {
    flags = parseFlags(args, {
      kubeconfig: 'string',
      context: 'string',
      'root-ca-file': 'string',
      'service-cluster-ip-range': SERVICE_FLAG_SPEC['service-cluster-ip-range'],
      ...CONTROLLER_MANAGER_FLAG_SPEC,
    });
    if (flags.positional.length > 0) return refuse(`unexpected argument "${flags.positional[0]}"`);
    const kubeconfig = flags.values.kubeconfig;
    if (kubeconfig === undefined) return refuse('--kubeconfig is required');
    const context = flags.values.context;
    remote = loadKubeconfig(String(kubeconfig), context === undefined ? undefined : String(context));
    if (remote.token === undefined)
      return refuse(`the kubeconfig's user has no token: the controllers' ServiceAccount tokens are requested with it`);
    const rootCAFile = flags.values['root-ca-file'];
    const rootCA = rootCAFile === undefined ? remote.caPem : readFileSync(String(rootCAFile), 'utf8');
    const cluster = remote;
    options = {
      connect: (token) => remoteTransport(cluster, token),
      token: remote.token,
      options: {
        serviceCIDR: serviceRanges(flags).serviceClusterIPRange,
        ...controllerManagerOptions(flags),
        ...(rootCA === undefined ? {} : { rootCA }),
      },
      logger: stderrLogger(''),
      // kube-controller-manager exits on a lost Lease, for its supervisor to start it again.
      onLeaderElectionLost: () => lost(),
    };
  } catch (err) {
    return refuse((err as Error).message);
  }

  let lost: () => void = () => {};
  const leaseLost = new Promise<void>((resolve) => {
    lost = resolve;
  });
  let running: RunningControllerManager;
  try {
    running = await startStandaloneControllerManager(options);
  } catch (err) {
    console.error(`kubewasm controller-manager: ${(err as Error).message}`);
    return 1;
  }
  const what = running.controllers.length === 0 ? 'standing by' : `${running.controllers.length} controllers running`;
  console.log(`kubewasm controller-manager: ${what} against ${remote.server}`);

  const signalled = await untilSignalled(leaseLost);
  await running.stop();
  if (!signalled) {
    console.error('kubewasm controller-manager: leaderelection lost');
    return 1;
  }
  console.log('kubewasm controller-manager: stopping');
  return 0;
}
