/**
 * A service account's token, requested and renewed the way kube-controller-manager gives each
 * controller its own credential with --use-service-account-credentials
 * (pkg/controller/client_builder_dynamic.go): the service account got (or created) by the
 * requesting identity, then a TokenRequest through `serviceaccounts/<name>/token`, renewed once 80%
 * of its lifetime has passed. `current()` is what the transport sends with each request.
 *
 *   const source = await serviceAccountTokenSource({ client, transport, namespace: 'kube-system', name: 'namespace-controller', clock });
 *   const controllerClient = createClient(inProcessTransport(api, source.current));
 */
import { isAlreadyExists, isNotFound } from '../api/status.js';
import type { TokenRequest } from '../api/types/authentication/v1.js';
import type { Clock } from '../sim/clock.js';
import type { Client } from './client.js';
import { errorFromResponse } from './errors.js';
import { RESOURCES, resourcePath } from './resources.js';
import { CLIENT_ORIGIN, type Transport } from './transport.js';

/** client_builder_dynamic.go: defaultExpirationSeconds and leewayPercent (renewed at 80% of the lifetime). */
export const DEFAULT_EXPIRATION_SECONDS = 3600;
const LEEWAY_PERCENT = 20;
/** How soon a failed renewal is tried again. */
const RETRY_MS = 10_000;

export interface TokenSourceOptions {
  /** The requesting identity's client (kube-controller-manager's own credential). */
  client: Client;
  /** The same identity's transport, for the `token` subresource the client has no call for. */
  transport: Transport;
  namespace: string;
  name: string;
  clock: Clock;
  expirationSeconds?: number;
  /** A renewal that failed (it is tried again; the current token is kept until it expires). */
  onError?: (err: unknown) => void;
}

export interface TokenSource {
  /** The token to send now. */
  current: () => string;
  /** Stops renewing. */
  stop(): void;
}

/** getOrCreateServiceAccount (client_builder.go), creating the namespace when it is missing. */
async function getOrCreateServiceAccount(client: Client, namespace: string, name: string): Promise<void> {
  try {
    await client.get(RESOURCES.serviceaccounts, namespace, name);
    return;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  // Tolerated: the requester may not be allowed to create namespaces.
  try {
    await client.get(RESOURCES.namespaces, undefined, namespace);
  } catch (err) {
    if (isNotFound(err)) {
      await client
        .create(RESOURCES.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })
        .catch(() => {});
    }
  }
  try {
    await client.create(RESOURCES.serviceaccounts, namespace, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { namespace, name },
    });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

/** POST serviceaccounts/<name>/token: the token and its lifetime in seconds. */
async function requestToken(
  transport: Transport,
  namespace: string,
  name: string,
  expirationSeconds: number,
): Promise<{ token: string; expirationSeconds: number }> {
  const url = `${CLIENT_ORIGIN}${resourcePath(RESOURCES.serviceaccounts, namespace, name)}/token`;
  const res = await transport(
    new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds },
      }),
    }),
  );
  if (res.status !== 201) throw await errorFromResponse(res);
  const body = (await res.json()) as TokenRequest;
  const token = body.status?.token ?? '';
  if (token === '') throw new Error(`TokenRequest for ${namespace}/${name} answered no token`);
  return { token, expirationSeconds: body.spec?.expirationSeconds ?? expirationSeconds };
}

/** The first token is requested before this resolves; a failure then is the caller's to surface. */
export async function serviceAccountTokenSource(options: TokenSourceOptions): Promise<TokenSource> {
  const expiration = options.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  await getOrCreateServiceAccount(options.client, options.namespace, options.name);
  let granted = await requestToken(options.transport, options.namespace, options.name, expiration);
  let cancel: (() => void) | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    cancel = options.clock.setTimer(() => {
      requestToken(options.transport, options.namespace, options.name, expiration)
        .then((next) => {
          granted = next;
          schedule(renewAfterMs(next.expirationSeconds));
        })
        .catch((err: unknown) => {
          options.onError?.(err);
          schedule(RETRY_MS);
        });
    }, ms);
  };
  const renewAfterMs = (seconds: number) => (seconds - Math.floor((seconds * LEEWAY_PERCENT) / 100)) * 1000;
  schedule(renewAfterMs(granted.expirationSeconds));
  return {
    current: () => granted.token,
    stop() {
      stopped = true;
      cancel?.();
    },
  };
}
