import { html, nothing, type TemplateResult } from "lit";
import type { Recalled } from "../../../src/protocol/model.js";
import type { Result } from "../../../src/protocol/requests.js";
import { loadState, rpc, saveState } from "../context.js";
import { fmtMs, fmtScore, LAYER_NAMES, TYPE_NAMES } from "../format.js";
import { bar } from "../ui/bar.js";
import { ViewElement } from "../ui/element.js";

/** Where a recalled memory's relevance came from, as the chip says it. */
const SOURCE_LABEL: Record<RecallAnswer["memories"][number]["relevanceSource"], string> = {
  "cross-encoder": "cross-encoder",
  "bi-encoder": "fused + second opinion",
  fused: "fused vector + full text",
};
import { errorBanner } from "../ui/banner.js";

type RecallAnswer = Result<"recall.run">;

const FACTORS: Array<{ key: keyof Recalled["factors"]; label: string; hint: string }> = [
  { key: "relevance", label: "relevance", hint: "how well it answers the query" },
  { key: "confidence", label: "confidence", hint: "how sure the statement was" },
  { key: "timeDecay", label: "decay", hint: "exp(−λ·days since last stated); 1 when pinned" },
  { key: "accessBoost", label: "access", hint: "how often it was recalled before" },
];

/**
 * The recall playground: a query, and the ranked answer exactly as the agent would get it, with a
 * bar per score factor, where relevance came from, conflicts, the L0 fallback and the latency.
 */
export class HsRecall extends ViewElement {
  static override properties = {
    result: { state: true },
    busy: { state: true },
    error: { state: true },
  };

  declare result: RecallAnswer | null;
  declare busy: boolean;
  declare error: string | null;

  constructor() {
    super();
    this.result = null;
    this.busy = false;
    this.error = null;
  }

  /** Nothing to load: the playground runs on demand. */
  protected override async load(): Promise<void> {}

  protected override firstUpdated(): void {
    const saved = loadState();
    const q = this.querySelector<HTMLInputElement>("#recall-query");
    if (q) q.value = saved.query;
    const k = this.querySelector<HTMLInputElement>("#recall-k");
    if (k) k.value = String(saved.k);
  }

  private async run(): Promise<void> {
    const query = this.querySelector<HTMLInputElement>("#recall-query")?.value ?? "";
    const k = Number(this.querySelector<HTMLInputElement>("#recall-k")?.value ?? "5") || 5;
    saveState({ query, k });
    this.busy = true;
    this.error = null;
    try {
      this.result = await rpc.request("recall.run", { query, k });
      void this.updateComplete.then(() => this.querySelector<HTMLElement>(".recall-summary")?.focus());
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private renderMemory(m: Recalled, rank: number, conflicted: Set<string>): TemplateResult {
    return html`<li class="recalled ${conflicted.has(m.id) ? "in-conflict" : ""}" aria-label="Rank ${rank}, score ${fmtScore(m.score)}">
      <div class="recalled-head">
        <span class="rank" aria-hidden="true">${rank}</span>
        <span class="recalled-content">${m.content}</span>
        <span class="score" title="final score">${fmtScore(m.score)}</span>
      </div>
      <div class="chips">
        <span class="chip layer">${m.layer} ${LAYER_NAMES[m.layer] ?? ""}</span>
        ${m.type ? html`<span class="chip">${TYPE_NAMES[m.type]}</span>` : nothing}
        <span class="chip source-${m.relevanceSource}" title="where relevance came from">${SOURCE_LABEL[m.relevanceSource]}</span>
        ${m.subject ? html`<span class="chip subject">${m.subject}</span>` : nothing}
        ${conflicted.has(m.id) ? html`<span class="chip conflict"><span class="codicon codicon-warning" aria-hidden="true"></span> conflict</span>` : nothing}
      </div>
      <div class="factors">
        ${FACTORS.map(
          (f) => html`<div class="factor" title=${f.hint}>
            <span class="factor-name">${f.label}</span>
            ${bar(m.factors[f.key], `${f.label} ${fmtScore(m.factors[f.key])}`)}
            <span class="factor-value">${fmtScore(m.factors[f.key])}</span>
          </div>`,
        )}
      </div>
    </li>`;
  }

  private renderResult(r: RecallAnswer): TemplateResult {
    const conflicted = new Set(r.conflicts.flatMap((c) => c.ids));
    const sources = new Set(r.memories.map((m) => m.relevanceSource));
    return html`
      <div class="recall-summary" tabindex="-1" role="status">
        <strong>${r.memories.length}</strong> ${r.memories.length === 1 ? "memory" : "memories"} in <strong>${fmtMs(r.latencyMs)}</strong>
        ${sources.size > 0 ? html` · relevance: ${[...sources].join(", ")}` : nothing}
        ${r.usedFallback ? html`<span class="chip fallback" title="nothing distilled was relevant: these are raw L0 turns">L0 fallback answered</span>` : nothing}
      </div>
      ${r.conflicts.length > 0
        ? html`<div class="conflict-box" role="alert">
            <span class="codicon codicon-warning" aria-hidden="true"></span>
            ${r.conflicts.length} unresolved ${r.conflicts.length === 1 ? "conflict" : "conflicts"}:
            <ul>${r.conflicts.map((c) => html`<li>about “${c.subject}”: ${c.reason}</li>`)}</ul>
          </div>`
        : nothing}
      ${r.memories.length === 0 ? html`<p class="empty">Nothing relevant: the agent gets no memories for this query.</p>` : html`<ol class="recall-list">${r.memories.map((m, i) => this.renderMemory(m, i + 1, conflicted))}</ol>`}
      <details class="agent-text">
        <summary>What the agent gets</summary>
        <pre>${r.text || "(empty)"}</pre>
      </details>
    `;
  }

  override render() {
    return html`<form
        class="recall-form"
        aria-label="Recall query"
        @submit=${(e: Event) => {
          e.preventDefault();
          void this.run();
        }}
      >
        <vscode-textfield
          id="recall-query"
          placeholder="Ask what the agent would ask…"
          aria-label="Query"
          @keydown=${(e: KeyboardEvent) => {
            if (e.key === "Enter") {
              e.preventDefault();
              void this.run();
            }
          }}
        ></vscode-textfield>
        <vscode-single-select id="recall-k" aria-label="How many memories (k)" title="k">
          ${[3, 5, 10, 20].map((k) => html`<vscode-option value=${String(k)}>k = ${k}</vscode-option>`)}
        </vscode-single-select>
        <vscode-button class="run-recall" icon="search" ?disabled=${this.busy} @click=${() => void this.run()}>Recall</vscode-button>
      </form>
      ${this.busy ? html`<vscode-progress-ring class="inline-ring" aria-label="Recalling"></vscode-progress-ring>` : nothing}
      ${errorBanner(this.error)}
      ${this.result ? this.renderResult(this.result) : html`<p class="muted hint">Runs the same recall the agent runs (it also counts as an access).</p>`}`;
  }
}
customElements.define("hs-recall", HsRecall);
