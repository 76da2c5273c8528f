import { html, nothing } from "lit";
import { SIDEBAR_VIEWS } from "../../src/protocol/constants.js";
import type { BackendInfo } from "../../src/protocol/model.js";
import { loadState, rpc, saveState, session, type View } from "./context.js";
import { LightElement, type ViewElement } from "./ui/element.js";
import "./views/activity.js";
import "./views/memories.js";
import "./views/recall.js";
import "./views/review.js";
import "./views/tests.js";

const TABS: Record<View, { label: string; icon: string; tag: string }> = {
  memories: { label: "Memories", icon: "database", tag: "hs-memories" },
  recall: { label: "Recall", icon: "search", tag: "hs-recall" },
  review: { label: "Review", icon: "checklist", tag: "hs-review" },
  tests: { label: "Tests", icon: "beaker", tag: "hs-tests" },
  activity: { label: "Activity", icon: "pulse", tag: "hs-activity" },
};

const sameServer = (a: BackendInfo | null, b: BackendInfo): boolean =>
  a !== null && a.connected === b.connected && a.url === b.url && a.scope === b.scope && a.mode === b.mode;

/**
 * The sidebar: a tab strip (WAI-ARIA tabs: arrow keys move, the selected tab's panel shows) over
 * the five views, and the server the sidebar talks to. Waits for the extension's session snapshot
 * before any view loads.
 */
export class HsApp extends LightElement {
  static override properties = {
    view: { state: true },
    backend: { state: true },
  };

  declare view: View;
  declare backend: BackendInfo | null;
  private readonly unsubscribe: Array<() => void> = [];

  constructor() {
    super();
    this.view = loadState().view;
    if (!(SIDEBAR_VIEWS as readonly string[]).includes(this.view)) this.view = "memories";
    this.backend = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe.push(
      rpc.on("session", ({ backend }) => {
        const changed = !sameServer(this.backend, backend);
        this.backend = backend;
        session.backend = backend;
        if (changed) void this.updateComplete.then(() => this.views().forEach((v) => v.invalidate()));
        void this.updateComplete.then(() => this.syncShown());
      }),
      rpc.on("invalidate", ({ topics }) => {
        for (const topic of topics) this.viewElement(topic as View)?.invalidate();
      }),
      rpc.on("show", ({ view }) => this.select(view, false)),
    );
    rpc.ready();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe.splice(0).forEach((u) => u());
  }

  private views(): ViewElement[] {
    return SIDEBAR_VIEWS.map((v) => this.viewElement(v)).filter((v): v is ViewElement => v !== null);
  }

  private viewElement(view: View): ViewElement | null {
    return this.querySelector<ViewElement>(TABS[view].tag);
  }

  /** Tells each view whether it is visible (a view loads when first shown). */
  private syncShown(): void {
    if (this.backend === null) return;
    for (const v of SIDEBAR_VIEWS) this.viewElement(v)?.setShown(v === this.view);
  }

  private select(view: View, focus: boolean): void {
    this.view = view;
    saveState({ view });
    void this.updateComplete.then(() => {
      this.syncShown();
      if (focus) this.querySelector<HTMLElement>(`#tab-${view}`)?.focus();
    });
  }

  private onTabKey(e: KeyboardEvent): void {
    const i = SIDEBAR_VIEWS.indexOf(this.view);
    const n = SIDEBAR_VIEWS.length;
    const to = e.key === "ArrowRight" ? (i + 1) % n : e.key === "ArrowLeft" ? (i - 1 + n) % n : e.key === "Home" ? 0 : e.key === "End" ? n - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    this.select(SIDEBAR_VIEWS[to] as View, true);
  }

  private renderBackend() {
    const b = this.backend;
    if (b === null) return html`<div class="backend-line muted" role="status">Connecting…</div>`;
    if (!b.connected) {
      return html`<div class="error-banner backend-down" role="alert"><span class="codicon codicon-debug-disconnect" aria-hidden="true"></span> ${b.message ?? "No memory server."}</div>`;
    }
    return html`<div class="backend-line" role="status" title=${b.url ?? ""}>
      <span class="codicon ${b.mode === "team" ? "codicon-organization" : "codicon-vm"}" aria-hidden="true"></span>
      <span>${b.mode === "team" ? "team server" : "local"}</span>
      ${b.scope ? html`<span class="scope">${b.scope}</span>` : nothing}
    </div>`;
  }

  override render() {
    return html`
      <div class="tabs" role="tablist" aria-label="Hindsight views" @keydown=${(e: KeyboardEvent) => this.onTabKey(e)}>
        ${SIDEBAR_VIEWS.map((v) => {
          const selected = v === this.view;
          return html`<button
            class="tab ${selected ? "selected" : ""}"
            role="tab"
            id="tab-${v}"
            aria-selected=${selected ? "true" : "false"}
            aria-controls="panel-${v}"
            tabindex=${selected ? "0" : "-1"}
            title=${TABS[v].label}
            @click=${() => this.select(v, false)}
          >
            <span class="codicon codicon-${TABS[v].icon}" aria-hidden="true"></span><span class="tab-label">${TABS[v].label}</span>
          </button>`;
        })}
      </div>
      ${this.renderBackend()}
      <div class="panels">
        <div class="panel panel-memories" role="tabpanel" id="panel-memories" aria-labelledby="tab-memories" ?hidden=${this.view !== "memories"}><hs-memories></hs-memories></div>
        <div class="panel" role="tabpanel" id="panel-recall" aria-labelledby="tab-recall" ?hidden=${this.view !== "recall"}><hs-recall></hs-recall></div>
        <div class="panel" role="tabpanel" id="panel-review" aria-labelledby="tab-review" ?hidden=${this.view !== "review"}><hs-review></hs-review></div>
        <div class="panel" role="tabpanel" id="panel-tests" aria-labelledby="tab-tests" ?hidden=${this.view !== "tests"}><hs-tests></hs-tests></div>
        <div class="panel" role="tabpanel" id="panel-activity" aria-labelledby="tab-activity" ?hidden=${this.view !== "activity"}><hs-activity></hs-activity></div>
      </div>
    `;
  }
}
customElements.define("hs-app", HsApp);
