/**
 * The real @kubernetes/client-node 1.4.0 against a kubewasm apiserver over HTTPS. The apiserver
 * runs in this process (createApiServer + the node/https.ts adapter, as `kubewasm up` does), so
 * the test can drive its clock and compact its store.
 *
 * What client-node 1.4 needs that is unusual (checked here):
 * - Patches: the generated patch methods default to `application/json-patch+json`; the other types
 *   need `setHeaderOptions('Content-Type', PatchStrategy.MergePatch | StrategicMergePatch)`.
 * - Its informer (makeInformer → ListWatch) watches without timeoutSeconds and without
 *   allowWatchBookmarks, so only the server's default timeout (--min-request-timeout) ends a
 *   watch; 1.4 has no client-side watch timeout (its AbortSignal.timeout is overwritten). The
 *   test puts a handler in front of the apiserver that gives its watches a timeoutSeconds, standing
 *   in for a short --min-request-timeout.
 * - On a clean end it watches again from the last resourceVersion it saw, without listing; on a
 *   410 (HTTP status, or an ERROR event whose Status has code 410) it lists again. Any other error
 *   stops it.
 */
import {
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Deployment,
  Watch,
} from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpsTestServer, httpsTestServer } from '../../ts/apiserver/node/testing/https-test-server.js';
import type { ApiServer } from '../../ts/apiserver/server.js';

let server: HttpsTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function kubeConfig(s: HttpsTestServer): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      { name: 'kubewasm', server: s.url, caData: Buffer.from(s.caPem).toString('base64'), skipTLSVerify: false },
    ],
    users: [{ name: 'admin', token: s.token }],
    contexts: [{ name: 'kubewasm', cluster: 'kubewasm', user: 'admin', namespace: 'default' }],
    currentContext: 'kubewasm',
  });
  return kc;
}

/** What the front handler saw, and a gate that holds watch requests. */
class Front {
  lists = 0;
  /** The resourceVersion of each watch request. */
  watches: string[] = [];
  private gate: Promise<void> | undefined;
  private release: (() => void) | undefined;

  constructor(private readonly watchTimeoutSeconds: number) {}

  wrap = (api: ApiServer): ApiServer => ({
    handle: async (request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/v1/namespaces/default/configmaps' && request.method === 'GET') {
        if (url.searchParams.get('watch') === 'true') {
          this.watches.push(url.searchParams.get('resourceVersion') ?? '');
          if (!url.searchParams.has('timeoutSeconds')) {
            url.searchParams.set('timeoutSeconds', String(this.watchTimeoutSeconds));
          }
          await this.gate;
          return api.handle(new Request(url, request));
        }
        this.lists++;
      }
      return api.handle(request);
    },
  });

  hold(): void {
    this.gate = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  open(): void {
    this.gate = undefined;
    this.release?.();
  }
}

async function waitFor(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const cm = (name: string, data: Record<string, string> = {}): V1ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

const deployment = (name: string): V1Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
  },
});

