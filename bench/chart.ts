/**
 * Benchmark charts as hand-written SVG (no dependencies): per case, one horizontal bar per series
 * on a shared log scale, each labelled with its value.
 */
import type { BenchRow } from './harness.js';

export interface ChartSeries {
  /** The rows' `impl`. */
  readonly impl: string;
  /** Legend text; the impl when omitted. */
  readonly label?: string;
  /** Text beside each bar; the impl when omitted. */
  readonly short?: string;
  readonly color: string;
}

export interface BarChartOptions {
  readonly title: string;
  /** Rows of this metric are drawn; others are ignored. */
  readonly metric: string;
  /** Bar order within a case, top to bottom; impls not listed are not drawn. */
  readonly series: readonly ChartSeries[];
  readonly subtitle?: string;
  readonly width?: number;
}

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"';
const BAR = 14;
const BAR_GAP = 4;
const CASE_TITLE = 20;
const CASE_GAP = 14;
const LEFT = 110;
const RIGHT = 120;
const TOP = 78;
const AXIS = 28;

/**
 * Grouped horizontal bars on a log₁₀ axis, one group per case in row order.
 * `logBarChart(rows, { title: 'sched', metric: 'pods_per_s', series: [{ impl: 'wasm', color: '#2563eb' }] })`.
 */
export function logBarChart(rows: readonly BenchRow[], opts: BarChartOptions): string {
  const width = opts.width ?? 960;
  const drawn = new Set(opts.series.map((s) => s.impl));
  const cases: { name: string; rows: BenchRow[] }[] = [];
  for (const row of rows) {
    if (row.metric !== opts.metric || !drawn.has(row.impl)) continue;
    let c = cases.find((x) => x.name === row.case);
    if (c === undefined) {
      c = { name: row.case, rows: [] };
      cases.push(c);
    }
    c.rows.push(row);
  }
  const positive = cases.flatMap((c) => c.rows.map((r) => r.value)).filter((v) => v > 0);
  const lo = Math.floor(Math.log10(Math.min(...positive, 10)));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...positive, 10))));
  const plot = width - LEFT - RIGHT;
  const x = (v: number) => LEFT + ((Math.log10(v) - lo) / (hi - lo)) * plot;

  const out: string[] = [];
  let y = TOP;
  for (const c of cases) {
    out.push(text(LEFT, y + 13, c.name, 'font-size="13" font-weight="600" fill="#111827"'));
    y += CASE_TITLE;
    for (const s of opts.series) {
      const row = c.rows.find((r) => r.impl === s.impl);
      if (row === undefined) continue;
      out.push(text(LEFT - 8, y + BAR - 3, s.short ?? s.impl, 'font-size="11" fill="#4b5563" text-anchor="end"'));
      const value = `${formatExact(row.value)} ${row.unit}`;
      if (row.value > 0) {
        const end = x(Math.max(row.value, 10 ** lo));
        out.push(
          `<rect x="${LEFT}" y="${y}" width="${(end - LEFT).toFixed(1)}" height="${BAR}" fill="${s.color}" rx="2"/>`,
        );
        out.push(text(end + 6, y + BAR - 3, value, 'font-size="11" fill="#111827"'));
      } else {
        out.push(text(LEFT + 6, y + BAR - 3, `${value} (not drawn)`, 'font-size="11" fill="#b91c1c"'));
      }
      y += BAR + BAR_GAP;
    }
    y += CASE_GAP;
  }
  const bottom = y;

  const grid: string[] = [];
  for (let d = lo; d <= hi; d++) {
    const gx = x(10 ** d).toFixed(1);
    grid.push(`<line x1="${gx}" y1="${TOP - 6}" x2="${gx}" y2="${bottom}" stroke="#e5e7eb"/>`);
    grid.push(
      text(Number(gx), bottom + 16, formatValue(10 ** d), 'font-size="11" fill="#6b7280" text-anchor="middle"'),
    );
  }
  const legend = opts.series.map((s, i) => {
    const lx = LEFT + i * 230;
    return `<rect x="${lx}" y="${TOP - 30}" width="12" height="12" fill="${s.color}" rx="2"/>${text(lx + 18, TOP - 20, s.label ?? s.impl, 'font-size="12" fill="#111827"')}`;
  });
  const height = bottom + AXIS;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT}>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    text(12, 22, opts.title, 'font-size="15" font-weight="700" fill="#111827"'),
    ...(opts.subtitle === undefined ? [] : [text(12, 40, opts.subtitle, 'font-size="11" fill="#6b7280"')]),
    ...grid,
    ...legend,
    ...out,
    '</svg>',
    '',
  ].join('\n');
}

function text(x: number, y: number, content: string, attrs: string): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attrs}>${escapeXml(content)}</text>`;
}

/** A bar's label: 45300 → "45,300", 60 → "60", 3.14159 → "3.14". */
function formatExact(v: number): string {
  return v >= 100 ? Math.round(v).toLocaleString('en-US') : Number(v.toPrecision(3)).toString();
}

/** An axis label: 45300 → "45.3k", 680 → "680", 1e6 → "1M". */
function formatValue(v: number): string {
  if (v >= 1e6) return `${trim(v / 1e6)}M`;
  if (v >= 1e4) return `${trim(v / 1e3)}k`;
  if (v >= 100) return Math.round(v).toLocaleString('en-US');
  return v >= 1 ? trim(v) : v.toPrecision(2);
}

function trim(v: number): string {
  return v >= 100 ? Math.round(v).toString() : Number(v.toPrecision(3)).toString();
}

function escapeXml(s: string): string {
  return s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}
