/** An in-process apiserver over an in-memory WasmStorage, for the tests beside the code. */
import { VirtualClock } from '../../sim/clock.js';
import { WasmStorage } from '../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../wasm/node.js';
import { parseTokenFile } from '../authn/tokens.js';
import type { ApiServerOptions } from '../config.js';
import { type ApiServer, createApiServer } from '../server.js';

/** The admin's bearer token (user `admin`, uid 1, group system:masters): every server has it. */
export const TOKEN = 'test-token';

/** The Status kube-apiserver answers a request it cannot authenticate with (401). */
export const UNAUTHORIZED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

export interface TestServerOptions extends Omit<Partial<ApiServerOptions>, 'storage' | 'clock' | 'tokens'> {
  /** More lines of the token file (--token-auth-file), after the admin's `TOKEN` line. */
  tokens?: string;
  /** The namespaces made at the start (default: `default` and `team-a`). */
  namespaces?: readonly string[];
}

export interface TestServer {
  api: ApiServer;
  storage: WasmStorage;
  clock: VirtualClock;
  /** A request with the admin token; `body` objects are sent as JSON. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  json(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
}

/**
 * A request to the test servers' host: with `token`, its bearer Authorization; with `body`, a JSON
 * Content-Type and the body (a string as it is, anything else as JSON); `headers` last, overriding.
 */
export function testRequest(
  method: string,
  path: string,
  opts: { token?: string | undefined; body?: unknown; headers?: Record<string, string> | undefined } = {},
): Request {
  const { token, body } = opts;
  return new Request(`https://kubewasm.test${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...opts.headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/**
 * An apiserver at 2025-01-01T00:00:00Z (virtual clock) with the admin token and the namespaces;
 * `options` go to createApiServer (by default only NamespaceLifecycle admits).
 */
export async function testServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { tokens = '', namespaces = ['default', 'team-a'], ...apiOptions } = options;
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  const api = createApiServer({
    ...apiOptions,
    storage,
    clock,
    tokens: parseTokenFile(`${TOKEN},admin,1,"system:masters"\n${tokens}`),
  });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api.handle(testRequest(method, path, { token: TOKEN, body, headers }));
  const json = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await call(method, path, body, headers);
    expectJson(res);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  for (const name of namespaces) {
    const res = await call('POST', '/api/v1/namespaces', { metadata: { name } });
    if (res.status !== 201) throw new Error(`namespace ${name}: ${res.status} ${await res.text()}`);
  }
  return { api, storage, clock, call, json };
}

function expectJson(res: Response): void {
  const type = res.headers.get('Content-Type') ?? '';
  if (!type.startsWith('application/json')) throw new Error(`Content-Type ${type}`);
}
