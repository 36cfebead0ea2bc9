import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium, serveStatic } from './chromium.js';

// The esbuild bundle of web/ in headless Chromium: the same .wasm as Node, loaded from a URL.
describe('the web bundle in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    ({ url, server } = await serveStatic('dist/web'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('instantiates the wasm and gets a result from each core crate', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(url);
    await page.waitForFunction(() => window.kubewasmSelfCheck !== undefined);
    const result = await page.evaluate(() => window.kubewasmSelfCheck);
    expect(errors).toEqual([]);
    expect(result).toEqual({
      cgroup: { shares: 1024, quotaUs: 100_000, periodUs: 100_000, weight: 39, cpuMax: '100000 100000' },
      store: { revision: '2', value: '{"kind":"Pod"}' },
      sched: { reasons: ['Too many pods', 'Insufficient cpu'] },
    });
    expect(await page.locator('#status').textContent()).toBe('The wasm core is running in this tab.');
  });
});
