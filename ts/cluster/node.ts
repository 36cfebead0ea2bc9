/**
 * The Node-only parts of a cluster: a data directory holding everything a restart needs — the
 * durable store, the cluster CA with the serving and admin client certificates, the token file of
 * the control plane's identities, the service-account signing key — an HTTPS front on loopback
 * (HTTP/2 and HTTP/1.1, WebSocket watch) and the kubeconfig that reaches it. `kubewasm up` is this
 * plus flags and signals.
 *
 *   const { cluster, kubeconfigPath } = await startNodeCluster({ dataDir: '.kubewasm', port: 6443 });
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateServiceAccountKeyPem, importServiceAccountKey } from '../apiserver/authn/service-account-jwt.js';
import { parseTokenFile, tokenFileLine, type UserInfo } from '../apiserver/authn/tokens.js';
import { KUBE_CONTROLLER_MANAGER_USER, KUBE_SCHEDULER_USER } from '../apiserver/authn/user.js';
import { createCertificateAuthority, issueCertificate, type KeyPair } from '../apiserver/certs.js';
import { serveHttp2 } from '../apiserver/node/http2.js';
import type { DataDirOptions } from '../storage/wasm/data-dir.js';
import { openDurableStorage } from '../storage/wasm/durable.js';
import { loadKubewasm } from '../wasm/node.js';
import { type Cluster, type ClusterOptions, createCluster } from './cluster.js';
import { ADMIN_USER, randomToken, TOKEN_FILE_IDENTITIES, tokenOf } from './identities.js';
import { componentKubeconfig, kubeconfig } from './kubeconfig.js';

/** The address the front listens on: loopback only. */
export const LOOPBACK_HOST = '127.0.0.1';

export interface NodeClusterOptions extends Omit<ClusterOptions, 'kubewasm' | 'storage' | 'tokens' | 'serve'> {
  /** Where the store, certificates, tokens and kubeconfig live (created when missing). */
  dataDir: string;
  /** The HTTPS port on 127.0.0.1 (0: any free port). */
  port: number;
  /** --token-auth-file's users, beside those of the data directory's token file. */
  extraTokens?: ReadonlyMap<string, UserInfo>;
  /** The store's fsync policy (default `batch`: group commit). */
  fsync?: DataDirOptions['fsync'];
  /** One line per request served (KUBEWASM_LOG_REQUESTS). */
  logRequest?: (line: string) => void;
}

export interface NodeCluster {
  cluster: Cluster;
  /** `https://127.0.0.1:<port>` */
  url: string;
  /**
   * DATA-DIR/kubeconfig: the admin's token (context `kubewasm`) and client certificate
   * (`kubewasm-cert`); beside it controller-manager.conf and scheduler.conf, the components' own.
   */
  kubeconfigPath: string;
  /** What recovery dropped from a torn log tail, if anything. */
  truncatedTail: { reason: string; droppedBytes: number } | undefined;
}

function writePrivate(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
}

/** A key pair kept as DIR/<name>.crt + .key, made by `create` on first start. */
async function keyPair(dir: string, name: string, create: () => Promise<KeyPair>): Promise<KeyPair> {
  const crt = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  if (existsSync(crt) && existsSync(key)) {
    return { certPem: readFileSync(crt, 'utf8'), keyPem: readFileSync(key, 'utf8') };
  }
  const pair = await create();
  writePrivate(key, pair.keyPem);
  writeFileSync(crt, pair.certPem);
  return pair;
}

/** The token file, with a line added for each control-plane identity it does not have yet (older data dirs). */
function ensureTokenFile(path: string): Map<string, UserInfo> {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const users = new Set([...parseTokenFile(existing).values()].map((u) => u.name));
  let text = existing;
  for (const id of TOKEN_FILE_IDENTITIES) {
    if (users.has(id.name)) continue;
    if (text !== '' && !text.endsWith('\n')) text += '\n';
    text += tokenFileLine(randomToken(), {
      name: id.name,
      uid: globalThis.crypto.randomUUID(),
      groups: [...id.groups],
    });
  }
  if (text !== existing) writePrivate(path, text);
  return parseTokenFile(text);
}

