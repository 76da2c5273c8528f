/** A small grouped bar chart as standalone SVG (no chart library): axes, grid, legend, optional value labels, linear or log scale. */
export interface BarSeries {
  name: string;
  /** One value per group; null draws "n/a" (not measured or not expressible). */
  values: Array<number | null>;
  color?: string;
}

export interface BarChartSpec {
  title: string;
  subtitle?: string;
  groups: string[];
  series: BarSeries[];
  yLabel: string;
  scale?: "linear" | "log";
  /** Linear scale: the axis maximum (e.g. 1 for recall); default a round number above the largest value. */
  yMax?: number;
  format?: (v: number) => string;
  /** Axis tick labels (default: format). */
  tickFormat?: (v: number) => string;
  valueLabels?: boolean;
}

export const PALETTE = ["#1d4ed8", "#9ca3af", "#16a34a", "#dc2626", "#f59e0b", "#7c3aed", "#0891b2", "#db2777"];

const FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";
const CHAR_W = 6.6;

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

function n2(x: number): string {
  return String(Math.round(x * 100) / 100);
}

function niceStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * mag;
}

interface Axis {
  ticks: number[];
  /** Value → 0..1 along the axis. */
  pos(v: number): number;
}

function linearAxis(values: number[], yMax?: number): Axis {
  const top = yMax ?? Math.max(...values, 0);
  const step = niceStep(top > 0 ? top : 1, 5);
  const max = yMax ?? Math.ceil((top > 0 ? top : 1) / step) * step;
  const ticks: number[] = [];
  for (let t = 0; t <= max + step / 1e6; t += step) ticks.push(Math.round(t * 1e6) / 1e6);
  return { ticks, pos: (v) => Math.max(0, Math.min(1, v / max)) };
}

/** Decade floor to the first 1-2-5 step at or above the largest value. */
function logAxis(values: number[]): Axis {
  const positive = values.filter((v) => v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...positive, 1)));
  const max = Math.max(...positive, 10);
  const ticks: number[] = [];
  for (let d = lo; ticks.length === 0 || (ticks[ticks.length - 1] as number) < max; d *= 10) {
    for (const m of [1, 2, 5]) if (ticks.length === 0 || (ticks[ticks.length - 1] as number) < max) ticks.push(Math.round(d * m * 1e6) / 1e6);
  }
  const hi = ticks[ticks.length - 1] as number;
  const span = Math.log10(hi) - Math.log10(lo);
  return { ticks, pos: (v) => (v <= lo ? 0 : Math.min(1, (Math.log10(v) - Math.log10(lo)) / span)) };
}

/** Legend items laid out left to right, wrapping at the given width; returns the markup and its height. */
function legend(series: BarSeries[], colors: string[], x0: number, y0: number, width: number): { svg: string; height: number } {
  const parts: string[] = [];
  let x = x0;
  let y = y0;
  for (const [i, s] of series.entries()) {
    const w = 18 + s.name.length * CHAR_W + 18;
    if (x + w > x0 + width && x > x0) {
      x = x0;
      y += 20;
    }
    parts.push(
      `<g class="legend-item" data-series="${escapeXml(s.name)}"><rect x="${n2(x)}" y="${n2(y - 10)}" width="12" height="12" rx="2" fill="${colors[i]}"/>` +
        `<text x="${n2(x + 17)}" y="${n2(y)}" font-size="12" fill="#111827">${escapeXml(s.name)}</text></g>`,
    );
    x += w;
  }
  return { svg: `<g class="legend">${parts.join("")}</g>`, height: y - y0 + 20 };
}

