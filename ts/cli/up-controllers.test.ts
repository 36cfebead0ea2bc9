import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN, testServer } from '../apiserver/test-support.js';
import { createClient } from '../client/client.js';
import { inProcessTransport, type RequestHandler, type TransportCall } from '../client/transport.js';
import { parseFlags } from './flags.js';
import {
  CONTROLLER_MANAGER_FLAG_SPEC,
  type Controllers,
  controllerManagerOptions,
  servedResources,
  startControllers,
} from './up-controllers.js';

let running: Controllers | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** The controllers of `kubewasm up` on a test apiserver whose watch requests are counted by path. */
async function start(controllers: string[]) {
  const server = await testServer();
  const watches = new Map<string, number>();
  const count = (method: string, url: string) => {
    const u = new URL(url);
    if (method === 'GET' && u.searchParams.get('watch') === 'true') {
      watches.set(u.pathname, (watches.get(u.pathname) ?? 0) + 1);
    }
  };
  const api = server.api as unknown as RequestHandler;
  const handleCall = api.handleCall?.bind(api);
  const counting: RequestHandler = {
    handle: (request: Request) => {
      count(request.method, request.url);
      return api.handle(request);
    },
    ...(handleCall === undefined
      ? {}
      : {
          handleCall: (call: TransportCall) => {
            count(call.method, call.url);
            return handleCall(call);
          },
        }),
  };
  const client = createClient(inProcessTransport(counting, TOKEN));
  running = await startControllers({
    client,
    informersClient: client,
    controllerClient: async () => client,
    ranges: { serviceClusterIPRange: '10.96.0.0/12', serviceNodePortRange: '30000-32767' },
    controllerManager: { controllers },
    advertiseAddress: undefined,
    port: 6443,
    rootCA: 'CA',
  });
  return { client, watches };
}

describe('kubewasm up’s controllers', () => {
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

describe('controllerManagerOptions', () => {
  const options = (...args: string[]) => controllerManagerOptions(parseFlags(args, CONTROLLER_MANAGER_FLAG_SPEC));

  it('defaults --controllers to *, and resolves aliases', () => {
    expect(options()).toEqual({ controllers: ['*'] });
    expect(options('--controllers', '*,-garbagecollector,root-ca-cert-publisher')).toEqual({
      controllers: ['*', '-garbage-collector-controller', 'root-ca-certificate-publisher-controller'],
    });
    expect(options('--resource-quota-sync-period', '30s')).toEqual({
      controllers: ['*'],
      resourceQuotaSyncPeriodMs: 30_000,
    });
  });

  it('refuses a controller it does not know, as kube-controller-manager does', () => {
    expect(() => options('--controllers', '*,-deployment-controller')).toThrow(
      '"deployment-controller" is not in the list of known controllers',
    );
  });
});
