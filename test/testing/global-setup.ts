/** Builds dist/ once per test run (esbuild, seconds) so every suite starts the current `kubewasm up`. */
import { spawnSync } from 'node:child_process';

export default function setup(): void {
  const bundle = spawnSync(process.execPath, ['scripts/bundle.mjs'], { encoding: 'utf8' });
  if (bundle.status !== 0) throw new Error(`bundle failed: ${bundle.stderr}`);
}
