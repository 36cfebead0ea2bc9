/**
 * The one typed client every component uses to reach the cluster (controllers, scheduler,
 * kubelets), the same over either transport:
 *
 *   const client = createClient(inProcessTransport(api, token));
 *   const pod = await client.get(RESOURCES.pods, 'default', 'web-0');   // a Pod (ts/api/types)
 *   for await (const ev of await client.watch(RESOURCES.pods, { resourceVersion: list.metadata.resourceVersion })) …
 *
 * Non-2xx responses throw a StatusError (ts/api/status.ts) with the server's Status.
 */
import type { DeleteOptions, KubeList, KubeObject, Status } from '../api/meta.js';
import type { GroupVersionResource, ObjectOfResource } from '../api/resources.js';
import type { Scale } from '../api/types/autoscaling/v1.js';
import type { Namespace } from '../api/types/core/v1.js';
import { watchProgressOf } from '../api/watch-progress.js';
import { errorFromResponse } from './errors.js';
import { resourcePath } from './resources.js';
import { CLIENT_ORIGIN, type Transport } from './transport.js';
import { type WatchStream, watchStream } from './watch-stream.js';

export interface ListOptions {
  /** All namespaces when absent (or for cluster-scoped resources). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

export interface WatchOptions {
  namespace?: string;
  /** Events after this version; '' or '0' starts with ADDED events for the current state. */
  resourceVersion: string;
  labelSelector?: string;
  fieldSelector?: string;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
}

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
}

export type PatchType = 'merge' | 'json' | 'strategic';

/** The Content-Type of each patch type. */
export const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

/** autoscaling/v1 Scale, the body of every `…/scale` subresource. */
export type { Scale };

/**
 * A write's body: an object of the resource's kind, or any KubeObject (what client-go's dynamic
 * client sends as Unstructured); the answer is typed by the resource either way.
 */
export type BodyOf<R extends GroupVersionResource> = ObjectOfResource<R> | KubeObject;

/**
 * Each call comes in two forms: typed by the resource (`get(RESOURCES.pods, …)` answers a Pod; a
 * resource of no known kind, a KubeObject), or by the type asked for (`get<Pod>(gvr, …)`), which
 * generic code over a `T` uses.
 */
