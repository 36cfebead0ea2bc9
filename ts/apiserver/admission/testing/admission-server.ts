/**
 * An in-process apiserver with kube-apiserver's default admission plugins (the plain test server
 * runs NamespaceLifecycle only), for the plugins' tests: namespaces `default` and `team-a`, each
 * with the `default` ServiceAccount the serviceaccounts controller would have made.
 */
import { type TestServer, testServer } from '../../testing/test-server.js';
import type { AdmissionPluginOptions } from '../plugins.js';

export async function admissionServer(admission: AdmissionPluginOptions = {}): Promise<TestServer> {
  const server = await testServer({ admission });
  for (const name of ['default', 'team-a']) {
    await server.call('POST', `/api/v1/namespaces/${name}/serviceaccounts`, { metadata: { name: 'default' } });
  }
  return server;
}

/** A pod body with one container per name. */
export function pod(name: string, spec: Record<string, unknown> = {}, containers = ['app']): Record<string, unknown> {
  return {
    metadata: { name },
    spec: { containers: containers.map((c) => ({ name: c, image: 'nginx' })), ...spec },
  };
}