describe('@kubernetes/client-node 1.4 against kubewasm over HTTPS', () => {
  it('creates, reads, lists, replaces and deletes (CoreV1Api, AppsV1Api)', async () => {
    server = await httpsTestServer();
    const kc = kubeConfig(server);
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);

    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('one', { a: '1' }) });
    expect(created.metadata?.uid).toBeTruthy();
    const read = await core.readNamespacedConfigMap({ name: 'one', namespace: 'default' });
    expect(read.data).toEqual({ a: '1' });
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['one']);
    expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);
    const replaced = await core.replaceNamespacedConfigMap({
      name: 'one',
      namespace: 'default',
      body: { ...read, data: { a: '2' } },
    });
    expect(replaced.data).toEqual({ a: '2' });
    // A stale resourceVersion is a 409 Conflict, as ApiException.
    await expect(
      core.replaceNamespacedConfigMap({ name: 'one', namespace: 'default', body: { ...read, data: { a: '3' } } }),
    ).rejects.toMatchObject({ code: 409 });
    await core.deleteNamespacedConfigMap({ name: 'one', namespace: 'default' });
    await expect(core.readNamespacedConfigMap({ name: 'one', namespace: 'default' })).rejects.toMatchObject({
      code: 404,
    });

    const d = await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web') });
    expect(d.spec?.replicas).toBe(1);
    const gotD = await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' });
    const scaled = await apps.replaceNamespacedDeployment({
      name: 'web',
      namespace: 'default',
      body: { ...gotD, spec: { ...(gotD.spec as NonNullable<V1Deployment['spec']>), replicas: 3 } },
    });
    expect(scaled.spec?.replicas).toBe(3);
    const all = await apps.listDeploymentForAllNamespaces();
    expect(all.items.map((i) => i.metadata?.name)).toEqual(['web']);
    await apps.deleteNamespacedDeployment({ name: 'web', namespace: 'default' });
    expect((await apps.listNamespacedDeployment({ namespace: 'default' })).items).toEqual([]);
  });

  it('patches with JSON patch (the default), merge patch and strategic merge patch', async () => {
    server = await httpsTestServer();
    const kc = kubeConfig(server);
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('p', { a: '1', b: '2' }) });

    const json = await core.patchNamespacedConfigMap({
      name: 'p',
      namespace: 'default',
      body: [{ op: 'replace', path: '/data/a', value: '9' }],
    });
    expect(json.data).toEqual({ a: '9', b: '2' });
    const merged = await core.patchNamespacedConfigMap(
      { name: 'p', namespace: 'default', body: { data: { b: null, c: '3' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(merged.data).toEqual({ a: '9', c: '3' });

    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('d') });
    const strategic = await apps.patchNamespacedDeployment(
      {
        name: 'd',
        namespace: 'default',
        body: { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    // Merged by container name: both stay (a merge patch would have replaced the list).
    expect(strategic.spec?.template.spec?.containers.map((c) => c.name).sort()).toEqual(['sidecar', 'web']);
    const replacedList = await apps.patchNamespacedDeployment(
      {
        name: 'd',
        namespace: 'default',
        body: { spec: { template: { spec: { containers: [{ name: 'only', image: 'busybox' }] } } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(replacedList.spec?.template.spec?.containers.map((c) => c.name)).toEqual(['only']);
  });

  it('watches with Watch: events in order, then done when the server ends the stream', async () => {
    server = await httpsTestServer();
    const s = server;
    const kc = kubeConfig(s);
    const core = kc.makeApiClient(CoreV1Api);
    const start = await core.listNamespacedConfigMap({ namespace: 'default' });
    const seen: string[] = [];
    let done: (err: unknown) => void = () => {};
    const ended = new Promise<unknown>((resolve) => {
      done = resolve;
    });
    await new Watch(kc).watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: start.metadata?.resourceVersion, timeoutSeconds: 30 },
      (type: string, obj: V1ConfigMap) => seen.push(`${type} ${obj.metadata?.name}`),
      (err: unknown) => done(err),
    );
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('w') });
    await core.patchNamespacedConfigMap(
      { name: 'w', namespace: 'default', body: { data: { x: 'y' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ name: 'w', namespace: 'default' });
    await waitFor(() => seen.length === 3, 'three events');
    expect(seen).toEqual(['ADDED w', 'MODIFIED w', 'DELETED w']);
    s.test.clock.advance(30_000);
    expect(await ended).toBeNull();
  });

  it('keeps an informer’s cache right across watch timeouts and across a 410 after compaction', async () => {
    const front = new Front(60);
    server = await httpsTestServer(front.wrap);
    const s = server;
    const kc = kubeConfig(s);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('a') });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('b') });

    const informer = makeInformer(kc, '/api/v1/namespaces/default/configmaps', () =>
      core.listNamespacedConfigMap({ namespace: 'default' }),
    );
    const log: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', (o: V1ConfigMap) => log.push(`add ${o.metadata?.name}`));
    informer.on('update', (o: V1ConfigMap) => log.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o: V1ConfigMap) => log.push(`delete ${o.metadata?.name}`));
    informer.on('error', (err: unknown) => errors.push(err));
    await informer.start();
    await waitFor(() => front.watches.length === 1, 'the first watch');
    expect(log.sort()).toEqual(['add a', 'add b']);
    log.length = 0;

    const names = () =>
      informer
        .list('default')
        .map((o) => o.metadata?.name ?? '')
        .sort();
    // Read in-process, past the front handler, so that `front.lists` counts only the informer's lists.
    const serverNames = async () =>
      ((await s.test.json('GET', '/api/v1/namespaces/default/configmaps')).body.items as V1ConfigMap[])
        .map((o) => o.metadata?.name ?? '')
        .sort();

    // (a) The server ends each watch at its timeout; the informer watches again from the last
    // resourceVersion it saw, without listing, and misses nothing.
    for (let round = 0; round < 3; round++) {
      const changed = await core.createNamespacedConfigMap({ namespace: 'default', body: cm(`r${round}`) });
      await waitFor(() => names().includes(`r${round}`), `r${round} in the cache`);
      const watchesBefore = front.watches.length;
      s.test.clock.advance(60_000);
      await waitFor(() => front.watches.length === watchesBefore + 1, 'the informer to watch again');
      expect(front.watches.at(-1)).toBe(changed.metadata?.resourceVersion);
    }
    await core.deleteNamespacedConfigMap({ name: 'a', namespace: 'default' });
    await core.patchNamespacedConfigMap(
      { name: 'b', namespace: 'default', body: { data: { v: '2' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await waitFor(() => !names().includes('a') && informer.get('b', 'default')?.data?.v === '2', 'delete and update');
    expect(names()).toEqual(await serverNames());
    expect(front.lists).toBe(1);
    const listsBefore410 = front.lists;
    expect(log).toEqual(['add r0', 'add r1', 'add r2', 'delete a', 'update b']);
    log.length = 0;

    // (b) The next watch is held while the store changes and compacts past the informer's
    // resourceVersion: the watch answers 410 Expired, the informer lists again and repairs its cache.
    front.hold();
    const held = front.watches.length;
    s.test.clock.advance(60_000);
    await waitFor(() => front.watches.length === held + 1, 'the held watch');
    const staleRv = front.watches.at(-1) ?? '';
    await core.deleteNamespacedConfigMap({ name: 'r0', namespace: 'default' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('late') });
    await core.replaceNamespacedConfigMap({ name: 'b', namespace: 'default', body: cm('b', { v: '3' }) });
    await s.test.storage.compact(await s.test.storage.currentRevision());
    expect(BigInt(staleRv)).toBeLessThan(await s.test.storage.currentRevision());
    front.open();

    await waitFor(() => front.lists === listsBefore410 + 1, 'the re-list after 410');
    await waitFor(() => names().includes('late') && !names().includes('r0'), 'the repaired cache');
    expect(names()).toEqual(await serverNames());
    expect(informer.get('b', 'default')?.data).toEqual({ v: '3' });
    expect(log.sort()).toEqual(['add late', 'delete r0', 'update b']);
    // After the re-list it watches from the list's resourceVersion, and goes on.
    await waitFor(() => front.watches.length >= held + 2, 'the watch after the re-list');
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('after') });
    await waitFor(() => names().includes('after'), 'an event after the 410');
    expect(errors).toEqual([]);
    await informer.stop();
  }, 60_000);
});
