/**
 * `kubewasm up [--data-dir DIR] [--port PORT]` — the apiserver over the durable wasm store, on
 * HTTPS at 127.0.0.1, with a kubeconfig for kubectl. Everything it needs is kept in DIR (the
 * store, the CA and serving certificate, the admin token), so a restart resumes where it stopped.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { reconcileBootstrapPolicy } from '../apiserver/auth/bootstrap-policy.js';
import { createCertificateAuthority, issueCertificate, type KeyPair } from '../apiserver/certs.js';
import { serveHttp2 } from '../apiserver/node/http2.js';
import { type ProtectionOptions, parseGoDuration } from '../apiserver/protection.js';
import { createApiServer } from '../apiserver/server.js';
import { generateServiceAccountKeyPem, importServiceAccountKey } from '../apiserver/service-account-jwt.js';
import { SYSTEM_PRIORITY_CLASSES } from '../apiserver/strategy.js';
import { parseTokenFile, tokenFileLine } from '../apiserver/tokens.js';
import { createClient } from '../client/client.js';
import { inProcessTransport } from '../client/transport.js';
import { Scheduler } from '../scheduler/loop/scheduler.js';
import { realClock } from '../sim/clock.js';
import { openDurableStorage } from '../storage/wasm/durable.js';
import { loadKubewasm } from '../wasm/node.js';
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
${SERVICE_FLAG_USAGE}
KUBEWASM_LOG_REQUESTS=1 logs one line per request to stderr.`;

const HOST = '127.0.0.1';

/** kube-apiserver's flags for the protection filters (ts/apiserver/protection.ts). */
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

function kubeconfig(server: string, caPem: string, token: string): string {
  const ca = Buffer.from(caPem).toString('base64');
  return `apiVersion: v1
kind: Config
clusters:
- name: kubewasm
  cluster:
    server: ${server}
    certificate-authority-data: ${ca}
users:
- name: admin
  user:
    token: ${token}
contexts:
- name: kubewasm
  context:
    cluster: kubewasm
    user: admin
    namespace: default
current-context: kubewasm
`;
}

export async function up(args: string[]): Promise<number> {
  let flags: Flags;
  try {
    flags = parseFlags(args, {
      'data-dir': 'string',
      port: 'string',
      'token-auth-file': 'string',
      ...PROTECTION_FLAG_SPEC,
      ...SERVICE_FLAG_SPEC,
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
  try {
    protection = protectionOptions(flags);
  } catch (err) {
    console.error(`kubewasm up: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  let ranges: ServiceRanges;
  try {
    ranges = serviceRanges(flags);
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
  const tokenFile = join(dir, 'tokens.csv');
  if (!existsSync(tokenFile)) {
    writePrivate(
      tokenFile,
      tokenFileLine(randomToken(), { name: 'admin', uid: globalThis.crypto.randomUUID(), groups: ['system:masters'] }),
    );
  }
  const tokens = parseTokenFile(readFileSync(tokenFile, 'utf8'));
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
  const adminToken = [...tokens].find(([, u]) => u.name === 'admin')?.[0] ?? [...tokens.keys()][0];
  if (adminToken === undefined) {
    console.error(`kubewasm up: ${tokenFile} holds no token`);
    return 1;
  }

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
    explainer: () => (scheduler?.state === 'running' ? scheduler : undefined),
  });

  // The system namespaces, created through the API like any client would.
  for (const name of SYSTEM_NAMESPACES) {
    const res = await api.handle(
      new Request(`https://${HOST}/api/v1/namespaces`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
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
        headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(pc),
      }),
    );
    if (res.status !== 201 && res.status !== 409) {
      console.error(`kubewasm up: creating a system priorityclass: ${await res.text()}`);
    }
  }
  // The default cluster roles and bindings (RBAC's bootstrap-roles post-start hook).
  for (const err of await reconcileBootstrapPolicy((req) => api.handle(req), `https://${HOST}`, adminToken)) {
    console.error(`kubewasm up: RBAC bootstrap policy: ${err}`);
  }

  let server: Awaited<ReturnType<typeof serveHttp2>>;
  try {
    server = await serveHttp2(
      api,
      serving,
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
    client: createClient(inProcessTransport(api, adminToken)),
    kubewasm,
    clock: realClock,
    onError: (err, context) => console.error(`kubewasm scheduler: ${context}: ${String(err)}`),
  });
  await scheduler.start();
  // Beside the scheduler: the `kubernetes` Service and its endpoints, and the namespace controller.
  const controllers = await startControllers({
    client: createClient(inProcessTransport(api, adminToken)),
    ranges,
    host: HOST,
    port: server.port,
  });

  const url = `https://${HOST}:${server.port}`;
  const config = join(dir, 'kubeconfig');
  writePrivate(config, kubeconfig(url, ca.certPem, adminToken));
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
  await scheduler.stop();
  await server.close();
  await storage.close();
  return 0;
}
