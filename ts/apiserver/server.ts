/**
 * The apiserver as a web-standard handler: `handle(request) → Response`, callable in-process
 * (tests, a browser worker) or behind the Node HTTPS adapter (node/https.ts). One top-level error
 * handler turns every thrown value into a Kubernetes Status.
 *
 *   const api = createApiServer({ storage, tokens });
 *   const res = await api.handle(new Request('https://x/api/v1/namespaces', { headers: { Authorization: 'Bearer t' } }));
 */
import {
  newBadRequest,
  newMethodNotAllowed,
  newMethodNotSupported,
  newPathNotFound,
  newRequestEntityTooLarge,
  newUnsupportedMediaType,
  StatusError,
  statusCode,
  toStatus,
} from '../api/status.js';
import { type Clock, realClock } from '../sim/clock.js';
import type { Storage } from '../storage/storage.js';
import { type AdmissionPluginOptions, admissionChain } from './admission/plugins.js';
import { ServiceAllocators } from './allocators/service-allocation.js';
import { accessReviewKind, handleAccessReview } from './auth/access-review.js';
import { type Authorizer, createAuthorizer, isRbacAuthorizer, type RbacAuthorizer } from './auth/authorizer.js';
import { authorizeRequest, rbacWriteCheck } from './auth/enforce.js';
import { createAuthenticator } from './authn/authenticator.js';
import type { ConnectionInfo } from './authn/connection.js';
import { impersonate } from './authn/impersonation.js';
import { handleSelfSubjectReview } from './authn/self-subject-review.js';
import { serviceAccountAuthenticator } from './authn/service-account.js';
import { handleTokenReview } from './authn/token-review.js';
import { parseCertificateBundle } from './authn/x509.js';
import { asDecodeErrorOf, parseJsonObject, YAML_TYPE, yamlToJson } from './codec.js';
import { versionedStorage } from './conversion.js';
import { CrdControllers } from './crd/controllers.js';
import { customResourceStorage } from './crd/cr-storage.js';
import { customOpenApiDocument, customOpenApiIndex } from './crd/openapi.js';
import { refuseStrategicMergePatch } from './crd/patch-types.js';
import { CrdRegistry } from './crd/registry.js';
import { handleCustomScale } from './crd/scale.js';
import {
  AGGREGATED_DISCOVERY_TYPE,
  aggregatedDiscovery,
  apiGroupList,
  apiResourceList,
  apiVersions,
  VERSION_INFO,
  wantsAggregated,
} from './discovery.js';
import { scanJson } from './go-json.js';
import { loadOpenApiData } from './openapi/data.js';
import { openApiDocument, openApiIndex } from './openapi/documents.js';
import type { KubeletLogs } from './pod-log.js';
import {
  classifyRequest,
  DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
  DEFAULT_MAX_REQUESTS_INFLIGHT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  InFlightLimiter,
  MAX_JSON_PATCH_OPERATIONS,
  MAX_REQUEST_BODY_BYTES,
  type ProtectionOptions,
  type RequestClass,
  readBodyLimited,
  requestDeadlineMs,
  tooManyRequests,
  withDeadline,
} from './protection.js';
import { PROTOBUF_TYPE, protobufBodyToJson } from './protobuf/decode.js';
import { parseResourcePath } from './request-info.js';
import { findResource, type ResourceInfo } from './resources.js';
import { jsonResponse } from './response.js';
import {
  createObject,
  deleteCollection,
  deleteObject,
  getObject,
  listObjects,
  patchObject,
  type ResourceRequest,
  type RestContext,
  updateObject,
} from './rest.js';
import {
  handleSchedulingExplanation,
  isSchedulingExplanation,
  type SchedulingExplainer,
} from './scheduling-explanation.js';
import {
  generateServiceAccountKeyPem,
  importServiceAccountKey,
  JWKS_PATH,
  jwks,
  OPENID_CONFIG_PATH,
  openIdConfiguration,
  type ServiceAccountKey,
} from './service-account-jwt.js';
import { handleSubresource } from './subresources.js';
import { tokenIssuer } from './token-request.js';
import type { UserInfo } from './tokens.js';
import { watchObjects } from './watch.js';

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
  /** The nodes' kubelets answering `pods/<name>/log` (pod-log.ts); without one, every kubelet is unreachable. */
  kubeletLogs?: KubeletLogs;
  /** --service-account-signing-key-file (service-account-jwt.ts); without one, a key made on first use. */
  serviceAccountKey?: ServiceAccountKey;
  /** --service-account-issuer (default https://kubernetes.default.svc.cluster.local). */
  serviceAccountIssuer?: string;
  /** --api-audiences (default: the issuer). */
  apiAudiences?: readonly string[];
  /** The authorizer every request and the access reviews go through (auth/authorizer.ts); without one, RBAC over `storage`, made on first use. */
  authorizer?: Authorizer;
  /**
   * The admission plugins (admission/plugins.ts): kube-apiserver's default-enabled set changed by
   * `enable` / `disable` (--enable-admission-plugins, --disable-admission-plugins). Without it only
   * NamespaceLifecycle runs: an apiserver with no controller manager beside it has, for example, no
   * `default` ServiceAccount for the ServiceAccount plugin to find.
   */
  admission?: AdmissionPluginOptions;
}

