import { html, nothing, type TemplateResult } from "lit";
import { MEMORY_LAYERS, MEMORY_STATUSES, MEMORY_TYPES } from "../../../src/protocol/constants.js";
import type { AuditEntry } from "../../../src/protocol/model.js";
import type { Result } from "../../../src/protocol/requests.js";
import { rpc } from "../context.js";
import { fmtMs, fmtNum, fmtTime, LAYER_NAMES, TYPE_NAMES } from "../format.js";

const shortDate = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
import { bar } from "../ui/bar.js";
import { lineChart } from "../ui/chart.js";
import { ViewElement } from "../ui/element.js";
import { errorBanner } from "../ui/banner.js";

type Activity = Result<"activity.get">;

const AUDIT_PAGE = 50;
/** While the tab is visible, stats are fetched again this often (the latency chart grows). */
const POLL_MS = 15_000;

/** Stats (counts per layer / type / status, recall latency p50 / p95 per hour, as the server's store keeps them) and the audit log. */
export class HsActivity extends ViewElement {
  static override properties = {
    data: { state: true },
    audit: { state: true },
    hasMore: { state: true },
    error: { state: true },
  };

  declare data: Activity | null;
  declare audit: AuditEntry[];
  declare hasMore: boolean;
  declare error: string | null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor() {
    super();
    this.data = null;
    this.audit = [];
    this.hasMore = false;
    this.error = null;
  }

  override setShown(shown: boolean): void {
    super.setShown(shown);
    if (shown && this.timer === null) this.timer = setInterval(() => this.invalidate(), POLL_MS);
    if (!shown && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.timer !== null) clearInterval(this.timer);
  }

  protected override async load(): Promise<void> {
    try {
      const data = await rpc.request("activity.get", { auditLimit: Math.max(AUDIT_PAGE, this.audit.length) });
      this.data = data;
      this.audit = data.audit;
      this.hasMore = data.auditHasMore;
      this.error = null;
    } catch (err) {
      this.error = (err as Error).message;
    }
  }

  private async more(): Promise<void> {
    try {
      const data = await rpc.request("activity.get", { auditLimit: AUDIT_PAGE, auditOffset: this.audit.length });
      this.audit = [...this.audit, ...data.audit];
      this.hasMore = data.auditHasMore;
    } catch (err) {
      this.error = (err as Error).message;
    }
  }

  private counts(title: string, entries: Array<[string, number]>): TemplateResult {
    const max = Math.max(1, ...entries.map(([, n]) => n));
    return html`<div class="counts" role="group" aria-label=${title}>
      <h4>${title}</h4>
      ${entries.map(
        ([name, n]) => html`<div class="count-row">
          <span class="count-name">${name}</span>
          ${bar(n, `${name}: ${n}`, { max })}
          <span class="count-value">${fmtNum(n)}</span>
        </div>`,
      )}
    </div>`;
  }

  override render() {
    const d = this.data;
    if (!d) return this.error ? html`<div class="error-banner" role="alert">${this.error}</div>` : html`<p class="muted">Loading…</p>`;
    const s = d.stats;
    const r = s.recall;
    return html`
      ${errorBanner(this.error)}
      <section aria-labelledby="h-stats">
        <h3 id="h-stats">Memories in ${s.scope}</h3>
        <p class="stat-line"><strong>${fmtNum(s.total)}</strong> stored · <strong>${fmtNum(s.byStatus.active ?? 0)}</strong> active</p>
        ${this.counts("Active per layer", MEMORY_LAYERS.map((l) => [`${l} ${LAYER_NAMES[l]}`, s.byLayer[l] ?? 0]))}
        ${this.counts("Active per type", MEMORY_TYPES.map((t) => [TYPE_NAMES[t] ?? t, s.byType[t] ?? 0]))}
        ${this.counts("Per status", MEMORY_STATUSES.map((st) => [st, s.byStatus[st] ?? 0]))}
      </section>
      <section aria-labelledby="h-latency">
        <h3 id="h-latency">Recall latency</h3>
        <p class="stat-line">
          ${fmtNum(r.count)} recalls · p50 <strong>${fmtMs(r.p50Ms)}</strong> · p95 <strong>${fmtMs(r.p95Ms)}</strong>
          ${r.hitRate === null ? nothing : html` · ${(r.hitRate * 100).toFixed(0)}% returned something`}
        </p>
        ${s.recallCache === null
          ? nothing
          : html`<p class="stat-line">
              Shared recall cache: <strong>${fmtNum(s.recallCache.hits)}</strong> of ${fmtNum(s.recallCache.hits + s.recallCache.misses)} answered from it
              ${s.recallCache.hitRate === null ? nothing : html`(${(s.recallCache.hitRate * 100).toFixed(0)}%)`} · ${fmtMs(s.recallCache.savedMs)} saved
              on this server replica
            </p>`}
        <p class="muted stat-since">
          ${r.since === null
            ? "Counted by this server process since it started."
            : html`Every recall from this store since ${shortDate.format(new Date(r.since))}, whoever asked; each point is one hour with recalls.`}
        </p>
        ${lineChart(
          [
            { label: "p50", values: d.latency.map((x) => x.p50Ms), tone: "blue" },
            { label: "p95", values: d.latency.map((x) => x.p95Ms), tone: "yellow" },
          ],
          { label: `Recall latency over ${d.latency.length} ${d.latency.length === 1 ? "hour" : "hours"} with recalls: p50 now ${fmtMs(r.p50Ms)}, p95 now ${fmtMs(r.p95Ms)}`, unit: (v) => fmtMs(v) },
        )}
      </section>
      <section aria-labelledby="h-audit">
        <h3 id="h-audit">Audit log</h3>
        ${this.audit.length === 0
          ? html`<p class="muted">Nothing recorded yet.</p>`
          : html`<ol class="audit">
              ${this.audit.map(
                (e) => html`<li class="audit-entry op-${e.operation}">
                  <div><span class="chip">${e.operation}</span> ${e.detail}</div>
                  <div class="muted">${fmtTime(e.at)} · ${e.actor}${e.memoryIds.length > 0 ? ` · ${e.memoryIds.length} ${e.memoryIds.length === 1 ? "memory" : "memories"}` : ""}</div>
                </li>`,
              )}
            </ol>`}
        ${this.hasMore ? html`<vscode-button secondary class="audit-more" @click=${() => void this.more()}>Load more</vscode-button>` : nothing}
      </section>
    `;
  }
}
customElements.define("hs-activity", HsActivity);
