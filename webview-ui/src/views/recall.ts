import { html, nothing, type TemplateResult } from "lit";
import type { Recalled, ScoreWeights } from "../../../src/protocol/model.js";
import type { Result } from "../../../src/protocol/requests.js";
import { loadState, rpc, saveState } from "../context.js";
import { fmtMs, fmtScore, shorten } from "../format.js";
import { errorBanner } from "../ui/banner.js";
import { bar, contributionBar } from "../ui/bar.js";
import { layerChip, sourceChip, SOURCES, subjectTag, typeChip } from "../ui/chips.js";
import { ViewElement } from "../ui/element.js";

type RecallAnswer = Result<"recall.run">;

const FACTORS: Array<{ key: keyof Recalled["factors"]; weight: keyof ScoreWeights; label: string; hint: string }> = [
  { key: "relevance", weight: "relevance", label: "relevance", hint: "how well it answers the query" },
  { key: "confidence", weight: "confidence", label: "confidence", hint: "how sure the statement was" },
  { key: "timeDecay", weight: "timeDecay", label: "recency", hint: "exp(−λ·days since last stated); 1 when pinned" },
  { key: "accessBoost", weight: "access", label: "use", hint: "how often it was recalled before (never lifts it past a clearly more relevant memory)" },
];

/** Why the best match so often reads relevance 1.00. */
const NORMALISATION =
  "Each bar is a factor × its weight; together they make the score. Relevance is scaled per query (a close vector match and the best full-text hit count as 1), so the top hit often reads 1.00.";

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

  private renderFactors(m: Recalled, weights: ScoreWeights | null): TemplateResult {
    if (!weights) {
      // A server too old to report its weights: the raw values, said as such.
      return html`<div class="factors raw">
        ${FACTORS.map(
          (f) => html`<div class="factor" title=${f.hint}>
            <span class="factor-name">${f.label}</span>
            ${bar(m.factors[f.key], `${f.label} ${fmtScore(m.factors[f.key])}`)}
            <span class="factor-value">${fmtScore(m.factors[f.key])}</span>
          </div>`,
        )}
      </div>`;
    }
    const total = FACTORS.reduce((n, f) => n + weights[f.weight], 0);
    return html`<div class="factors">
      ${FACTORS.map((f) => {
        const raw = m.factors[f.key];
        const w = weights[f.weight];
        const part = raw * w;
        const why = `${f.label} ${fmtScore(raw)} × weight ${fmtScore(w)} = ${part.toFixed(3)} — ${f.hint}`;
        return html`<div class="factor" title=${why} data-raw=${String(raw)} data-weight=${String(w)}>
          <span class="factor-name">${f.label}</span>
          ${contributionBar(part, w, total, `${f.label}: adds ${fmtScore(part)} of at most ${fmtScore(w)} (${f.label} ${fmtScore(raw)} × ${fmtScore(w)})`)}
          <span class="factor-value">+${fmtScore(part)}</span>
        </div>`;
      })}
    </div>`;
  }

  private renderMemory(m: Recalled, rank: number, conflicted: Set<string>, weights: ScoreWeights | null): TemplateResult {
    return html`<li class="recalled ${conflicted.has(m.id) ? "in-conflict" : ""}" aria-label="Rank ${rank}, score ${fmtScore(m.score)}">
      <div class="recalled-head">
        <span class="rank" aria-hidden="true">${rank}</span>
        <span class="recalled-content">${m.content}</span>
        <span class="score" title="final score: the sum of the bars below">${fmtScore(m.score)}</span>
      </div>
      <div class="chips">
        ${layerChip(m.layer)} ${m.type ? typeChip(m.type) : nothing} ${m.subject ? subjectTag(m.subject) : nothing} ${sourceChip(m.relevanceSource)}
        ${conflicted.has(m.id) ? html`<span class="chip conflict"><span class="codicon codicon-warning" aria-hidden="true"></span> conflict</span>` : nothing}
      </div>
      ${this.renderFactors(m, weights)}
    </li>`;
  }

  /** A conflict in plain words: the two statements, and why neither wins. */
  private renderConflict(c: RecallAnswer["conflicts"][number], byId: Map<string, Recalled>): TemplateResult {
    const [a, b] = c.ids.map((id) => byId.get(id));
    if (!a || !b) return html`<li>about “${c.subject}”: two statements disagree</li>`;
    return html`<li>
      “${shorten(a.content, 60)}” and “${shorten(b.content, 60)}” disagree, and hindsight cannot tell which is current. The agent is told to ask you; settle it in Review.
    </li>`;
  }

  private renderResult(r: RecallAnswer): TemplateResult {
    const conflicted = new Set(r.conflicts.flatMap((c) => c.ids));
    const sources = [...new Set(r.memories.map((m) => m.relevanceSource))];
    const byId = new Map(r.memories.map((m) => [m.id, m]));
    return html`
      <div class="recall-summary" tabindex="-1" role="status">
        <strong>${r.memories.length}</strong> ${r.memories.length === 1 ? "memory" : "memories"} in <strong>${fmtMs(r.latencyMs)}</strong>
        ${sources.length > 0 ? html` · relevance: ${sources.map((s) => SOURCES[s].label).join(", ")}` : nothing}
        ${r.usedFallback ? html`<span class="chip fallback" title="nothing distilled was relevant: these are raw L0 turns">L0 fallback answered</span>` : nothing}
      </div>
      ${r.conflicts.length > 0
        ? html`<div class="conflict-box" role="alert">
            <span class="codicon codicon-warning" aria-hidden="true"></span>
            ${r.conflicts.length} unresolved ${r.conflicts.length === 1 ? "conflict" : "conflicts"}:
            <ul>${r.conflicts.map((c) => this.renderConflict(c, byId))}</ul>
          </div>`
        : nothing}
      ${r.memories.length === 0
        ? html`<p class="empty">Nothing relevant: the agent gets no memories for this query.</p>`
        : html`<p class="factor-note">${r.weights ? NORMALISATION : "Raw factor values: this server does not report its weights."}</p>
            <ol class="recall-list">${r.memories.map((m, i) => this.renderMemory(m, i + 1, conflicted, r.weights))}</ol>`}
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
