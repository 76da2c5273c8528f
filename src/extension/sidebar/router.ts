import { HindsightError, wireError } from "../../core/errors.js";
import { wireField } from "../../core/wire.js";
import { performance } from "node:perf_hooks";
import { MEMORY_LAYERS, MEMORY_TYPES, PROTOCOL_VERSION, type SIDEBAR_VIEWS, type TOPICS } from "../../protocol/constants.js";
import { WebviewMessageSchema, type HostMessage, type ProtocolError } from "../../protocol/messages.js";
import type { BackendInfo, Memory, MemoryRow, Suite, SuiteRun } from "../../protocol/model.js";
import { requestSchemas, type Method, type ParsedParams, type Result } from "../../protocol/requests.js";
import { RestBackend, type BackendOptions, type SidebarBackendTarget } from "./backend.js";
import type { RunHistory } from "./history.js";
import { suiteForFile, type SuiteSource } from "./suites.js";
import { suiteRun } from "./suiteRun.js";

type Topic = (typeof TOPICS)[number];
type View = (typeof SIDEBAR_VIEWS)[number];

export interface SidebarRouterDeps {
  /** The server to talk to now (null: none is running); read on every request, so a switch to team mode is seen at once. */
  backend: () => SidebarBackendTarget | null;
  /** Delivers a message to the webview (webview.postMessage). */
  post: (message: HostMessage) => unknown;
  history: RunHistory;
  suites: SuiteSource;
  /** Wall clock (ms) for run and sample times. */
  now?: () => number;
  /** Monotonic ms for the latency shown in the recall playground. */
  timer?: () => number;
  backendOptions?: BackendOptions;
  /** Told about every failed request (the extension logs it). */
  onError?: (method: string, error: ProtocolError) => void;
  /** Why there is no backend, shown in the sidebar when backend() is null. */
  unavailableMessage?: () => string;
}

/** Characters of content a list row carries: a memory's longest (LIMITS.contentChars), so the row's tooltip shows it whole. */
const PREVIEW_CHARS = 4000;

/** Mutations and the parts of the sidebar they make stale. */
const INVALIDATES: Partial<Record<Method, Topic[]>> = {
  "memories.edit": ["memories", "review", "activity"],
  "memories.pin": ["memories", "activity"],
  "memories.forget": ["memories", "review", "activity"],
  "review.resolveConflict": ["memories", "review", "activity"],
  "review.decideProposal": ["memories", "review", "activity"],
  "review.propose": ["review", "activity"],
  "review.release": ["memories", "review", "activity"],
  "review.delete": ["memories", "review", "activity"],
};

function toRow(m: Memory, now: number): MemoryRow {
  const flat = m.content.replace(/\s+/g, " ").trim();
  return {
    id: m.id,
    layer: m.layer,
    type: m.type,
    status: m.status,
    subject: m.subject,
    preview: flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat,
    confidence: m.confidence,
    pinned: m.pinned,
    conflicts: m.conflictsWith.length,
    updatedAt: m.updatedAt,
    validUntil: m.validUntil,
    expired: m.validUntil !== null && m.validUntil <= now,
  };
}

function describeError(err: unknown): ProtocolError {
  return wireError(err);
}

type Handlers = { [M in Method]: (params: ParsedParams<M>, api: RestBackend) => Promise<Result<M>> };

/**
 * The extension side of the sidebar, free of vscode: validates every webview message with the
 * protocol's zod schemas, calls the memory server's REST API, answers each request once, and
 * pushes session snapshots and invalidations. The same class runs in the extension host and in
 * the Chromium test harness.
 */
export class SidebarRouter {
  private lastRun: SuiteRun | null = null;
  private readonly picked = new Map<string, Suite>();
  private client: { key: string; api: RestBackend } | null = null;
  private readonly now: () => number;
  private readonly timer: () => number;

  constructor(private readonly deps: SidebarRouterDeps) {
    this.now = deps.now ?? Date.now;
    this.timer = deps.timer ?? (() => performance.now());
  }