export interface Client {
  get<R extends GroupVersionResource>(
    gvr: R,
    namespace: string | undefined,
    name: string,
  ): Promise<ObjectOfResource<R>>;
  get<T extends KubeObject>(gvr: GroupVersionResource, namespace: string | undefined, name: string): Promise<T>;
  list<R extends GroupVersionResource>(gvr: R, options?: ListOptions): Promise<KubeList<ObjectOfResource<R>>>;
  list<T extends KubeObject>(gvr: GroupVersionResource, options?: ListOptions): Promise<KubeList<T>>;
  create<R extends GroupVersionResource>(
    gvr: R,
    namespace: string | undefined,
    body: BodyOf<R>,
    options?: WriteOptions,
  ): Promise<ObjectOfResource<R>>;
  create<T extends KubeObject>(
    gvr: GroupVersionResource,
    namespace: string | undefined,
    body: T,
    options?: WriteOptions,
  ): Promise<T>;
  /** PUT; the body's metadata.resourceVersion (when set) makes it a compare-and-swap (409 Conflict). */
  update<R extends GroupVersionResource>(
    gvr: R,
    namespace: string | undefined,
    body: BodyOf<R>,
    options?: WriteOptions,
  ): Promise<ObjectOfResource<R>>;
  update<T extends KubeObject>(
    gvr: GroupVersionResource,
    namespace: string | undefined,
    body: T,
    options?: WriteOptions,
  ): Promise<T>;
  /** PUT of `…/status`: only the status is written. */
  updateStatus<R extends GroupVersionResource>(
    gvr: R,
    namespace: string | undefined,
    body: BodyOf<R>,
    options?: WriteOptions,
  ): Promise<ObjectOfResource<R>>;
  updateStatus<T extends KubeObject>(
    gvr: GroupVersionResource,
    namespace: string | undefined,
    body: T,
    options?: WriteOptions,
  ): Promise<T>;
  patch<R extends GroupVersionResource>(
    gvr: R,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    body: unknown,
    options?: PatchOptions,
  ): Promise<ObjectOfResource<R>>;
  patch<T extends KubeObject>(
    gvr: GroupVersionResource,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    body: unknown,
    options?: PatchOptions,
  ): Promise<T>;
  /** DELETE; answers the deleted object (or a Success Status). */
  delete<R extends GroupVersionResource>(
    gvr: R,
    namespace: string | undefined,
    name: string,
    options?: DeleteOptions,
  ): Promise<ObjectOfResource<R> | Status>;
  /** Opens a watch; an HTTP error (e.g. 410 Expired) throws here, a later one arrives as an ERROR event. */
  watch<R extends GroupVersionResource>(gvr: R, options: WatchOptions): Promise<WatchStream<ObjectOfResource<R>>>;
  watch<T extends KubeObject>(gvr: GroupVersionResource, options: WatchOptions): Promise<WatchStream<T>>;
  /** POST pods/binding: assigns the pod to a node (409 when already bound). */
  bind(namespace: string, podName: string, nodeName: string): Promise<Status>;
  /** PATCH of the scale subresource to `replicas`; answers the new Scale. */
  scale(gvr: GroupVersionResource, namespace: string, name: string, replicas: number): Promise<Scale>;
  /** GET of the scale subresource. */
  getScale(gvr: GroupVersionResource, namespace: string, name: string): Promise<Scale>;
  /** PUT namespaces/<name>/finalize: writes only spec.finalizers (client-go Namespaces().Finalize). */
  finalizeNamespace(namespace: Namespace | KubeObject): Promise<Namespace>;
}

export type PatchOptions = WriteOptions & { subresource?: 'status' | 'scale' };

type Query = Record<string, string | number | boolean | undefined>;

function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== '') params.set(k, String(v));
  }
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

function writeQuery(options: WriteOptions | undefined): Query {
  return { dryRun: options?.dryRun ? 'All' : undefined, fieldManager: options?.fieldManager };
}

function nameOf(body: KubeObject): string {
  const name = body.metadata?.name;
  if (name === undefined || name === '') throw new TypeError('kubewasm client: the object has no metadata.name');
  return name;
}

// client-go rest/request.go: a request is retried at most 10 times when the server asks it to
// come back later.
export const DEFAULT_MAX_RETRIES = 10;

