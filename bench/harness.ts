/**
 * The benchmark harness: repeated timed runs, medians (these machines are noisy), a table on
 * stdout, progress on a TTY, and rows in bench/results/<suite>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One measured number, in the row shape every suite writes. */
export interface BenchRow {
  suite: string;
  case: string;
  impl: string;
  metric: string;
  value: number;
  unit: string;
  /** How this number was taken when it is not the suite's usual way (e.g. on a subset). */
  note?: string;
}

/** Command-line flags given to `kubewasm bench`, e.g. `{ workload: 'SchedulingBasic' }`. */
export type SuiteArgs = Readonly<Record<string, string | boolean>>;

export interface Suite {
  name: string;
  /** Runs every case and returns its rows; `progress` reports what is running. */
  run(progress: (what: string) => void, args?: SuiteArgs): Promise<BenchRow[]>;
  /** Files to write beside `<suite>.json`, by file name (e.g. a chart of the rows). */
  files?(rows: BenchRow[]): Record<string, string>;
}

/** Median of the values (upper median for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Runs `work` (which returns how many operations it did) `runs` times after one warm-up run
 * and returns the median rate in operations per second.
 */
export function opsPerSecond(work: () => number, runs = 5): number {
  work();
  const rates: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const ops = work();
    const seconds = (performance.now() - start) / 1000;
    rates.push(ops / seconds);
  }
  return median(rates);
}

/**
 * A text progress bar for long measurements, shown through the suite's `progress` line (which is
 * TTY-only). `progressBar(5000, 10000)` → "[██████████··········] 5,000/10,000".
 */
export function progressBar(done: number, total: number, width = 20): string {
  const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : 0;
  const count = `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`;
  return `[${'█'.repeat(filled)}${'·'.repeat(width - filled)}] ${count}`;
}

/**
 * Prints rows as an aligned table with, per case, each impl's ratio to the first impl, and a
 * note column when some row has a note.
 */
export function formatTable(rows: BenchRow[]): string {
  const withNotes = rows.some((r) => r.note !== undefined);
  const header = ['case', 'impl', 'metric', 'value', 'unit', 'ratio', ...(withNotes ? ['note'] : [])];
  const firstByCase = new Map<string, number>();
  const lines = rows.map((r) => {
    const key = `${r.case}\u0000${r.metric}`;
    if (!firstByCase.has(key)) firstByCase.set(key, r.value);
    const base = firstByCase.get(key) ?? r.value;
    const ratio = base === r.value ? '1.00×' : `${(r.value / base).toFixed(2)}×`;
    const cells = [r.case, r.impl, r.metric, formatNumber(r.value), r.unit, ratio];
    return withNotes ? [...cells, r.note ?? ''] : cells;
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const render = (cells: string[]) =>
    cells.map((c, i) => (i === 3 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ');
  return [render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n');
}

function formatNumber(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3);
}

/** Writes the rows of one suite to `<dir>/<suite>.json`. */
export function writeResults(dir: string, suite: string, rows: BenchRow[]): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${suite}.json`);
  writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`);
  return file;
}
