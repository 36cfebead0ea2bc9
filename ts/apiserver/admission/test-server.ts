/**
 * An in-process apiserver with kube-apiserver's default admission plugins (the plain test server
 * runs NamespaceLifecycle only), for the plugins' tests: namespaces `default` and `team-a`, each
 * with the `default` ServiceAccount the serviceaccounts controller would have made.
 */
import { VirtualClock } from '../../sim/clock.js';
import { WasmStorage } from '../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../wasm/node.js';
import { createApiServer } from '../server.js';
import { type TestServer, TOKEN } from '../test-support.js';
import { parseTokenFile } from '../tokens.js';
import type { AdmissionPluginOptions } from './plugins.js';

export async function admissionServer(admission: AdmissionPluginOptions = {}): Promise<TestServer> {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  const api = createApiServer({
    storage,
    clock,
    tokens: parseTokenFile(`${TOKEN},admin,1,"system:masters"\n`),
    admission,
  });
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
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  for (const name of ['default', 'team-a']) {
    await call('POST', '/api/v1/namespaces', { metadata: { name } });
    await call('POST', `/api/v1/namespaces/${name}/serviceaccounts`, { metadata: { name: 'default' } });
  }
  return { api, storage, clock, call, json };
}

/** A pod body with one container per name. */
export function pod(name: string, spec: Record<string, unknown> = {}, containers = ['app']): Record<string, unknown> {
  return {
    metadata: { name },
    spec: { containers: containers.map((c) => ({ name: c, image: 'nginx' })), ...spec },
  };
}
