import { html, nothing, type TemplateResult } from "lit";
import type { HistoryEntry, Suite, SuiteRun } from "../../../src/protocol/model.js";
import { rpc } from "../context.js";
import { fmtMs, fmtNum, fmtTime } from "../format.js";
import { passFailBar } from "../ui/bar.js";
import { lineChart } from "../ui/chart.js";
import { ViewElement } from "../ui/element.js";
import { errorBanner } from "../ui/banner.js";

const CHART_RUNS = 30;

/**
 * Regression tests: the project's eval/ suites and any picked cases file, one click each; pass /
 * fail per category, every failing check with expected vs got, and the pass rate over runs.
 */
export class HsTests extends ViewElement {
  static override properties = {
    suites: { state: true },
    history: { state: true },
    run: { state: true },
    running: { state: true },
    error: { state: true },
  };

  declare suites: Suite[] | null;
  declare history: HistoryEntry[];
  declare run: SuiteRun | null;
  declare running: string | null;
  declare error: string | null;

  constructor() {
    super();
    this.suites = null;
    this.history = [];
    this.run = null;
    this.running = null;
    this.error = null;
  }

  protected override async load(): Promise<void> {
    try {
      const r = await rpc.request("tests.get", {});
      this.suites = r.suites;
      this.history = r.history;
      this.run = this.run ?? r.last;
      this.error = null;
    } catch (err) {
      this.error = (err as Error).message;
    }
  }

  private async start(params: { suiteId: string } | { pick: true }, label: string): Promise<void> {
    this.running = label;
    this.error = null;
    try {
      const r = await rpc.request("tests.run", params);
      this.history = r.history;
      if (r.run) {
        this.run = r.run;
        void this.updateComplete.then(() => this.querySelector<HTMLElement>(".run-summary")?.focus());
      }
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.running = null;
    }
  }

  private renderRun(run: SuiteRun): TemplateResult {
    const total = run.passed + run.failed;
    return html`<section class="run" aria-label="Results of ${run.label}">
      <div class="run-summary ${run.failed === 0 ? "all-pass" : "has-fail"}" tabindex="-1" role="status">
        <span class="codicon ${run.failed === 0 ? "codicon-pass-filled" : "codicon-error"}" aria-hidden="true"></span>
        <strong>${run.label}</strong>: ${fmtNum(run.passed)}/${fmtNum(total)} passed${run.failed > 0 ? html`, <strong>${run.failed} failed</strong>` : nothing}
        <span class="muted">· ${fmtMs(run.durationMs)} · ${fmtTime(run.at)}</span>
      </div>
      <table class="categories">
        <caption class="visually-hidden">Pass and fail per category</caption>
        <thead><tr><th scope="col">category</th><th scope="col">result</th><th scope="col">passed</th></tr></thead>
        <tbody>
          ${run.categories.map(
            (c) => html`<tr class=${c.failed > 0 ? "fail" : "pass"}>
              <th scope="row">${c.category}</th>
              <td>${passFailBar(c.passed, c.failed, `${c.category}: ${c.passed} passed, ${c.failed} failed`)}</td>
              <td class="num">${c.passed}/${c.passed + c.failed}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      ${run.failures.length > 0
        ? html`<h4>Failing cases</h4>
            <ul class="failures">
              ${run.failures.map(
                (f) => html`<li class="failure">
                  <div class="failure-title"><span class="codicon codicon-error" aria-hidden="true"></span> <code>${f.id}</code> <span class="chip">${f.category}</span></div>
                  ${f.checks.map(
                    (c) => html`<dl class="expected-got">
                      <dt>check</dt><dd>${c.step === null ? "" : `step ${c.step} · `}${c.check}</dd>
                      <dt>expected</dt><dd class="expected">${c.expected}</dd>
                      ${c.got ? html`<dt>got</dt><dd class="got">${c.got}</dd>` : nothing}
                    </dl>`,
                  )}
                </li>`,
              )}
            </ul>`
        : nothing}
    </section>`;
  }

  private renderHistory(): TemplateResult {
    const suiteId = this.run?.suiteId;
    const runs = this.history.filter((h) => suiteId === undefined || h.suiteId === suiteId).slice(-CHART_RUNS);
    if (runs.length === 0) return html`<p class="muted">No runs yet.</p>`;
    const rates = runs.map((h) => (h.passed + h.failed === 0 ? null : (100 * h.passed) / (h.passed + h.failed)));
    const first = rates.find((r) => r !== null);
    const last = [...rates].reverse().find((r) => r !== null);
    const label = `Pass rate of ${runs[0]?.label ?? "the suite"} over the last ${runs.length} runs: from ${first?.toFixed(0) ?? "?"}% to ${last?.toFixed(0) ?? "?"}%`;
    return lineChart([{ label: "pass rate", values: rates, tone: "green" }], { label, max: 100, unit: (v) => `${v.toFixed(0)}%` });
  }

  override render() {
    return html`
      ${errorBanner(this.error)}
      <section aria-labelledby="h-suites">
        <h3 id="h-suites">Regression suites</h3>
        ${this.suites === null
          ? html`<p class="muted">Loading…</p>`
          : this.suites.length === 0
            ? html`<p class="muted">No cases files in this workspace's eval/ folder.</p>`
            : html`<ul class="suites">
                ${this.suites.map(
                  (s) => html`<li class="suite" data-id=${s.id}>
                    <span class="suite-label"><span class="codicon codicon-beaker" aria-hidden="true"></span> ${s.label}</span>
                    <span class="muted">${s.cases === null ? "" : `${s.cases} cases`}</span>
                    <vscode-button class="run-suite" icon="play" aria-label="Run ${s.label}" ?disabled=${this.running !== null} @click=${() => void this.start({ suiteId: s.id }, s.label)}>Run</vscode-button>
                  </li>`,
                )}
              </ul>`}
        <vscode-button secondary class="run-file" icon="folder-opened" ?disabled=${this.running !== null} @click=${() => void this.start({ pick: true }, "the picked file")}>Run a cases file…</vscode-button>
      </section>
      ${this.running
        ? html`<div class="running" role="status"><vscode-progress-ring class="inline-ring" aria-hidden="true"></vscode-progress-ring> Running ${this.running}…</div>`
        : nothing}
      ${this.run ? this.renderRun(this.run) : nothing}
      <section aria-labelledby="h-history">
        <h3 id="h-history">Pass rate over runs</h3>
        ${this.renderHistory()}
      </section>
    `;
  }
}
customElements.define("hs-tests", HsTests);
