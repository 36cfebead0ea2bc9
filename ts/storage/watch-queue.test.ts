import { describe, expect, it } from 'vitest';
import type { WatchEvent } from './storage.js';
import { WatchQueue } from './watch-queue.js';

const event = (revision: bigint): WatchEvent => ({
  type: 'ADDED',
  key: `/k${revision}`,
  value: new Uint8Array(),
  revision,
});

describe('WatchQueue', () => {
  it('hands batches over in order, waiting for the producer', async () => {
    const queue = new WatchQueue(() => {});
    setTimeout(() => {
      queue.push([event(2n)]);
      queue.push([event(3n), event(3n)]);
      queue.stop();
    }, 5);
    const seen: bigint[][] = [];
    for await (const batch of queue) seen.push(batch.map((e) => e.revision));
    // stop() drops what the consumer has not taken yet, so only what arrived before it counts.
    expect(seen.flat().every((r, i, all) => i === 0 || (all[i - 1] as bigint) <= r)).toBe(true);
  });

  it('ends a consumer that falls behind with one resumable ERROR, and tells the producer', async () => {
    let stopped = false;
    const queue = new WatchQueue(() => {
      stopped = true;
    }, 3);
    expect(queue.push([event(2n)])).toBe(true);
    expect(queue.push([event(3n), event(3n)])).toBe(true);
    expect(queue.push([event(4n)])).toBe(false);
    expect(stopped).toBe(true);
    const batches: WatchEvent[][] = [];
    for await (const batch of queue) batches.push(batch);
    expect(batches.map((b) => b.map((e) => e.type))).toEqual([['ADDED'], ['ADDED', 'ADDED'], ['ERROR']]);
    const error = batches[2]?.[0];
    expect(error?.error?.code).toBe('WatchTooSlow');
    expect(error?.revision).toBe(3n);
  });
});
