/** An in-process apiserver over an in-memory WasmStorage, for the tests beside the code. */
import { VirtualClock } from '../sim/clock.js';
import { WasmStorage } from '../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../wasm/node.js';
import { type ApiServer, createApiServer } from './server.js';
import { parseTokenFile } from './tokens.js';

export const TOKEN = 'test-token';

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

export async function testServer(): Promise<TestServer> {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  const api = createApiServer({ storage, clock, tokens: parseTokenFile(`${TOKEN},admin,1,"system:masters"\n`) });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api.handle(
      new Request(`https://kubewasm.test${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${TOKEN}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    );
  const json = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await call(method, path, body, headers);
    expectJson(res);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  for (const name of ['default', 'team-a']) {
    await call('POST', '/api/v1/namespaces', { metadata: { name } });
  }
  return { api, storage, clock, call, json };
}

function expectJson(res: Response): void {
  const type = res.headers.get('Content-Type') ?? '';
  if (!type.startsWith('application/json')) throw new Error(`Content-Type ${type}`);
}
