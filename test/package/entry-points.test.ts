import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The built package, imported by name from a plain `node -e`, exactly as a user would.
describe('the built package', () => {
  it('loads the wasm in Node and returns the kubelet CPU values', () => {
    const script = `
      const { loadKubewasm } = await import('kubewasm');
      const kw = await loadKubewasm();
      console.log(JSON.stringify(kw.cpuCgroup('1000m', '1000m', 100000)));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toMatchObject({ shares: 1024, quotaUs: 100_000, weight: 39 });
  });

  it('exposes the kubewasm command', () => {
    const out = execFileSync(process.execPath, ['bin/kubewasm.mjs', 'help'], { encoding: 'utf8' });
    expect(out).toContain('usage: kubewasm');
  });
});
