import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium, serveStatic } from './chromium.js';

// The cluster assembly without its Node-only parts, bundled for the browser (no `node:` module may
// be reached from ts/cluster/cluster.ts) and run in a Web Worker of headless Chromium.
describe('createCluster in a Web Worker', () => {
  let browser: Browser;
  let server: Server;
  let url: string;
  const dir = mkdtempSync(join(tmpdir(), 'kubewasm-worker-'));

  beforeAll(async () => {
    await esbuild.build({
      entryPoints: { worker: 'test/browser/cluster-worker/worker.ts' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      outdir: dir,
      logLevel: 'silent',
    });
    copyFileSync('build/wasm/kubewasm_bg.wasm', join(dir, 'kubewasm_bg.wasm'));
    writeFileSync(
      join(dir, 'index.html'),
      `<!doctype html><script type="module">
const worker = new Worker('./worker.js', { type: 'module' });
worker.onmessage = (e) => { window.clusterAnswer = e.data; };
worker.onerror = (e) => { window.clusterAnswer = { error: e.message }; };
</script>`,
    );
    ({ url, server } = await serveStatic(dir));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the control plane, schedules a pod and runs the controllers, all inside the worker', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(url);
    await page.waitForFunction(() => (window as { clusterAnswer?: unknown }).clusterAnswer !== undefined, undefined, {
      timeout: 30_000,
    });
    const answer = await page.evaluate(() => (window as { clusterAnswer?: unknown }).clusterAnswer);
    expect(errors).toEqual([]);
    expect(answer).toEqual({
      result: {
        namespaces: ['default', 'kube-node-lease', 'kube-public', 'kube-system', 'shop'],
        nodeName: 'n1',
        serviceAccount: 'default',
        controllers: true,
      },
    });
  });
});