/** Opens the data directory, starts the cluster on it and serves it over HTTPS; writes the kubeconfig. */
export async function startNodeCluster(options: NodeClusterOptions): Promise<NodeCluster> {
  const { dataDir: dir, port, extraTokens, fsync, logRequest, ...clusterOptions } = options;
  mkdirSync(dir, { recursive: true });
  const ca = await keyPair(dir, 'ca', () => createCertificateAuthority());
  const serving = await keyPair(dir, 'apiserver', () =>
    issueCertificate(
      ca,
      { commonName: 'kube-apiserver' },
      {
        serving: {
          dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
          ips: [LOOPBACK_HOST],
        },
      },
    ),
  );
  // The admin's client certificate (kubeadm's admin.conf before 1.29: O=system:masters).
  const adminCert = await keyPair(dir, 'admin-client', () =>
    issueCertificate(ca, { commonName: 'kubernetes-admin', organizations: ['system:masters'] }, { client: true }),
  );
  const tokenFile = join(dir, 'tokens.csv');
  const tokens = ensureTokenFile(tokenFile);
  for (const [token, user] of extraTokens ?? []) if (!tokens.has(token)) tokens.set(token, user);
  if (tokenOf(tokens, ADMIN_USER) === undefined) throw new Error(`${tokenFile} holds no admin token`);

  // The service-account signing key (sa.key, as kubeadm names it), made on first start.
  const saKeyFile = join(dir, 'sa.key');
  if (!existsSync(saKeyFile)) writePrivate(saKeyFile, await generateServiceAccountKeyPem());
  const serviceAccountKey = await importServiceAccountKey(readFileSync(saKeyFile, 'utf8'));

  const kubewasm = await loadKubewasm();
  const { storage, recovery } = openDurableStorage(kubewasm, join(dir, 'store'), { fsync: fsync ?? 'batch' });
  const cluster = await createCluster({
    ...clusterOptions,
    kubewasm,
    storage,
    tokens,
    apiserver: {
      ...clusterOptions.apiserver,
      serviceAccountKey,
      // --client-ca-file: kubeadm gives kube-apiserver the cluster CA.
      clientCA: ca.certPem,
    },
    controllerManager: { ...clusterOptions.controllerManager, rootCA: ca.certPem },
    serve: async (api) => {
      const server = await serveHttp2(api, { ...serving, clientCA: ca.certPem }, LOOPBACK_HOST, port, logRequest).catch(
        (err: unknown) => {
          throw new Error(`cannot listen on ${LOOPBACK_HOST}:${port}: ${(err as Error).message}`);
        },
      );
      return { url: `https://${LOOPBACK_HOST}:${server.port}`, port: server.port, close: () => server.close() };
    },
  });
  const url = cluster.endpoint?.url ?? '';
  const kubeconfigPath = join(dir, 'kubeconfig');
  writePrivate(kubeconfigPath, kubeconfig(url, ca.certPem, cluster.tokens.admin, adminCert));
  // kubeadm's controller-manager.conf and scheduler.conf: a second kube-controller-manager
  // (`kubewasm controller-manager --kubeconfig DIR/controller-manager.conf`) connects as the first.
  writePrivate(
    join(dir, 'controller-manager.conf'),
    componentKubeconfig(url, ca.certPem, KUBE_CONTROLLER_MANAGER_USER, cluster.tokens.controllerManager),
  );
  writePrivate(
    join(dir, 'scheduler.conf'),
    componentKubeconfig(url, ca.certPem, KUBE_SCHEDULER_USER, cluster.tokens.scheduler),
  );
  return {
    cluster,
    url,
    kubeconfigPath,
    truncatedTail: recovery.truncatedTail,
  };
}