export interface ApiServer {
  /** `connection`: what the server front knows of the TLS connection (the client certificate). */
  handle(request: Request, connection?: ConnectionInfo): Promise<Response>;
  /**
   * handle() without a web Request, for a caller in this process or a Node front that has the
   * request's parts already (node/bridge.ts): answers what
   * `handle(new Request(call.url, call), connection)` would.
   */
  handleCall?(call: DirectCall, connection?: ConnectionInfo): Promise<Response>;
}

/**
 * A request as an in-process caller or a Node front makes it: the method, the URL, headers (a
 * repeated one joined with ", " as Headers joins it) and a body as text, or as the bytes received
 * (which, as in fetch, get no default Content-Type and decode as Request.text() decodes them).
 */
export interface DirectCall {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string | Uint8Array<ArrayBuffer>;
}

/** What the handlers read of a request, whether a web Request or a DirectCall. */
export interface Incoming {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null; entries(): Iterable<[string, string]> };
  /** The TLS connection it came on (Node fronts only): never taken from a header. */
  readonly connection?: ConnectionInfo;
  /** The body as text, however long. */
  text(): Promise<string>;
  /** The body's bytes, read to `limit` (413 past it). */
  bytes(limit: number): Promise<Uint8Array>;
  /** The body as UTF-8 text, read to `limit` bytes (413 past it). */
  textWithin(limit: number): Promise<string>;
}

const utf8 = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** A Headers' pairs (repeated headers joined with ", "), for impersonation's Impersonate-Extra-*. */
function headerEntries(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, key) => {
    out.push([key, value]);
  });
  return out;
}

/** A web Request as the handlers read it. */
function incomingRequest(request: Request, connection?: ConnectionInfo): Incoming {
  return {
    method: request.method,
    url: request.url,
    headers: { get: (name) => request.headers.get(name), entries: () => headerEntries(request.headers) },
    ...(connection === undefined ? {} : { connection }),
    text: () => request.text(),
    bytes: (limit) => readBodyLimited(request, limit),
    textWithin: async (limit) => utf8.decode(await readBodyLimited(request, limit)),
  };
}

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// The methods the fetch standard writes in upper case whatever case they are given in.
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/** Headers' value normalization: only HTTP whitespace (tab, LF, CR, space) is trimmed, not String.trim()'s. */
const HTTP_WHITESPACE_ENDS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function isHttpWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** A header value as Headers keeps it (the regular expression only when an end needs it). */
function headerValue(value: string): string {
  return isHttpWhitespace(value.charCodeAt(0)) || isHttpWhitespace(value.charCodeAt(value.length - 1))
    ? value.replace(HTTP_WHITESPACE_ENDS, '')
    : value;
}

