/**
 * Tests only: an in-process apiserver running NamespaceLifecycle and ResourceQuota over an in-memory
 * WasmStorage, with namespace team-a and a way to create quotas as the controller leaves them.
 */
import { type TestServer, testServer } from '../../../testing/test-server.js';

export interface QuotaServer extends TestServer {
  /** A quota whose status is as the controller would sync it: hard = spec.hard, used as given. */
  quota(name: string, hard: Obj, used: Obj, spec?: Obj): Promise<void>;
  /** The quota's status.used. */
  used(name: string): Promise<unknown>;
}

type Obj = Record<string, unknown>;
const NS = '/api/v1/namespaces/team-a';

/** An apiserver running NamespaceLifecycle and ResourceQuota, with namespace team-a. */
export async function quotaServer(): Promise<QuotaServer> {
  const server = await testServer({
    admission: { plugins: ['NamespaceLifecycle', 'ResourceQuota'] },
    namespaces: ['team-a'],
  });
  const { json } = server;
  const quota = async (name: string, hard: Obj, used: Obj, spec: Obj = {}) => {
    const created = await json('POST', `${NS}/resourcequotas`, { metadata: { name }, spec: { hard, ...spec } });
    if (created.status !== 201) throw new Error(`quota ${name}: ${JSON.stringify(created.body)}`);
    const res = await json('PUT', `${NS}/resourcequotas/${name}/status`, { ...created.body, status: { hard, used } });
    if (res.status !== 200) throw new Error(`quota ${name} status: ${JSON.stringify(res.body)}`);
  };
  const used = async (name: string): Promise<unknown> =>
    ((await json('GET', `${NS}/resourcequotas/${name}`)).body.status as Obj).used;
  return { ...server, quota, used };
}
