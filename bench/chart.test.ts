import { describe, expect, it } from 'vitest';
import { logBarChart } from './chart.js';
import { type BenchRow, formatTable, progressBar } from './harness.js';

const row = (c: string, impl: string, value: number): BenchRow => ({
  suite: 's',
  case: c,
  impl,
  metric: 'ops',
  value,
  unit: 'op/s',
});

describe('logBarChart', () => {
  const svg = logBarChart(
    [row('a<b', 'fast', 10_000), row('a<b', 'slow', 100), row('a<b', 'other', 5), row('c', 'fast', 1000)],
    {
      title: 'T & U',
      metric: 'ops',
      series: [
        { impl: 'fast', color: '#00f' },
        { impl: 'slow', color: '#f00' },
      ],
    },
  );
  const widths = [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="14"/g)].map((m) =>
    Number(m[1]),
  );

  it('draws one labelled bar per listed series and case, escaping text', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(widths).toHaveLength(3);
    expect(svg).toContain('>a&lt;b</text>');
    expect(svg).toContain('>T &amp; U</text>');
    expect(svg).toContain('>10,000 op/s</text>');
    expect(svg).not.toContain('other');
  });

  it('spaces decades evenly (log scale)', () => {
    const [w10k, w100, w1k] = widths as [number, number, number];
    // Axis 10 … 10k: 100 is one decade in, 1k two, 10k three.
    expect(w1k / w10k).toBeCloseTo(2 / 3, 2);
    expect(w100 / w10k).toBeCloseTo(1 / 3, 2);
  });
});

describe('harness additions', () => {
  it('draws a progress bar', () => {
    expect(progressBar(5000, 10000, 10)).toBe('[█████·····] 5,000/10,000');
    expect(progressBar(0, 0, 4)).toBe('[····] 0/0');
  });

  it('adds a note column only when some row has a note', () => {
    expect(formatTable([row('a', 'x', 1)])).not.toContain('note');
    const table = formatTable([row('a', 'x', 2), { ...row('a', 'y', 1), note: 'subset' }]);
    expect(table.split('\n')[0]).toMatch(/ratio\s+note/);
    expect(table).toContain('0.50×  subset');
  });
});