/** Headers' pair order: by (lower-case) name — repeated names are joined already. */
function byName(a: [string, string], b: [string, string]): number {
  return a[0] < b[0] ? -1 : 1;
}

/** A body received as bytes, as a Request holding it reads: one check of the limit, decoded once. */
function bytesBody(bytes: Uint8Array): Pick<Incoming, 'text' | 'bytes' | 'textWithin'> {
  let text: string | undefined;
  const decoded = (): string => {
    text ??= utf8.decode(bytes);
    return text;
  };
  const within = (limit: number): void => {
    if (bytes.length > limit) throw newRequestEntityTooLarge(`limit is ${limit}`);
  };
  return {
    text: async () => decoded(),
    bytes: async (limit) => {
      within(limit);
      return bytes;
    },
    textWithin: async (limit) => {
      within(limit);
      return decoded();
    },
  };
}

/** A body given as text, as a Request holding it reads: its UTF-8 bytes decoded again — without making them. */
function textBody(raw: string): Pick<Incoming, 'text' | 'bytes' | 'textWithin'> {
  // Lone surrogates become U+FFFD, a byte order mark is dropped.
  const text = (SURROGATE.test(raw) ? raw.replace(LONE_SURROGATE, '\uFFFD') : raw).replace(/^\uFEFF/, '');
  const within = (limit: number): void => {
    // A character is at most 3 UTF-8 bytes (a surrogate pair 4 for 2); count only when it matters.
    if (raw.length * 3 > limit && utf8Encoder.encode(raw).length > limit) {
      throw newRequestEntityTooLarge(`limit is ${limit}`);
    }
  };
  return {
    text: async () => text,
    bytes: async (limit) => {
      within(limit);
      return utf8Encoder.encode(raw);
    },
    textWithin: async (limit) => {
      within(limit);
      return text;
    },
  };
}

/**
 * A DirectCall as the handlers read it, as `new Request(url, call)` would give it: the method
 * normalized, header names in lower case and values trimmed, pairs in Headers' order, a text
 * body's default Content-Type, and the body read as Request.text() / arrayBuffer() would.
 */
function incomingCall(call: DirectCall, connection?: ConnectionInfo): Incoming {
  const upper = call.method.toUpperCase();
  const method = NORMALIZED_METHODS.has(upper) ? upper : call.method;
  if (call.body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new TypeError('Request with GET/HEAD method cannot have body.');
  }
  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries(call.headers)) {
    // Names differing only in case are one header, its values joined as Headers.append joins them.
    const name = k.toLowerCase();
    const before = headers.get(name);
    headers.set(name, before === undefined ? headerValue(v) : `${before}, ${headerValue(v)}`);
  }
  if (typeof call.body === 'string' && !headers.has('content-type')) {
    headers.set('content-type', 'text/plain;charset=UTF-8');
  }
  return {
    method,
    url: call.url,
    headers: {
      get: (name) => headers.get(name.toLowerCase()) ?? null,
      entries: () => [...headers.entries()].sort(byName),
    },
    ...(connection === undefined ? {} : { connection }),
    ...(call.body instanceof Uint8Array ? bytesBody(call.body) : textBody(call.body ?? '')),
  };
}

/** Paths anyone may read (system:public-info-viewer in Kubernetes). */
const PUBLIC_PATHS = new Set(['/version', '/healthz', '/livez', '/readyz']);

