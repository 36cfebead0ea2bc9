import { describe, expect, it } from 'vitest';
import { watchStream } from './watch-stream.js';

/** A body that hands over `text` in the given chunk sizes (of its UTF-8 bytes). */
function body(text: string, sizes: number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      const size = sizes[i++ % sizes.length] ?? 1;
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function collect(stream: AsyncIterable<{ type: string }>): Promise<string[]> {
  const out: string[] = [];
  for await (const ev of stream) out.push(ev.type);
  return out;
}

const lines = [
  '{"type":"ADDED","object":{"metadata":{"name":"é✓"}}}',
  '{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"7"}}}',
  '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"code":410,"reason":"Expired"}}',
];

describe('watchStream', () => {
  it('parses lines split anywhere, even inside UTF-8 sequences', async () => {
    for (const sizes of [[1], [2, 3], [5], [1000]]) {
      const events = await collect(watchStream(body(`${lines.join('\n')}\n`, sizes)));
      expect(events).toEqual(['ADDED', 'BOOKMARK', 'ERROR']);
    }
    const names: string[] = [];
    for await (const ev of watchStream(body(`${lines[0]}\n`, [3]))) {
      if (ev.type === 'ADDED') names.push(ev.object.metadata?.name ?? '');
    }
    expect(names).toEqual(['é✓']);
  });

  it('takes a last line without a newline and skips blank lines', async () => {
    expect(await collect(watchStream(body(`\n${lines[0]}\n\n${lines[1]}`, [4])))).toEqual(['ADDED', 'BOOKMARK']);
  });

  it('rejects a malformed event', async () => {
    await expect(collect(watchStream(body('{"type":"NOPE","object":{}}\n', [100])))).rejects.toThrow(/malformed/);
    await expect(collect(watchStream(body('not json\n', [100])))).rejects.toThrow();
  });

  it('ends quietly when stopped while reading', async () => {
    let cancelled = false;
    const never = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`${lines[0]}\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const stream = watchStream(never);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of stream) seen.push(ev.type);
    })();
    await new Promise((resolve) => setTimeout(resolve, 5));
    stream.stop();
    await reading;
    expect(seen).toEqual(['ADDED']);
    expect(cancelled).toBe(true);
  });

  it('is empty for a response without a body', async () => {
    expect(await collect(watchStream(null))).toEqual([]);
  });
});
