/**
 * The server's configuration (k8s.io/apiserver pkg/server/config.go Config and its Complete()):
 * the options createApiServer takes, and what they complete into — the REST context every handler
 * shares, the CustomResourceDefinitions served, the authenticator and authorizer, the in-flight
 * limiter, the service account token issuer, the shared informers the admission plugins, the RBAC
 * authorizer and the CRD registry read (genericConfig.SharedInformerFactory). Nothing here serves a
 * request yet: server.ts puts the handler chain (handler-chain.ts) in front of the routes
 * (endpoints/router.ts).
 */
import type { SharedInformerFactory } from '../client/informers/factory.js';
import type { RequestHandler } from '../client/transport.js';
import { type Clock, realClock } from '../sim/clock.js';
import { discardLogger, type Logger } from '../sim/logger.js';
import type { Storage } from '../storage/storage.js';
import { type AdmissionPluginOptions, admissionChain } from './admission/plugins.js';
import { ServiceAllocators } from './allocators/service-allocation.js';
import { type Authorizer, createAuthorizer, isRbacAuthorizer, type RbacAuthorizer } from './auth/authorizer.js';
import { createAuthenticator } from './authn/authenticator.js';
import { serviceAccountAuthenticator } from './authn/service-account.js';
import {
  generateServiceAccountKeyPem,
  importServiceAccountKey,
  type ServiceAccountKey,
} from './authn/service-account-jwt.js';
import type { UserInfo } from './authn/tokens.js';
import { parseCertificateBundle } from './authn/x509.js';
import { CrdRegistry } from './crd/registry.js';
import {
  DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
  DEFAULT_MAX_REQUESTS_INFLIGHT,
  InFlightLimiter,
} from './filters/max-in-flight.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './filters/request-deadline.js';
import type { ChainConfig } from './handler-chain.js';
import { MAX_REQUEST_BODY_BYTES } from './incoming.js';
import { loopbackCredential, loopbackInformers, withLoopbackToken } from './informers/loopback.js';
import type { KubeletLogs } from './registry/core/pods/log.js';
import { type TokenIssuer, tokenIssuer } from './registry/core/serviceaccounts/token.js';
import type { RestContext } from './registry/generic/context.js';
import type { SchedulingExplainer } from './registry/kubewasm/schedulingexplanations/scheduling-explanation.js';

/** The generic server's limits (kube-apiserver's flags of the same names). */
export interface ProtectionOptions {
  /** --max-requests-inflight: read-only requests at once; 0 = no limit. Default 400. */
  maxRequestsInFlight?: number;
  /** --max-mutating-requests-inflight: mutating requests at once; 0 = no limit. Default 200. */
  maxMutatingRequestsInFlight?: number;
  /** --request-timeout: the longest a request may take, and the cap on `?timeout=`. Default 60 s. */
  requestTimeoutMs?: number;
  /** The largest request body read. Default 3 MiB. */
  maxRequestBodyBytes?: number;
}

export interface ApiServerOptions extends ProtectionOptions {
  storage: Storage;
  clock?: Clock;
  /** Bearer tokens → users (parseTokenFile, --token-auth-file). */
  tokens: ReadonlyMap<string, UserInfo>;
  /** --client-ca-file: PEM roots client certificates are verified against (authn/x509.ts); none = no certificate authentication. */
  clientCA?: string;
  /** --anonymous-auth: a request without credentials is system:anonymous (default false). */
  anonymousAuth?: boolean;
  /** --service-cluster-ip-range (default 10.96.0.0/12) and --service-node-port-range (30000-32767). */
  serviceClusterIPRange?: string;
  serviceNodePortRange?: string;
  /** The scheduler in this process, asked at request time (SchedulingExplanation); 503 without one. */
  explainer?: () => SchedulingExplainer | undefined;
  /** The nodes' kubelets answering `pods/<name>/log` (registry/core/pods/log.ts); without one, every kubelet is unreachable. */
  kubeletLogs?: KubeletLogs;
  /** --service-account-signing-key-file (authn/service-account-jwt.ts); without one, a key made on first use. */
  serviceAccountKey?: ServiceAccountKey;
  /** --service-account-issuer (default https://kubernetes.default.svc.cluster.local). */
  serviceAccountIssuer?: string;
  /** --api-audiences (default: the issuer). */
  apiAudiences?: readonly string[];
  /** The authorizer every request and the access reviews go through (auth/authorizer.ts); without one, RBAC over the informers, made on first use. */
  authorizer?: Authorizer;
  /**
   * The process's shared informers (ts/cluster passes its one factory), which the admission
   * plugins, the RBAC authorizer and the CRD registry read. Its client must reach this server
   * in-process as a user in system:masters (the RBAC authorizer's own informers cannot wait for
   * RBAC), as kube-apiserver's loopback client does. Without it, the server makes a factory of its
   * own over a loopback client of itself (informers/loopback.ts) and stops it on close(). Either
   * way an informer starts only when first read.
   */
  informers?: SharedInformerFactory;
  /**
   * The admission plugins (admission/plugins.ts): kube-apiserver's default-enabled set changed by
   * `enable` / `disable` (--enable-admission-plugins, --disable-admission-plugins). Without it only
   * NamespaceLifecycle runs: an apiserver with no controller manager beside it has, for example, no
   * `default` ServiceAccount for the ServiceAccount plugin to find.
   */
  admission?: AdmissionPluginOptions;
  /** Where the server logs what it cannot answer as a Status of its own (internal errors); default: nowhere. */
  logger?: Logger;
}