export interface ClientOptions {
  /** Retries of a request answered 429 or 5xx with Retry-After (default 10; 0: none). */
  maxRetries?: number;
  /** How the client waits the Retry-After (default: real time, as client-go waits). */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * checkWait (request.go): the seconds to wait before retrying — only for a 429 or a 5xx that
 * carries a Retry-After of whole seconds — else undefined.
 */
function retryAfterSeconds(res: Response): number | undefined {
  if (res.status !== 429 && res.status < 500) return undefined;
  const header = res.headers.get('Retry-After');
  if (header === null || !/^[0-9]+$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/** The client over `transport`. */
export function createClient(transport: Transport, options: ClientOptions = {}): Client {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const sleep = options.sleep ?? realSleep;
  async function send(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const text = body === undefined ? undefined : JSON.stringify(body);
    if (body !== undefined) headers['Content-Type'] = contentType;
    const url = `${CLIENT_ORIGIN}${path}`;
    for (let retries = 0; ; retries++) {
      // An in-process transport takes the call as it is; any other gets a web Request.
      const res =
        transport.direct !== undefined
          ? await transport.direct(text === undefined ? { method, url, headers } : { method, url, headers, body: text })
          : await transport(new Request(url, { method, headers, ...(text === undefined ? {} : { body: text }) }));
      if (res.status >= 200 && res.status <= 299) return res;
      // The server did not act on it and said when to come back (max-in-flight's 429, a 503).
      const wait = retries < maxRetries ? retryAfterSeconds(res) : undefined;
      if (wait === undefined) throw await errorFromResponse(res);
      await res.body?.cancel();
      await sleep(wait * 1000);
    }
  }
  async function json<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    const res = await send(method, path, body, contentType);
    return (await res.json()) as T;
  }

  // Each method answers what the server sent, as the type its caller's overload names.
  return {
    get: <T>(gvr: GroupVersionResource, namespace: string | undefined, name: string) =>
      json<T>('GET', resourcePath(gvr, namespace, name)),
    list: <T>(gvr: GroupVersionResource, o: ListOptions = {}) =>
      json<KubeList<T>>(
        'GET',
        resourcePath(gvr, o.namespace) +
          queryString({
            labelSelector: o.labelSelector,
            fieldSelector: o.fieldSelector,
            limit: o.limit,
            continue: o.continue,
            resourceVersion: o.resourceVersion,
            resourceVersionMatch: o.resourceVersionMatch,
          }),
      ),
    create: <T>(gvr: GroupVersionResource, namespace: string | undefined, body: KubeObject, options?: WriteOptions) =>
      json<T>('POST', resourcePath(gvr, namespace) + queryString(writeQuery(options)), body),
    update: <T>(gvr: GroupVersionResource, namespace: string | undefined, body: KubeObject, options?: WriteOptions) =>
      json<T>('PUT', resourcePath(gvr, namespace, nameOf(body)) + queryString(writeQuery(options)), body),
    updateStatus: <T>(
      gvr: GroupVersionResource,
      namespace: string | undefined,
      body: KubeObject,
      options?: WriteOptions,
    ) => json<T>('PUT', resourcePath(gvr, namespace, nameOf(body), 'status') + queryString(writeQuery(options)), body),
    patch: <T>(
      gvr: GroupVersionResource,
      namespace: string | undefined,
      name: string,
      type: PatchType,
      body: unknown,
      options?: PatchOptions,
    ) =>
      json<T>(
        'PATCH',
        resourcePath(gvr, namespace, name, options?.subresource) + queryString(writeQuery(options)),
        body,
        PATCH_CONTENT_TYPES[type],
      ),
    delete: <T>(gvr: GroupVersionResource, namespace: string | undefined, name: string, options?: DeleteOptions) =>
      json<T | Status>('DELETE', resourcePath(gvr, namespace, name), options),
    async watch<T>(gvr: GroupVersionResource, o: WatchOptions): Promise<WatchStream<T>> {
      const path =
        resourcePath(gvr, o.namespace) +
        queryString({
          watch: 'true',
          resourceVersion: o.resourceVersion,
          labelSelector: o.labelSelector,
          fieldSelector: o.fieldSelector,
          allowWatchBookmarks: o.allowWatchBookmarks ? 'true' : undefined,
          timeoutSeconds: o.timeoutSeconds,
        });
      const res = await send('GET', path);
      return watchStream<T>(res.body, watchProgressOf(res));
    },
    bind: (namespace, podName, nodeName) =>
      json('POST', resourcePath({ group: '', version: 'v1', resource: 'pods' }, namespace, podName, 'binding'), {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: podName, namespace },
        target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
      }),
    scale: (gvr, namespace, name, replicas) =>
      json('PATCH', resourcePath(gvr, namespace, name, 'scale'), { spec: { replicas } }, PATCH_CONTENT_TYPES.merge),
    getScale: (gvr, namespace, name) => json('GET', resourcePath(gvr, namespace, name, 'scale')),
    finalizeNamespace: (namespace) =>
      json(
        'PUT',
        resourcePath({ group: '', version: 'v1', resource: 'namespaces' }, undefined, nameOf(namespace), 'finalize'),
        namespace,
      ),
  };
}
