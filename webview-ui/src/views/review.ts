import { html, nothing, type TemplateResult } from "lit";
import type { ConflictPair, Memory, ProposalView, Quarantined } from "../../../src/protocol/model.js";
import type { Result } from "../../../src/protocol/requests.js";
import { rpc } from "../context.js";
import { fmtDuration, fmtScore, fmtTime, shorten, TYPE_NAMES } from "../format.js";
import "../ui/confirm.js";
import { wordDiff } from "../ui/diff.js";
import { ViewElement } from "../ui/element.js";
import { errorBanner } from "../ui/banner.js";

type Review = Result<"review.get">;

/**
 * Everything waiting for a person: unresolved conflicts (keep newer / older / both), compression
 * proposals (diff of the originals against the summary; approve, reject, roll back an applied one)
 * and quarantined writes (release or delete).
 */
export class HsReview extends ViewElement {
  static override properties = {
    data: { state: true },
    error: { state: true },
    notice: { state: true },
    busy: { state: true },
  };

  declare data: Review | null;
  declare error: string | null;
  declare notice: string | null;
  declare busy: string | null;

  constructor() {
    super();
    this.data = null;
    this.error = null;
    this.notice = null;
    this.busy = null;
  }

  protected override async load(): Promise<void> {
    try {
      this.data = await rpc.request("review.get", {});
      this.error = null;
    } catch (err) {
      this.error = (err as Error).message;
    }
  }

  /** Runs one decision; the router's invalidation reloads this view afterwards. */
  private async act(key: string, what: () => Promise<string>): Promise<void> {
    this.busy = key;
    this.error = null;
    try {
      this.notice = await what();
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = null;
    }
  }

  private resolve(pair: ConflictPair, keep: "newer" | "older" | "both"): void {
    const aNewer = pair.a.createdAt >= pair.b.createdAt;
    const side = keep === "both" ? "both" : (keep === "newer") === aNewer ? "a" : "b";
    void this.act(`conflict:${pair.a.id}:${pair.b.id}`, async () => {
      await rpc.request("review.resolveConflict", { a: pair.a.id, b: pair.b.id, keep: side });
      return keep === "both" ? "Kept both: they are no longer reported as a conflict." : `Kept the ${keep} statement; the other is marked replaced (kept as history, no longer recalled).`;
    });
  }

  private renderSide(pair: ConflictPair, m: Memory, other: Memory, which: "newer" | "older"): TemplateResult {
    const key = `conflict:${pair.a.id}:${pair.b.id}`;
    const what = `Keep “${shorten(m.content, 40)}”: “${shorten(other.content, 40)}” is marked replaced — kept as history, no longer recalled.`;
    return html`<div class="conflict-side side-${which}">
      <div class="side-label">${which === "newer" ? "Newer" : "Older"} · ${fmtTime(m.createdAt)} · confidence ${fmtScore(m.confidence)}</div>
      <div class="side-content">${m.content}</div>
      <vscode-button class="keep-${which}" secondary icon="check" title=${what} aria-label=${what} ?disabled=${this.busy === key} @click=${() => this.resolve(pair, which)}
        >Keep this one</vscode-button
      >
    </div>`;
  }

  /** Why the engine left it to a person, in plain words. */
  private why(newer: Memory, older: Memory): string {
    const about = newer.subject || older.subject;
    const same = Math.abs(newer.confidence - older.confidence) < 0.005;
    const confidence = same ? "with the same confidence" : `with confidence ${fmtScore(newer.confidence)} and ${fmtScore(older.confidence)}`;
    return `Both say something different about ${about ? `“${about}”` : "the same thing"}, ${fmtDuration(newer.createdAt - older.createdAt)} apart, ${confidence} — hindsight cannot tell which is current.`;
  }

