import { html, svg, type TemplateResult } from "lit";

export interface Series {
  label: string;
  values: Array<number | null>;
  /** CSS class suffix: the stroke colour comes from a --vscode-charts-* variable. */
  tone: "green" | "red" | "blue" | "yellow" | "purple";
}

const W = 300;
const H = 80;
const PAD = 4;

/**
 * A small line chart (SVG, scaled to its box). `label` describes the data for screen readers; the
 * legend repeats each series' name and last value in text.
 */
export function lineChart(series: Series[], options: { label: string; max?: number; unit?: (v: number) => string }): TemplateResult {
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const n = Math.max(...series.map((s) => s.values.length), 0);
  if (n === 0 || all.length === 0) return html`<p class="muted">No data yet.</p>`;
  const max = options.max ?? Math.max(...all, 1e-9) * 1.1;
  const x = (i: number) => (n === 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (n - 1));
  const y = (v: number) => H - PAD - (Math.max(0, Math.min(v, max)) / max) * (H - 2 * PAD);
  const unit = options.unit ?? ((v: number) => String(v));
  return html`<figure class="chart">
    <div class="chart-scale" aria-hidden="true"><span>${unit(max)}</span><span>${unit(0)}</span></div>
    <svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label=${options.label}>
      <line class="chart-axis" x1="0" y1=${H - PAD} x2=${W} y2=${H - PAD}></line>
      ${series.map((s) => {
        const pts = s.values.flatMap((v, i) => (v === null ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`]));
        return svg`<polyline class="chart-line tone-${s.tone}" points=${pts.join(" ")}></polyline>
          ${s.values.map((v, i) => (v === null ? null : svg`<circle class="chart-dot tone-${s.tone}" cx=${x(i).toFixed(1)} cy=${y(v).toFixed(1)} r="2"></circle>`))}`;
      })}
    </svg>
    <figcaption class="legend">
      ${series.map((s) => {
        const last = [...s.values].reverse().find((v) => v !== null);
        return html`<span class="legend-item"><span class="swatch tone-${s.tone}" aria-hidden="true"></span>${s.label}${last === undefined || last === null ? "" : `: ${unit(last)}`}</span>`;
      })}
    </figcaption>
  </figure>`;
}
