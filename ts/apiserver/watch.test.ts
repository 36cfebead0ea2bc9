import { describe, expect, it } from 'vitest';
import { testServer } from './test-support.js';

const CM = '/api/v1/namespaces/team-a/configmaps';

/** Reads watch lines until `count` arrived or the stream ended. */
async function readLines(res: Response, count: number): Promise<{ type: string; object: Record<string, unknown> }[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const lines: { type: string; object: Record<string, unknown> }[] = [];
  while (lines.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let nl = text.indexOf('\n');
    while (nl >= 0) {
      lines.push(JSON.parse(text.slice(0, nl)));
      text = text.slice(nl + 1);
      nl = text.indexOf('\n');
    }
  }
  reader.releaseLock();
  return lines;
}

const name = (l: { object: Record<string, unknown> }) => (l.object.metadata as { name: string }).name;

describe('watch', () => {
  it('sends initial ADDED events when resourceVersion is unset, then changes', async () => {
    const { json, call } = await testServer();
    await json('POST', CM, { metadata: { name: 'a' } });
    const res = await call('GET', `${CM}?watch=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/json');
    expect((await readLines(res, 1)).map((l) => [l.type, name(l)])).toEqual([['ADDED', 'a']]);
    await json('POST', CM, { metadata: { name: 'b' } });
    await json('PATCH', `${CM}/b`, '{"data":{"x":"1"}}', { 'Content-Type': 'application/merge-patch+json' });
    await json('DELETE', `${CM}/a`);
    const events = await readLines(res, 3);
    expect(events.map((l) => [l.type, name(l)])).toEqual([
      ['ADDED', 'b'],
      ['MODIFIED', 'b'],
      ['DELETED', 'a'],
    ]);
    // Every event carries the revision of its change.
    const rvs = events.map((e) => Number((e.object.metadata as { resourceVersion: string }).resourceVersion));
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
    await res.body?.cancel();
  });

  it('starts after an exact resourceVersion without initial events', async () => {
    const { json, call, storage } = await testServer();
    await json('POST', CM, { metadata: { name: 'a' } });
    const rv = await storage.currentRevision();
    await json('POST', CM, { metadata: { name: 'b' } });
    const res = await call('GET', `${CM}?watch=true&resourceVersion=${rv}`);
    expect((await readLines(res, 1)).map((l) => [l.type, name(l)])).toEqual([['ADDED', 'b']]);
    await res.body?.cancel();
  });

  it('turns selector transitions into ADDED/DELETED', async () => {
    const { json, call } = await testServer();
    await json('POST', CM, { metadata: { name: 'a', labels: { app: 'web' } } });
    const res = await call('GET', `${CM}?watch=true&labelSelector=app%3Dweb`);
    await readLines(res, 1);
    const mp = { 'Content-Type': 'application/merge-patch+json' };
    await json('PATCH', `${CM}/a`, '{"metadata":{"labels":{"app":"db"}}}', mp);
    await json('PATCH', `${CM}/a`, '{"metadata":{"labels":{"app":"web"}}}', mp);
    expect((await readLines(res, 2)).map((l) => l.type)).toEqual(['DELETED', 'ADDED']);
    await res.body?.cancel();
  });

  it('ends with an ERROR 410 Expired event when the start revision was compacted', async () => {
    const { json, call, storage } = await testServer();
    await json('POST', CM, { metadata: { name: 'a' } });
    await json('POST', CM, { metadata: { name: 'b' } });
    await storage.compact(await storage.currentRevision());
    const res = await call('GET', `${CM}?watch=true&resourceVersion=2`);
    const [event] = await readLines(res, 2);
    expect(event).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
  });

  it('closes the stream at timeoutSeconds', async () => {
    const { call, clock } = await testServer();
    const res = await call('GET', `${CM}?watch=true&timeoutSeconds=5`);
    const reading = readLines(res, 1);
    clock.advance(5000);
    expect(await reading).toEqual([]);
  });

  it('sends BOOKMARKs when asked', async () => {
    const { call, storage } = await testServer();
    const res = await call('GET', `${CM}?watch=true&allowWatchBookmarks=true&resourceVersion=1`);
    await storage.requestProgress();
    const [event] = await readLines(res, 1);
    expect(event).toMatchObject({
      type: 'BOOKMARK',
      object: {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(await storage.currentRevision()) },
      },
    });
    await res.body?.cancel();
  });

  it('sends Table rows when asked, with column definitions only in the first event', async () => {
    const { json, call } = await testServer();
    await json('POST', CM, { metadata: { name: 'a' }, data: { k: 'v' } });
    const res = await call('GET', `${CM}?watch=true`, undefined, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    });
    await json('POST', CM, { metadata: { name: 'b' } });
    const [first, second] = await readLines(res, 2);
    expect(first?.object).toMatchObject({ kind: 'Table', rows: [{ cells: ['a', 1, '0s'] }] });
    expect(first?.object.columnDefinitions).toHaveLength(3);
    expect(second?.object).toMatchObject({ kind: 'Table', columnDefinitions: [], rows: [{ cells: ['b', 0, '0s'] }] });
    await res.body?.cancel();
  });
});
