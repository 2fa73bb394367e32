/**
 * Hand-made SVG line charts for the generated performance report (docs/performance.md):
 * axes with ticks (linear or logarithmic), one polyline with markers per series, a legend.
 * Pure: numbers in, text out.
 */

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Series {
  readonly name: string;
  readonly color: string;
  readonly points: readonly Point[];
  readonly dashed?: boolean;
  readonly marker?: 'circle' | 'square' | 'diamond';
}

export interface ChartSpec {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xLog?: boolean;
  readonly yLog?: boolean;
  readonly series: readonly Series[];
  readonly width: number;
  readonly height: number;
  /** Formats tick labels (default: thousands separators). */
  readonly formatX?: (value: number) => string;
  readonly formatY?: (value: number) => string;
}

const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fixed = (v: number): string => (Math.round(v * 10) / 10).toString();
const defaultFormat = (v: number): string => (Math.abs(v) >= 1000 || Number.isInteger(v) ? Math.round(v).toLocaleString('en-US') : String(Number(v.toPrecision(2))));

/** Tick values for a logarithmic axis over [lo, hi]: 1, 2, 5 times powers of ten. */
export function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(v);
    }
  }
  return ticks;
}

/** About five round tick values for a linear axis from 0 to at least `hi`. */
export function linearTicks(hi: number): number[] {
  if (!(hi > 0)) return [0, 1];
  const raw = hi / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let v = 0; v < hi + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

interface Axis {
  readonly ticks: number[];
  readonly scale: (value: number) => number;
}

function axis(values: readonly number[], log: boolean, from: number, to: number): Axis {
  const positive = values.filter((v) => v > 0);
  if (log) {
    const lo = 10 ** Math.floor(Math.log10(Math.min(...positive, 1e9)));
    const hi = 10 ** Math.ceil(Math.log10(Math.max(...positive, lo * 10)));
    const ticks = logTicks(lo, hi);
    const a = Math.log10(lo);
    const b = Math.log10(hi);
    return { ticks, scale: (v) => from + ((Math.log10(Math.max(v, lo)) - a) / (b - a)) * (to - from) };
  }
  const ticks = linearTicks(Math.max(...values, 0));
  const hi = ticks[ticks.length - 1] ?? 1;
  return { ticks, scale: (v) => from + (v / hi) * (to - from) };
}

function marker(kind: Series['marker'], x: number, y: number, color: string): string {
  switch (kind ?? 'circle') {
    case 'square':
      return `<rect x="${fixed(x - 3.5)}" y="${fixed(y - 3.5)}" width="7" height="7" fill="${color}"/>`;
    case 'diamond':
      return `<path d="M${fixed(x)} ${fixed(y - 5)}L${fixed(x + 5)} ${fixed(y)}L${fixed(x)} ${fixed(y + 5)}L${fixed(x - 5)} ${fixed(y)}Z" fill="${color}"/>`;
    case 'circle':
      return `<circle cx="${fixed(x)}" cy="${fixed(y)}" r="3.5" fill="${color}"/>`;
  }
}

/** One chart as an SVG group placed at (`left`, `top`). */
export function chart(spec: ChartSpec, left = 0, top = 0): string {
  const legendRows = spec.series.length;
  const margin = { left: 70, right: 20, top: 34 + legendRows * 16, bottom: 46 };
  const plotW = spec.width - margin.left - margin.right;
  const plotH = spec.height - margin.top - margin.bottom;
  const points = spec.series.flatMap((s) => s.points);
  const xa = axis(points.map((p) => p.x), spec.xLog === true, margin.left, margin.left + plotW);
  const ya = axis(points.map((p) => p.y), spec.yLog === true, margin.top + plotH, margin.top);
  const fx = spec.formatX ?? defaultFormat;
  const fy = spec.formatY ?? defaultFormat;
  const out: string[] = [`<g transform="translate(${left},${top})">`];
  out.push(`<text x="${spec.width / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">${esc(spec.title)}</text>`);
  spec.series.forEach((s, i) => {
    const y = 34 + i * 16;
    const x = margin.left + 8;
    out.push(
      `<line x1="${x}" y1="${y - 4}" x2="${x + 24}" y2="${y - 4}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>`,
      marker(s.marker, x + 12, y - 4, s.color),
      `<text x="${x + 32}" y="${y}" font-size="11">${esc(s.name)}</text>`,
    );
  });
  for (const t of xa.ticks) {
    const x = fixed(xa.scale(t));
    out.push(`<line x1="${x}" y1="${margin.top}" x2="${x}" y2="${margin.top + plotH}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${x}" y="${margin.top + plotH + 16}" text-anchor="middle" font-size="10">${esc(fx(t))}</text>`);
  }
  for (const t of ya.ticks) {
    const y = fixed(ya.scale(t));
    out.push(`<line x1="${margin.left}" y1="${y}" x2="${margin.left + plotW}" y2="${y}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${margin.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" font-size="10">${esc(fy(t))}</text>`);
  }
  out.push(`<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`);
  out.push(`<text x="${margin.left + plotW / 2}" y="${spec.height - 8}" text-anchor="middle" font-size="11">${esc(spec.xLabel)}</text>`);
  out.push(
    `<text x="14" y="${margin.top + plotH / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 14 ${margin.top + plotH / 2})">${esc(spec.yLabel)}</text>`,
  );
  for (const s of spec.series) {
    const coords = s.points.map((p) => `${fixed(xa.scale(p.x))},${fixed(ya.scale(p.y))}`);
    if (coords.length > 1) {
      out.push(`<polyline points="${coords.join(' ')}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>`);
    }
    for (const p of s.points) out.push(marker(s.marker, xa.scale(p.x), ya.scale(p.y), s.color));
  }
  out.push('</g>');
  return out.join('\n');
}

/** A complete SVG document of `width` x `height` holding the given parts. */
export function svgDocument(width: number, height: number, title: string, parts: readonly string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
