import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDurableStorage } from '../../ts/storage/wasm/durable.js';
import { loadKubewasm } from '../../ts/wasm/node.js';

const WRITER = resolve('build/fixtures/crash-writer.mjs');
let dir: string;

beforeAll(async () => {
  await esbuild.build({
    entryPoints: ['test/storage/crash-writer.ts'],
    outfile: WRITER,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
  dir = mkdtempSync(join(tmpdir(), 'kubewasm-crash-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the writer until SIGKILL after `ms`; returns the writes it acknowledged. */
async function writeUntilKilled(from: number, ms: number): Promise<Map<number, bigint>> {
  const child = spawn(process.execPath, [WRITER, dir, String(from)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, KUBEWASM_WASM: resolve('build/wasm/kubewasm_bg.wasm') },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
  // Wait for the first acknowledgement, then kill at a random moment after it.
  while (!out.includes('\n')) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, ms));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  const acked = new Map<number, bigint>();
  for (const line of out.split('\n')) {
    const m = /^ack (\d+) (\d+)$/.exec(line); // a line cut by the kill is not an acknowledgement
    if (m) acked.set(Number(m[1]), BigInt(m[2] as string));
  }
  return acked;
}

describe('crash safety of the durable wasm store', () => {
  it('has every acknowledged write after SIGKILL at a random moment, at a consistent revision', async () => {
    const kubewasm = await loadKubewasm();
    let next = 0;
    for (let round = 0; round < 3; round++) {
      const acked = await writeUntilKilled(next, 50 + Math.floor(Math.random() * 300));
      expect(acked.size).toBeGreaterThan(0);
      const { storage, recovery } = openDurableStorage(kubewasm, dir, { fsync: 'always' });
      const lastAcked = [...acked.values()].reduce((a, b) => (a > b ? a : b));
      expect(recovery.revision).toBeGreaterThanOrEqual(lastAcked);
      for (const [i, revision] of acked) {
        const got = await storage.get(`/registry/crash/${i}`);
        expect(new TextDecoder().decode(got?.value)).toBe(`value-${i}`);
        expect(got?.revision).toBe(revision);
      }
      // Consistent: the keys are exactly the writes 0..n-1 with revisions 2..n+1, no gaps.
      const all = await storage.list('/registry/crash/');
      expect(all.revision).toBe(recovery.revision);
      expect(all.items.length).toBe(Number(recovery.revision) - 1);
      next = all.items.length;
      await storage.close();
    }
  }, 60_000);
});
