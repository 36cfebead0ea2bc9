/**
 * Tests only: an in-process apiserver running NamespaceLifecycle and ResourceQuota over an in-memory
 * WasmStorage, with namespace team-a and a way to create quotas as the controller leaves them.
 */
import { VirtualClock } from '../../../sim/clock.js';
import { WasmStorage } from '../../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../../wasm/node.js';
import { type ApiServer, createApiServer } from '../../server.js';
import { parseTokenFile } from '../../tokens.js';

export interface QuotaServer {
  api: ApiServer;
  storage: WasmStorage;
  clock: VirtualClock;
  json(method: string, path: string, body?: unknown): Promise<{ status: number; body: Obj }>;
  /** A quota whose status is as the controller would sync it: hard = spec.hard, used as given. */
  quota(name: string, hard: Obj, used: Obj, spec?: Obj): Promise<void>;
  /** The quota's status.used. */
  used(name: string): Promise<unknown>;
}

type Obj = Record<string, unknown>;
const TOKEN = 'quota-token';
const NS = '/api/v1/namespaces/team-a';

/** An apiserver running NamespaceLifecycle and ResourceQuota, with namespace team-a. */
export async function quotaServer(): Promise<QuotaServer> {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  const api = createApiServer({
    storage,
    clock,
    tokens: parseTokenFile(`${TOKEN},admin,1,"system:masters"\n`),
    admission: { plugins: ['NamespaceLifecycle', 'ResourceQuota'] },
  });
  const json = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Obj }> => {
    const res = await api.handle(
      new Request(`https://kubewasm.test${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${TOKEN}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: res.status, body: (await res.json()) as Obj };
  };
  await json('POST', '/api/v1/namespaces', { metadata: { name: 'team-a' } });
  /** A quota with its status as the controller would sync it (hard = spec.hard, used given). */
  const quota = async (name: string, hard: Obj, used: Obj, spec: Obj = {}) => {
    const created = await json('POST', `${NS}/resourcequotas`, { metadata: { name }, spec: { hard, ...spec } });
    if (created.status !== 201) throw new Error(`quota ${name}: ${JSON.stringify(created.body)}`);
    const res = await json('PUT', `${NS}/resourcequotas/${name}/status`, { ...created.body, status: { hard, used } });
    if (res.status !== 200) throw new Error(`quota ${name} status: ${JSON.stringify(res.body)}`);
  };
  const used = async (name: string): Promise<unknown> =>
    ((await json('GET', `${NS}/resourcequotas/${name}`)).body.status as Obj).used;
  return { api, storage, clock, json, quota, used };
}
