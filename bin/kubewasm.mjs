#!/usr/bin/env node
// The `kubewasm` command. The CLI itself is TypeScript (ts/cli/), bundled by `npm run build`.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.mjs', import.meta.url);
if (!existsSync(cli)) {
  console.error('kubewasm: dist/cli.mjs is missing; run `npm run build` first');
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
