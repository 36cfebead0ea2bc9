import { afterEach, describe, expect, it } from 'vitest';
import { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { harness } from '../../client/testing/harness.js';
import { waitUntilFresh } from './fresh.js';

let informer: SharedIndexInformer | undefined;
afterEach(async () => {
  await informer?.stop();
  informer = undefined;
});

describe('waitUntilFresh (a read-your-writes barrier on informers)', () => {
  for (const kind of ['in-process', 'http'] as const) {
    it(`has every write made before it once it resolves (${kind})`, async () => {
      const h = await harness(kind);
      informer = new SharedIndexInformer(h.client, RESOURCES.configmaps, { clock: h.server.clock });
      informer.start();
      for (let i = 0; i < 20; i++) {
        await h.client.create(RESOURCES.configmaps, 'default', { metadata: { name: `c${i}` } });
        expect(await waitUntilFresh([informer], h.server.storage)).toBe(true);
        expect(informer.get('default', `c${i}`)).toBeDefined();
      }
      // Quiet: a write elsewhere moves the revision on; a progress BOOKMARK brings the watch there.
      await h.client.create(RESOURCES.secrets, 'default', { metadata: { name: 's' } });
      expect(await waitUntilFresh([informer], h.server.storage)).toBe(true);
    });
  }

  it('gives up after timeoutMs when an informer cannot catch up', async () => {
    const h = await harness('in-process');
    // Never started: it never lists.
    informer = new SharedIndexInformer(h.client, RESOURCES.configmaps, { clock: h.server.clock });
    expect(await waitUntilFresh([informer], h.server.storage, { timeoutMs: 20 })).toBe(false);
  });
});
