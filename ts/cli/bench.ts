/** `kubewasm bench [suite…]`: runs benchmark suites, prints their tables, writes their JSON. */
import { fileURLToPath } from 'node:url';
import { cgroupSuite } from '../../bench/cgroup.js';
import { formatTable, type Suite, writeResults } from '../../bench/harness.js';
import { storeSuite } from '../../bench/store.js';
import { loadKubewasm } from '../wasm/node.js';

const RESULTS_DIR = fileURLToPath(new URL('../bench/results/', import.meta.url));

export async function bench(args: string[]): Promise<number> {
  const kubewasm = await loadKubewasm();
  const suites: Suite[] = [storeSuite(kubewasm), cgroupSuite(kubewasm)];
  const wanted = args.filter((a) => !a.startsWith('-'));
  const unknown = wanted.filter((w) => !suites.some((s) => s.name === w));
  if (unknown.length > 0) {
    console.error(
      `kubewasm bench: unknown suite ${unknown.join(', ')}; suites: ${suites.map((s) => s.name).join(', ')}`,
    );
    return 2;
  }
  for (const suite of suites.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
    const rows = await suite.run(progressLine(suite.name));
    clearProgress();
    console.log(`\n${suite.name}\n${formatTable(rows)}`);
    console.log(`→ ${writeResults(RESULTS_DIR, suite.name, rows)}`);
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
