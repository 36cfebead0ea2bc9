import { describe, expect, it } from 'vitest';
import { testServer } from '../../../testing/test-server.js';
import { type KubeletLogs, KubeletLogsError, type PodLogOptions } from './log.js';

const PODS = '/api/v1/namespaces/team-a/pods';

async function server(kubeletLogs?: KubeletLogs) {
  const { api, call } = await testServer({
    namespaces: ['team-a'],
    ...(kubeletLogs === undefined ? {} : { kubeletLogs }),
  });
  const created = async (path: string, body: unknown) => {
    const res = await call('POST', path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  };
  return { api, call, created };
}

type Server = Awaited<ReturnType<typeof server>>;

const node = (name: string, status: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: { addresses: [{ type: 'InternalIP', address: '10.0.0.5' }], ...status },
});

const pod = (name: string, nodeName?: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}), ...extra },
});

async function status(s: Server, path: string): Promise<{ code: number; message: string; reason?: string }> {
  const res = await s.call('GET', path);
  const body = (await res.json()) as { code: number; message: string; reason?: string };
  expect(res.status).toBe(body.code);
  return body;
}

describe('pods/log: options, as ValidatePodLogOptions and the parameter codec read them', () => {
  it('answers 422 PodLogOptions with the field errors, 400 for values that do not convert', async () => {
    const s = await server();
    await s.created(PODS, pod('p'));
    const log = (q: string) => status(s, `${PODS}/p/log?${q}`);
    expect(await log('tailLines=-1')).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'PodLogOptions "p" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    });
    expect((await log('limitBytes=0&sinceSeconds=0')).message).toBe(
      'PodLogOptions "p" is invalid: [limitBytes: Invalid value: 0: must be greater than 0, sinceSeconds: Invalid value: 0: must be greater than 0]',
    );
    expect((await log('sinceSeconds=10&sinceTime=2025-01-01T00:00:00Z')).message).toBe(
      'PodLogOptions "p" is invalid: []: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    );
    // PodLogsQuerySplitStreams is off in 1.32.
    expect((await log('stream=Stdout')).message).toBe(
      'PodLogOptions "p" is invalid: stream: Forbidden: may not be specified',
    );
    expect(await log('tailLines=ten')).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'strconv.ParseInt: parsing "ten": invalid syntax',
    });
    expect((await log('limitBytes=9223372036854775808')).message).toBe(
      'strconv.ParseInt: parsing "9223372036854775808": value out of range',
    );
    expect((await log('sinceTime=yesterday')).message).toBe(
      'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    );
  });
});

describe('pods/log: the container and the node, as LogLocation finds them', () => {
  it('picks the only container, lists all of them when there are more, refuses unknown names', async () => {
    const s = await server();
    await s.created(
      PODS,
      pod('multi', undefined, {
        initContainers: [{ name: 'setup', image: 'busybox' }],
        containers: [
          { name: 'web', image: 'nginx' },
          { name: 'sidecar', image: 'envoy' },
        ],
      }),
    );
    expect(await status(s, `${PODS}/multi/log`)).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'a container name must be specified for pod multi, choose one of: [setup web sidecar]',
    });
    expect((await status(s, `${PODS}/multi/log?container=nope`)).message).toBe(
      'container nope is not valid for pod multi',
    );
    // An init container is a valid choice; the pod has no node, so there is no log to stream: 204.
    const init = await s.call('GET', `${PODS}/multi/log?container=setup`);
    expect(init.status).toBe(204);
    expect(await init.text()).toBe('');
    expect(await status(s, `${PODS}/missing/log`)).toMatchObject({ code: 404, message: 'pods "missing" not found' });
  });

  it('answers as an unreachable kubelet when no provider serves the node', async () => {
    const s = await server();
    await s.created('/api/v1/nodes', node('n1'));
    await s.created(PODS, pod('p', 'n1'));
    expect(await status(s, `${PODS}/p/log?timestamps=true&tailLines=2&follow=1`)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Get "https://10.0.0.5:10250/containerLogs/team-a/p/c?follow=true&tailLines=2&timestamps=true": dial tcp 10.0.0.5:10250: connect: connection refused',
      code: 500,
    });
    // The kubelet port the node reports, and its preferred address (Hostname before InternalIP).
    await s.created(
      '/api/v1/nodes',
      node('n2', {
        addresses: [
          { type: 'InternalIP', address: '10.0.0.6' },
          { type: 'Hostname', address: 'n2.local' },
        ],
        daemonEndpoints: { kubeletEndpoint: { Port: 10999 } },
      }),
    );
    await s.created(PODS, pod('q', 'n2'));
    expect((await status(s, `${PODS}/q/log?sinceTime=2025-01-01T01:02:03%2B01:00`)).message).toBe(
      'Get "https://n2.local:10999/containerLogs/team-a/q/c?sinceTime=2025-01-01T00%3A02%3A03Z": dial tcp n2.local:10999: connect: connection refused',
    );
    await s.created('/api/v1/nodes', node('bare', { addresses: [{ type: 'ExternalName', address: 'x' }] }));
    await s.created(PODS, pod('r', 'bare'));
    expect(await status(s, `${PODS}/r/log`)).toMatchObject({
      code: 500,
      message: 'no preferred addresses found; known addresses: [{ExternalName x}]',
    });
    await s.created(PODS, pod('orphan', 'gone'));
    expect(await status(s, `${PODS}/orphan/log`)).toMatchObject({ code: 404, message: 'nodes "gone" not found' });
  });
});

