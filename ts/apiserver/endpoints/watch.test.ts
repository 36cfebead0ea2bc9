import { describe, expect, it } from 'vitest';
import { testServer } from '../testing/test-server.js';
import { WATCH_BUFFER_EVENTS } from './watch.js';

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
  it('encodes an event once for its watchers, and never across servers with the same keys', async () => {
    // Two servers reach the same key at the same revision with different contents.
    const one = await testServer();
    const two = await testServer();
    const watchers = await Promise.all([
      one.call('GET', `${CM}?watch=true&resourceVersion=0`),
      one.call('GET', `${CM}?watch=true&resourceVersion=0`),
      two.call('GET', `${CM}?watch=true&resourceVersion=0`),
    ]);
    await one.json('POST', CM, { metadata: { name: 'same' }, data: { from: 'one' } });
    await two.json('POST', CM, { metadata: { name: 'same' }, data: { from: 'two' } });
    const seen = await Promise.all(watchers.map(async (res) => (await readLines(res, 1))[0]?.object.data));
    expect(seen).toEqual([{ from: 'one' }, { from: 'one' }, { from: 'two' }]);
    for (const res of watchers) await res.body?.cancel();
  });

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

describe('watch-list (sendInitialEvents)', () => {
  const list = (q: string) => `${CM}?watch=true&${q}`;

  it('streams the state, an initial-events-end BOOKMARK at the read revision, then changes', async () => {
    const { json, call, storage } = await testServer();
    await json('POST', CM, { metadata: { name: 'a' } });
    await json('POST', CM, { metadata: { name: 'b' } });
    const at = String(await storage.currentRevision());
    await json('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'elsewhere' } });
    const res = await call(
      'GET',
      list('sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion='),
    );
    expect(res.status).toBe(200);
    const head = await readLines(res, 3);
    expect(head.map((l) => [l.type, l.type === 'BOOKMARK' ? '' : name(l)])).toEqual([
      ['ADDED', 'a'],
      ['ADDED', 'b'],
      ['BOOKMARK', ''],
    ]);
    // A consistent read: the bookmark carries the revision the state was read at (after the write elsewhere).
    const current = String(await storage.currentRevision());
    expect(current).not.toBe(at);
    expect(head[2]?.object).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: current, annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    await json('DELETE', `${CM}/a`);
    expect((await readLines(res, 1)).map((l) => [l.type, name(l)])).toEqual([['DELETED', 'a']]);
    await res.body?.cancel();
  });

  it('defaults sendInitialEvents for resourceVersion "" and "0" (the end bookmark comes with allowWatchBookmarks)', async () => {
    const { json, call, storage } = await testServer();
    await json('POST', CM, { metadata: { name: 'a' } });
    const res = await call('GET', list('resourceVersion=0&allowWatchBookmarks=true'));
    const [added, end] = await readLines(res, 2);
    expect(added?.type).toBe('ADDED');
    expect(end).toMatchObject({
      type: 'BOOKMARK',
      object: {
        metadata: {
          resourceVersion: String(await storage.currentRevision()),
          annotations: { 'k8s.io/initial-events-end': 'true' },
        },
      },
    });
    await res.body?.cancel();
  });

  it('sends no end bookmark without allowWatchBookmarks, and no state with sendInitialEvents=false', async () => {
    const { json, call } = await testServer();
    await json('POST', CM, { metadata: { name: 'a' } });
    const withState = await call('GET', list('sendInitialEvents=true&resourceVersionMatch=NotOlderThan'));
    await json('POST', CM, { metadata: { name: 'b' } });
    expect((await readLines(withState, 2)).map((l) => [l.type, name(l)])).toEqual([
      ['ADDED', 'a'],
      ['ADDED', 'b'],
    ]);
    await withState.body?.cancel();

    const fromNow = await call('GET', list('sendInitialEvents=false&resourceVersionMatch=NotOlderThan'));
    await json('POST', CM, { metadata: { name: 'c' } });
    expect((await readLines(fromNow, 1)).map((l) => [l.type, name(l)])).toEqual([['ADDED', 'c']]);
    await fromNow.body?.cancel();
  });

  it('serves a state not older than resourceVersion N; 504 for one the store has not reached', async () => {
    const { json, call, storage } = await testServer();
    await json('POST', CM, { metadata: { name: 'a' } });
    const rv = String(await storage.currentRevision());
    const res = await call(
      'GET',
      list(`sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${rv}`),
    );
    const lines = await readLines(res, 2);
    expect(lines.map((l) => l.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(lines[1]?.object.metadata).toMatchObject({ resourceVersion: rv });
    await res.body?.cancel();

    const future = await json(
      'GET',
      list(`sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${Number(rv) + 100}`),
    );
    expect(future.status).toBe(504);
    expect(future.body).toMatchObject({
      reason: 'Timeout',
      message: expect.stringContaining('Too large resource version'),
    });
  });

  it('rejects inconsistent options with Kubernetes’ 422 messages', async () => {
    const { json } = await testServer();
    const cases: Array<[string, string]> = [
      [
        'sendInitialEvents=true',
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      ],
      [
        'resourceVersion=5&resourceVersionMatch=NotOlderThan',
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      ],
      [
        'sendInitialEvents=true&resourceVersionMatch=Exact',
        'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
      ],
      [
        'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&continue=x',
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
      ],
    ];
    for (const [q, message] of cases) {
      const res = await json('GET', list(q));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        reason: 'Invalid',
        message,
        details: { group: 'meta.k8s.io', kind: 'ListOptions' },
      });
    }
    // A list must not carry it at all.
    const onList = await json('GET', `${CM}?sendInitialEvents=false`);
    expect(onList.status).toBe(422);
    expect(onList.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    );
    expect((await json('GET', list('timeoutSeconds=soon'))).status).toBe(400);
  });

  it('watches one name with its state at the start revision', async () => {
    const { json, call } = await testServer();
    await json('POST', CM, { metadata: { name: 'a' } });
    await json('POST', CM, { metadata: { name: 'b' } });
    const res = await call('GET', `${CM}/a?watch=true&allowWatchBookmarks=true`);
    const head = await readLines(res, 2);
    expect(head.map((l) => [l.type, l.type === 'BOOKMARK' ? '' : name(l)])).toEqual([
      ['ADDED', 'a'],
      ['BOOKMARK', ''],
    ]);
    await json('PATCH', `${CM}/b`, '{"data":{"x":"1"}}', { 'Content-Type': 'application/merge-patch+json' });
    await json('PATCH', `${CM}/a`, '{"data":{"x":"1"}}', { 'Content-Type': 'application/merge-patch+json' });
    expect((await readLines(res, 1)).map((l) => [l.type, name(l)])).toEqual([['MODIFIED', 'a']]);
    await res.body?.cancel();
  });
});

describe('bounded watchers', () => {
  it('ends a watcher whose consumer stops reading, without an ERROR event, so it can resume', async () => {
    const { json, storage, api } = await testServer();
    const from = String(await storage.currentRevision());
    const res = await api.handle(
      new Request(`https://kubewasm.test${CM}?watch=true&resourceVersion=${from}`, {
        headers: { Authorization: 'Bearer test-token' },
      }),
    );
    // The consumer reads one chunk, then stops; the writers go on.
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await json('POST', CM, { metadata: { name: 'first' } });
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"first"');
    for (let i = 0; i < WATCH_BUFFER_EVENTS + 50; i++) {
      await json('POST', CM, { metadata: { name: `cm-${i}` } });
    }
    // Whatever it reads now ends cleanly: at most one chunk already handed over, no ERROR.
    let text = '';
    const decoder = new TextDecoder();
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const events = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: { resourceVersion: string } } });
    expect(events.length).toBeLessThanOrEqual(WATCH_BUFFER_EVENTS);
    expect(events.every((e) => e.type === 'ADDED')).toBe(true);
    // Resuming from the last resourceVersion it received misses nothing.
    const firstRv = (
      JSON.parse(new TextDecoder().decode(first.value).trim()) as { object: { metadata: { resourceVersion: string } } }
    ).object.metadata.resourceVersion;
    const last = events.at(-1)?.object.metadata.resourceVersion ?? firstRv;
    const again = await api.handle(
      new Request(`https://kubewasm.test${CM}?watch=true&resourceVersion=${last}`, {
        headers: { Authorization: 'Bearer test-token' },
      }),
    );
    const rest = await readLines(again, WATCH_BUFFER_EVENTS + 51 - 1 - events.length);
    expect(rest.at(-1) && name(rest.at(-1) as { object: Record<string, unknown> })).toBe(
      `cm-${WATCH_BUFFER_EVENTS + 49}`,
    );
    await again.body?.cancel();
  }, 60_000);

  it('a slow consumer is ended by the buffer bound, not by the store queue', async () => {
    const { json, call } = await testServer();
    const res = await call('GET', `${CM}?watch=true&resourceVersion=1`);
    await json('POST', CM, { metadata: { name: 'x' } });
    // Nobody reads: the apiserver side must still let go of the storage watch (the stream closes).
    for (let i = 0; i < WATCH_BUFFER_EVENTS + 1; i++) await json('POST', CM, { metadata: { name: `y-${i}` } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let chunks = 0;
    while (!(await reader.read()).done) chunks++;
    expect(chunks).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('bookmark before the deadline', () => {
  it('asks the store for a bookmark 2 s before timeoutSeconds', async () => {
    const { call, clock, json, storage } = await testServer();
    // 4 s: the pre-deadline bookmark (at 2 s) comes before the store's periodic one (every 5 s).
    const res = await call('GET', `${CM}?watch=true&allowWatchBookmarks=true&resourceVersion=1&timeoutSeconds=4`);
    await json('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'elsewhere' } });
    const reading = readLines(res, 1);
    clock.advance(1999);
    await new Promise((resolve) => setTimeout(resolve, 5));
    clock.advance(1);
    const [bookmark] = await reading;
    expect(bookmark).toMatchObject({
      type: 'BOOKMARK',
      object: { metadata: { resourceVersion: String(await storage.currentRevision()) } },
    });
    const rest = readLines(res, 1);
    clock.advance(2000);
    expect(await rest).toEqual([]);
  });
});
