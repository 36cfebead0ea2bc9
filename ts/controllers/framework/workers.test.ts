import { afterEach, describe, expect, it } from 'vitest';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey } from '../../client/informers/keys.js';
import { RESOURCES } from '../../client/resources.js';
import { eventually, harness } from '../../client/testing/harness.js';
import { WorkQueue } from '../../client/workqueue.js';
import { Registrations, Workers } from './workers.js';

let factory: SharedInformerFactory | undefined;
afterEach(async () => {
  await factory?.shutdown();
  factory = undefined;
});

async function setup() {
  const h = await harness('in-process');
  factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const namespaces = factory.informerFor(RESOURCES.namespaces);
  const queue = new WorkQueue<string>({ clock: h.server.clock });
  const handlers = new Registrations();
  handlers.add(namespaces, { onAdd: (ns) => queue.add(objectKey(ns)) });
  return { ...h, factory, namespaces, queue, handlers };
}

describe('Workers', () => {
  it('waits for the caches, does the first pass before run() resolves, then works the queue', async () => {
    const { client, factory, namespaces, queue, handlers } = await setup();
    const synced: string[] = [];
    const workers = new Workers({
      queue,
      handlers,
      sync: async (key) => {
        synced.push(key);
      },
      onError: () => {},
      firstPass: () => namespaces.getIndexer().listKeys().sort(),
    });
    const running = workers.run(2);
    factory.start();
    await running;
    // The first pass, in its order, before any worker took a key (the handlers queued them too).
    expect(synced.slice(0, 2)).toEqual(['default', 'team-a']);
    await client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'fresh' } });
    await eventually(() => synced.includes('fresh'));
    await workers.stop();
    expect(namespaces.handlerCount()).toBe(0);
  });

  it('re-adds a failed key rate-limited and reports it, or after retryAfter’s delay without a report', async () => {
    const { server, factory, queue, handlers } = await setup();
    const errors: string[] = [];
    const attempts = new Map<string, number>();
    const workers = new Workers({
      queue,
      handlers,
      sync: async (key) => {
        const n = (attempts.get(key) ?? 0) + 1;
        attempts.set(key, n);
        if (n === 1) throw new Error(key === 'default' ? 'later' : 'boom');
      },
      onError: (err, key) => errors.push(`${key}: ${(err as Error).message}`),
      retryAfter: (err) => ((err as Error).message === 'later' ? 10_000 : undefined),
    });
    factory.start();
    await workers.run(1);
    // team-a: reported, back after 5 ms; default: back only after 10 s, unreported.
    await eventually(() => attempts.get('team-a') === 1 && attempts.get('default') === 1);
    server.clock.advance(5);
    await eventually(() => attempts.get('team-a') === 2);
    expect(attempts.get('default')).toBe(1);
    server.clock.advance(10_000);
    await eventually(() => attempts.get('default') === 2);
    expect(errors).toEqual(['team-a: boom']);
    await workers.stop();
  });

  it('drops a key after maxRetries failed syncs in a row, forgetting it (handleErr)', async () => {
    const { server, factory, queue, handlers } = await setup();
    const errors: string[] = [];
    let attempts = 0;
    const workers = new Workers({
      queue,
      handlers: new Registrations(),
      sync: async (key) => {
        if (key !== 'x') return;
        attempts++;
        throw new Error('boom');
      },
      onError: (err, key) => errors.push(`${key}: ${(err as Error).message} after ${queue.numRequeues(key)}`),
      maxRetries: 2,
    });
    handlers.removeAll();
    factory.start();
    await workers.run(1);
    queue.add('x');
    // Tried, re-added after 5 ms, tried, re-added after 10 ms, tried: two requeues, dropped.
    await eventually(() => attempts === 1);
    server.clock.advance(5);
    await eventually(() => attempts === 2);
    server.clock.advance(10);
    await eventually(() => attempts === 3);
    await eventually(() => errors.length === 3);
    expect(errors).toEqual(['x: boom after 0', 'x: boom after 1', 'x: boom after 0']);
    server.clock.advance(1000);
    await new Promise((r) => setTimeout(r, 20));
    expect(attempts).toBe(3);
    await workers.stop();
  });

  it('returns from run() without workers when stopped before the caches sync', async () => {
    const { factory, namespaces, queue, handlers } = await setup();
    let syncs = 0;
    const workers = new Workers({
      queue,
      handlers,
      sync: async () => {
        syncs++;
      },
      onError: () => {},
    });
    // A key waiting in the queue: a worker started by mistake would take it (a shut-down queue
    // still hands out what it holds).
    queue.add('x');
    const running = workers.run(1);
    await workers.stop();
    // The caches sync only now, after the stop.
    factory.start();
    await namespaces.synced();
    await running;
    await new Promise((r) => setTimeout(r, 20));
    expect(syncs).toBe(0);
    expect(queue.len()).toBe(1);
  });

  it('stop() waits for the first-pass key in flight; run() is refused a second time', async () => {
    const { factory, queue, handlers } = await setup();
    let release: () => void = () => {};
    const events: string[] = [];
    const workers = new Workers({
      queue,
      handlers,
      sync: async (key) => {
        events.push(`sync ${key}`);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        events.push(`synced ${key}`);
      },
      onError: () => {},
      firstPass: () => ['default', 'team-a'],
    });
    const running = workers.run(1);
    await expect(workers.run(1)).rejects.toThrow('the workers have already been run');
    factory.start();
    await eventually(() => events.length === 1);
    const stopping = workers.stop().then(() => events.push('stopped'));
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(['sync default']);
    release();
    await stopping;
    await running;
    // The key in flight finished before stop() resolved; the rest of the first pass was dropped.
    expect(events).toEqual(['sync default', 'synced default', 'stopped']);
  });
});
