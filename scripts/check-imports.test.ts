/**
 * scripts/check-imports.mjs on small trees of its own: each case writes a few files under a fresh
 * ts/, runs the script there as `npm run check` does (cwd = the tree's root), and expects its exit
 * status and exactly its breach lines.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = resolve('scripts/check-imports.mjs');
const SUPPORT = '(test support is for tests; shared test code lives in testing/)';
const WALL = '(only ts/apiserver, ts/cluster and ts/cli reach the apiserver)';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function check(files: Record<string, string>): { status: number | null; lines: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'kubewasm-check-imports-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const run = spawnSync(process.execPath, [SCRIPT], { cwd: root, encoding: 'utf8' });
  return { status: run.status, lines: run.stdout.trim().split('\n') };
}

// Every tree has the apiserver and a client, so the imports below have something real to point at.
const base = {
  'ts/apiserver/server.ts': 'export const server = 1;\n',
  'ts/client/client.ts': 'export const client = 1;\n',
};

describe('check-imports', () => {
  const cases: { name: string; files: Record<string, string>; breaches: string[] }[] = [
    {
      name: 'a testing/ folder may import the apiserver, and tests may import testing/',
      files: {
        'ts/client/testing/harness.ts':
          "import { server } from '../../apiserver/server.js';\nexport const h = server;\n",
        'ts/client/client.test.ts': "import { h } from './testing/harness.js';\nimport { expect } from 'vitest';\n",
        'ts/client/testing/expect.ts': "import { expect } from 'vitest';\nexport { expect };\n",
      },
      breaches: [],
    },
    {
      name: 'a production module importing a testing/ folder',
      files: {
        'ts/client/watch.ts': "import { h } from './testing/harness.js';\n",
        'ts/client/testing/harness.ts': '',
      },
      breaches: [`ts/client/watch.ts: imports ts/client/testing/harness.ts ${SUPPORT}`],
    },
    {
      name: 'a production module importing a test file (a type-only import counts)',
      files: { 'ts/client/watch.ts': "import type { T } from './client.test.js';\n", 'ts/client/client.test.ts': '' },
      breaches: [`ts/client/watch.ts: imports ts/client/client.test.ts ${SUPPORT}`],
    },
    {
      name: 'a production module importing the cross-layer suites’ support',
      files: { 'ts/cli/up.ts': "export { UpCluster } from '../../test/testing/up.js';\n" },
      breaches: [`ts/cli/up.ts: imports test/testing/up.ts ${SUPPORT}`],
    },
    {
      name: 'test support outside a testing/ folder: a production module importing vitest',
      files: { 'ts/api/cases.ts': "import { expect, it } from 'vitest';\n" },
      breaches: [`ts/api/cases.ts: imports vitest ${SUPPORT}`],
    },
    {
      name: 'a test-support file outside testing/ is production, so the walls hold for it',
      files: { 'ts/client/test-support.ts': "import { server } from '../apiserver/server.js';\n" },
      breaches: [`ts/client/test-support.ts: imports ts/apiserver/server.ts ${WALL}`],
    },
    {
      name: 'an import cycle',
      files: {
        'ts/client/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
        'ts/client/b.ts': "import type { a } from './a.js';\nexport const b = 1;\n",
      },
      breaches: ['import cycle (2): ts/client/a.ts ts/client/b.ts'],
    },
  ];

  it.each(cases)('$name', ({ files, breaches }) => {
    const { status, lines } = check({ ...base, ...files });
    if (breaches.length === 0) {
      expect(lines).toEqual(['check-imports: no cycles, walls hold']);
      expect(status).toBe(0);
    } else {
      expect(lines).toEqual([...breaches, `check-imports: ${breaches.length} breach(es)`]);
      expect(status).toBe(1);
    }
  });
});