  private renderConflicts(conflicts: ConflictPair[]): TemplateResult {
    if (conflicts.length === 0) return html`<p class="muted">No unresolved conflicts.</p>`;
    return html`<ul class="cards">
      ${conflicts.map((pair) => {
        const [newer, older] = pair.a.createdAt >= pair.b.createdAt ? [pair.a, pair.b] : [pair.b, pair.a];
        const key = `conflict:${pair.a.id}:${pair.b.id}`;
        const title = `“${shorten(newer.content)}” or “${shorten(older.content)}”`;
        const both = "Keep both: they stay active and are no longer reported as a conflict (e.g. each is true in its own context).";
        return html`<li class="card conflict-card" aria-label="Conflict: ${title}">
          <div class="card-title"><span class="codicon codicon-warning" aria-hidden="true"></span><span class="conflict-title">${title}</span></div>
          <p class="conflict-why">${this.why(newer, older)}</p>
          ${this.renderSide(pair, newer, older, "newer")} ${this.renderSide(pair, older, newer, "older")}
          <div class="button-row">
            <vscode-button secondary class="keep-both" title=${both} aria-label=${both} ?disabled=${this.busy === key} @click=${() => this.resolve(pair, "both")}>Keep both</vscode-button>
            <span class="muted button-hint">Both stay; the conflict is dismissed.</span>
          </div>
        </li>`;
      })}
    </ul>`;
  }

  private renderDiff(view: ProposalView): TemplateResult {
    // Oldest first, as the summary tells them.
    const sources = [...view.sources].sort((a, b) => a.createdAt - b.createdAt);
    const before = sources.map((m) => m.content).join("\n");
    const parts = wordDiff(before, view.proposal.summary);
    const missing = view.proposal.sourceIds.length - view.sources.length;
    const changed = parts.some((p) => p.kind !== "same");
    return html`<div class="diff" role="group" aria-label="Originals compared with the summary">
        ${changed
          ? html`<div class="diff-legend"><span class="diff-removed">only in the originals</span> <span class="diff-added">only in the summary</span></div>`
          : html`<div class="diff-legend muted diff-same">The summary keeps every word of the originals.</div>`}
        <p class="diff-text">${parts.map((p) =>
          p.kind === "same" ? p.text : p.kind === "removed" ? html`<del class="diff-removed">${p.text}</del>` : html`<ins class="diff-added">${p.text}</ins>`,
        )}</p>
      </div>
      <details class="originals">
        <summary>${view.sources.length} original ${view.sources.length === 1 ? "memory" : "memories"}${missing > 0 ? ` (${missing} no longer stored)` : ""}</summary>
        <ol>${sources.map((m) => html`<li>${m.content} <span class="chip status-${m.status}">${m.status}</span></li>`)}</ol>
      </details>`;
  }

