import { html, nothing, type PropertyValues, type TemplateResult } from "lit";
import { MEMORY_TYPES } from "../../../src/protocol/constants.js";
import type { Memory, MemoryDetail, MemoryLink } from "../../../src/protocol/model.js";
import { rpc } from "../context.js";
import { fmtScore, fmtTime, LAYER_NAMES, TYPE_NAMES } from "../format.js";
import { RpcError } from "../rpc.js";
import "../ui/confirm.js";
import { LightElement } from "../ui/element.js";
import { errorBanner } from "../ui/banner.js";

const RELATION_NAMES: Record<MemoryLink["relation"], string> = {
  supersedes: "Supersedes",
  superseded_by: "Superseded by",
  compressed_into: "Compressed into",
  compressed_from: "Summary of",
  conflicts_with: "Conflicts with",
};

/** valid_until as the date field shows it (UTC day). */
const isoDay = (ms: number | null): string => (ms === null ? "" : new Date(ms).toISOString().slice(0, 10));

/**
 * Every field of one memory, its source L0 turns and its supersede / compression / conflict
 * history; edit (content, type, confidence, valid_until), pin, forget. Fires `close`,
 * `open-memory` (detail: id) and `forgotten`.
 */
export class HsMemoryDetail extends LightElement {
  static override properties = {
    memoryId: { attribute: false },
    canGoBack: { attribute: false },
    detail: { state: true },
    error: { state: true },
    notice: { state: true },
    editing: { state: true },
    busy: { state: true },
    fieldError: { state: true },
  };

  declare memoryId: string;
  declare canGoBack: boolean;
  declare detail: MemoryDetail | null;
  declare error: string | null;
  declare notice: string | null;
  declare editing: boolean;
  declare busy: boolean;
  /** An error about one input, keyed by the field as errors name it (the wire spelling: "valid_until"). */
  declare fieldError: { field: string; message: string } | null;

