import { html, nothing, type PropertyValues, type TemplateResult } from "lit";
import { cssom } from "../ui/cssom.js";
import { MEMORY_STATUSES } from "../../../src/protocol/constants.js";
import type { MemoryRow } from "../../../src/protocol/model.js";
import type { MemoryGroup } from "../../../src/protocol/requests.js";
import { loadState, rpc, saveState } from "../context.js";
import { fmtAgo, fmtNum, fmtScore, LAYER_NAMES, TYPE_NAMES } from "../format.js";
import { ViewElement } from "../ui/element.js";
import "./memoryDetail.js";
import { errorBanner } from "../ui/banner.js";

/** Every row has this height (px): the virtual list places row i at i × ROW_H. Two lines of content and the meta line (styles.css .row). */
export const ROW_H = 58;
const PAGE = 100;
const OVERSCAN = 6;
const MAX_INFLIGHT = 4;
const SEARCH_DEBOUNCE_MS = 250;

type Row = { kind: "header"; group: MemoryGroup; key: string } | { kind: "item"; group: MemoryGroup; key: string; offset: number };

const groupKey = (g: Pick<MemoryGroup, "layer" | "type">): string => `${g.layer}/${g.type}`;

/**
 * The Memories tab: the project's memories grouped by layer and type, filtered by status and text,
 * in a virtual list (only the rows in view exist in the DOM; pages of 100 load as they come into
 * view), and the detail pane of the selected memory.
 */
export class HsMemories extends ViewElement {
  static override properties = {
    groups: { state: true },
    total: { state: true },
    error: { state: true },
    loading: { state: true },
    statuses: { state: true },
    text: { state: true },
    scrollPos: { state: true },
    viewportH: { state: true },
    activeIndex: { state: true },
    collapsed: { state: true },
    selected: { state: true },
    pagesVersion: { state: true },
  };

  declare groups: MemoryGroup[] | null;
  declare total: number;
  declare error: string | null;
  declare loading: boolean;
  declare statuses: string[];
  declare text: string;
  declare scrollPos: number;
  declare viewportH: number;
  declare activeIndex: number;
  declare collapsed: ReadonlySet<string>;
  /** Detail pane stack: the last id is shown; empty: the list. */
  declare selected: string[];
  declare pagesVersion: number;

  /** Rows by group key and page index, of the current load generation. */
  private pages = new Map<string, Map<number, MemoryRow[]>>();
  /** The previous generation's rows, shown until the new ones arrive (no flicker on refresh). */
  private previous = new Map<string, Map<number, MemoryRow[]>>();
  private readonly inflight = new Set<string>();
  private generation = 0;
  private pageTimer: ReturnType<typeof setTimeout> | null = null;
  private searchTimer: ReturnType<typeof setTimeout> | null = null;
  private scrollFrame = 0;
  private resizeObserver: ResizeObserver | null = null;
  private firstRowsMarked = false;

  constructor() {
    super();
    const saved = loadState();
    this.groups = null;
    this.total = 0;
    this.error = null;
    this.loading = false;
    this.statuses = saved.statuses.filter((s) => (MEMORY_STATUSES as readonly string[]).includes(s));
    if (this.statuses.length === 0) this.statuses = ["active"];
    this.text = saved.text;
    this.scrollPos = 0;
    this.viewportH = 400;
    this.activeIndex = 0;
    this.collapsed = new Set();
    this.selected = [];
    this.pagesVersion = 0;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resizeObserver?.disconnect();
  }

  private filter() {
    return { statuses: this.statuses as Array<(typeof MEMORY_STATUSES)[number]>, text: this.text };
  }

  /** Loads the group counts; `keepRows` shows the old rows until new pages arrive (a refresh, not a new filter). */
  protected override async load(keepRows = true): Promise<void> {
    const gen = ++this.generation;
    this.previous = keepRows ? (this.pages.size > 0 ? this.pages : this.previous) : new Map();
    this.pages = new Map();
    this.inflight.clear();
    this.loading = true;
    try {
      const result = await rpc.request("memories.groups", { filter: this.filter() });
      if (gen !== this.generation) return;
      this.groups = result.groups;
      this.total = result.total;
      this.error = null;
      if (this.activeIndex >= this.rowCount()) this.activeIndex = Math.max(0, this.rowCount() - 1);
    } catch (err) {
      if (gen !== this.generation) return;
      this.error = (err as Error).message;
    } finally {
      if (gen === this.generation) this.loading = false;
    }
  }

  // ---- layout of the flat row list: a header per group, then its memories unless collapsed ----

  private rowCount(): number {
    return (this.groups ?? []).reduce((n, g) => n + 1 + (this.collapsed.has(groupKey(g)) ? 0 : g.total), 0);
  }