  private renderProposals(proposals: ProposalView[]): TemplateResult {
    const pending = proposals.filter((p) => p.proposal.status === "pending");
    const applied = proposals.filter((p) => p.proposal.status === "approved");
    const card = (view: ProposalView) => {
      const p = view.proposal;
      const key = `proposal:${p.id}`;
      return html`<li class="card proposal-card" data-id=${p.id} aria-label="Compression of ${p.subject || TYPE_NAMES[p.type]}">
        <div class="card-title">
          <span class="codicon codicon-fold" aria-hidden="true"></span> ${p.subject || "(no subject)"} · ${TYPE_NAMES[p.type]}
          <span class="chip">${p.status === "approved" ? "applied" : "pending"}</span>
        </div>
        <div class="muted">${p.reason} · ${p.summarizer} summary · ${fmtTime(p.createdAt)}</div>
        ${this.renderDiff(view)}
        <div class="button-row">
          ${p.status === "pending"
            ? html`<vscode-button class="approve" icon="check" ?disabled=${this.busy === key}
                  @click=${() => void this.act(key, async () => (await rpc.request("review.decideProposal", { id: p.id, decision: "approve" }), "Approved: the summary replaces the originals (archived)."))}>Approve</vscode-button>
                <vscode-button secondary class="reject" icon="close" ?disabled=${this.busy === key}
                  @click=${() => void this.act(key, async () => (await rpc.request("review.decideProposal", { id: p.id, decision: "reject" }), "Rejected: nothing changed."))}>Reject</vscode-button>`
            : html`<hs-confirm class="rollback" label="Roll back" icon="discard" question="Restore the originals and archive the summary?" ?disabled=${this.busy === key}
                @confirm=${() => void this.act(key, async () => (await rpc.request("review.decideProposal", { id: p.id, decision: "rollback" }), "Rolled back: the originals are active again."))}></hs-confirm>`}
        </div>
      </li>`;
    };
    return html`
      ${pending.length === 0 ? html`<p class="muted">No compression waiting for review.</p>` : html`<ul class="cards">${pending.map(card)}</ul>`}
      ${applied.length > 0 ? html`<h4>Applied (can be rolled back)</h4><ul class="cards">${applied.map(card)}</ul>` : nothing}
      <vscode-button secondary class="propose" icon="search" ?disabled=${this.busy === "propose"}
        @click=${() =>
          void this.act("propose", async () => {
            const { count } = await rpc.request("review.propose", {});
            return count === 0 ? "No group is past the compression thresholds." : `${count} new ${count === 1 ? "proposal" : "proposals"}.`;
          })}>Look for compressions</vscode-button>
    `;
  }

  private renderQuarantine(items: Quarantined[]): TemplateResult {
    if (items.length === 0) return html`<p class="muted">Nothing in quarantine.</p>`;
    return html`<ul class="cards">
      ${items.map((m) => {
        const key = `quarantine:${m.id}`;
        return html`<li class="card quarantine-card" data-id=${m.id} aria-label="Quarantined write">
          <div class="side-content">${m.content}</div>
          <div class="reason"><span class="codicon codicon-shield" aria-hidden="true"></span> ${m.reason ?? "held back by the guard"}</div>
          <div class="muted">${fmtTime(m.createdAt)} · ${m.source}</div>
          <div class="button-row">
            <vscode-button secondary class="release" icon="unlock" ?disabled=${this.busy === key}
              @click=${() => void this.act(key, async () => (await rpc.request("review.release", { id: m.id }), "Released: it is active and recallable."))}>Release</vscode-button>
            <hs-confirm class="delete" label="Delete" question="Delete it and the turns it came from?" ?disabled=${this.busy === key}
              @confirm=${() => void this.act(key, async () => (await rpc.request("review.delete", { id: m.id }), "Deleted."))}></hs-confirm>
          </div>
        </li>`;
      })}
    </ul>`;
  }

  override render() {
    const d = this.data;
    return html`
      ${errorBanner(this.error)}
      ${this.notice ? html`<div class="notice" role="status">${this.notice}</div>` : nothing}
      ${!d
        ? this.error
          ? nothing
          : html`<p class="muted">Loading…</p>`
        : html`
            <section class="review-section" aria-labelledby="h-conflicts">
              <h3 id="h-conflicts">Conflicts <vscode-badge variant="counter">${d.conflicts.length}</vscode-badge></h3>
              ${this.renderConflicts(d.conflicts)}
            </section>
            <section class="review-section" aria-labelledby="h-proposals">
              <h3 id="h-proposals">Compression proposals <vscode-badge variant="counter">${d.proposals.filter((p) => p.proposal.status === "pending").length}</vscode-badge></h3>
              ${this.renderProposals(d.proposals)}
            </section>
            <section class="review-section" aria-labelledby="h-quarantine">
              <h3 id="h-quarantine">Quarantine <vscode-badge variant="counter">${d.quarantined.length}</vscode-badge></h3>
              ${this.renderQuarantine(d.quarantined)}
            </section>
          `}
    `;
  }
}
customElements.define("hs-review", HsReview);
