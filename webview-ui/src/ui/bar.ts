import { html, type TemplateResult } from "lit";
import { cssom } from "./cssom.js";

/** A horizontal meter (0..max); widths go through the CSSOM (cssom), which the CSP allows. */
export function bar(value: number, label: string, options: { max?: number; tone?: "accent" | "pass" | "fail" | "muted" } = {}): TemplateResult {
  const max = options.max ?? 1;
  const pct = max <= 0 ? 0 : Math.max(0, Math.min(100, (value / max) * 100));
  return html`<div class="bar" role="meter" aria-label=${label} aria-valuemin="0" aria-valuemax=${max} aria-valuenow=${value}>
    <div class="bar-fill tone-${options.tone ?? "accent"}" style=${cssom({ width: `${pct}%` })}></div>
  </div>`;
}

/** Two-part bar: passed (green) then failed (red). */
export function passFailBar(passed: number, failed: number, label: string): TemplateResult {
  const total = passed + failed;
  const p = total === 0 ? 0 : (passed / total) * 100;
  return html`<div class="bar" role="meter" aria-label=${label} aria-valuemin="0" aria-valuemax=${total} aria-valuenow=${passed}>
    <div class="bar-fill tone-pass" style=${cssom({ width: `${p}%` })}></div>
    <div class="bar-fill tone-fail" style=${cssom({ width: `${100 - p}%` })}></div>
  </div>`;
}

/**
 * What one factor added to a score of at most `total`: the track is the factor's share (its
 * weight), the fill what it earned (value × weight), both on the score's scale.
 */
export function contributionBar(contribution: number, weight: number, total: number, label: string): TemplateResult {
  const pct = (v: number) => `${total <= 0 ? 0 : Math.max(0, Math.min(100, (v / total) * 100))}%`;
  return html`<div class="bar contribution" role="meter" aria-label=${label} aria-valuemin="0" aria-valuemax=${weight} aria-valuenow=${contribution}>
    <div class="bar-cap" style=${cssom({ width: pct(weight) })}><div class="bar-fill tone-accent" style=${cssom({ width: weight <= 0 ? "0%" : `${Math.max(0, Math.min(100, (contribution / weight) * 100))}%` })}></div></div>
  </div>`;
}