  constructor() {
    super();
    this.memoryId = "";
    this.canGoBack = false;
    this.detail = null;
    this.error = null;
    this.notice = null;
    this.editing = false;
    this.busy = false;
    this.fieldError = null;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has("memoryId") && this.memoryId) {
      this.detail = null;
      this.editing = false;
      this.notice = null;
      void this.load();
    }
  }

  private async load(): Promise<void> {
    const id = this.memoryId;
    try {
      const detail = await rpc.request("memories.get", { id });
      if (id !== this.memoryId) return;
      this.detail = detail;
      this.error = null;
      void this.updateComplete.then(() => this.querySelector<HTMLElement>(".detail-heading")?.focus());
    } catch (err) {
      if (id === this.memoryId) this.error = (err as Error).message;
    }
  }

  private close(): void {
    this.dispatchEvent(new CustomEvent("close", { bubbles: true }));
  }

  private async togglePin(m: Memory): Promise<void> {
    this.busy = true;
    try {
      const { memory } = await rpc.request("memories.pin", { id: m.id, pinned: !m.pinned });
      if (this.detail) this.detail = { ...this.detail, memory };
      this.notice = memory.pinned ? "Pinned: it does not decay and is never compressed." : "Unpinned.";
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private async forget(m: Memory): Promise<void> {
    this.busy = true;
    try {
      await rpc.request("memories.forget", { id: m.id });
      this.dispatchEvent(new CustomEvent("forgotten", { bubbles: true, detail: m.id }));
    } catch (err) {
      this.error = (err as Error).message;
      this.busy = false;
    }
  }

  private startEdit(): void {
    this.editing = true;
    this.fieldError = null;
    void this.updateComplete.then(() => this.querySelector<HTMLElement>("#edit-content")?.focus());
  }

  private async save(m: Memory): Promise<void> {
    const value = (sel: string) => (this.querySelector(sel) as HTMLInputElement | null)?.value ?? "";
    const patch: { content?: string; type?: Memory["type"]; confidence?: number; validUntil?: string | null } = {};
    const content = value("#edit-content");
    if (content.trim() !== m.content) patch.content = content;
    const type = value("#edit-type") as Memory["type"];
    if (type && type !== m.type) patch.type = type;
    const confidenceText = value("#edit-confidence").trim();
    if (confidenceText !== "" && Number(confidenceText) !== m.confidence) patch.confidence = Number(confidenceText);
    const valid = value("#edit-valid").trim();
    if (valid !== isoDay(m.validUntil)) patch.validUntil = valid === "" ? null : valid;
    if (Object.keys(patch).length === 0) {
      this.editing = false;
      this.notice = "Nothing changed.";
      return;
    }
    this.busy = true;
    this.fieldError = null;
    try {
      const result = await rpc.request("memories.edit", { id: m.id, patch });
      this.editing = false;
      this.notice = result.flagged
        ? `The new content was quarantined: ${result.reason}. It is not recalled until released in Review.`
        : `Saved (${result.changed.join(", ") || "no change"}).`;
      await this.load();
    } catch (err) {
      if (err instanceof RpcError && err.field) this.fieldError = { field: err.field.replace(/^patch\./, ""), message: err.message };
      else this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private fieldMessage(field: string): TemplateResult | typeof nothing {
    if (this.fieldError?.field !== field) return nothing;
    return html`<div class="field-error" role="alert" id="err-${field}">${this.fieldError.message}</div>`;
  }

  private renderEdit(m: Memory): TemplateResult {
    const invalid = (f: string) => this.fieldError?.field === f;
    return html`<form
      class="edit-form"
      aria-label="Edit memory"
      @submit=${(e: Event) => {
        e.preventDefault();
        void this.save(m);
      }}
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          this.editing = false;
        }
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void this.save(m);
      }}
    >
      <vscode-label for="edit-content">Content</vscode-label>
      <vscode-textarea id="edit-content" rows="4" resize="vertical" .value=${m.content} ?invalid=${invalid("content")}></vscode-textarea>
      ${this.fieldMessage("content")}
      <div class="edit-row">
        <div>
          <vscode-label for="edit-type">Type</vscode-label>
          <vscode-single-select id="edit-type" .value=${m.type}>
            ${MEMORY_TYPES.map((t) => html`<vscode-option value=${t} ?selected=${t === m.type}>${TYPE_NAMES[t]}</vscode-option>`)}
          </vscode-single-select>
          ${this.fieldMessage("type")}
        </div>
        <div>
          <vscode-label for="edit-confidence">Confidence (0–1)</vscode-label>
          <vscode-textfield id="edit-confidence" type="number" min="0" max="1" step="0.05" .value=${String(m.confidence)} ?invalid=${invalid("confidence")}></vscode-textfield>
          ${this.fieldMessage("confidence")}
        </div>
      </div>
      <vscode-label for="edit-valid">Valid until (empty: no end)</vscode-label>
      <vscode-textfield id="edit-valid" type="date" .value=${isoDay(m.validUntil)} ?invalid=${invalid("valid_until")}></vscode-textfield>
      ${this.fieldMessage("valid_until")}
      <div class="button-row">
        <vscode-button class="save" icon="check" ?disabled=${this.busy} @click=${() => void this.save(m)}>Save</vscode-button>
        <vscode-button secondary class="cancel" @click=${() => (this.editing = false)}>Cancel</vscode-button>
      </div>
    </form>`;
  }

  private renderLinks(links: MemoryLink[]): TemplateResult {
    if (links.length === 0) return html`<p class="muted">No supersede, compression or conflict links.</p>`;
    return html`<ul class="links">
      ${links.map(
        (l) => html`<li>
          <span class="relation">${RELATION_NAMES[l.relation]}</span>
          <button class="link-button" @click=${() => this.dispatchEvent(new CustomEvent("open-memory", { bubbles: true, detail: l.memory.id }))}>
            ${l.memory.content}
          </button>
          <span class="chip status-${l.memory.status}">${l.memory.status}</span>
          <span class="muted">${fmtTime(l.memory.updatedAt)}</span>
        </li>`,
      )}
    </ul>`;
  }

  private renderTurns(d: MemoryDetail): TemplateResult {
    if (d.memory.sourceTurns.length === 0) return html`<p class="muted">Written directly (${d.memory.source}), not extracted from a turn.</p>`;
    const missing = d.memory.sourceTurns.length - d.turns.length;
    return html`<ol class="turns">
        ${d.turns.map(
          (t) => html`<li class="turn ${t.status === "redacted" ? "redacted" : ""}">
            <div class="turn-meta">
              ${t.speaker ? html`<span>${t.speaker}</span> · ` : nothing}<span>${fmtTime(t.at)}</span>${t.ref ? html` · <code>${t.ref}</code>` : nothing}
              ${t.status === "redacted" ? html`<span class="chip">redacted</span>` : nothing}
            </div>
            <div class="turn-user"><span class="who">user</span> ${t.user}</div>
            ${t.assistant ? html`<div class="turn-assistant"><span class="who">assistant</span> ${t.assistant}</div>` : nothing}
          </li>`,
        )}
      </ol>
      ${missing > 0 ? html`<p class="muted">${missing} source ${missing === 1 ? "turn is" : "turns are"} no longer stored (forgotten or deleted).</p>` : nothing}`;
  }

  private renderFields(m: Memory): TemplateResult {
    const rows: Array<[string, unknown]> = [
      ["id", html`<code>${m.id}</code>`],
      ["scope", m.scope],
      ["layer", `${m.layer} (${LAYER_NAMES[m.layer]})`],
      ["type", TYPE_NAMES[m.type]],
      ["subject", m.subject || "—"],
      ["status", m.statusReason ? `${m.status} — ${m.statusReason}` : m.status],
      ["confidence", fmtScore(m.confidence)],
      ["source", m.source],
      ["created", fmtTime(m.createdAt)],
      ["updated", fmtTime(m.updatedAt)],
      ["confirmed", `${fmtTime(m.confirmedAt)} (stated ${m.confirmCount}×)`],
      ["last recalled", m.lastAccessedAt === null ? "never" : `${fmtTime(m.lastAccessedAt)} (${m.accessCount}×)`],
      ["valid until", m.validUntil === null ? "no end" : fmtTime(m.validUntil)],
      ["pinned", m.pinned ? "yes" : "no"],
      ["context", m.context ?? "—"],
      ["session", m.sessionId ?? "—"],
      ["tags", m.tags.length > 0 ? m.tags.join(", ") : "—"],
      ["source refs", m.sourceRefs.length > 0 ? m.sourceRefs.join(", ") : "—"],
      ["embedding model", m.embeddingModel],
    ];
    return html`<dl class="fields">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
  }

  override render() {
    const d = this.detail;
    return html`<section
      class="detail"
      aria-label="Memory detail"
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === "Escape" && !e.defaultPrevented && (e.target as HTMLElement).closest("hs-confirm") === null) this.close();
      }}
    >
      <div class="detail-toolbar">
        <vscode-button secondary icon="arrow-left" class="back" @click=${() => this.close()}>${this.canGoBack ? "Back" : "All memories"}</vscode-button>
        <span class="spacer"></span>
        ${d && !this.editing
          ? html`
              <vscode-button secondary class="pin" icon=${d.memory.pinned ? "pinned" : "pin"} aria-pressed=${d.memory.pinned ? "true" : "false"} ?disabled=${this.busy}
                @click=${() => void this.togglePin(d.memory)}>${d.memory.pinned ? "Unpin" : "Pin"}</vscode-button>
              <vscode-button secondary class="edit" icon="edit" ?disabled=${this.busy} @click=${() => this.startEdit()}>Edit</vscode-button>
            `
          : nothing}
      </div>
      ${errorBanner(this.error)}
      ${this.notice ? html`<div class="notice" role="status">${this.notice}</div>` : nothing}
      ${!d
        ? this.error
          ? nothing
          : html`<p class="muted">Loading…</p>`
        : html`
            <div class="chips">
              <span class="chip layer">${d.memory.layer} ${LAYER_NAMES[d.memory.layer]}</span>
              <span class="chip">${TYPE_NAMES[d.memory.type]}</span>
              <span class="chip status-${d.memory.status}">${d.memory.status}</span>
              ${d.memory.pinned ? html`<span class="chip"><span class="codicon codicon-pinned" aria-hidden="true"></span> pinned</span>` : nothing}
              ${d.memory.validUntil !== null && d.memory.validUntil <= Date.now() ? html`<span class="chip expired">expired</span>` : nothing}
            </div>
            ${this.editing ? this.renderEdit(d.memory) : html`<h2 class="detail-heading" tabindex="-1">${d.memory.content}</h2>`}
            ${this.renderFields(d.memory)}
            <h3>Source turns (${d.memory.sourceTurns.length})</h3>
            ${this.renderTurns(d)}
            <h3>History</h3>
            ${this.renderLinks(d.links)}
            <div class="danger-zone">
              <hs-confirm
                class="forget"
                label="Forget"
                icon="trash"
                question="Forget this memory, and delete or redact the turns it came from?"
                confirm-label="Forget"
                ?disabled=${this.busy}
                @confirm=${() => void this.forget(d.memory)}
              ></hs-confirm>
            </div>
          `}
    </section>`;
  }
}
customElements.define("hs-memory-detail", HsMemoryDetail);