  private rowAt(index: number): Row | null {
    let start = 0;
    for (const group of this.groups ?? []) {
      const key = groupKey(group);
      const size = 1 + (this.collapsed.has(key) ? 0 : group.total);
      if (index < start + size) return index === start ? { kind: "header", group, key } : { kind: "item", group, key, offset: index - start - 1 };
      start += size;
    }
    return null;
  }

  private headerIndex(key: string): number {
    let start = 0;
    for (const group of this.groups ?? []) {
      if (groupKey(group) === key) return start;
      start += 1 + (this.collapsed.has(groupKey(group)) ? 0 : group.total);
    }
    return 0;
  }

  private rowData(key: string, offset: number): MemoryRow | null {
    const page = Math.floor(offset / PAGE);
    const rows = this.pages.get(key)?.get(page) ?? this.previous.get(key)?.get(page);
    return rows?.[offset % PAGE] ?? null;
  }

  private windowRange(): [number, number] {
    const count = this.rowCount();
    const first = Math.max(0, Math.floor(this.scrollPos / ROW_H) - OVERSCAN);
    const last = Math.min(count - 1, Math.ceil((this.scrollPos + this.viewportH) / ROW_H) + OVERSCAN);
    return [first, last];
  }

  // ---- pages ----

  private schedulePages(): void {
    if (this.pageTimer !== null) return;
    this.pageTimer = setTimeout(() => {
      this.pageTimer = null;
      this.loadVisiblePages();
    }, 30);
  }

  private loadVisiblePages(): void {
    if (!this.groups || this.selected.length > 0) return;
    const [first, last] = this.windowRange();
    const wanted = new Map<string, { group: MemoryGroup; page: number }>();
    for (let i = first; i <= last; i++) {
      const row = this.rowAt(i);
      if (row?.kind !== "item") continue;
      const page = Math.floor(row.offset / PAGE);
      if (!this.pages.get(row.key)?.has(page)) wanted.set(`${row.key}#${page}`, { group: row.group, page });
    }
    for (const [id, { group, page }] of wanted) {
      if (this.inflight.size >= MAX_INFLIGHT) break;
      const flightId = `${this.generation}:${id}`;
      if (this.inflight.has(flightId)) continue;
      this.inflight.add(flightId);
      void this.fetchPage(group, page, this.generation, flightId);
    }
  }

  private async fetchPage(group: MemoryGroup, page: number, gen: number, flightId: string): Promise<void> {
    try {
      const result = await rpc.request("memories.page", { filter: this.filter(), layer: group.layer, type: group.type, offset: page * PAGE, limit: PAGE });
      if (gen !== this.generation) return;
      const key = groupKey(group);
      let byPage = this.pages.get(key);
      if (!byPage) this.pages.set(key, (byPage = new Map()));
      byPage.set(page, result.rows);
      if (result.total !== group.total && this.groups) {
        // Memories were added or removed since the counts: take the page's count.
        this.groups = this.groups.map((g) => (groupKey(g) === key ? { ...g, total: result.total } : g));
      }
      this.pagesVersion++;
    } catch (err) {
      if (gen === this.generation) this.error = (err as Error).message;
    } finally {
      this.inflight.delete(flightId);
      if (gen === this.generation) this.schedulePages();
    }
  }

  // ---- events ----

  private onScroll(e: Event): void {
    const el = e.currentTarget as HTMLElement;
    if (this.scrollFrame) return;
    this.scrollFrame = requestAnimationFrame(() => {
      this.scrollFrame = 0;
      this.scrollPos = el.scrollTop;
    });
  }

