/**
 * Reaching a cluster from another Node process, as client-go's clientcmd does it: a kubeconfig's
 * current context (server, certificate authority, a bearer token or a client certificate) and a
 * transport over HTTPS that trusts that authority — Node 20's global fetch cannot take a CA, so
 * requests go through node:https, one keep-alive agent per transport, watches as chunked responses.
 *
 *   const remote = loadKubeconfig('.kubewasm/controller-manager.conf');
 *   const client = createClient(remoteTransport(remote));
 */
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { dirname, isAbsolute, join } from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'yaml';
import { type BearerToken, httpTransport, type Transport } from '../client/transport.js';

/** What a kubeconfig context says about reaching its cluster. */
export interface RemoteCluster {
  /** `https://127.0.0.1:6443` */
  server: string;
  /** The PEM the server's certificate must chain to; absent: the system's roots. */
  caPem?: string;
  /** insecure-skip-tls-verify. */
  insecure?: boolean;
  /** The user's bearer token (token, or the contents of tokenFile). */
  token?: string;
  /** The user's client certificate. */
  clientCertificate?: { certPem: string; keyPem: string };
}

interface NamedEntry<T> {
  name?: string;
  cluster?: T;
  user?: T;
  context?: T;
}
type Fields = Record<string, unknown>;

/** A kubeconfig that cannot be used, with clientcmd's wording where it has one. */
export class KubeconfigError extends Error {}

function entry(list: unknown, name: string, key: 'cluster' | 'user' | 'context', what: string): Fields {
  const found = (Array.isArray(list) ? (list as NamedEntry<Fields>[]) : []).find((e) => e?.name === name);
  // clientcmd's validation: `context was not found for specified context: x`, `cluster has no server defined`.
  if (found === undefined) throw new KubeconfigError(`invalid configuration: ${what} "${name}" not found`);
  return found[key] ?? {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Reads a kubeconfig's context (default its current-context); relative file paths are from the file's folder. */
export function loadKubeconfig(path: string, contextName?: string): RemoteCluster {
  let doc: Fields;
  try {
    doc = (parse(readFileSync(path, 'utf8')) ?? {}) as Fields;
  } catch (err) {
    throw new KubeconfigError(`cannot read kubeconfig ${path}: ${(err as Error).message}`);
  }
  const name = contextName ?? text(doc['current-context']);
  if (name === undefined) throw new KubeconfigError('invalid configuration: no configuration has been provided');
  const context = entry(doc.contexts, name, 'context', 'context');
  const clusterName = text(context.cluster) ?? '';
  const cluster = entry(doc.clusters, clusterName, 'cluster', 'cluster');
  const userName = text(context.user);
  const user = userName === undefined ? {} : entry(doc.users, userName, 'user', 'user');
  const server = text(cluster.server);
  if (server === undefined) throw new KubeconfigError(`invalid configuration: cluster "${clusterName}" has no server`);
  const file = (p: unknown): string | undefined => {
    const f = text(p);
    return f === undefined ? undefined : readFileSync(isAbsolute(f) ? f : join(dirname(path), f), 'utf8');
  };
  const data = (d: unknown): string | undefined => {
    const b = text(d);
    return b === undefined ? undefined : Buffer.from(b, 'base64').toString('utf8');
  };
  const caPem = data(cluster['certificate-authority-data']) ?? file(cluster['certificate-authority']);
  const token = text(user.token) ?? file(user.tokenFile)?.trim();
  const certPem = data(user['client-certificate-data']) ?? file(user['client-certificate']);
  const keyPem = data(user['client-key-data']) ?? file(user['client-key']);
  return {
    server,
    ...(caPem === undefined ? {} : { caPem }),
    ...(cluster['insecure-skip-tls-verify'] === true ? { insecure: true } : {}),
    ...(token === undefined ? {} : { token }),
    ...(certPem !== undefined && keyPem !== undefined ? { clientCertificate: { certPem, keyPem } } : {}),
  };
}

/** TLS settings of a fetch over node:https. */
export interface TlsOptions {
  caPem?: string;
  insecure?: boolean;
  clientCertificate?: { certPem: string; keyPem: string };
}

/** fetch over node:https with `tls`: the server's certificate checked against its CA, a client certificate sent. */
export function tlsFetch(tls: TlsOptions): (request: Request) => Promise<Response> {
  const agent = new Agent({
    keepAlive: true,
    ...(tls.caPem === undefined ? {} : { ca: tls.caPem }),
    ...(tls.insecure === true ? { rejectUnauthorized: false } : {}),
    ...(tls.clientCertificate === undefined
      ? {}
      : { cert: tls.clientCertificate.certPem, key: tls.clientCertificate.keyPem }),
  });
  return async (request) => {
    const url = new URL(request.url);
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      headers[k] = v;
    });
    return new Promise<Response>((resolve, reject) => {
      const req = httpsRequest(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers,
        },
        (res) => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v === undefined) continue;
            for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
          }
          const status = res.statusCode ?? 0;
          const stream = Readable.toWeb(res) as ReadableStream<Uint8Array>;
          resolve(new Response(status === 204 || status === 304 ? null : stream, { status, headers: out }));
        },
      );
      req.on('error', reject);
      request.signal.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
      req.end(body);
    });
  };
}

/**
 * A transport to `cluster` as its user, or — given `token` — as that bearer alone, without the
 * client certificate (client-go's AnonymousClientConfig plus a token, as kube-controller-manager
 * builds its controllers' ServiceAccount clients: a certificate would authenticate first).
 */
export function remoteTransport(cluster: RemoteCluster, token?: BearerToken): Transport {
  const asBearer = token !== undefined;
  const tls: TlsOptions = {
    ...(cluster.caPem === undefined ? {} : { caPem: cluster.caPem }),
    ...(cluster.insecure === true ? { insecure: true } : {}),
    ...(asBearer || cluster.clientCertificate === undefined ? {} : { clientCertificate: cluster.clientCertificate }),
  };
  const bearer = token ?? cluster.token;
  return httpTransport({
    server: cluster.server,
    fetch: tlsFetch(tls),
    ...(bearer === undefined ? {} : { token: bearer }),
  });
}