  /** Handles one message from the webview (anything: it is validated here). */
  async handle(raw: unknown): Promise<void> {
    const parsed = WebviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const id = typeof raw === "object" && raw !== null ? (raw as { id?: unknown }).id : undefined;
      const issue = parsed.error.issues[0];
      const field = issue ? wireField(issue.path.map(String).join(".")) : "message";
      if (typeof id === "number") this.respondError(id, { code: "INVALID_INPUT", message: `message: ${field}: ${issue?.message ?? "invalid"}`, field });
      else this.deps.onError?.("message", { code: "INVALID_INPUT", message: `a message from the webview was dropped: ${field}: ${issue?.message ?? "invalid"}` });
      return;
    }
    const message = parsed.data;
    if (message.type === "ready") {
      if (message.protocolVersion !== PROTOCOL_VERSION) {
        this.deps.onError?.("ready", { code: "PROTOCOL_MISMATCH", message: `the webview speaks protocol ${message.protocolVersion}, the extension ${PROTOCOL_VERSION}` });
      }
      this.sendSession();
      return;
    }
    const { id, method } = message;
    const schema = requestSchemas[method].params;
    const params = schema.safeParse(message.params ?? {});
    if (!params.success) {
      const issue = params.error.issues[0];
      const unknownKey = issue?.code === "unrecognized_keys" ? issue.keys[0] : undefined;
      const path = issue ? [...issue.path.map(String), ...(unknownKey !== undefined ? [unknownKey] : [])] : [];
      const field = path.length > 0 ? wireField(path.join(".")) : "params";
      this.respondError(id, { code: "INVALID_INPUT", message: `${method}: ${field}: ${issue?.message ?? "invalid"}`, field }, method);
      return;
    }
    const api = this.api();
    if (!api) {
      const why = this.deps.unavailableMessage?.() ?? "the memory server is not running";
      this.respondError(id, { code: "BACKEND_UNAVAILABLE", message: why }, method);
      return;
    }
    try {
      const handler = this.handlers[method] as (p: unknown, a: RestBackend) => Promise<unknown>;
      const result = await handler(params.data, api);
      this.deps.post({ type: "response", id, ok: true, result } as HostMessage);
      const stale = INVALIDATES[method];
      if (stale) this.invalidate(stale);
    } catch (err) {
      this.respondError(id, describeError(err), method);
    }
  }

  /** Sends the full session snapshot (after ready, and when the server changed). */
  sendSession(): void {
    this.deps.post({ type: "notification", event: "session", data: { protocolVersion: PROTOCOL_VERSION, backend: this.backendInfo() } });
  }

  /** Data changed outside the sidebar: the webview loads these parts again. */
  invalidate(topics: readonly Topic[]): void {
    if (topics.length === 0) return;
    this.deps.post({ type: "notification", event: "invalidate", data: { topics: [...new Set(topics)] } });
  }

  show(view: View): void {
    this.deps.post({ type: "notification", event: "show", data: { view } });
  }

  backendInfo(): BackendInfo {
    const target = this.deps.backend();
    if (!target) {
      return { connected: false, mode: "local", url: null, scope: null, message: this.deps.unavailableMessage?.() ?? "the memory server is not running" };
    }
    return { connected: true, mode: target.mode ?? "local", url: target.url, scope: target.scope, message: null };
  }

  private respondError(id: number, error: ProtocolError, method?: string): void {
    this.deps.onError?.(method ?? "message", error);
    this.deps.post({ type: "response", id, ok: false, error });
  }

  private api(): RestBackend | null {
    const target = this.deps.backend();
    if (!target) return null;
    const key = `${target.url}\u0000${target.token}\u0000${target.scope ?? ""}\u0000${target.mode ?? ""}`;
    if (this.client?.key !== key) {
      this.client = { key, api: new RestBackend(target, this.deps.backendOptions) };
    }
    return this.client.api;
  }

  private async suiteById(id: string): Promise<Suite> {
    const listed = (await this.deps.suites.list()).find((s) => s.id === id) ?? this.picked.get(id);
    if (!listed) throw new HindsightError("NOT_FOUND", `no regression suite ${id}: it may have been moved or deleted`, { field: "suite_id" });
    return listed;
  }

  private async runSuite(suite: Suite, api: RestBackend): Promise<SuiteRun> {
    let text: string;
    try {
      text = await this.deps.suites.read(suite.path);
    } catch (err) {
      throw new HindsightError("INVALID_INPUT", `cannot read ${suite.label}: ${(err as Error).message}`, { field: "suite_id" });
    }
    const started = this.timer();
    const report = await api.runEval(text);
    const run = suiteRun(suite, report, this.now(), Math.round(this.timer() - started));
    await this.deps.history.add({ suiteId: run.suiteId, label: run.label, at: run.at, passed: run.passed, failed: run.failed });
    this.lastRun = run;
    return run;
  }

  private readonly handlers: Handlers = {
    "memories.groups": async ({ filter }, api) => {
      // In the view's order (the protocol's layers, then types), which is not the engine's order of types.
      const counts = new Map((await api.memoryGroups({ statuses: filter.statuses, text: filter.text })).map((g) => [`${g.layer} ${g.type}`, g.count]));
      const groups = MEMORY_LAYERS.flatMap((layer) => MEMORY_TYPES.map((type) => ({ layer, type, total: counts.get(`${layer} ${type}`) ?? 0 }))).filter((g) => g.total > 0);
      return { groups, total: groups.reduce((n, g) => n + g.total, 0) };
    },
    "memories.page": async ({ filter, layer, type, offset, limit }, api) => {
      const page = await api.listMemories({ layer, type, statuses: filter.statuses, text: filter.text, offset, limit });
      const now = this.now();
      return { rows: page.memories.map((m) => toRow(m, now)), total: page.total };
    },
    "memories.get": async ({ id }, api) => api.explainMemory(id),
    // The REST client sends it in the wire's casing (validUntil → valid_until).
    "memories.edit": async ({ id, patch }, api) => api.editMemory(id, patch),
    "memories.pin": async ({ id, pinned }, api) => ({ memory: await api.pinMemory(id, pinned) }),
    "memories.forget": async ({ id }, api) => api.forgetMemory(id),
    "recall.run": async ({ query, k, sessionId }, api) => {
      const started = this.timer();
      const result = await api.recall({ query, k, ...(sessionId ? { sessionId } : {}) });
      return { ...result, latencyMs: Math.round((this.timer() - started) * 10) / 10 };
    },
    "review.get": async (_params, api) => {
      const [conflicts, proposals, quarantined] = await Promise.all([api.conflicts(), api.proposalViews(["pending", "approved"]), api.quarantined()]);
      return { conflicts, proposals, quarantined };
    },
    "review.resolveConflict": async ({ a, b, keep }, api) => api.resolveConflict(a, b, keep),
    "review.decideProposal": async ({ id, decision }, api) => ({ proposal: await api.decideProposal(id, decision) }),
    "review.propose": async (_params, api) => ({ count: (await api.propose()).length }),
    "review.release": async ({ id }, api) => ({ memory: await api.releaseQuarantined(id) }),
    "review.delete": async ({ id }, api) => api.deleteQuarantined(id),
    "tests.get": async () => ({ suites: await this.deps.suites.list(), history: await this.deps.history.list(), last: this.lastRun }),
    "tests.run": async (params, api) => {
      let suite: Suite;
      if ("pick" in params) {
        const path = this.deps.suites.pick ? await this.deps.suites.pick() : null;
        if (path === null) return { run: null, history: await this.deps.history.list() };
        // A picked file that is also a listed suite shares its history.
        suite = (await this.deps.suites.list()).find((s) => s.path === path) ?? suiteForFile(path);
        this.picked.set(suite.id, suite);
      } else {
        suite = await this.suiteById(params.suiteId);
      }
      const run = await this.runSuite(suite, api);
      return { run, history: await this.deps.history.list() };
    },
    "activity.get": async ({ auditLimit, auditOffset }, api) => {
      const [stats, audit] = await Promise.all([api.stats(), api.audit(auditLimit + 1, auditOffset)]);
      // The server keeps the history with its store: every client draws the same one, across restarts.
      const latency = stats.recall.history.map((h) => ({ at: h.at, p50Ms: h.p50Ms, p95Ms: h.p95Ms, count: h.count }));
      return { stats, latency, audit: audit.slice(0, auditLimit), auditHasMore: audit.length > auditLimit };
    },
  };
}
