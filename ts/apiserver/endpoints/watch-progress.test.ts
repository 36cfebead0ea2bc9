import { describe, expect, it } from 'vitest';
import { watchProgressOf } from '../../api/watch-progress.js';
import type { Storage } from '../../storage/storage.js';
import { createApiServer } from '../server.js';
import { TOKEN, testRequest, testServer } from '../testing/test-server.js';

const CM = '/api/v1/namespaces/team-a/configmaps';

/** Reads `count` lines of a watch body. */
async function read(reader: ReadableStreamDefaultReader<Uint8Array>, count: number): Promise<string[]> {
  const decoder = new TextDecoder();
  const lines: string[] = [];
  let text = '';
  while (lines.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const parts = text.split('\n');
    text = parts.pop() ?? '';
    lines.push(...parts.filter((l) => l !== ''));
  }
  return lines;
}

describe('the watch progress of a watch served in process (ts/api/watch-progress.ts)', () => {
  it('counts the lines written and tells whether the handler has taken everything storage queued', async () => {
    const { call, json } = await testServer();
    const list = await json('GET', CM);
    const rv = (list.body.metadata as { resourceVersion: string }).resourceVersion;
    const res = await call('GET', `${CM}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`);
    const progress = watchProgressOf(res);
    expect(progress).toBeDefined();
    expect(progress?.written()).toBe(0);
    expect(progress?.caughtUp()).toBe(true);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (let i = 1; i <= 5; i++) {
      await json('POST', CM, { metadata: { name: `c${i}` } });
      // The write resolved: its event is queued to the storage watch. Until the handler takes it,
      // the progress is not caught up; once it has, the line is counted.
      if (progress?.caughtUp()) expect(progress.written()).toBe(i);
      const lines = await read(reader, 1);
      expect(JSON.parse(lines[0] as string).object.metadata.name).toBe(`c${i}`);
      expect(progress?.written()).toBe(i);
      expect(progress?.caughtUp()).toBe(true);
    }
    await reader.cancel();
    // The storage watch ended with the stream: never caught up again.
    expect(progress?.caughtUp()).toBe(false);
  });

  it('counts the initial events and their end bookmark', async () => {
    const { call, json } = await testServer();
    for (const name of ['a', 'b']) await json('POST', CM, { metadata: { name } });
    const res = await call(
      'GET',
      `${CM}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
    );
    expect(watchProgressOf(res)?.written()).toBe(3);
    await res.body?.cancel();
  });

  it('is not attached over a storage that does not queue on commit', async () => {
    const { storage } = await testServer();
    const notQueuing = new Proxy(storage, {
      get: (target, prop) =>
        prop === 'queuesWatchesOnCommit' ? false : (Reflect.get(target, prop, target) as unknown),
    }) as Storage;
    const api = createApiServer({
      storage: notQueuing,
      tokens: new Map([[TOKEN, { name: 'admin', uid: '1', groups: ['system:masters'] }]]),
    });
    const res = await api.handle(testRequest('GET', `${CM}?watch=true`, { token: TOKEN }));
    expect(res.status).toBe(200);
    expect(watchProgressOf(res)).toBeUndefined();
    await res.body?.cancel();
    await api.close?.();
  });
});
