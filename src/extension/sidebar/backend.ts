import { z } from "zod";
import {
  AuditEntrySchema,
  ConflictPairSchema,
  EvalReportSchema,
  LayerSchema,
  MemoryDetailSchema,
  MemorySchema,
  MemoryTypeSchema,
  ProposalSchema,
  QuarantinedSchema,
  RecallResultSchema,
  StatsSchema,
  type AuditEntry,
  type ConflictPair,
  type EvalReport,
  type Memory,
  type MemoryDetail,
  type Proposal,
  type ProposalView,
  type Quarantined,
  type RecallResult,
  type Stats,
} from "../../protocol/model.js";
import { HindsightError } from "../../core/errors.js";
import { parseWireAnswer } from "../../protocol/wireAnswer.js";
import { restRequest } from "../restClient.js";


/** The memory server the sidebar talks to: the extension's own (local) or a team server. */
export interface SidebarBackendTarget {
  /** http://127.0.0.1:PORT or the team server's URL (no /api/v1). */
  url: string;
  token: string;
  /** The scope to show (project:<id>, ...); null: the server's default scope. */
  scope: string | null;
  mode?: "local" | "team";
}

export interface BackendOptions {
  fetch?: typeof fetch;
  /** Per request; an eval run gets `evalTimeoutMs`. */
  timeoutMs?: number;
  evalTimeoutMs?: number;
  /** Waits before a retry after 429 (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
}

export interface ListQuery {
  layer?: string;
  type?: string;
  statuses: readonly string[];
  text?: string;
  offset: number;
  limit: number;
}

const ListAnswer = z.object({ memories: z.array(MemorySchema), total: z.number().int().nonnegative() });
const GroupsAnswer = z.object({ groups: z.array(z.object({ layer: LayerSchema, type: MemoryTypeSchema, count: z.number().int().nonnegative() })) });
const MemoryAnswer = z.object({ memory: MemorySchema });
const EditAnswer = z.object({ memory: MemorySchema, changed: z.array(z.string()), flagged: z.boolean(), reason: z.string() });
const ForgetAnswer = z.object({ forgotten: z.number().int(), ids: z.array(z.string()), turns: z.number().int() });
const ConflictsAnswer = z.object({ conflicts: z.array(ConflictPairSchema) });
const ResolveAnswer = z.object({ kept: z.array(MemorySchema), superseded: z.array(MemorySchema) });
const ProposalsAnswer = z.object({ proposals: z.array(ProposalSchema) });
const ProposalViewsAnswer = z.object({ proposals: z.array(z.object({ proposal: ProposalSchema, sources: z.array(MemorySchema) })) });
const ProposalAnswer = z.object({ proposal: ProposalSchema });
const QuarantineAnswer = z.object({ memories: z.array(QuarantinedSchema) });
const AuditAnswer = z.object({ entries: z.array(AuditEntrySchema) });

/**
 * The memory server's REST API (/api/v1, bearer token) as the sidebar uses it. Every answer is
 * parsed with the protocol's schemas: a server that answers another shape is an error naming the
 * field, not a broken view. 429 is retried after Retry-After (at most twice).
 */
export class RestBackend {
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly evalTimeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    readonly target: SidebarBackendTarget,
    options: BackendOptions = {},
  ) {
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.evalTimeoutMs = options.evalTimeoutMs ?? 15 * 60_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  private base(): string {
    return `${this.target.url.replace(/\/+$/, "")}/api/v1`;
  }

  /** The scope query parameter every call carries (none: the server's default scope). */
  private scoped(params: URLSearchParams = new URLSearchParams()): URLSearchParams {
    if (this.target.scope) params.set("scope", this.target.scope);
    return params;
  }

  private async call<S extends z.ZodType>(
    schema: S,
    method: string,
    path: string,
    options: { query?: URLSearchParams; json?: unknown; text?: string; timeoutMs?: number } = {},
  ): Promise<z.output<S>> {
    const text = await restRequest(
      this.target,
      method,
      path,
      { ...options, contentType: "application/json", timeoutMs: options.timeoutMs ?? this.timeoutMs },
      { fetch: this.fetchImpl, sleep: this.sleep },
    );
    let json: unknown;
    try {
      json = text === "" ? {} : JSON.parse(text);
    } catch {
      throw new HindsightError("BACKEND_ERROR", `${method} ${path}: the server answered with something that is not JSON`, { details: { status: 200 } });
    }
    const parsed = parseWireAnswer(schema, json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue ? issue.path.map(String).join(".") : "";
      throw new HindsightError("BACKEND_ERROR", `${method} ${path}: unexpected answer from the server at ${field || "(root)"}: ${issue?.message ?? "invalid"}`, {
        details: { status: 200 },
        ...(field ? { field } : {}),
      });
    }
    return parsed.data;
  }

  /** How many memories match per layer and type, in one request (groups with none are left out). */
  async memoryGroups(q: Pick<ListQuery, "statuses" | "text">): Promise<z.output<typeof GroupsAnswer>["groups"]> {
    const params = this.scoped();
    params.set("status", q.statuses.join(","));
    if (q.text) params.set("text", q.text);
    return (await this.call(GroupsAnswer, "GET", "/memories/groups", { query: params })).groups;
  }

  private listParams(q: ListQuery): URLSearchParams {
    const params = this.scoped();
    if (q.layer) params.set("layer", q.layer);
    if (q.type) params.set("type", q.type);
    params.set("status", q.statuses.join(","));
    if (q.text) params.set("text", q.text);
    params.set("offset", String(q.offset));
    params.set("limit", String(q.limit));
    params.set("include_expired", "true");
    return params;
  }

  /** A page of memories (newest first) and how many match in all; expired ones included. */
  async listMemories(q: ListQuery): Promise<{ memories: Memory[]; total: number }> {
    return this.call(ListAnswer, "GET", "/memories", { query: this.listParams(q) });
  }

  async getMemory(id: string): Promise<Memory> {
    return (await this.call(MemoryAnswer, "GET", `/memories/${encodeURIComponent(id)}`)).memory;
  }

  /** The memory with its source L0 turns and linked memories. */
  async explainMemory(id: string): Promise<MemoryDetail> {
    const params = new URLSearchParams({ include: "turns,links" });
    return this.call(MemoryDetailSchema, "GET", `/memories/${encodeURIComponent(id)}`, { query: params });
  }

  async editMemory(id: string, patch: Record<string, unknown>): Promise<z.output<typeof EditAnswer>> {
    return this.call(EditAnswer, "PATCH", `/memories/${encodeURIComponent(id)}`, { json: patch });
  }

  async pinMemory(id: string, pinned: boolean): Promise<Memory> {
    return (await this.call(MemoryAnswer, "POST", `/memories/${encodeURIComponent(id)}/pin`, { json: { pinned } })).memory;
  }

  async forgetMemory(id: string): Promise<z.output<typeof ForgetAnswer>> {
    return this.call(ForgetAnswer, "DELETE", `/memories/${encodeURIComponent(id)}`);
  }

  async recall(input: { query: string; k: number; sessionId?: string }): Promise<RecallResult> {
    return this.call(RecallResultSchema, "POST", "/recall", { json: { ...input, ...(this.target.scope ? { scope: this.target.scope } : {}) } });
  }

  async conflicts(): Promise<ConflictPair[]> {
    return (await this.call(ConflictsAnswer, "GET", "/conflicts", { query: this.scoped() })).conflicts;
  }

  async resolveConflict(a: string, b: string, keep: "a" | "b" | "both"): Promise<z.output<typeof ResolveAnswer>> {
    return this.call(ResolveAnswer, "POST", "/conflicts/resolve", { json: { a, b, keep } });
  }

  async proposals(statuses: readonly string[]): Promise<Proposal[]> {
    const params = this.scoped();
    params.set("status", statuses.join(","));
    return (await this.call(ProposalsAnswer, "GET", "/proposals", { query: params })).proposals;
  }

  /** Proposals with the memories each summarises, in one request (the review view's diffs). */
  async proposalViews(statuses: readonly string[]): Promise<ProposalView[]> {
    const params = this.scoped();
    params.set("status", statuses.join(","));
    params.set("include", "sources");
    return (await this.call(ProposalViewsAnswer, "GET", "/proposals", { query: params })).proposals;
  }

  async propose(): Promise<Proposal[]> {
    return (await this.call(ProposalsAnswer, "POST", "/proposals", { json: this.target.scope ? { scope: this.target.scope } : {} })).proposals;
  }

  async decideProposal(id: string, decision: "approve" | "reject" | "rollback"): Promise<Proposal> {
    return (await this.call(ProposalAnswer, "POST", `/proposals/${encodeURIComponent(id)}/${decision}`, { json: {} })).proposal;
  }

  async quarantined(): Promise<Quarantined[]> {
    return (await this.call(QuarantineAnswer, "GET", "/quarantine", { query: this.scoped() })).memories;
  }

  async releaseQuarantined(id: string): Promise<Memory> {
    return (await this.call(MemoryAnswer, "POST", `/quarantine/${encodeURIComponent(id)}/release`, { json: {} })).memory;
  }

  async deleteQuarantined(id: string): Promise<z.output<typeof ForgetAnswer>> {
    return this.call(ForgetAnswer, "DELETE", `/quarantine/${encodeURIComponent(id)}`);
  }

  /** Runs a cases file (its JSON text, sent as is) on the server's scratch stores. */
  async runEval(casesJson: string): Promise<EvalReport> {
    return this.call(EvalReportSchema, "POST", "/eval", { text: casesJson, timeoutMs: this.evalTimeoutMs });
  }

  async stats(): Promise<Stats> {
    return this.call(StatsSchema, "GET", "/stats", { query: this.scoped() });
  }

  async audit(limit: number, offset: number): Promise<AuditEntry[]> {
    const params = this.scoped();
    params.set("limit", String(limit));
    params.set("offset", String(offset));
    return (await this.call(AuditAnswer, "GET", "/audit", { query: params })).entries;
  }
}
