/**
 * `kubewasm up [--data-dir DIR] [--port PORT]` — the apiserver over the durable wasm store, on
 * HTTPS at 127.0.0.1, with a kubeconfig for kubectl. Everything it needs is kept in DIR (the
 * store, the CA and serving certificate, the token file, the admin's client certificate), so a
 * restart resumes where it stopped.
 *
 * Identities, as a kubeadm cluster has them: the admin (a token, and a client certificate in the
 * kubeconfig's `kubewasm-cert` context), the scheduler as `system:kube-scheduler` and
 * kube-controller-manager as `system:kube-controller-manager` (their own tokens in the token
 * file), each controller of kube-controller-manager as its own ServiceAccount in kube-system
 * (--use-service-account-credentials), and what runs inside kube-apiserver itself as the
 * loopback `system:apiserver` (a token made anew at every start, never written down).
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseGoDuration } from '../api/go-duration.js';
import {
  ADMISSION_FLAG_SPEC,
  ADMISSION_FLAG_USAGE,
  type AdmissionPluginOptions,
  admissionFlagOptions,
} from '../apiserver/admission/plugins.js';
import { reconcileBootstrapPolicy } from '../apiserver/auth/bootstrap-policy.js';
import { generateServiceAccountKeyPem, importServiceAccountKey } from '../apiserver/authn/service-account-jwt.js';
import { parseTokenFile, tokenFileLine, type UserInfo } from '../apiserver/authn/tokens.js';
import {
  APISERVER_USER,
  KUBE_CONTROLLER_MANAGER_USER,
  KUBE_SCHEDULER_USER,
  SYSTEM_PRIVILEGED_GROUP,
} from '../apiserver/authn/user.js';
import { createCertificateAuthority, issueCertificate, type KeyPair } from '../apiserver/certs.js';
import type { ProtectionOptions } from '../apiserver/config.js';
import { serveHttp2 } from '../apiserver/node/http2.js';
import { SYSTEM_PRIORITY_CLASSES } from '../apiserver/registry/scheduling/priorityclasses/strategy.js';
import { createApiServer } from '../apiserver/server.js';
import { type Client, createClient } from '../client/client.js';
import { controllerTransport } from '../client/controller-transport.js';
import { serviceAccountTokenSource, type TokenSource } from '../client/token-source.js';
import { inProcessTransport } from '../client/transport.js';
import { Scheduler } from '../scheduler/loop/scheduler.js';
import { realClock } from '../sim/clock.js';
import { openDurableStorage } from '../storage/wasm/durable.js';
import { loadKubewasm } from '../wasm/node.js';
import { chooseHostAddress, parseAdvertiseAddress } from './advertise-address.js';
import { type Flags, parseFlags } from './flags.js';
import {
  SERVICE_FLAG_SPEC,
  SERVICE_FLAG_USAGE,
  type ServiceRanges,
  serviceRanges,
  startControllers,
} from './up-controllers.js';

const USAGE = `usage: kubewasm up [--data-dir DIR] [--port PORT]
  --data-dir DIR   where the store, certificates, token and kubeconfig live (default ./.kubewasm)
  --port PORT      HTTPS port on 127.0.0.1 (default 6443)
  --max-requests-inflight N           read-only requests at once, 0 = no limit (default 400)
  --max-mutating-requests-inflight N  mutating requests at once, 0 = no limit (default 200)
  --request-timeout DURATION          longest a request may take (default 60s)
  --token-auth-file FILE              more bearer tokens (token,user,uid,"groups"), beside the admin's
  --anonymous-auth                    serve requests without credentials as system:anonymous (default off)
  --advertise-address IP              the address in the kubernetes Endpoints (default: the host's
                                      default-route IPv4 address, as kube-apiserver picks it)
${SERVICE_FLAG_USAGE}
${ADMISSION_FLAG_USAGE}
KUBEWASM_LOG_REQUESTS=1 logs one line per request to stderr.`;

const HOST = '127.0.0.1';

/** kube-apiserver's flags for the protection filters (ts/apiserver/filters/). */
const PROTECTION_FLAG_SPEC = {
  'max-requests-inflight': 'string',
  'max-mutating-requests-inflight': 'string',
  'request-timeout': 'string',
} as const;

function protectionOptions(flags: Flags): ProtectionOptions {
  const out: ProtectionOptions = {};
  const count = (name: string): number | undefined => {
    const v = flags.values[name];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`invalid --${name} ${String(v)}`);
    return n;
  };
  const reads = count('max-requests-inflight');
  if (reads !== undefined) out.maxRequestsInFlight = reads;
  const writes = count('max-mutating-requests-inflight');
  if (writes !== undefined) out.maxMutatingRequestsInFlight = writes;
  const timeout = flags.values['request-timeout'];
  if (timeout !== undefined) {
    const ms = parseGoDuration(String(timeout));
    if (ms <= 0) throw new Error(`invalid --request-timeout ${String(timeout)}`);
    out.requestTimeoutMs = ms;
  }
  return out;
}
/** The namespaces kube-apiserver's system namespaces controller keeps. */
const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

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