export function barChart(spec: BarChartSpec): string {
  const fmt = spec.format ?? ((v: number) => String(v));
  const colors = spec.series.map((s, i) => s.color ?? (PALETTE[i % PALETTE.length] as string));
  const values = spec.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const axis = spec.scale === "log" ? logAxis(values) : linearAxis(values, spec.yMax);

  const barW = spec.series.length * spec.groups.length > 40 ? 12 : 18;
  const groupGap = 18;
  const groupW = spec.series.length * barW + groupGap;
  const left = 74;
  const right = 24;
  const plotW = Math.max(560, spec.groups.length * groupW);
  const width = left + plotW + right;
  const longest = Math.max(...spec.groups.map((g) => g.length));
  const rotate = longest * CHAR_W > groupW - 4;
  const xLabelH = rotate ? Math.min(140, longest * CHAR_W * 0.6 + 24) : 28;

  const titleH = spec.subtitle ? 52 : 36;
  const leg = legend(spec.series, colors, left, titleH + 14, plotW);
  const top = titleH + leg.height + 18 + (spec.valueLabels ? 30 : 0);
  const plotH = 300;
  const height = top + plotH + xLabelH + 16;
  const yOf = (v: number): number => top + plotH - axis.pos(v) * plotH;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n2(width)}" height="${n2(height)}" viewBox="0 0 ${n2(width)} ${n2(height)}" font-family="${FONT}" role="img">`,
    `<title>${escapeXml(spec.title)}</title>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text class="chart-title" x="${left}" y="24" font-size="16" font-weight="600" fill="#111827">${escapeXml(spec.title)}</text>`,
  );
  if (spec.subtitle) out.push(`<text x="${left}" y="42" font-size="12" fill="#4b5563">${escapeXml(spec.subtitle)}</text>`);
  out.push(leg.svg);

  out.push(`<g class="axis y-axis">`);
  for (const t of axis.ticks) {
    const y = yOf(t);
    out.push(
      `<line x1="${left}" y1="${n2(y)}" x2="${n2(left + plotW)}" y2="${n2(y)}" stroke="${t === axis.ticks[0] ? "#374151" : "#e5e7eb"}" stroke-width="1"/>`,
      `<text class="tick" x="${left - 8}" y="${n2(y + 4)}" font-size="11" text-anchor="end" fill="#374151">${escapeXml((spec.tickFormat ?? fmt)(t))}</text>`,
    );
  }
  out.push(
    `<text x="18" y="${n2(top + plotH / 2)}" font-size="12" text-anchor="middle" fill="#111827" transform="rotate(-90 18 ${n2(top + plotH / 2)})">${escapeXml(spec.yLabel)}${spec.scale === "log" ? " (log scale)" : ""}</text>`,
    `</g>`,
  );

  for (const [si, s] of spec.series.entries()) {
    out.push(`<g class="series" data-series="${escapeXml(s.name)}" fill="${colors[si]}">`);
    for (const [gi, group] of spec.groups.entries()) {
      const v = s.values[gi] ?? null;
      const x = left + gi * groupW + groupGap / 2 + si * barW;
      if (v === null) {
        out.push(`<text class="na" data-group="${escapeXml(group)}" x="${n2(x + barW / 2)}" y="${n2(top + plotH - 4)}" font-size="9" text-anchor="middle" fill="#6b7280">n/a</text>`);
        continue;
      }
      // A zero stays visible as a sliver on the axis, so it cannot be mistaken for "not measured".
      const y = Math.min(yOf(v), top + plotH - 2);
      const h = Math.max(0, top + plotH - y);
      out.push(
        `<rect class="bar" data-group="${escapeXml(group)}" data-value="${v}" x="${n2(x + 1)}" y="${n2(y)}" width="${barW - 2}" height="${n2(h)}"><title>${escapeXml(`${s.name} · ${group}: ${fmt(v)}`)}</title></rect>`,
      );
      if (spec.valueLabels) {
        const lx = x + barW / 2 + 3;
        const ly = y - 3;
        out.push(`<text x="${n2(lx)}" y="${n2(ly)}" font-size="9" fill="#111827" transform="rotate(-90 ${n2(lx)} ${n2(ly)})">${escapeXml(fmt(v))}</text>`);
      }
    }
    out.push(`</g>`);
  }

  out.push(`<g class="axis x-axis">`);
  for (const [gi, group] of spec.groups.entries()) {
    const cx = left + gi * groupW + groupW / 2;
    const y = top + plotH + 16;
    out.push(
      rotate
        ? `<text x="${n2(cx)}" y="${n2(y)}" font-size="11" text-anchor="end" fill="#111827" transform="rotate(-35 ${n2(cx)} ${n2(y)})">${escapeXml(group)}</text>`
        : `<text x="${n2(cx)}" y="${n2(y)}" font-size="12" text-anchor="middle" fill="#111827">${escapeXml(group)}</text>`,
    );
  }
  out.push(`</g>`, `</svg>`);
  return `${out.join("\n")}\n`;
}
