/**
 * `pods/<name>/log`: GET a container's log from the kubelet of the pod's node, as kube-apiserver
 * does (pkg/registry/core/pod/rest/log.go LogREST.Get, pkg/registry/core/pod/strategy.go
 * LogLocation, pkg/apis/core/validation ValidatePodLogOptions, v1.32). The kubelets are not part
 * of this server: an optional `kubeletLogs` provider plays the node's `/containerLogs` endpoint.
 * A node it does not serve answers as an unreachable kubelet does.
 */
import { type ErrorList, FieldPath, forbidden, invalid } from '../../../../api/field-errors.js';
import type { KubeObject, StatusReason } from '../../../../api/meta.js';
import { newBadRequest, newInternalError, newInvalid, newNotFound, StatusError } from '../../../../api/status.js';
import { goTimeParseError, RFC3339, rfc3339 } from '../../../../api/time.js';
import { decodeStored } from '../../../decode/codec.js';
import type { ResourceRequest, RestContext } from '../../generic/context.js';
import { getReadAt } from '../../generic/read-options.js';
import { storageCall } from '../../generic/storage-call.js';
import { findResource, objectKey } from '../../resources.js';

/** v1.PodLogOptions as the kubelet receives it (after decoding and validation). */
export interface PodLogOptions {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  sinceSeconds?: number;
  /** sinceTime as RFC 3339 (second precision, as LogLocation passes it on). */
  sinceTime?: string;
  tailLines?: number;
  limitBytes?: number;
  insecureSkipTLSVerifyBackend: boolean;
}

/**
 * The node's kubelet answering `GET /containerLogs/<namespace>/<pod>/<container>`: the log text or
 * a stream of it (kept open while following; cancelled when the client goes away), or undefined
 * when no kubelet serves `node`. A kubelet refusing the request throws KubeletLogsError.
 */
export type KubeletLogs = (
  node: string,
  namespace: string,
  pod: string,
  container: string,
  options: PodLogOptions,
) => ReadableStream<Uint8Array> | string | undefined | Promise<ReadableStream<Uint8Array> | string | undefined>;

/** A kubelet's non-2xx answer: its status code and plain-text body (e.g. 400 "container … is waiting to start"). */
export class KubeletLogsError extends Error {
  override readonly name = 'KubeletLogsError';
  constructor(
    readonly code: number,
    readonly body: string,
  ) {
    super(body);
  }
}

/** pkg/apis/core/validation: isNegativeErrorMsg. */
const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';
/** pkg/cluster/ports: KubeletPort, the port used when the node reports none. */
const KUBELET_PORT = 10250;
/** kube-apiserver's default --kubelet-preferred-address-types (cmd/kube-apiserver/app/options). */
const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
/** GenericHttpResponseChecker: at most this much of a kubelet's error body is read (rest/response_checker.go). */
const MAX_READ_LENGTH = 50000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** What the query decodes to, before validation (int64 fields as bigint). */
interface DecodedLogOptions {
  container: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  sinceSeconds?: bigint;
  sinceTime?: string;
  tailLines?: bigint;
  limitBytes?: bigint;
  insecureSkipTLSVerifyBackend: boolean;
  stream?: string;
}

