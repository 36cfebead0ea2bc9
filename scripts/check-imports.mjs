// The import rules `npm run check` keeps (exit 1 and one line per breach):
// - no import cycle among the production files of ts/, type-only imports included (a cycle of
//   types is a knot in the design as much as one of values);
// - only ts/apiserver, ts/cluster and ts/cli import ts/apiserver (everything else reaches the
//   apiserver through ts/client);
// - ts/quota (the quota evaluators admission and the quota controller share) imports neither the
//   apiserver nor storage;
// - no production file imports test support: a file in a `testing/` folder, a *.test.ts, test/, or
//   vitest (a module that needs vitest is test support, and belongs in a `testing/` folder).
// Test files (*.test.ts, and `testing/` folders: what tests share) are outside the rules. Imports
// are read with the TypeScript scanner (ts.preProcessFile), so multi-line and `import type` forms
// count alike.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

const root = process.cwd();
const isTest = (path) => /\.test\.ts$/.test(path) || path.includes('/testing/');
const isProduction = (path) => /\.ts$/.test(path) && !/\.d\.ts$/.test(path) && !isTest(path);

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* tsFiles(p);
    else if (isProduction(p)) yield relative(root, p);
  }
}

/** The files a file imports (relative specifiers resolved; `.js` → `.ts`, directories → index.ts). */
function importsOf(file) {
  const out = [];
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) {
      if (fileName === 'vitest' || fileName.startsWith('vitest/')) out.push(fileName);
      continue;
    }
    let target = normalize(join(dirname(file), fileName)).replace(/\.js$/, '.ts');
    if (!existsSync(target) && existsSync(join(target.replace(/\.ts$/, ''), 'index.ts'))) {
      target = join(target.replace(/\.ts$/, ''), 'index.ts');
    }
    if (target.endsWith('.ts')) out.push(target);
  }
  return out;
}

const graph = new Map();
for (const file of tsFiles(join(root, 'ts'))) graph.set(file, importsOf(file));

const breaches = [];

// Strongly connected components (Tarjan): each with more than one file, or a file importing itself, is a cycle.
let next = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
function connect(v) {
  index.set(v, next);
  low.set(v, next);
  next++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!index.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    component.push(w);
  } while (w !== v);
  if (component.length > 1 || (graph.get(v) ?? []).includes(v)) {
    breaches.push(`import cycle (${component.length}): ${component.sort().join(' ')}`);
  }
}
for (const v of graph.keys()) if (!index.has(v)) connect(v);

// [who (path prefix), may not import (path prefix), except who (prefixes), why]
const walls = [
  [
    'ts/',
    'ts/apiserver/',
    ['ts/apiserver/', 'ts/cluster/', 'ts/cli/'],
    'only ts/apiserver, ts/cluster and ts/cli reach the apiserver',
  ],
  ['ts/quota/', 'ts/apiserver/', [], 'the quota evaluators are shared by the apiserver and the controllers'],
  ['ts/quota/', 'ts/storage/', [], 'the quota evaluators read objects, not storage'],
];
for (const [file, targets] of graph) {
  for (const target of targets) {
    if (isTest(target) || target.startsWith('test/') || target.startsWith('vitest')) {
      breaches.push(`${file}: imports ${target} (test support is for tests; shared test code lives in testing/)`);
    }
    for (const [who, forbidden, except, why] of walls) {
      if (file.startsWith(who) && target.startsWith(forbidden) && !except.some((e) => file.startsWith(e))) {
        breaches.push(`${file}: imports ${target} (${why})`);
      }
    }
  }
}

for (const b of breaches) console.log(b);
console.log(breaches.length ? `check-imports: ${breaches.length} breach(es)` : 'check-imports: no cycles, walls hold');
process.exit(breaches.length ? 1 : 0);