function textResponse(text: string): Response {
  return new Response(text, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** The Status response for any thrown value. */
function errorResponse(err: unknown): Response {
  const status = toStatus(err);
  if (!(err instanceof StatusError)) console.error('kubewasm apiserver: internal error', err);
  return jsonResponse(statusCode(err), status);
}

/** The group the max-in-flight filter never refuses (user.SystemPrivilegedGroup). */
const SYSTEM_MASTERS = 'system:masters';

/**
 * A PATCH body checked as kube-apiserver decodes it (handlers/patch.go): JSON syntax and nesting
 * with the texts of each patch type's decoder, and at most 10000 JSON patch operations (413).
 */
function checkPatchBody(contentType: string, text: string): void {
  const type = contentType.split(';')[0]?.trim() ?? '';
  const scan = scanJson(text);
  if (type === 'application/json-patch+json') {
    if (scan.error !== undefined) throw newBadRequest(scan.error);
    const ops: unknown = JSON.parse(text);
    if (Array.isArray(ops) && ops.length > MAX_JSON_PATCH_OPERATIONS) {
      throw newRequestEntityTooLarge(
        `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`,
      );
    }
  } else if (scan.error !== undefined) {
    // evanphx/json-patch ErrBadJSONPatch for merge patches, mergepatch.ErrBadJSONDoc for strategic ones.
    if (type === 'application/merge-patch+json') throw newBadRequest('Invalid JSON Patch');
    if (type === 'application/strategic-merge-patch+json') throw newBadRequest('invalid JSON document');
  }
}

export function createApiServer(options: ApiServerOptions): ApiServer {
  const ctx: RestContext = {
    storage: options.storage,
    clock: options.clock ?? realClock,
    admission: admissionChain(
      { storage: options.storage, clock: options.clock ?? realClock },
      options.admission ?? { plugins: ['NamespaceLifecycle'] },
    ),
    services: new ServiceAllocators({
      storage: options.storage,
      ...(options.serviceClusterIPRange === undefined ? {} : { clusterIPRange: options.serviceClusterIPRange }),
      ...(options.serviceNodePortRange === undefined ? {} : { nodePortRange: options.serviceNodePortRange }),
    }),
  };
  /**
   * The context a resource's handlers use: a version stored as another one converts (conversion.ts),
   * a custom resource reads with its version's apiVersion and defaults (crd/cr-storage.ts).
   */
  const contextFor = (info: ResourceInfo): RestContext =>
    info.custom !== undefined
      ? { ...ctx, storage: customResourceStorage(ctx.storage, info) }
      : info.storageVersion === undefined
        ? ctx
        : { ...ctx, storage: versionedStorage(ctx.storage, info) };
  // CustomResourceDefinitions (crd/): the custom resources they serve, kept from a watch started on
  // the first request, and apiextensions' naming, establishing and finalizer controllers on this storage.
  const crds = new CrdRegistry(options.storage);
  new CrdControllers(options.storage, crds, ctx.clock);
  /** Requests already given a deprecated version's warning (serve() answers them a second time, inside). */
  const warnedRequests = new WeakSet<Incoming>();
  const limiter = new InFlightLimiter(
    options.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_INFLIGHT,
    options.maxMutatingRequestsInFlight ?? DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
  );
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const maxBodyBytes = options.maxRequestBodyBytes ?? MAX_REQUEST_BODY_BYTES;
  const issuer = tokenIssuer(
    options.serviceAccountKey ?? (async () => importServiceAccountKey(await generateServiceAccountKeyPem())),
    options.serviceAccountIssuer,
    options.apiAudiences ?? (options.serviceAccountIssuer === undefined ? undefined : [options.serviceAccountIssuer]),
  );
  // --- Authentication (authn/): certificates, the token file, service account JWTs, anonymous. ---
  const apiAudiences = issuer.audiences;
  const authenticator = createAuthenticator({
    tokens: options.tokens,
    serviceAccounts: serviceAccountAuthenticator({
      storage: options.storage,
      keys: async () => [await issuer.key()],
      issuer: issuer.issuer,
      audiences: apiAudiences,
      now: () => ctx.clock.now(),
    }),
    ...(options.clientCA === undefined ? {} : { clientCA: parseCertificateBundle(options.clientCA) }),
    apiAudiences,
    anonymous: options.anonymousAuth === true,
    now: () => ctx.clock.now(),
  });
  const subresourceServices = {
    ...(options.kubeletLogs === undefined ? {} : { kubeletLogs: options.kubeletLogs }),
    tokenIssuer: issuer,
  };
  let reviewAuthorizer = options.authorizer;
  // The RBAC objects in memory: the default authorizer, and the rules escalation checks resolve.
  let rbacAuthorizer: RbacAuthorizer | undefined;
  const rbac = (): RbacAuthorizer => {
    rbacAuthorizer ??=
      options.authorizer !== undefined && isRbacAuthorizer(options.authorizer)
        ? options.authorizer
        : createAuthorizer(options.storage);
    return rbacAuthorizer;
  };
  const authorizer = (): Authorizer => {
    reviewAuthorizer ??= rbac();
    return reviewAuthorizer;
  };

  async function route(request: Incoming, url: URL, cls: RequestClass): Promise<Response> {
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    if (path === '/version') return jsonResponse(200, VERSION_INFO);
    if (path === '/healthz' || path === '/livez' || path === '/readyz') return textResponse('ok');

    // WithAuthentication (401 Unauthorized), then WithImpersonation (authn/impersonation.ts).
    let user: UserInfo | undefined;
    if (!PUBLIC_PATHS.has(path)) {
      const authenticated = await authenticator.authenticate(request.headers.get('Authorization'), request.connection);
      const acting = await impersonate(authorizer(), authenticated, {
        headers: request.headers.entries(),
        requestUri: `${url.pathname}${url.search}`,
      });
      if ('response' in acting) return acting.response;
      user = acting.user;
    }

    // --- Authorization (auth/enforce.ts): WithAuthorization, after authentication and the in-flight limit. ---
    const authorize = async (): Promise<void> => {
      if (user !== undefined) await authorizeRequest(authorizer(), user, request.method, url);
    };
    // Max-in-flight runs after authentication: system:masters is served even over the limit.
    if (cls.longRunning) {
      await authorize();
      return serve(request, url, path, user);
    }
    const release = limiter.tryAcquire(cls.mutating);
    if (release === undefined && !(user?.groups ?? []).includes(SYSTEM_MASTERS)) {
      const { error, headers } = tooManyRequests();
      const res = errorResponse(error);
      for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
      return res;
    }
    try {
      await authorize();
      return await serve(request, url, path, user);
    } finally {
      release?.();
    }
  }

  async function serve(request: Incoming, url: URL, path: string, user: UserInfo | undefined): Promise<Response> {
    const accept = request.headers.get('Accept');
    await crds.start();

    if (request.method === 'GET') {
      if (path === '/api' || path === '/apis') {
        if (path === '/apis') await crds.synced();
        if (wantsAggregated(accept)) {
          return jsonResponse(200, aggregatedDiscovery(path === '/api', crds.all()), {
            contentType: AGGREGATED_DISCOVERY_TYPE,
          });
        }
        return jsonResponse(200, path === '/api' ? apiVersions(url.host) : apiGroupList(crds.all()));
      }
      const gv = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
      if (gv) {
        if (!gv[1]) await crds.synced();
        const list = gv[1] ? apiResourceList('', gv[1]) : apiResourceList(gv[2] as string, gv[3] as string, crds.all());
        if (list === undefined) throw newPathNotFound();
        return jsonResponse(200, list);
      }
      // Service account issuer discovery (pkg/routes/openidmetadata.go): cacheable for an hour.
      if (path === OPENID_CONFIG_PATH || path === JWKS_PATH) {
        const res =
          path === JWKS_PATH
            ? jsonResponse(200, await jwks([await issuer.key()]), { contentType: 'application/jwk-set+json' })
            : jsonResponse(200, openIdConfiguration(issuer.issuer, url.host));
        res.headers.set('Cache-Control', 'public, max-age=3600');
        return res;
      }
      if (path === '/openapi/v3') {
        await crds.synced();
        const index = await openApiIndex();
        // The custom resource group versions (crd/openapi.ts) after the built-in ones.
        const custom = customOpenApiIndex(await loadOpenApiData(), crds.all());
        return jsonResponse(200, { paths: { ...index.paths, ...custom } });
      }
      if (path.startsWith('/openapi/v3/')) {
        const key = path.slice('/openapi/v3/'.length);
        await crds.synced();
        const doc = (await openApiDocument(key)) ?? customOpenApiDocument(await loadOpenApiData(), crds.all(), key);
        if (doc === undefined) throw newPathNotFound();
        return jsonResponse(200, doc);
      }
    }

    const rp = parseResourcePath(path);
    if (rp === undefined) throw newPathNotFound();
    // Field validation decodes request bodies against the schemas (loaded on the first write).
    if (request.method !== 'GET' && request.method !== 'DELETE') await loadOpenApiData();
    let info = findResource(rp.group, rp.version, rp.resource, crds);
    if (info === undefined) {
      // Perhaps a custom resource whose CRD changed a moment ago: read the CRDs up to now.
      await crds.synced();
      info = findResource(rp.group, rp.version, rp.resource, crds);
    }
    if (info === undefined) throw newPathNotFound();
    // A deprecated custom resource version: every answer carries its warning (customresource_handler.go).
    const deprecation = info.custom?.warning;
    if (deprecation !== undefined && !warnedRequests.has(request)) {
      warnedRequests.add(request);
      const res = await serve(request, url, path, user);
      res.headers.append('Warning', `299 - ${JSON.stringify(deprecation)}`);
      return res;
    }
    if (!info.namespaced && rp.namespace !== '' && info.resource !== 'namespaces') throw newPathNotFound();
    const ctx = contextFor(info);
    const req: ResourceRequest = {
      info,
      namespace: info.namespaced ? rp.namespace : '',
      name: rp.name,
      query: url.searchParams,
      accept,
      ...(user === undefined ? {} : { user }),
      userAgent: request.headers.get('User-Agent') ?? '',
    };
    // RBAC escalation prevention on role and binding writes (auth/escalation.ts).
    const admit =
      user === undefined
        ? undefined
        : rbacWriteCheck(authorizer(), rbac().index, user, {
            group: info.group,
            resource: info.resource,
            namespace: req.namespace,
            name: rp.name,
          });
    if (admit !== undefined) req.admit = admit;
    /**
     * The request body as JSON text, read to the body limit (413); YAML and protobuf converted.
     * `kind` (creates and updates) checks it decodes as one, with the apiserver's decode errors.
     */
    const body = async (kind?: string): Promise<string> => {
      const type = (request.headers.get('Content-Type') ?? '').split(';')[0]?.trim() ?? '';
      if (
        type !== '' &&
        type !== 'application/json' &&
        type !== '*/*' &&
        type !== YAML_TYPE &&
        type !== PROTOBUF_TYPE
      ) {
        throw newUnsupportedMediaType(['application/json', YAML_TYPE, PROTOBUF_TYPE]);
      }
      if (type === PROTOBUF_TYPE) return protobufBodyToJson(await request.bytes(maxBodyBytes));
      const text = await request.textWithin(maxBodyBytes);
      if (type === YAML_TYPE) {
        const json = yamlToJson(text, kind);
        // Decode failures of the converted text are reported with the YAML as sent.
        if (kind !== undefined) parseJsonObject(json, kind, text);
        return json;
      }
      return text;
    };
    /** Creates and updates report a body that does not decode as kube-apiserver does, naming the kind. */
    const decodingAs = async (kind: string, work: () => Promise<Response>): Promise<Response> => {
      try {
        return await work();
      } catch (err) {
        throw asDecodeErrorOf(err, kind);
      }
    };
    const watching = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    if (isSchedulingExplanation(info)) {
      return handleSchedulingExplanation(options.explainer?.(), request.method, req.name, await body());
    }
    // authentication.k8s.io/v1: create-only, never stored (authn/self-subject-review.ts, authn/token-review.ts).
    if (info.group === 'authentication.k8s.io' && info.kind === 'SelfSubjectReview') {
      return decodingAs(info.kind, async () =>
        handleSelfSubjectReview(
          { ...req, info },
          request.method,
          user,
          request.method === 'POST' ? await body(info.kind) : '',
          ctx.clock.now(),
        ),
      );
    }
    if (info.group === 'authentication.k8s.io' && info.kind === 'TokenReview') {
      return decodingAs(info.kind, async () =>
        handleTokenReview(
          { ...req, info },
          request.method,
          request.method === 'POST' ? await body(info.kind) : '',
          authenticator,
          apiAudiences,
        ),
      );
    }
    if (accessReviewKind(info) !== undefined) {
      return decodingAs(info.kind, async () =>
        handleAccessReview(
          authorizer(),
          req,
          request.method,
          user,
          request.method === 'POST' ? await body(info.kind) : '',
        ),
      );
    }

    if (req.name === '') {
      switch (request.method) {
        case 'GET':
          return watching ? watchObjects(ctx, req) : listObjects(ctx, req);
        case 'POST':
          // All-namespace collections are routed for list and watch only.
          if (info.namespaced && req.namespace === '') throw newMethodNotAllowed();
          // customresource_handler.go: no new instances while the CRD is being deleted.
          if (info.custom?.terminating) {
            throw newMethodNotSupported({ group: info.group, resource: info.resource }, 'create');
          }
          return decodingAs(info.kind, async () => createObject(ctx, req, await body(info.kind)));
        case 'DELETE':
          if (info.namespaced && req.namespace === '') throw newMethodNotAllowed();
          return deleteCollection(ctx, req, await body());
        default:
          throw newMethodNotAllowed();
      }
    }
    if (info.namespaced && req.namespace === '') throw newPathNotFound();
    if (info.custom !== undefined && request.method === 'PATCH') {
      refuseStrategicMergePatch(request.headers.get('Content-Type') ?? '');
    }
    if (rp.subresource === 'scale' && info.custom?.scale !== undefined) {
      const contentType = request.headers.get('Content-Type') ?? '';
      const text = request.method === 'PATCH' ? () => request.textWithin(maxBodyBytes) : () => body('Scale');
      return handleCustomScale(ctx, req, request.method, contentType, text);
    }
    if (rp.subresource !== '') {
      return handleSubresource(ctx, req, rp.subresource, request, body, subresourceServices);
    }
    switch (request.method) {
      case 'GET':
        return watching ? watchObjects(ctx, req) : getObject(ctx, req);
      case 'PUT':
        return decodingAs(info.kind, async () => updateObject(ctx, req, await body(info.kind)));
      case 'PATCH': {
        const contentType = request.headers.get('Content-Type') ?? '';
        const text = await request.textWithin(maxBodyBytes);
        checkPatchBody(contentType, text);
        return patchObject(ctx, req, contentType, text);
      }
      case 'DELETE':
        return deleteObject(ctx, req, await body());
      default:
        throw newMethodNotAllowed();
    }
  }

  async function handle(request: Incoming): Promise<Response> {
    try {
      const url = new URL(request.url);
      const cls = classifyRequest(request.method, url);
      if (cls.longRunning) return await route(request, url, cls);
      // WithRequestDeadline, then WithTimeoutForNonLongRunningRequests: both before authentication.
      const deadline = requestDeadlineMs(url.searchParams, requestTimeoutMs);
      return await withDeadline(route(request, url, cls).catch(errorResponse), deadline, ctx.clock, errorResponse);
    } catch (err) {
      return errorResponse(err);
    }
  }

  return {
    handle: (request, connection) => handle(incomingRequest(request, connection)),
    handleCall: async (call, connection) => handle(incomingCall(call, connection)),
  };
}
