import { afterEach, describe, expect, it } from 'vitest';
import { reconcileBootstrapPolicy } from '../apiserver/auth/bootstrap-policy.js';
import type { ApiServer } from '../apiserver/server.js';
import { TOKEN, testServer } from '../apiserver/testing/test-server.js';
import { createClient } from '../client/client.js';
import { SharedInformerFactory } from '../client/informers/factory.js';
import { RESOURCES } from '../client/resources.js';
import { eventually } from '../client/testing/harness.js';
import { inProcessTransport } from '../client/transport.js';
import { discardLogger, type LogLine, recordingLogger } from '../sim/logger.js';
import { servedResources } from './cluster.js';
import {
  DEFAULT_READINESS_TIMEOUT_MS,
  type RunningControllerManager,
  startControllerManager,
  trimManagedFields,
} from './controller-manager.js';

let running: { manager: RunningControllerManager; informers: SharedInformerFactory } | undefined;
afterEach(async () => {
  await running?.manager.stop();
  await running?.informers.shutdown();
  running = undefined;
});

const pathOf = (r: { group: string; version: string; resource: string }) =>
  r.group === '' ? `/api/${r.version}/${r.resource}` : `/apis/${r.group}/${r.version}/${r.resource}`;

/**
 * kube-controller-manager's controllers on a test apiserver whose watch requests are counted by
 * path; `refuse` lists paths whose lists the apiserver answers 403 Forbidden.
 */
async function start(controllers: string[], options: { refuse?: string[]; lines?: LogLine[] } = {}) {
  const server = await testServer({ namespaces: ['default', 'kube-system', 'team-a'] });
  // Each controller acts as its own ServiceAccount: the bootstrap policy grants what it needs.
  expect(await reconcileBootstrapPolicy((req) => server.api.handle(req), 'https://x', TOKEN)).toEqual([]);
  const watches = new Map<string, number>();
  /** Counts a watch; true when the request is one to refuse. */
  const count = (method: string, url: string): boolean => {
    const u = new URL(url);
    if (method === 'GET' && u.searchParams.get('watch') === 'true') {
      watches.set(u.pathname, (watches.get(u.pathname) ?? 0) + 1);
    }
    return method === 'GET' && (options.refuse ?? []).includes(u.pathname);
  };
  const forbidden = () =>
    new Response(
      JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403 }),
      {
        status: 403,
        headers: { 'content-type': 'application/json' },
      },
    );
  const api = server.api;
  const counting: ApiServer = {
    handle: (request, connection) =>
      count(request.method, request.url) ? Promise.resolve(forbidden()) : api.handle(request, connection),
  };
  const client = createClient(inProcessTransport(counting, TOKEN));
  const informers = new SharedInformerFactory(client, { clock: server.clock, transform: trimManagedFields });
  const starting = startControllerManager({
    connect: (token) => inProcessTransport(counting, token),
    token: TOKEN,
    informers,
    options: { controllers, rootCA: 'CA' },
    resources: servedResources(),
    clock: server.clock,
    logger: options.lines === undefined ? discardLogger : recordingLogger(options.lines),
  });
  void starting.then((manager) => {
    running = { manager, informers };
  });
  return { api: counting, client, watches, informers, clock: server.clock, starting };
}