function randomToken(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The admin's token (current context `kubewasm`) and client certificate (context `kubewasm-cert`). */
function kubeconfig(server: string, caPem: string, token: string, client: KeyPair): string {
  const b64 = (pem: string) => Buffer.from(pem).toString('base64');
  return `apiVersion: v1
kind: Config
clusters:
- name: kubewasm
  cluster:
    server: ${server}
    certificate-authority-data: ${b64(caPem)}
users:
- name: admin
  user:
    token: ${token}
- name: admin-cert
  user:
    client-certificate-data: ${b64(client.certPem)}
    client-key-data: ${b64(client.keyPem)}
contexts:
- name: kubewasm
  context:
    cluster: kubewasm
    user: admin
    namespace: default
- name: kubewasm-cert
  context:
    cluster: kubewasm
    user: admin-cert
    namespace: default
current-context: kubewasm
`;
}

/** The users of the token file `kubewasm up` keeps: the admin and the control plane's components. */
const FILE_IDENTITIES: readonly { name: string; groups: string[] }[] = [
  { name: 'admin', groups: ['system:masters'] },
  // kubeadm's scheduler.conf and controller-manager.conf credentials (user.KubeScheduler, user.KubeControllerManager).
  { name: KUBE_SCHEDULER_USER, groups: [] },
  { name: KUBE_CONTROLLER_MANAGER_USER, groups: [] },
];

/** The token file, with a line added for each identity it does not have yet (older data dirs). */
function ensureTokenFile(path: string): void {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const users = new Set([...parseTokenFile(existing).values()].map((u) => u.name));
  let text = existing;
  for (const id of FILE_IDENTITIES) {
    if (users.has(id.name)) continue;
    if (text !== '' && !text.endsWith('\n')) text += '\n';
    text += tokenFileLine(randomToken(), { name: id.name, uid: globalThis.crypto.randomUUID(), groups: id.groups });
  }
  if (text !== existing) writePrivate(path, text);
}

/** The token of `name` in a token file. */
function tokenOf(tokens: ReadonlyMap<string, UserInfo>, name: string): string | undefined {
  return [...tokens].find(([, u]) => u.name === name)?.[0];
}

export async function up(args: string[]): Promise<number> {
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
      ...ADMISSION_FLAG_SPEC,
    });
  } catch (err) {
    console.error(`kubewasm up: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const dir = resolve(String(flags.values['data-dir'] ?? '.kubewasm'));
  const port = Number(flags.values.port ?? '6443');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`kubewasm up: invalid --port ${String(flags.values.port)}\n${USAGE}`);
    return 2;
  }
  let protection: ProtectionOptions;
  let admission: AdmissionPluginOptions;
  let ranges: ServiceRanges;
  let advertiseAddress: string | undefined;
  try {
    protection = protectionOptions(flags);
    admission = admissionFlagOptions(flags.values);
    ranges = serviceRanges(flags);
    const advertise = flags.values['advertise-address'];
    advertiseAddress = advertise === undefined ? chooseHostAddress() : parseAdvertiseAddress(String(advertise));
  } catch (err) {
    console.error(`kubewasm up: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  mkdirSync(dir, { recursive: true });

  const ca = await keyPair(dir, 'ca', () => createCertificateAuthority());
  const serving = await keyPair(dir, 'apiserver', () =>
    issueCertificate(
      ca,
      { commonName: 'kube-apiserver' },
      {
        serving: {
          dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
          ips: [HOST],
        },
      },
    ),
  );
  // The admin's client certificate (kubeadm's admin.conf before 1.29: O=system:masters).
  const adminCert = await keyPair(dir, 'admin-client', () =>
    issueCertificate(ca, { commonName: 'kubernetes-admin', organizations: ['system:masters'] }, { client: true }),
  );
  const tokenFile = join(dir, 'tokens.csv');
  ensureTokenFile(tokenFile);
  const tokens = parseTokenFile(readFileSync(tokenFile, 'utf8'));
  const schedulerToken = tokenOf(tokens, KUBE_SCHEDULER_USER) as string;
  const controllerManagerToken = tokenOf(tokens, KUBE_CONTROLLER_MANAGER_USER) as string;
  // --token-auth-file (kube-apiserver's flag): its users beside the admin's.
  const extraTokenFile = flags.values['token-auth-file'];
  if (extraTokenFile !== undefined) {
    try {
      for (const [token, user] of parseTokenFile(readFileSync(String(extraTokenFile), 'utf8'))) {
        if (!tokens.has(token)) tokens.set(token, user);
      }
    } catch (err) {
      console.error(`kubewasm up: --token-auth-file: ${(err as Error).message}`);
      return 2;
    }
  }
  const adminToken = tokenOf(tokens, 'admin');
  if (adminToken === undefined) {
    console.error(`kubewasm up: ${tokenFile} holds no admin token`);
    return 1;
  }
  // The loopback credential (kube-apiserver's loopback client config): in memory only, new at every start.
  const loopbackToken = randomToken();
  tokens.set(loopbackToken, {
    name: APISERVER_USER,
    uid: globalThis.crypto.randomUUID(),
    groups: [SYSTEM_PRIVILEGED_GROUP],
  });

  // The service-account signing key (sa.key, as kubeadm names it), made on first start.
  const saKeyFile = join(dir, 'sa.key');
  if (!existsSync(saKeyFile)) writePrivate(saKeyFile, await generateServiceAccountKeyPem());
  const serviceAccountKey = await importServiceAccountKey(readFileSync(saKeyFile, 'utf8'));

  const kubewasm = await loadKubewasm();
  const { storage, recovery } = openDurableStorage(kubewasm, join(dir, 'store'), { fsync: 'batch' });
  if (recovery.truncatedTail) {
    console.error(
      `kubewasm up: the store's log ended in a torn record (${recovery.truncatedTail.reason}); ${recovery.truncatedTail.droppedBytes} bytes dropped`,
    );
  }
  // SchedulingExplanation requests are answered by the scheduler started below.
  let scheduler: Scheduler | undefined;
  const api = createApiServer({
    storage,
    tokens,
    ...protection,
    ...ranges,
    serviceAccountKey,
    // --client-ca-file: kubeadm gives kube-apiserver the cluster CA.
    clientCA: ca.certPem,
    anonymousAuth: flags.values['anonymous-auth'] === true,
    admission,
    explainer: () => (scheduler?.state === 'running' ? scheduler : undefined),
  });

  // The system namespaces, created through the API like any client would.
  for (const name of SYSTEM_NAMESPACES) {
    const res = await api.handle(
      new Request(`https://${HOST}/api/v1/namespaces`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${loopbackToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
      }),
    );
    if (res.status !== 201 && res.status !== 409) {
      console.error(`kubewasm up: creating namespace ${name}: ${await res.text()}`);
    }
  }
  // The built-in PriorityClasses, as kube-apiserver's scheduling post-start hook creates them.
  for (const pc of SYSTEM_PRIORITY_CLASSES) {
    const res = await api.handle(
      new Request(`https://${HOST}/apis/scheduling.k8s.io/v1/priorityclasses`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${loopbackToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(pc),
      }),
    );
    if (res.status !== 201 && res.status !== 409) {
      console.error(`kubewasm up: creating a system priorityclass: ${await res.text()}`);
    }
  }
  // The default cluster roles and bindings (RBAC's bootstrap-roles post-start hook).
  for (const err of await reconcileBootstrapPolicy((req) => api.handle(req), `https://${HOST}`, loopbackToken)) {
    console.error(`kubewasm up: RBAC bootstrap policy: ${err}`);
  }

  let server: Awaited<ReturnType<typeof serveHttp2>>;
  try {
    server = await serveHttp2(
      api,
      { ...serving, clientCA: ca.certPem },
      HOST,
      port,
      process.env.KUBEWASM_LOG_REQUESTS ? (line) => console.error(line) : undefined,
    );
  } catch (err) {
    console.error(`kubewasm up: cannot listen on ${HOST}:${port}: ${(err as Error).message}`);
    await storage.close();
    return 1;
  }
  // The scheduler talks to the apiserver like any component: through the client, in-process.
  scheduler = new Scheduler({
    client: createClient(inProcessTransport(api, schedulerToken)),
    kubewasm,
    clock: realClock,
    onError: (err, context) => console.error(`kubewasm scheduler: ${context}: ${String(err)}`),
  });
  await scheduler.start();
  // Beside the scheduler: the `kubernetes` Service and its endpoints, and the namespace controller.
  // kube-controller-manager's controllers, each with its own service account's token, requested
  // (and renewed) by the system:kube-controller-manager identity.
  const controllerManagerTransport = inProcessTransport(api, controllerManagerToken);
  const controllerManagerClient = createClient(controllerManagerTransport);
  const tokenSources: TokenSource[] = [];
  const controllerClient = async (serviceAccount: string): Promise<Client> => {
    const source = await serviceAccountTokenSource({
      client: controllerManagerClient,
      transport: controllerManagerTransport,
      namespace: 'kube-system',
      name: serviceAccount,
      clock: realClock,
      onError: (err) => console.error(`kubewasm controller credentials: ${serviceAccount}: ${String(err)}`),
    });
    tokenSources.push(source);
    // Lists and watches through the shared informers' (the controller manager's) credential.
    return createClient(controllerTransport(controllerManagerTransport, inProcessTransport(api, source.current)));
  };
  const controllers = await startControllers({
    client: createClient(inProcessTransport(api, loopbackToken)),
    controllerClient,
    ranges,
    advertiseAddress,
    port: server.port,
    rootCA: ca.certPem,
  });

  const url = `https://${HOST}:${server.port}`;
  const config = join(dir, 'kubeconfig');
  writePrivate(config, kubeconfig(url, ca.certPem, adminToken, adminCert));
  console.log(`kubewasm apiserver listening on ${url} (store at revision ${await storage.currentRevision()})`);
  console.log(`  export KUBECONFIG=${config}`);
  console.log('  kubectl get namespaces');

  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  console.log('kubewasm: stopping');
  await controllers.stop();
  for (const source of tokenSources) source.stop();
  await scheduler.stop();
  await server.close();
  await storage.close();
  return 0;
}