/** The options completed: what the chain and the routes are made of. */
export interface ServerConfig extends ChainConfig {
  options: ApiServerOptions;
  /** What every REST handler shares (storage, clock, admission, Service allocators). */
  rest: RestContext;
  /** The CustomResourceDefinitions and the custom resources they serve (crd/registry.ts). */
  crds: CrdRegistry;
  maxBodyBytes: number;
  /** The service account token signer (serviceaccounts/token, authentication of its tokens). */
  issuer: TokenIssuer;
  /** The RBAC authorizer (the default authorizer; the rules RBAC escalation checks resolve). */
  rbac(): RbacAuthorizer;
  /** The shared informers the server reads (the option's, or its own). */
  informers: SharedInformerFactory;
  /** Whether `informers` is the server's own (made here, shut down on close). */
  ownsInformers: boolean;
}

/** The options completed; `self` is the server being built (its own informers' loopback client calls it). */
export function completeConfig(options: ApiServerOptions, self: () => RequestHandler): ServerConfig {
  const clock = options.clock ?? realClock;
  let informers = options.informers;
  let tokens = options.tokens;
  if (informers === undefined) {
    // kube-apiserver's loopback client: a credential in memory, when the server reads itself.
    const loopback = loopbackCredential();
    informers = loopbackInformers(self, loopback.token, { clock });
    tokens = withLoopbackToken(tokens, loopback);
  }
  const rest: RestContext = {
    storage: options.storage,
    clock,
    admission: admissionChain(
      { storage: options.storage, informers, clock },
      options.admission ?? { plugins: ['NamespaceLifecycle'] },
    ),
    services: new ServiceAllocators({
      storage: options.storage,
      ...(options.serviceClusterIPRange === undefined ? {} : { clusterIPRange: options.serviceClusterIPRange }),
      ...(options.serviceNodePortRange === undefined ? {} : { nodePortRange: options.serviceNodePortRange }),
    }),
  };
  const issuer = tokenIssuer(
    options.serviceAccountKey ?? (async () => importServiceAccountKey(await generateServiceAccountKeyPem())),
    options.serviceAccountIssuer,
    options.apiAudiences ?? (options.serviceAccountIssuer === undefined ? undefined : [options.serviceAccountIssuer]),
  );
  // Authentication (authn/): certificates, the token file, service account JWTs, anonymous.
  const authenticator = createAuthenticator({
    tokens,
    serviceAccounts: serviceAccountAuthenticator({
      storage: options.storage,
      keys: async () => [await issuer.key()],
      issuer: issuer.issuer,
      audiences: issuer.audiences,
      now: () => clock.now(),
    }),
    ...(options.clientCA === undefined ? {} : { clientCA: parseCertificateBundle(options.clientCA) }),
    apiAudiences: issuer.audiences,
    anonymous: options.anonymousAuth === true,
    now: () => clock.now(),
  });
  // The RBAC objects in memory, made on first use: the default authorizer, and the rules escalation checks resolve.
  let rbacAuthorizer: RbacAuthorizer | undefined;
  const rbac = (): RbacAuthorizer => {
    rbacAuthorizer ??=
      options.authorizer !== undefined && isRbacAuthorizer(options.authorizer)
        ? options.authorizer
        : createAuthorizer(informers, options.storage);
    return rbacAuthorizer;
  };
  let authorizer = options.authorizer;
  return {
    options,
    clock,
    logger: options.logger ?? discardLogger,
    rest,
    crds: new CrdRegistry(informers, options.storage),
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    maxBodyBytes: options.maxRequestBodyBytes ?? MAX_REQUEST_BODY_BYTES,
    limiter: new InFlightLimiter(
      options.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_INFLIGHT,
      options.maxMutatingRequestsInFlight ?? DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
    ),
    issuer,
    authenticator,
    authorizer: () => {
      authorizer ??= rbac();
      return authorizer;
    },
    rbac,
    informers,
    ownsInformers: options.informers === undefined,
  };
}
