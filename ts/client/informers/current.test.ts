/**
 * SharedIndexInformer.isCurrent and waitUntil: current only over a watch served in this process
 * (its server's progress, ts/api/watch-progress.ts), and then exactly when the cache has every
 * write that has finished.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../resources.js';
import { type Harness, harness } from '../testing/harness.js';
import { SharedIndexInformer } from './shared-informer.js';

let informer: SharedIndexInformer | undefined;
afterEach(async () => {
  await informer?.stop();
  informer = undefined;
});

async function started(h: Harness): Promise<SharedIndexInformer> {
  informer = new SharedIndexInformer(h.client, RESOURCES.configmaps, { clock: h.server.clock });
  informer.start();
  await informer.synced();
  return informer;
}

const cm = (name: string, v: string) => ({ metadata: { name }, data: { v } });

describe('SharedIndexInformer.isCurrent', () => {
  it('in process: current once watching, not between a write and its event, current again after', async () => {
    const h = await harness('in-process');
    const i = await started(h);
    expect(await i.waitUntil(() => i.isCurrent())).toBe(true);
    for (let n = 0; n < 50; n++) {
      await h.client.create(RESOURCES.configmaps, 'default', cm(`c${n}`, String(n)));
      // A current cache has the write; one without it is not current.
      if (i.isCurrent()) expect(i.get('default', `c${n}`)).toBeDefined();
      if (i.get('default', `c${n}`) === undefined) expect(i.isCurrent()).toBe(false);
      expect(await i.waitUntil(() => i.isCurrent())).toBe(true);
      expect((i.get('default', `c${n}`) as { data?: { v?: string } } | undefined)?.data?.v).toBe(String(n));
    }
  });

  it('is never current over HTTP, where the progress does not travel', async () => {
    const h = await harness('http');
    const i = await started(h);
    await h.client.create(RESOURCES.configmaps, 'default', cm('a', '1'));
    expect(await i.waitUntil(() => i.get('default', 'a') !== undefined)).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(i.isCurrent()).toBe(false);
  });

  it('is not current while the server has not handed over what its storage queued', async () => {
    const h = await harness('in-process');
    const i = await started(h);
    await i.waitUntil(() => i.isCurrent());
    // The stream's progress says the server is behind: the cache cannot be sure.
    const stream = (i as unknown as { reflector: { current?: { progress?: { caughtUp(): boolean } } } }).reflector
      .current;
    const progress = stream?.progress;
    expect(progress).toBeDefined();
    const real = progress?.caughtUp.bind(progress);
    if (progress !== undefined) progress.caughtUp = () => false;
    expect(i.isCurrent()).toBe(false);
    if (progress !== undefined && real !== undefined) progress.caughtUp = real;
    expect(i.isCurrent()).toBe(true);
  });

  it('waitUntil resolves false when the informer stops first', async () => {
    const h = await harness('in-process');
    const i = await started(h);
    const never = i.waitUntil(() => false);
    await i.stop();
    expect(await never).toBe(false);
    expect(i.isCurrent()).toBe(false);
  });
});
