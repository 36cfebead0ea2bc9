/** `kubewasm bench [suite…]`: runs benchmark suites, prints their tables, writes their JSON. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiSuite } from '../../bench/api.js';
import { cgroupSuite } from '../../bench/cgroup.js';
import { controllersSuite } from '../../bench/controllers.js';
import { formatTable, type Suite, writeResults } from '../../bench/harness.js';
import { schedSuite } from '../../bench/sched.js';
import { storeSuite } from '../../bench/store.js';
import { loadKubewasm } from '../wasm/node.js';
import { type Flags, parseFlags } from './flags.js';

const RESULTS_DIR = fileURLToPath(new URL('../bench/results/', import.meta.url));

export async function bench(args: string[]): Promise<number> {
  const kubewasm = await loadKubewasm();
  const suites: Suite[] = [
    storeSuite(kubewasm),
    cgroupSuite(kubewasm),
    schedSuite(kubewasm),
    apiSuite(kubewasm),
    controllersSuite(kubewasm),
  ];
  let flags: Flags;
  try {
    // Flags go to every suite; each reads the ones it knows (`--workload NAME`: bench sched;
    // `--quick`: bench api's short development runs; `--watch-events N`: bench api's watch rows).
    flags = parseFlags(args, { workload: 'string', quick: 'boolean', 'watch-events': 'string' });
  } catch (err) {
    console.error(`kubewasm bench: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const wanted = flags.positional;
  const unknown = wanted.filter((w) => !suites.some((s) => s.name === w));
  if (unknown.length > 0) {
    console.error(
      `kubewasm bench: unknown suite ${unknown.join(', ')}; suites: ${suites.map((s) => s.name).join(', ')}`,
    );
    return 2;
  }
  for (const suite of suites.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
    const rows = await suite.run(progressLine(suite.name), flags.values);
    clearProgress();
    console.log(`\n${suite.name}\n${formatTable(rows)}`);
    console.log(`→ ${writeResults(RESULTS_DIR, suite.name, rows)}`);
    for (const [name, content] of Object.entries(suite.files?.(rows) ?? {})) {
      writeFileSync(join(RESULTS_DIR, name), content);
      console.log(`→ ${join(RESULTS_DIR, name)}`);
    }
  }
  return 0;
}

/** On a TTY, one self-overwriting line saying what runs now; elsewhere nothing. */
function progressLine(suite: string): (what: string) => void {
  return (what) => {
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${suite}: ${what} …`);
  };
}

function clearProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');
}
