/**
 * `kubewasm up [--data-dir DIR] [--port PORT] …` — a whole control plane in this process
 * (ts/cluster: the durable wasm store, kube-apiserver on HTTPS at 127.0.0.1, kube-scheduler and
 * kube-controller-manager), with a kubeconfig for kubectl in DIR. Everything it needs is kept in DIR,
 * so a restart resumes where it stopped. This file is flags → assembly → signals.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ADMISSION_FLAG_SPEC, ADMISSION_FLAG_USAGE, admissionFlagOptions } from '../apiserver/admission/plugins.js';
import { parseTokenFile, type UserInfo } from '../apiserver/authn/tokens.js';
import { type NodeCluster, startNodeCluster } from '../cluster/node.js';
import { chooseHostAddress, parseAdvertiseAddress } from './advertise-address.js';
import { type Flags, parseFlags } from './flags.js';
import { stderrLogger } from './logger.js';
import { untilSignalled } from './signals.js';
import {
  CONTROLLER_MANAGER_FLAG_SPEC,
  CONTROLLER_MANAGER_FLAG_USAGE,
  controllerManagerOptions,
  PROTECTION_FLAG_SPEC,
  PROTECTION_FLAG_USAGE,
  protectionOptions,
  SERVICE_FLAG_SPEC,
  SERVICE_FLAG_USAGE,
  serviceRanges,
} from './up-flags.js';

const USAGE = `usage: kubewasm up [--data-dir DIR] [--port PORT]
  --data-dir DIR   where the store, certificates, token and kubeconfig live (default ./.kubewasm)
  --port PORT      HTTPS port on 127.0.0.1 (default 6443)
${PROTECTION_FLAG_USAGE}
  --token-auth-file FILE              more bearer tokens (token,user,uid,"groups"), beside the admin's
  --anonymous-auth                    serve requests without credentials as system:anonymous (default off)
  --advertise-address IP              the address in the kubernetes Endpoints (default: the host's
                                      default-route IPv4 address, as kube-apiserver picks it)
${SERVICE_FLAG_USAGE}
${CONTROLLER_MANAGER_FLAG_USAGE}
${ADMISSION_FLAG_USAGE}
KUBEWASM_LOG_REQUESTS=1 logs one line per request to stderr.`;

export async function up(args: string[]): Promise<number> {
  const refuse = (message: string): number => {
    console.error(`kubewasm up: ${message}\n${USAGE}`);
    return 2;
  };
  let flags: Flags;
  try {
    flags = parseFlags(args, {
      'data-dir': 'string',
      port: 'string',
      'token-auth-file': 'string',
      'anonymous-auth': 'boolean',
      'advertise-address': 'string',
      ...PROTECTION_FLAG_SPEC,
      ...SERVICE_FLAG_SPEC,
      ...CONTROLLER_MANAGER_FLAG_SPEC,
      ...ADMISSION_FLAG_SPEC,
    });
  } catch (err) {
    return refuse((err as Error).message);
  }
  const dataDir = resolve(String(flags.values['data-dir'] ?? '.kubewasm'));
  const port = Number(flags.values.port ?? '6443');
  if (!Number.isInteger(port) || port < 0 || port > 65535) return refuse(`invalid --port ${String(flags.values.port)}`);
  let options: Parameters<typeof startNodeCluster>[0];
  try {
    const advertise = flags.values['advertise-address'];
    const advertiseAddress = advertise === undefined ? chooseHostAddress() : parseAdvertiseAddress(String(advertise));
    options = {
      dataDir,
      port,
      apiserver: {
        ...protectionOptions(flags),
        ...serviceRanges(flags),
        admission: admissionFlagOptions(flags.values),
        anonymousAuth: flags.values['anonymous-auth'] === true,
      },
      controllerManager: controllerManagerOptions(flags),
      ...(advertiseAddress === undefined ? {} : { advertiseAddress }),
      logger: stderrLogger(''),
      ...(process.env.KUBEWASM_LOG_REQUESTS ? { logRequest: (line: string) => console.error(line) } : {}),
    };
  } catch (err) {
    return refuse((err as Error).message);
  }
  // --token-auth-file (kube-apiserver's flag): its users beside the data directory's.
  const tokenAuthFile = flags.values['token-auth-file'];
  if (tokenAuthFile !== undefined) {
    let extraTokens: Map<string, UserInfo>;
    try {
      extraTokens = parseTokenFile(readFileSync(String(tokenAuthFile), 'utf8'));
    } catch (err) {
      console.error(`kubewasm up: --token-auth-file: ${(err as Error).message}`);
      return 2;
    }
    options.extraTokens = extraTokens;
  }

  let started: NodeCluster;
  try {
    started = await startNodeCluster(options);
  } catch (err) {
    console.error(`kubewasm up: ${(err as Error).message}`);
    return 1;
  }
  const { cluster, url, kubeconfigPath, truncatedTail } = started;
  if (truncatedTail !== undefined) {
    console.error(
      `kubewasm up: the store's log ended in a torn record (${truncatedTail.reason}); ${truncatedTail.droppedBytes} bytes dropped`,
    );
  }
  console.log(`kubewasm apiserver listening on ${url} (store at revision ${await cluster.storage.currentRevision()})`);
  console.log(`  export KUBECONFIG=${kubeconfigPath}`);
  console.log('  kubectl get namespaces');

  await untilSignalled();
  console.log('kubewasm: stopping');
  await cluster.stop();
  return 0;
}