/** runtime.Convert_Slice_string_To_bool: "0" and "false" (any case) are false, anything else true. */
function queryBool(value: string | null): boolean {
  return value !== null && value !== '0' && value.toLowerCase() !== 'false';
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(value, 10, 64) as runtime.Convert_Slice_string_To_Pointer_int64 calls it. */
function queryInt64(value: string | null): bigint | undefined {
  if (value === null) return undefined;
  if (!/^[+-]?[0-9]+$/.test(value))
    throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  const n = BigInt(value);
  if (n < INT64_MIN || n > INT64_MAX) {
    throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  }
  return n;
}

/** metav1.Time.UnmarshalQueryParameter: "" and "null" are the zero time (no sinceTime), else time.Parse(RFC3339). */
function queryTime(value: string | null): string | undefined {
  if (value === null || value === '' || value === 'null') return undefined;
  const err = goTimeParseError(value, RFC3339);
  if (err !== undefined) throw newBadRequest(err);
  return rfc3339(Date.parse(value));
}

/**
 * The PodLogOptions a query decodes to (the parameter codec's url.Values conversion, field by field
 * in the v1 struct's order; the first that does not convert is a 400 with its Go error).
 */
export function decodePodLogOptions(query: URLSearchParams): DecodedLogOptions {
  const out: DecodedLogOptions = {
    container: query.get('container') ?? '',
    follow: queryBool(query.get('follow')),
    previous: queryBool(query.get('previous')),
    timestamps: false,
    insecureSkipTLSVerifyBackend: false,
  };
  const sinceSeconds = queryInt64(query.get('sinceSeconds'));
  if (sinceSeconds !== undefined) out.sinceSeconds = sinceSeconds;
  const sinceTime = queryTime(query.get('sinceTime'));
  if (sinceTime !== undefined) out.sinceTime = sinceTime;
  out.timestamps = queryBool(query.get('timestamps'));
  const tailLines = queryInt64(query.get('tailLines'));
  if (tailLines !== undefined) out.tailLines = tailLines;
  const limitBytes = queryInt64(query.get('limitBytes'));
  if (limitBytes !== undefined) out.limitBytes = limitBytes;
  out.insecureSkipTLSVerifyBackend = queryBool(query.get('insecureSkipTLSVerifyBackend'));
  const stream = query.get('stream');
  if (stream !== null) out.stream = stream;
  return out;
}

/**
 * validation.ValidatePodLogOptions with PodLogsQuerySplitStreams off (alpha, off by default in
 * 1.32), so any `stream` is forbidden.
 */
export function validatePodLogOptions(opts: DecodedLogOptions): ErrorList {
  const errs: ErrorList = [];
  if (opts.tailLines !== undefined && opts.tailLines < 0n) {
    errs.push(invalid(FieldPath.root('tailLines'), opts.tailLines, IS_NEGATIVE_ERROR_MSG));
  }
  if (opts.limitBytes !== undefined && opts.limitBytes < 1n) {
    errs.push(invalid(FieldPath.root('limitBytes'), opts.limitBytes, 'must be greater than 0'));
  }
  if (opts.sinceSeconds !== undefined && opts.sinceTime !== undefined) {
    errs.push(forbidden(FieldPath.root(''), 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (opts.sinceSeconds !== undefined && opts.sinceSeconds < 1n) {
    errs.push(invalid(FieldPath.root('sinceSeconds'), opts.sinceSeconds, 'must be greater than 0'));
  }
  if (opts.stream !== undefined) errs.push(forbidden(FieldPath.root('stream'), 'may not be specified'));
  return errs;
}

/** The container names of a spec list. */
function names(list: unknown): string[] {
  return Array.isArray(list) ? list.map((c) => (isObj(c) ? str(c.name) : '')) : [];
}

/**
 * strategy.go validateContainer: the named container must be one of the pod's (init, regular or
 * ephemeral); without a name, the only regular container, or a 400 listing them all (in
 * VisitContainers' order: init, regular, ephemeral, printed as a Go []string).
 */
export function selectContainer(pod: KubeObject, container: string): string {
  const spec: Obj = isObj((pod as Obj).spec) ? ((pod as Obj).spec as Obj) : {};
  const podName = pod.metadata?.name ?? '';
  const regular = names(spec.containers);
  const all = [...names(spec.initContainers), ...regular, ...names(spec.ephemeralContainers)];
  if (container === '') {
    if (regular.length === 1) return regular[0] as string;
    if (regular.length === 0) throw newBadRequest(`a container name must be specified for pod ${podName}`);
    throw newBadRequest(`a container name must be specified for pod ${podName}, choose one of: [${all.join(' ')}]`);
  }
  if (!all.includes(container)) throw newBadRequest(`container ${container} is not valid for pod ${podName}`);
  return container;
}

/** net.JoinHostPort. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Go's url.QueryEscape. */
function queryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * NodeConnectionInfoGetter.GetConnectionInfo + the URL LogLocation builds: the node (404 when it
 * does not exist), its first address of the preferred types (500 "no preferred addresses found"),
 * the kubelet port it reports (else 10250), and the query url.Values.Encode writes (keys sorted).
 */
function kubeletLogUrl(
  node: KubeObject,
  namespace: string,
  pod: string,
  container: string,
  opts: PodLogOptions,
): string {
  const status: Obj = isObj((node as Obj).status) ? ((node as Obj).status as Obj) : {};
  const addresses = Array.isArray(status.addresses) ? status.addresses.filter(isObj) : [];
  let host: string | undefined;
  for (const type of PREFERRED_ADDRESS_TYPES) {
    const found = addresses.find((a) => a.type === type);
    if (found !== undefined) {
      host = str(found.address);
      break;
    }
  }
  if (host === undefined) {
    // NoMatchError: the addresses printed with %v.
    const known = addresses.map((a) => `{${str(a.type)} ${str(a.address)}}`).join(' ');
    throw new StatusError({
      status: 'Failure',
      message: `no preferred addresses found; known addresses: [${known}]`,
      code: 500,
    });
  }
  const endpoints = isObj(status.daemonEndpoints) ? status.daemonEndpoints : {};
  const kubelet = isObj(endpoints.kubeletEndpoint) ? endpoints.kubeletEndpoint : {};
  const port = typeof kubelet.Port === 'number' && kubelet.Port > 0 ? kubelet.Port : KUBELET_PORT;
  const params: [string, string][] = [];
  if (opts.follow) params.push(['follow', 'true']);
  if (opts.previous) params.push(['previous', 'true']);
  if (opts.timestamps) params.push(['timestamps', 'true']);
  if (opts.sinceSeconds !== undefined) params.push(['sinceSeconds', String(opts.sinceSeconds)]);
  if (opts.sinceTime !== undefined) params.push(['sinceTime', opts.sinceTime]);
  if (opts.tailLines !== undefined) params.push(['tailLines', String(opts.tailLines)]);
  if (opts.limitBytes !== undefined) params.push(['limitBytes', String(opts.limitBytes)]);
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const query = params.map(([k, v]) => `${queryEscape(k)}=${queryEscape(v)}`).join('&');
  return `https://${joinHostPort(host, port)}/containerLogs/${namespace}/${pod}/${container}${query === '' ? '' : `?${query}`}`;
}

/**
 * GenericHttpResponseChecker.Check: a kubelet's 400 and 500 become the apiserver's BadRequest and
 * InternalError with the kubelet's text; other codes NewGenericServerResponse's wording.
 */
function kubeletError(err: KubeletLogsError, pod: string): StatusError {
  const body = err.body.slice(0, MAX_READ_LENGTH);
  if (err.code === 500) return newInternalError(body);
  if (err.code === 400) return newBadRequest(body);
  const generic: Record<number, [StatusReason, string]> = {
    404: ['NotFound', 'the server could not find the requested resource'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', body],
    409: ['Conflict', 'the server reported a conflict'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  };
  let [reason, message]: [StatusReason | '', string] = generic[err.code] ?? [
    '',
    `the server responded with the status code ${err.code} but did not return more information`,
  ];
  if (generic[err.code] === undefined && err.code >= 500) {
    reason = 'InternalError';
    message = `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding`;
  }
  // The verb is empty in the checker, hence the double space.
  return new StatusError({
    status: 'Failure',
    message: `${message} ( pods/log ${pod})`,
    ...(reason === '' ? {} : { reason }),
    details: { name: pod, kind: 'pods/log' },
    code: err.code,
  });
}

const utf8 = new TextEncoder();

/** LogREST.Get: validate, locate the container and the node, then stream the kubelet's answer as text/plain. */
export async function getPodLog(
  ctx: RestContext,
  req: ResourceRequest,
  kubeletLogs: KubeletLogs | undefined,
): Promise<Response> {
  const { info, namespace, name } = req;
  const decoded = decodePodLogOptions(req.query);
  const errs = validatePodLogOptions(decoded);
  if (errs.length > 0) throw newInvalid({ group: '', kind: 'PodLogOptions' }, name, errs);
  const stored = await storageCall('get', info, name, () =>
    ctx.storage.get(objectKey(info, namespace, name), getReadAt(null)),
  );
  if (stored === undefined) throw newNotFound({ group: '', resource: 'pods' }, name);
  const pod = decodeStored(stored);
  const container = selectContainer(pod, decoded.container);
  const nodeName = str(isObj((pod as Obj).spec) ? ((pod as Obj).spec as Obj).nodeName : undefined);
  // No node, no location: LocationStreamer gives no stream and StreamObject answers 204.
  if (nodeName === '') return new Response(null, { status: 204 });
  const nodes = findResource('', 'v1', 'nodes');
  if (nodes === undefined) throw new Error('nodes are not served');
  const nodeStored = await storageCall('get', nodes, nodeName, () =>
    ctx.storage.get(objectKey(nodes, '', nodeName), getReadAt(null)),
  );
  if (nodeStored === undefined) throw newNotFound({ group: '', resource: 'nodes' }, nodeName);
  const options: PodLogOptions = {
    follow: decoded.follow,
    previous: decoded.previous,
    timestamps: decoded.timestamps,
    insecureSkipTLSVerifyBackend: decoded.insecureSkipTLSVerifyBackend,
    ...(decoded.sinceSeconds === undefined ? {} : { sinceSeconds: Number(decoded.sinceSeconds) }),
    ...(decoded.sinceTime === undefined ? {} : { sinceTime: decoded.sinceTime }),
    ...(decoded.tailLines === undefined ? {} : { tailLines: Number(decoded.tailLines) }),
    ...(decoded.limitBytes === undefined ? {} : { limitBytes: Number(decoded.limitBytes) }),
  };
  const url = kubeletLogUrl(decodeStored(nodeStored), namespace, name, container, options);
  let answer: ReadableStream<Uint8Array> | string | undefined;
  try {
    answer = await kubeletLogs?.(nodeName, namespace, name, container, options);
  } catch (err) {
    if (err instanceof KubeletLogsError) throw kubeletError(err, name);
    throw err;
  }
  if (answer === undefined) {
    // What client.Do returns when nothing listens on the kubelet's port: a plain error, so a 500
    // Status with no reason (ErrorToAPIStatus).
    const host = url.slice('https://'.length, url.indexOf('/', 'https://'.length));
    throw new StatusError({
      status: 'Failure',
      message: `Get ${JSON.stringify(url)}: dial tcp ${host}: connect: connection refused`,
      code: 500,
    });
  }
  const body = typeof answer === 'string' ? utf8.encode(answer) : answer;
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/plain' } });
}
