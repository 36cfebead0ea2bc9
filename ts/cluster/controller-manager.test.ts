import { afterEach, describe, expect, it } from 'vitest';
import { reconcileBootstrapPolicy } from '../apiserver/auth/bootstrap-policy.js';
import type { ApiServer } from '../apiserver/server.js';
import { TOKEN, testServer } from '../apiserver/test-support.js';
import { createClient } from '../client/client.js';
import { SharedInformerFactory } from '../client/informers/factory.js';
import { inProcessTransport, type TransportCall } from '../client/transport.js';
import { discardLogger } from '../sim/logger.js';
import { servedResources } from './cluster.js';
import { type RunningControllerManager, startControllerManager } from './controller-manager.js';

let running: { manager: RunningControllerManager; informers: SharedInformerFactory } | undefined;
afterEach(async () => {
  await running?.manager.stop();
  await running?.informers.shutdown();
  running = undefined;
});

/** kube-controller-manager's controllers on a test apiserver whose watch requests are counted by path. */
async function start(controllers: string[]) {
  const server = await testServer({ namespaces: ['default', 'kube-system', 'team-a'] });
  // Each controller acts as its own ServiceAccount: the bootstrap policy grants what it needs.
  expect(await reconcileBootstrapPolicy((req) => server.api.handle(req), 'https://x', TOKEN)).toEqual([]);
  const watches = new Map<string, number>();
  const count = (method: string, url: string) => {
    const u = new URL(url);
    if (method === 'GET' && u.searchParams.get('watch') === 'true') {
      watches.set(u.pathname, (watches.get(u.pathname) ?? 0) + 1);
    }
  };
  const api = server.api;
  const handleCall = api.handleCall?.bind(api);
  const counting: ApiServer = {
    handle: (request, connection) => {
      count(request.method, request.url);
      return api.handle(request, connection);
    },
    ...(handleCall === undefined
      ? {}
      : {
          handleCall: (call: TransportCall, connection) => {
            count(call.method, call.url);
            return handleCall(call, connection);
          },
        }),
  };
  const client = createClient(inProcessTransport(counting, TOKEN));
  const informers = new SharedInformerFactory(client, { clock: server.clock });
  const manager = await startControllerManager({
    api: counting,
    token: TOKEN,
    informers,
    options: { controllers, rootCA: 'CA' },
    resources: servedResources(),
    clock: server.clock,
    logger: discardLogger,
  });
  running = { manager, informers };
  return { client, watches };
}

describe('the controller manager’s controllers', () => {
  it('open one watch per resource, however many controllers read it', async () => {
    const { watches } = await start(['*']);
    expect([...watches].filter(([, n]) => n !== 1)).toEqual([]);
    // Namespaces are read by the namespace, serviceaccount and root-ca-certificate-publisher
    // controllers; pods and configmaps by the garbage collector and the quota controller (and
    // configmaps by the publisher).
    for (const path of ['/api/v1/namespaces', '/api/v1/pods', '/api/v1/configmaps', '/api/v1/serviceaccounts']) {
      expect(watches.get(path)).toBe(1);
    }
    // Every namespaced resource the garbage collector and the quota controller follow, and the CRDs.
    const expected = servedResources()
      .filter((r) => r.namespaced && r.resource !== 'events')
      .map((r) => (r.group === '' ? `/api/${r.version}/${r.resource}` : `/apis/${r.group}/${r.version}/${r.resource}`));
    expect([...watches.keys()].sort()).toEqual(
      [...expected, '/api/v1/namespaces', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'].sort(),
    );
  });

  it('runs only the controllers --controllers enables', async () => {
    const { client, watches } = await start(['*', '-garbage-collector-controller', '-resourcequota-controller']);
    // Without the garbage collector and the quota controller nobody watches deployments.
    expect(watches.has('/apis/apps/v1/deployments')).toBe(false);
    expect(watches.get('/api/v1/namespaces')).toBe(1);
    // The serviceaccount controller ran: team-a has its default ServiceAccount.
    expect(
      (await client.get({ group: '', version: 'v1', resource: 'serviceaccounts' }, 'team-a', 'default')).metadata?.name,
    ).toBe('default');
  });
});
