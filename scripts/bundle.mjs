// Bundles the TypeScript entry points with esbuild and puts the one .wasm beside each bundle
// that loads it: dist/ for Node (index.mjs, cli.mjs), dist/browser.mjs, dist/web/ for the page.
import { copyFileSync, mkdirSync } from 'node:fs';
import * as esbuild from 'esbuild';

const wasm = 'build/wasm/kubewasm_bg.wasm';
// etcd3 loads its .proto files from its own package folder at run time: keep it out of bundles.
const common = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
  external: ['etcd3'],
};

await Promise.all([
  esbuild.build({
    ...common,
    platform: 'node',
    // CommonJS dependencies (ws) require Node built-ins; an ESM bundle needs a real require for that.
    banner: {
      js: "import { createRequire as __kubewasmRequire } from 'node:module'; const require = __kubewasmRequire(import.meta.url);",
    },
    entryPoints: { index: 'ts/index.ts', cli: 'ts/cli/main.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
  }),
  esbuild.build({
    ...common,
    platform: 'browser',
    entryPoints: { browser: 'ts/browser.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
  }),
  esbuild.build({ ...common, platform: 'browser', entryPoints: { app: 'web/main.ts' }, outdir: 'dist/web' }),
]);
mkdirSync('dist/web', { recursive: true });
copyFileSync(wasm, 'dist/kubewasm_bg.wasm');
copyFileSync(wasm, 'dist/web/kubewasm_bg.wasm');
copyFileSync('web/index.html', 'dist/web/index.html');
console.log('bundle: dist/index.mjs dist/cli.mjs dist/browser.mjs dist/web/');