describe('pods/log: the kubelet provider', () => {
  it('passes the decoded options and answers the log as text/plain', async () => {
    const seen: [string, string, string, string, PodLogOptions][] = [];
    const lines = [
      '2025-01-01T00:00:01.000000001Z one',
      '2025-01-01T00:00:02.000000002Z two',
      '2025-01-01T00:00:03Z three',
    ];
    // A kubelet that honours tailLines, timestamps and limitBytes as its log reader does.
    const s = await server((nodeName, ns, podName, container, options) => {
      seen.push([nodeName, ns, podName, container, options]);
      if (nodeName !== 'n1') return undefined;
      const tail = options.tailLines === undefined ? lines : lines.slice(-options.tailLines);
      const text = tail.map((l) => (options.timestamps ? l : l.slice(l.indexOf(' ') + 1))).join('\n');
      return options.limitBytes === undefined ? `${text}\n` : `${text}\n`.slice(0, options.limitBytes);
    });
    await s.created('/api/v1/nodes', node('n1'));
    await s.created(PODS, pod('p', 'n1'));
    const res = await s.call('GET', `${PODS}/p/log?tailLines=2&timestamps=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/plain');
    expect(await res.text()).toBe('2025-01-01T00:00:02.000000002Z two\n2025-01-01T00:00:03Z three\n');
    expect(seen[0]).toEqual([
      'n1',
      'team-a',
      'p',
      'c',
      { follow: false, previous: false, timestamps: true, insecureSkipTLSVerifyBackend: false, tailLines: 2 },
    ]);
    expect(await (await s.call('GET', `${PODS}/p/log?limitBytes=5&container=c&previous=false`)).text()).toBe('one\nt');
    expect(seen[1]?.[4]).toEqual({
      follow: false,
      previous: false,
      timestamps: false,
      insecureSkipTLSVerifyBackend: false,
      limitBytes: 5,
    });
    await s.call('GET', `${PODS}/p/log?sinceSeconds=30&insecureSkipTLSVerifyBackend=true&previous=`);
    expect(seen[2]?.[4]).toEqual({
      follow: false,
      previous: true,
      timestamps: false,
      insecureSkipTLSVerifyBackend: true,
      sinceSeconds: 30,
    });
  });

  it('streams a followed log as the kubelet writes it, and cancels the kubelet stream when the reader stops', async () => {
    let push: ((line: string) => void) | undefined;
    let cancelled = false;
    const s = await server((_n, _ns, _p, _c, options) => {
      expect(options.follow).toBe(true);
      return new ReadableStream<Uint8Array>({
        start(controller) {
          push = (line) => controller.enqueue(new TextEncoder().encode(line));
        },
        cancel() {
          cancelled = true;
        },
      });
    });
    await s.created('/api/v1/nodes', node('n1'));
    await s.created(PODS, pod('p', 'n1'));
    const res = await s.call('GET', `${PODS}/p/log?follow=true`);
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    if (reader === undefined || push === undefined) throw new Error('no stream');
    push('first\n');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first\n');
    push('second\n');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('second\n');
    await reader.cancel();
    expect(cancelled).toBe(true);
  });

  it('turns a kubelet refusal into the apiserver error GenericHttpResponseChecker makes', async () => {
    const s = await server((_n, ns, p, c) => {
      if (c === 'c')
        throw new KubeletLogsError(400, `container "${c}" in pod "${p}" is waiting to start: ContainerCreating`);
      throw new KubeletLogsError(404, `pod "${ns}/${p}" not found`);
    });
    await s.created('/api/v1/nodes', node('n1'));
    await s.created(
      PODS,
      pod('p', 'n1', {
        containers: [
          { name: 'c', image: 'nginx' },
          { name: 'd', image: 'nginx' },
        ],
      }),
    );
    expect(await status(s, `${PODS}/p/log?container=c`)).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'container "c" in pod "p" is waiting to start: ContainerCreating',
    });
    expect(await status(s, `${PODS}/p/log?container=d`)).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'the server could not find the requested resource ( pods/log p)',
      details: { name: 'p', kind: 'pods/log' },
    });
  });

  it('serves GET only, and discovery lists pods/log and serviceaccounts/token', async () => {
    const s = await server();
    await s.created(PODS, pod('p'));
    expect((await s.call('POST', `${PODS}/p/log`, {})).status).toBe(405);
    const list = (await (await s.call('GET', '/api/v1')).json()) as { resources: Record<string, unknown>[] };
    expect(list.resources.find((r) => r.name === 'pods/log')).toEqual({
      name: 'pods/log',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get'],
    });
    expect(list.resources.find((r) => r.name === 'serviceaccounts/token')).toEqual({
      name: 'serviceaccounts/token',
      singularName: '',
      namespaced: true,
      group: 'authentication.k8s.io',
      version: 'v1',
      kind: 'TokenRequest',
      verbs: ['create'],
    });
  });
});
