import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDurableStorage } from '../../ts/storage/wasm/durable.js';
import { loadKubewasm } from '../../ts/wasm/node.js';

const root = mkdtempSync(join(tmpdir(), 'kubewasm-snapshot-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const kubewasm = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/kubewasm.mjs', ...args], { encoding: 'utf8' });

describe('kubewasm snapshot', () => {
  it('saves a data directory to a file and restores it into a new one', async () => {
    const source = join(root, 'source');
    const { storage } = openDurableStorage(await loadKubewasm(), source, { fsync: 'always' });
    for (let i = 0; i < 20; i++)
      await storage.create(`/registry/configmaps/default/cm-${i}`, new TextEncoder().encode(`{"i":${i}}`));
    await storage.delete('/registry/configmaps/default/cm-3');
    const revision = await storage.currentRevision();
    // Saved while the store is open: the command only reads the directory.
    const file = join(root, 'backup.snap');
    const save = kubewasm('snapshot', 'save', '--data-dir', source, file);
    expect(save.stderr).toBe('');
    expect(save.stdout).toContain(`saved revision ${revision}`);
    await storage.close();

    expect(kubewasm('snapshot', 'status', file).stdout).toMatch(new RegExp(`^revision ${revision}, 20 keys`));

    const target = join(root, 'target');
    expect(kubewasm('snapshot', 'restore', file, '--data-dir', target).status).toBe(0);
    const restored = openDurableStorage(await loadKubewasm(), target, { fsync: 'always' });
    expect(restored.recovery.revision).toBe(revision);
    expect(await restored.storage.count('/registry/configmaps/')).toBe(19);
    await restored.storage.close();
  });

  it('refuses to restore over a data directory that is not empty', () => {
    const file = join(root, 'backup.snap');
    const result = kubewasm('snapshot', 'restore', file, '--data-dir', join(root, 'target'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('is not empty');
  });

  it('rejects a corrupt snapshot with its error code, writing nothing', () => {
    const bad = join(root, 'bad.snap');
    writeFileSync(bad, 'not a snapshot');
    const status = kubewasm('snapshot', 'status', bad);
    expect(status.status).toBe(1);
    expect(status.stderr).toContain('E_CORRUPT_SNAPSHOT');
    const restore = kubewasm('snapshot', 'restore', bad, '--data-dir', join(root, 'never'));
    expect(restore.status).toBe(1);
  });

  it('explains its usage on bad flags', () => {
    const result = kubewasm('snapshot', 'save', '--nope');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown flag --nope');
  });
});