  private onSearch(e: Event): void {
    const value = (e.target as HTMLInputElement).value;
    if (this.searchTimer !== null) clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => {
      this.searchTimer = null;
      if (value.trim() === this.text.trim()) return;
      this.text = value;
      saveState({ text: value });
      this.resetScroll();
      void this.load(false);
    }, SEARCH_DEBOUNCE_MS);
  }

  private toggleStatus(status: string, on: boolean): void {
    const next = MEMORY_STATUSES.filter((s) => (s === status ? on : this.statuses.includes(s)));
    if (next.length === 0) {
      this.error = "Pick at least one status.";
      this.requestUpdate();
      return;
    }
    this.statuses = next;
    saveState({ statuses: next });
    this.resetScroll();
    void this.load(false);
  }

  private resetScroll(): void {
    this.scrollPos = 0;
    this.activeIndex = 0;
    const list = this.querySelector<HTMLElement>(".vlist");
    if (list) list.scrollTop = 0;
  }

  private toggleGroup(key: string): void {
    const next = new Set(this.collapsed);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    this.collapsed = next;
    this.activeIndex = this.headerIndex(key);
  }

  private open(id: string): void {
    this.selected = [id];
  }

  private activate(index: number): void {
    const row = this.rowAt(index);
    if (!row) return;
    this.activeIndex = index;
    if (row.kind === "header") this.toggleGroup(row.key);
    else {
      const data = this.rowData(row.key, row.offset);
      if (data) this.open(data.id);
    }
  }

  private onKeyDown(e: KeyboardEvent): void {
    const count = this.rowCount();
    if (count === 0) return;
    const page = Math.max(1, Math.floor(this.viewportH / ROW_H) - 1);
    const row = this.rowAt(this.activeIndex);
    let next = this.activeIndex;
    switch (e.key) {
      case "ArrowDown":
        next++;
        break;
      case "ArrowUp":
        next--;
        break;
      case "PageDown":
        next += page;
        break;
      case "PageUp":
        next -= page;
        break;
      case "Home":
        next = 0;
        break;
      case "End":
        next = count - 1;
        break;
      case "Enter":
      case " ":
        e.preventDefault();
        this.activate(this.activeIndex);
        return;
      case "ArrowRight":
        if (row?.kind === "header" && this.collapsed.has(row.key)) this.toggleGroup(row.key);
        else next++;
        break;
      case "ArrowLeft":
        if (row?.kind === "header" && !this.collapsed.has(row.key)) this.toggleGroup(row.key);
        else if (row?.kind === "item") next = this.headerIndex(row.key);
        break;
      default:
        return;
    }
    e.preventDefault();
    this.activeIndex = Math.max(0, Math.min(count - 1, next));
    this.revealRow(this.activeIndex);
  }

  private revealRow(index: number): void {
    const list = this.querySelector<HTMLElement>(".vlist");
    if (!list) return;
    const top = index * ROW_H;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + ROW_H > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW_H - list.clientHeight;
    this.scrollPos = list.scrollTop;
  }

  private closeDetail(): void {
    this.selected = this.selected.slice(0, -1);
    if (this.selected.length === 0) {
      void this.updateComplete.then(() => {
        const list = this.querySelector<HTMLElement>(".vlist");
        if (!list) return;
        list.scrollTop = this.scrollPos;
        list.focus();
      });
    }
  }

  protected override firstUpdated(): void {
    this.resizeObserver = new ResizeObserver((entries) => {
      for (const entry of entries) if (entry.contentRect.height > 0) this.viewportH = entry.contentRect.height;
    });
    const list = this.querySelector<HTMLElement>(".vlist");
    if (list) this.resizeObserver.observe(list);
    // Set once: binding it on every render would overwrite what is being typed before the debounce fires.
    const search = this.querySelector<HTMLInputElement>("vscode-textfield.search");
    if (search) search.value = this.text;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.groups && this.selected.length === 0) this.schedulePages();
    if (!this.firstRowsMarked && this.querySelector(".row.item.loaded")) {
      this.firstRowsMarked = true;
      performance.mark("hindsight:first-rows");
    }
  }

  // ---- rendering ----

  private renderHeader(row: Extract<Row, { kind: "header" }>, index: number): TemplateResult {
    const open = !this.collapsed.has(row.key);
    return html`<div
      class="row header ${index === this.activeIndex ? "active" : ""}"
      id="mem-row-${index}"
      role="treeitem"
      aria-level="1"
      aria-expanded=${open ? "true" : "false"}
      aria-selected=${index === this.activeIndex ? "true" : "false"}
      aria-label="${row.group.layer} ${LAYER_NAMES[row.group.layer]}, ${TYPE_NAMES[row.group.type]}: ${row.group.total} memories"
      style=${cssom({ transform: `translateY(${index * ROW_H}px)` })}
      @click=${() => this.activate(index)}
    >
      <span class="codicon codicon-chevron-${open ? "down" : "right"}" aria-hidden="true"></span>
      <span class="group-title"><span class="layer-tag">${row.group.layer}</span> ${LAYER_NAMES[row.group.layer]} · ${TYPE_NAMES[row.group.type]}</span>
      <vscode-badge variant="counter">${fmtNum(row.group.total)}</vscode-badge>
    </div>`;
  }

  private renderItem(row: Extract<Row, { kind: "item" }>, index: number): TemplateResult {
    const m = this.rowData(row.key, row.offset);
    const active = index === this.activeIndex;
    const common = {
      id: `mem-row-${index}`,
      style: cssom({ transform: `translateY(${index * ROW_H}px)` }),
    };
    if (!m) {
      return html`<div class="row item placeholder ${active ? "active" : ""}" id=${common.id} role="treeitem" aria-level="2" aria-busy="true"
        aria-setsize=${row.group.total} aria-posinset=${row.offset + 1} aria-label="Loading" style=${common.style}>
        <span class="skeleton"></span>
      </div>`;
    }
    const flags = [
      m.status !== "active" ? html`<span class="chip status-${m.status}">${m.status}</span>` : nothing,
      m.expired ? html`<span class="chip expired" title="valid_until has passed: kept, not recalled">expired</span>` : nothing,
      m.pinned ? html`<span class="codicon codicon-pinned" title="pinned" aria-label="pinned"></span>` : nothing,
      m.conflicts > 0 ? html`<span class="codicon codicon-warning conflict" title="unresolved conflict" aria-label="unresolved conflict"></span>` : nothing,
    ];
    return html`<div
      class="row item loaded ${active ? "active" : ""}"
      id=${common.id}
      role="treeitem"
      aria-level="2"
      aria-setsize=${row.group.total}
      aria-posinset=${row.offset + 1}
      aria-selected=${active ? "true" : "false"}
      data-id=${m.id}
      style=${common.style}
      @click=${() => {
        this.activeIndex = index;
        this.open(m.id);
      }}
    >
      <div class="row-main" title=${m.preview}>${m.preview}</div>
      <div class="row-meta">
        ${flags}
        <span class="conf" title="confidence">${fmtScore(m.confidence)}</span>
        ${m.subject ? html`<span class="subject" title="subject">${m.subject}</span>` : nothing}
        <span class="when" title="updated">${fmtAgo(m.updatedAt)}</span>
      </div>
    </div>`;
  }

  private renderList(): TemplateResult {
    const count = this.rowCount();
    const [first, last] = this.windowRange();
    const rows: TemplateResult[] = [];
    for (let i = first; i <= last; i++) {
      const row = this.rowAt(i);
      if (!row) continue;
      rows.push(row.kind === "header" ? this.renderHeader(row, i) : this.renderItem(row, i));
    }
    const activeInWindow = this.activeIndex >= first && this.activeIndex <= last;
    return html`<div
      class="vlist"
      role="tree"
      tabindex="0"
      aria-label="Memories by layer and type"
      aria-activedescendant=${activeInWindow ? `mem-row-${this.activeIndex}` : nothing}
      @scroll=${(e: Event) => this.onScroll(e)}
      @keydown=${(e: KeyboardEvent) => this.onKeyDown(e)}
    >
      <div class="vlist-spacer" style=${cssom({ height: `${count * ROW_H}px` })}>${rows}</div>
    </div>`;
  }

  override render() {
    const showingDetail = this.selected.length > 0;
    const current = this.selected[this.selected.length - 1];
    return html`
      <div class="memories-list-pane" ?hidden=${showingDetail}>
        <div class="toolbar">
          <vscode-textfield
            class="search"
            type="search"
            placeholder="Search content or subject"
            aria-label="Search memories"
            @input=${(e: Event) => this.onSearch(e)}
          >
            <span slot="content-before" class="codicon codicon-search" aria-hidden="true"></span>
          </vscode-textfield>
          <vscode-icon name="refresh" action-icon label="Refresh memories" title="Refresh" @click=${() => this.refresh()}></vscode-icon>
        </div>
        <div class="status-filter" role="group" aria-label="Statuses shown">
          ${MEMORY_STATUSES.map(
            (s) => html`<vscode-checkbox
              class="status-${s}"
              .checked=${this.statuses.includes(s)}
              label=${s}
              @change=${(e: Event) => this.toggleStatus(s, (e.target as HTMLInputElement).checked)}
            ></vscode-checkbox>`,
          )}
        </div>
        <div class="summary-line" role="status" aria-live="polite">
          ${this.loading && !this.groups ? "Loading…" : html`${fmtNum(this.total)} ${this.total === 1 ? "memory" : "memories"}${this.text ? html` matching “${this.text}”` : nothing}`}
          ${this.loading ? html`<vscode-progress-ring class="inline-ring" aria-label="Loading"></vscode-progress-ring>` : nothing}
        </div>
        ${errorBanner(this.error)}
        ${this.groups && this.groups.length === 0 && !this.loading
          ? html`<p class="empty">${this.text ? "No memory matches this search." : "No memories with these statuses yet."}</p>`
          : nothing}
        ${this.renderList()}
      </div>
      ${showingDetail && current
        ? html`<hs-memory-detail
            .memoryId=${current}
            .canGoBack=${this.selected.length > 1}
            @close=${() => this.closeDetail()}
            @open-memory=${(e: CustomEvent<string>) => (this.selected = [...this.selected, e.detail])}
            @forgotten=${() => {
              this.selected = [];
              this.closeDetail();
            }}
          ></hs-memory-detail>`
        : nothing}
    `;
  }
}
customElements.define("hs-memories", HsMemories);