describe('the controller manager’s controllers', () => {
  it('open one watch per resource, however many controllers read it', async () => {
    const { watches, starting } = await start(['*']);
    await starting;
    // Every resource the garbage collector follows, namespaced and cluster-scoped (events aside):
    // the quota controller's, the CRDs, nodes and namespaces among them.
    const expected = servedResources()
      .filter((r) => r.resource !== 'events')
      .map(pathOf);
    // start() does not wait for the caches: the watches open as each list returns.
    await eventually(() => expected.every((p) => watches.has(p)), 5000);
    expect([...watches].filter(([, n]) => n !== 1)).toEqual([]);
    // Namespaces are read by the namespace, serviceaccount and root-ca-certificate-publisher
    // controllers; pods and configmaps by the garbage collector and the quota controller (and
    // configmaps by the publisher).
    for (const path of ['/api/v1/namespaces', '/api/v1/pods', '/api/v1/configmaps', '/api/v1/serviceaccounts']) {
      expect(watches.get(path)).toBe(1);
    }
    expect([...watches.keys()].sort()).toEqual([...expected].sort());
  });

  it('runs only the controllers --controllers enables', async () => {
    const { client, watches, starting } = await start([
      '*',
      '-garbage-collector-controller',
      '-resourcequota-controller',
      '-disruption-controller',
      '-deployment-controller',
    ]);
    await starting;
    await eventually(() => watches.has('/api/v1/namespaces') && watches.has('/api/v1/serviceaccounts'), 5000);
    // Without the garbage collector, the quota, the disruption and the deployment controllers nobody
    // watches deployments.
    expect(watches.has('/apis/apps/v1/deployments')).toBe(false);
    expect(watches.get('/api/v1/namespaces')).toBe(1);
    // The serviceaccount controller ran: team-a has its default ServiceAccount.
    expect(
      (await client.get({ group: '', version: 'v1', resource: 'serviceaccounts' }, 'team-a', 'default')).metadata?.name,
    ).toBe('default');
  });

  it('is not held back by a cache that never syncs', async () => {
    const lines: LogLine[] = [];
    // The shared informers may not list secrets: their cache never syncs (nothing here needs it
    // but the quota controller, which then never runs its workers).
    const { starting, client } = await start(['*'], { refuse: ['/api/v1/secrets'], lines });
    // The serviceaccount and root CA publisher controllers are done with the existing namespaces
    // without it; the start-up ends as soon as they are.
    const manager = await starting;
    expect(manager.controllers).toContain('resourcequota-controller');
    expect((await client.get(RESOURCES.serviceaccounts, 'team-a', 'default')).metadata?.name).toBe('default');
    expect(lines.some((l) => l.message.startsWith('Warning: controllers not ready'))).toBe(false);
  });

  it('waits at most readinessTimeoutMs for the controllers every namespace needs', async () => {
    const lines: LogLine[] = [];
    // Without the namespaces the serviceaccount controller never gets past its cache wait.
    const { starting, clock } = await start(['*'], { refuse: ['/api/v1/namespaces'], lines });
    await eventually(() => lines.some((l) => l.message === 'Started controller'));
    let done = false;
    void starting.then(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    clock.advance(DEFAULT_READINESS_TIMEOUT_MS);
    const manager = await starting;
    expect(manager.controllers).toContain('serviceaccount-controller');
    expect(lines.find((l) => l.message.startsWith('Warning: controllers not ready'))?.fields).toEqual({
      controllers: ['serviceaccount-controller', 'root-ca-certificate-publisher-controller'],
      timeout: '30s',
    });
  });
});

describe('leader election', () => {
  it('leads through the kube-system/kube-controller-manager Lease; a second controller manager stands by', async () => {
    const { api, client, clock, starting } = await start(['*']);
    const first = await starting;
    expect(first.controllers).toContain('replicaset-controller');
    const lease = await client.get(RESOURCES.leases, 'kube-system', 'kube-controller-manager');
    const holder = lease.spec?.holderIdentity ?? '';
    expect(holder).toMatch(/^kubewasm_[0-9a-f-]{36}$/);
    expect(lease.spec).toMatchObject({ leaseDurationSeconds: 15, leaseTransitions: 0 });

    const lines: LogLine[] = [];
    const informers = new SharedInformerFactory(client, { clock, transform: trimManagedFields });
    const second = startControllerManager({
      connect: (token) => inProcessTransport(api, token),
      token: TOKEN,
      informers,
      options: { controllers: ['*'] },
      resources: servedResources(),
      clock,
      logger: recordingLogger(lines),
      readinessTimeoutMs: 1000,
    });
    await new Promise((r) => setTimeout(r, 50));
    clock.advance(1000);
    const standby = await second;
    try {
      expect(standby.controllers).toEqual([]);
      expect(lines.map((l) => l.message)).toContain('Warning: another controller manager leads, standing by');
      expect((await client.get(RESOURCES.leases, 'kube-system', 'kube-controller-manager')).spec?.holderIdentity).toBe(
        holder,
      );
    } finally {
      await standby.stop();
      await informers.shutdown();
    }
  });

  it('a standby takes over once the leader stops and its Lease lapses', async () => {
    const { api, client, clock, starting } = await start(['*']);
    const first = await starting;
    const informers = new SharedInformerFactory(client, { clock, transform: trimManagedFields });
    const standby = await startControllerManager({
      connect: (token) => inProcessTransport(api, token),
      token: TOKEN,
      informers,
      options: { controllers: ['replicaset-controller'] },
      resources: servedResources(),
      clock,
      logger: discardLogger,
    });
    try {
      expect(standby.controllers).toEqual([]);
      // kube-controller-manager does not release its Lease on the way out: the standby waits out
      // the 15 s lease duration, retrying every 2 s.
      await first.stop();
      await running?.informers.shutdown();
      running = undefined;
      for (let t = 0; t < 20 && standby.controllers.length === 0; t++) {
        clock.advance(2000);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(standby.controllers).toEqual(['replicaset-controller']);
      const lease = await client.get(RESOURCES.leases, 'kube-system', 'kube-controller-manager');
      expect(lease.spec?.leaseTransitions).toBe(1);
    } finally {
      await standby.stop();
      await informers.shutdown();
    }
  });
});

describe('a lost Lease', () => {
  it('stops the controllers and calls onLeaderElectionLost, as kube-controller-manager exits', async () => {
    const server = await testServer({ namespaces: ['default', 'kube-system'] });
    expect(await reconcileBootstrapPolicy((req) => server.api.handle(req), 'https://x', TOKEN)).toEqual([]);
    const client = createClient(inProcessTransport(server.api, TOKEN));
    const informers = new SharedInformerFactory(client, { clock: server.clock, transform: trimManagedFields });
    let lost = 0;
    const lines: LogLine[] = [];
    const manager = await startControllerManager({
      connect: (token) => inProcessTransport(server.api, token),
      token: TOKEN,
      informers,
      options: { controllers: ['replicaset-controller'] },
      resources: servedResources(),
      clock: server.clock,
      logger: recordingLogger(lines),
      onLeaderElectionLost: () => {
        lost++;
      },
    });
    try {
      expect(manager.controllers).toEqual(['replicaset-controller']);
      // Someone else writes themselves into the Lease: every renewal now fails, and past the
      // 10 s renew deadline this one stops leading.
      const lease = await client.get(RESOURCES.leases, 'kube-system', 'kube-controller-manager');
      await client.update(RESOURCES.leases, 'kube-system', {
        ...lease,
        spec: {
          ...lease.spec,
          holderIdentity: 'elsewhere', // MicroTime: six fractional digits.
          renewTime: new Date(server.clock.now()).toISOString().replace(/Z$/, '000Z'),
        },
      });
      for (let t = 0; t < 10 && lost === 0; t++) {
        server.clock.advance(2000);
        await new Promise((r) => setTimeout(r, 20));
      }
      await eventually(() => lost === 1);
      expect(lines.map((l) => l.message)).toContain('leaderelection lost');
    } finally {
      await manager.stop();
      await informers.shutdown();
    }
  });
});

describe('trimManagedFields', () => {
  it('drops the managedFields of a copy, leaving the object it was given alone', () => {
    const obj = {
      metadata: { name: 'a', managedFields: [{ manager: 'kubectl', operation: 'Apply' }] },
      data: { k: 'v' },
    };
    const trimmed = trimManagedFields(obj);
    expect(trimmed).toEqual({ metadata: { name: 'a' }, data: { k: 'v' } });
    expect(obj.metadata.managedFields).toHaveLength(1);
    const plain = { metadata: { name: 'b' } };
    expect(trimManagedFields(plain)).toBe(plain);
  });
});
