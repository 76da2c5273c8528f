import { z } from "zod";
import { resolveConfig, type EngineConfig, type EngineConfigInput } from "./config.js";
import { silentLogger, thresholdsOf, type EngineContext } from "./context.js";
import { warmChatter } from "./write/chatter.js";
import { HindsightError } from "./errors.js";
import { releaseTaskLifetimes } from "./ops/taskLifetimes.js";
import { approveProposal, fileProposal, finishInterruptedCompressions, proposeCompressions, rejectProposal, rollbackProposal, type SummarizeResult } from "./compress/compress.js";
import { selectForSummary } from "./compress/select.js";
import { summarise } from "./compress/summarize.js";
import { forgetMemories, type ForgetResult } from "./forget/forget.js";
import {
  ForgetInputSchema,
  IngestInputSchema,
  ListInputSchema,
  RecallInputSchema,
  SummarizeInputSchema,
  WriteInputSchema,
  type ForgetInput,
  type IngestInput,
  type ListInput,
  type RecallInput,
  type SummarizeInput,
  type WriteInput,
} from "./model/inputs.js";
import { ScopeSchema, type AuditEntry, type MemoryRecord } from "./model/memory.js";
import { listConflicts, type ConflictPair } from "./ops/conflicts.js";
import { resolveConflict, type ConflictKeep, type ResolveConflictResult } from "./ops/resolveConflict.js";
import { editMemory, parseEditPatch, pinMemory, type EditPatch, type EditResult } from "./ops/edit.js";
import { exportJsonl, importJsonl, type ImportProgress, type ImportResult } from "./ops/jsonl.js";
import { resolveIds, type IdKind } from "./ops/shortIds.js";
import { deleteQuarantined, listQuarantined, releaseQuarantined, type ReleaseResult } from "./ops/quarantine.js";
import { scopeStats, type EngineStats } from "./ops/stats.js";
import { RecallStats } from "./ops/recallStats.js";
import type { CompressionProposal, ProposalStatus } from "./model/proposal.js";
import { VectorCache } from "./model/vectorCache.js";
import type { Clock, Embedder, LlmClient, Logger, MemoryFilter, MemoryGroupCount, MemoryStore, ModelInfo, RecallCache, Reranker, ScopeLeases } from "./ports.js";
import { noCacheCounts, recallKey, throughCache, type RecallCacheCounts } from "./recall/cached.js";
import type { RecallReach, ScopeChange } from "./recall/reach.js";
import { AccessTracker } from "./recall/access.js";
import { foundByWords, recallMemories } from "./recall/recall.js";
import type { RecallResult } from "./recall/types.js";
import type { CallOptions, MemoryApi, MemoryExplanation, MemoryLink, ProposalWithSources } from "./memoryApi.js";
import { readAhead, readAheadStore } from "./recall/readAhead.js";
import { FencedStore } from "./fencedStore.js";
import { ScopeQueue } from "./scopeQueue.js";
import { parseInput } from "./validate.js";

const IdSchema = z.string().min(1, "must not be empty").max(200);
import { commitTurn, prepareTurn, type IngestResult } from "./write/ingest.js";
import { RecentMessages } from "./write/recentMessages.js";
import type { StagedWrites } from "./write/stagedWrites.js";
import { commitWrite, importMemories, prepareWrite, type WriteRequest, type WriteResult } from "./write/writer.js";

export interface EngineDeps {
  store: MemoryStore;
  embedder: Embedder;
  clock: Clock;
  logger?: Logger;
  reranker?: Reranker | null;
  llm?: LlmClient | null;
  newId?: () => string;
  /** A monotonic millisecond timer for recall latency (performance.now in hosts); defaults to the clock. */
  timer?: () => number;
  /** Leases shared with the other processes on this store (team replicas); absent, this process alone decides. */
  leases?: ScopeLeases | null;
  /** Recall answers shared with the other processes on this store until their scope changes (team replicas). */
  recallCache?: RecallCache | null;
}

export type { CallOptions, MemoryApi, MemoryExplanation, MemoryLink, ProposalWithSources } from "./memoryApi.js";

/**
 * The memory engine: the only way to the store for everything above it (MCP, REST, extension,
 * CLI). Construct, `open()`, then write / ingest / recall / forget / list.
 */
export class MemoryEngine implements MemoryApi {
  private readonly deps: EngineDeps;
  /** Shared with every view of this engine (reconfigure() reaches them all). */
  private readonly state: { ctx: EngineContext | null; access: AccessTracker | null; recallStats: RecallStats | null; config: EngineConfig; llm: LlmClient | null; cacheCounts: RecallCacheCounts };
  /** The audit actor of this view (undefined: the configured actor). */
  private readonly viewActor: string | undefined;
  /** The scope this view's calls use when they name none (undefined: the configured default). */
  private readonly viewScope: string | undefined;
  /**
   * Decide-and-commit steps run one at a time per scope: a dedup or supersede decision reads the
   * scope's memories and must see every earlier write of that scope. Other scopes go on meanwhile.
   * Shared with every view, so a view's writes queue with the engine's.
   */
  private readonly mutations: ScopeQueue;

  /**
   * `view`: this is a view of `view.engine` — it shares that engine's dependencies, open store, state
   * and write queue (`deps` and `config` are then not used) and differs only in the actor it audits
   * as and the scope it defaults to. actingAs() and withDefaultScope() make views.
   */
  constructor(deps: EngineDeps, config: EngineConfigInput = {}, view?: { engine: MemoryEngine; actor: string | undefined; scope: string | undefined }) {
    if (view) {
      this.deps = view.engine.deps;
      this.state = view.engine.state;
      this.mutations = view.engine.mutations;
      this.viewActor = view.actor;
      this.viewScope = view.scope;
      return;
    }
    this.deps = deps;
    this.state = { ctx: null, access: null, recallStats: null, config: resolveConfig(config), llm: deps.llm ?? null, cacheCounts: noCacheCounts() };
    const cache = deps.recallCache ?? null;
    const logger = deps.logger;
    const changed = (scope: string, change: ScopeChange | null): Promise<void> => {
      // Not waited for: the caller hears back as soon as the cache knows.
      if (this.state.ctx) void readAhead(this.state.ctx, scope);
      if (!cache) return Promise.resolve();
      return cache.changed(scope, change).catch((err: unknown) => logger?.warn("could not tell the recall cache of a change; its answers for this scope may be stale until they expire", { scope, error: String(err) }));
    };
    this.mutations = new ScopeQueue(deps.leases ?? null, changed);
    this.viewActor = undefined;
    this.viewScope = undefined;
  }

  get config(): EngineConfig {
    return this.viewScope === undefined ? this.state.config : { ...this.state.config, defaultScope: this.viewScope };
  }

  /**
   * Replaces the configuration while the engine runs (settings changed in an editor): the input is
   * validated like the constructor's, and the next call of every view sees it; calls in flight keep the old one.
   */
  reconfigure(config: EngineConfigInput): EngineConfig {
    const next = resolveConfig(config);
    this.state.config = next;
    if (this.state.ctx) this.state.ctx = { ...this.state.ctx, config: next };
    return next;
  }

  /** Swaps the LLM used for extraction, conflict checks and summaries (null: the offline rules). */
  setLlm(llm: LlmClient | null): void {
    this.state.llm = llm;
    if (this.state.ctx) this.state.ctx = { ...this.state.ctx, llm };
  }


  /** Loads the embedding model's identity and opens the store for it (refuses a store of another model). */
  async open(): Promise<void> {
    if (this.state.ctx) return;
    const model = await this.deps.embedder.info();
    await this.deps.store.open(model);
    const reranker = await warmReranker(this.deps.reranker ?? null, this.deps.logger ?? silentLogger);
    this.state.ctx = {
      store: this.deps.store,
      embedder: this.deps.embedder,
      clock: this.deps.clock,
      logger: this.deps.logger ?? silentLogger,
      config: this.state.config,
      model,
      reranker,
      llm: this.state.llm,
      newId: this.deps.newId ?? (() => globalThis.crypto.randomUUID()),
      recentMessages: new RecentMessages(),
      symmetric: new VectorCache(this.deps.embedder, "query"),
    };
    const logger = this.state.ctx.logger;
    if (this.state.config.write.chatterByModel && thresholdsOf(this.state.ctx).chatterLean !== undefined) warmChatter(this.deps.embedder, model.id);
    const finished = await finishInterruptedCompressions(this.state.ctx);
    if (finished > 0) logger.warn("finished compression decisions a crash had interrupted", { count: finished });
    // Only how listings show old task states depends on it: a store that refuses the write still opens.
    const released = await releaseTaskLifetimes(this.state.ctx).catch((err: unknown) => {
      logger.warn("could not list older task states as their tasks' last known state", { error: String(err) });
      return 0;
    });
    if (released > 0) logger.info("task states keep their place in listings past their week in working memory", { count: released });
    // In turn with every scope's writes, taking no lease and telling no cache: counts only reorder what recall finds.
    this.state.access = new AccessTracker(this.deps.store, (err) => logger.warn("could not record memory access counts", { error: String(err) }), {
      inTurn: (task) => this.mutations.run("all", () => task(), false),
    });
    const recallStats = new RecallStats(this.deps.store, (err) => logger.warn("could not keep the recall statistics", { error: String(err) }), this.deps.clock.now());
    await recallStats.load();
    this.state.recallStats = recallStats;
  }

  private context(options: CallOptions = {}): EngineContext {
    const ctx = this.state.ctx;
    if (!ctx) throw new HindsightError("STORE_CLOSED", "engine is not open: call open() first");
    const actor = options.actor ?? this.viewActor;
    if (actor === undefined) return ctx;
    return { ...ctx, config: { ...ctx.config, actor } };
  }

  /** The context of a task under its lease: its writes go through the lease's fence (fencedStore.ts). */
  private fenced(options: CallOptions, fence: () => Promise<void>): EngineContext {
    const ctx = this.context(options);
    return { ...ctx, store: new FencedStore(ctx.store, fence) };
  }

  private get access(): AccessTracker | null {
    return this.state.access;
  }

  /**
   * A view of this engine whose mutations are audited as `actor` (e.g. a token id); it shares the
   * store, the mutation queue and every other state with this engine. Closing a view closes the engine.
   */
  /**
   * Has the second opinion read the store's newest memories (up to 20,000) ahead of recall, so a
   * recall embeds only its query. Long-running owners start it after open and do not wait; it works
   * only while no recall runs. Writes read their own memories ahead by themselves.
   */
  async readAhead(): Promise<void> {
    await readAheadStore(this.context({}));
  }

  actingAs(actor: string): MemoryEngine {
    return new MemoryEngine(this.deps, {}, { engine: this, actor, scope: this.viewScope });
  }

  /**
   * A view of this engine whose calls without a scope use `scope` (a client of the store's owner
   * working in another project than the owner was started in); everything else is shared.
   */
  withDefaultScope(scope: string): MemoryEngine {
    const checked = parseInput(ScopeSchema, scope, "scope");
    return new MemoryEngine(this.deps, {}, { engine: this, actor: this.viewActor, scope: checked });
  }

  /** The audit line follows the change it records: a failed one (a full disk) is logged, never the change's failure. */
  private auditFailed(ctx: EngineContext): (err: unknown) => void {
    return (err) => ctx.logger.warn("could not append to the audit log after a stored change", { error: String(err) });
  }

  private scopeOf(scope: string | undefined): string {
    return scope ?? this.config.defaultScope;
  }

  get model(): ModelInfo {
    return this.context().model;
  }

  /**
   * An explicit memory from an agent or user (the memory_write path). `replaces` names active
   * memories of the same scope it replaces (INVALID_INPUT on `replaces` otherwise, nothing written).
   */
  async write(input: WriteInput, options: CallOptions = {}): Promise<WriteResult> {
    const p = parseInput(WriteInputSchema, input, "write");
    const ctx = this.context(options);
    const scope = this.scopeOf(p.scope);
    const preparing = prepareWrite(ctx, {
      content: p.content,
      scope,
      type: p.type,
      subject: p.subject,
      confidence: p.confidence,
      validUntil: p.validUntil,
      layer: p.layer,
      tags: p.tags,
      pinned: p.pinned,
      sessionId: p.sessionId,
      source: p.source ?? "agent",
      replaces: p.replaces,
    }).then((prepared) => (batch: StagedWrites) => commitWrite({ ...ctx, store: batch }, prepared));
    return this.mutations.inBatches(scope, preparing, ctx.store, this.auditFailed(ctx));
  }

  /** Bulk load of trusted, already-distilled memories (import, benchmarks): batched embedding, no dedup against the store. */
  async importMemories(inputs: WriteInput[], options: CallOptions = {}): Promise<{ imported: number; refused: number }> {
    const reqs: WriteRequest[] = inputs.map((input, i) => {
      const p = parseInput(WriteInputSchema, input, `import[${i}]`);
      return { ...p, scope: this.scopeOf(p.scope), source: p.source ?? "import" };
    });
    return this.mutations.run("all", (fence) => importMemories(this.fenced(options, fence), reqs));
  }

  /** A raw dialogue turn: logged to L0, then extraction decides what becomes memory. */
  async ingest(input: IngestInput, options: CallOptions = {}): Promise<IngestResult> {
    const p = parseInput(IngestInputSchema, input, "ingest");
    const ctx = this.context(options);
    const scope = this.scopeOf(p.scope);
    const preparing = prepareTurn(ctx, p, scope).then((prepared) => (batch: StagedWrites) => commitTurn({ ...ctx, store: batch }, prepared));
    return this.mutations.inBatches(scope, preparing, ctx.store, this.auditFailed(ctx));
  }

  async recall(input: RecallInput): Promise<RecallResult> {
    const p = parseInput(RecallInputSchema, input, "recall");
    const timer = this.deps.timer ?? (() => this.deps.clock.now());
    const started = timer();
    const ctx = this.context();
    const scope = this.scopeOf(p.scope);
    const access = this.access as AccessTracker;
    const compute = (onReach?: (reach: RecallReach) => void) => recallMemories(ctx, p, scope, access, onReach);
    const cache = this.deps.recallCache;
    const key = cache ? recallKey(p, ctx.model.id, ctx.config) : null;
    let result: RecallResult;
    if (cache && key !== null) {
      const answered = await throughCache(cache, scope, key, compute, this.state.cacheCounts, timer, ctx.logger, () => foundByWords(ctx, p, scope));
      result = answered.result;
      // A cached answer was still read by its asker: its memories count as recalled, as a computed one's do.
      if (answered.cached && !result.usedFallback && result.memories.length > 0) access.touch(result.memories.map((m) => m.id), this.deps.clock.now());
    } else {
      result = await compute();
    }
    this.state.recallStats?.record(timer() - started, result.memories.length > 0, this.deps.clock.now());
    return result;
  }

  async forget(input: ForgetInput, options: CallOptions = {}): Promise<ForgetResult> {
    const p = parseInput(ForgetInputSchema, input, "forget");
    // Ids without a scope may name memories of any scope.
    const key = p.ids !== undefined && p.scope === undefined ? "all" : { scope: this.scopeOf(p.scope) };
    return this.mutations.run(key, (fence) => forgetMemories(this.fenced(options, fence), p, this.scopeOf(p.scope)));
  }

  /** A summary of what is remembered about a topic or a subject/type in a time window; `propose` files it for review. */
  async summarize(input: SummarizeInput, options: CallOptions = {}): Promise<SummarizeResult> {
    const p = parseInput(SummarizeInputSchema, input, "summarize");
    const scope = this.scopeOf(p.scope);
    const run = async (ctx: EngineContext): Promise<SummarizeResult> => {
      const memories = await selectForSummary(ctx, p, scope, this.access as AccessTracker);
      if (memories.length === 0) return { summary: "", summarizer: "extractive", sourceIds: [], proposal: null };
      if (p.propose) {
        const proposal = await fileProposal(ctx, scope, memories, `requested summary of ${memories.length} memories`);
        return { summary: proposal.summary, summarizer: proposal.summarizer, sourceIds: proposal.sourceIds, proposal };
      }
      const s = await summarise(ctx, memories);
      return { summary: s.text, summarizer: s.summarizer, sourceIds: memories.map((m) => m.id), proposal: null };
    };
    return p.propose ? this.mutations.run({ scope }, (fence) => run(this.fenced(options, fence))) : run(this.context(options));
  }

  /** Files proposals for groups past the compression thresholds (scope+subject+type, count and span). */
  async proposeCompressions(scope?: string, options: CallOptions = {}): Promise<CompressionProposal[]> {
    const s = this.scopeOf(scope === undefined ? undefined : parseInput(ScopeSchema, scope, "scope"));
    return this.mutations.run({ scope: s }, (fence) => proposeCompressions(this.fenced(options, fence), s));
  }

  async listProposals(options: { scope?: string; statuses?: ProposalStatus[] } = {}): Promise<CompressionProposal[]> {
    return this.context().store.listProposals({ scope: this.scopeOf(options.scope), ...(options.statuses ? { statuses: options.statuses } : {}) });
  }

  /** The review queue with every proposal's sources read in one store call (not one request per source memory). */
  async listProposalsWithSources(options: { scope?: string; statuses?: ProposalStatus[] } = {}): Promise<ProposalWithSources[]> {
    const proposals = await this.listProposals(options);
    const ids = [...new Set(proposals.flatMap((p) => p.sourceIds))];
    const found = ids.length > 0 ? await this.context().store.getMemories(ids) : [];
    const byId = new Map(found.map((m) => [m.id, m]));
    // A proposal's ids are data (an import may name anything): only memories of its own scope are shown.
    return proposals.map((proposal) => ({
      proposal,
      sources: proposal.sourceIds.flatMap((id) => {
        const m = byId.get(id);
        return m?.scope === proposal.scope ? [m] : [];
      }),
    }));
  }

  approveProposal(id: string, options: CallOptions = {}): Promise<CompressionProposal> {
    return this.mutations.run("all", (fence) => approveProposal(this.fenced(options, fence), id));
  }

  rejectProposal(id: string, options: CallOptions = {}): Promise<CompressionProposal> {
    return this.mutations.run("all", (fence) => rejectProposal(this.fenced(options, fence), id));
  }

  rollbackProposal(id: string, options: CallOptions = {}): Promise<CompressionProposal> {
    return this.mutations.run("all", (fence) => rollbackProposal(this.fenced(options, fence), id));
  }

  /**
   * Changes content, type, confidence, validUntil or pinned of a memory. Unknown or bad fields are
   * INVALID_INPUT naming the field; new content is guarded again (a secret is GUARD_REFUSED and
   * nothing changes, an injection is quarantined) and re-embedded.
   */
  async edit(id: string, patch: EditPatch, options: CallOptions = {}): Promise<EditResult> {
    const memoryId = parseInput(IdSchema, id, "id");
    const p = parseEditPatch(patch);
    return this.mutations.run("all", (fence) => editMemory(this.fenced(options, fence), memoryId, p));
  }

  async pin(id: string, pinned: boolean, options: CallOptions = {}): Promise<MemoryRecord> {
    const memoryId = parseInput(IdSchema, id, "id");
    const value = parseInput(z.boolean(), pinned, "pinned");
    return this.mutations.run("all", (fence) => pinMemory(this.fenced(options, fence), memoryId, value));
  }

  /** Unresolved contradictions of a scope: pairs of active memories linked by conflictsWith. */
  async conflicts(scope?: string): Promise<ConflictPair[]> {
    return listConflicts(this.context(), this.scopeOf(scope === undefined ? undefined : parseInput(ScopeSchema, scope, "scope")));
  }

  /** Settles a reported conflict: keep side a, side b (the other is superseded), or both (unlinked). */
  async resolveConflict(a: string, b: string, keep: ConflictKeep, options: CallOptions = {}): Promise<ResolveConflictResult> {
    const aId = parseInput(IdSchema, a, "a");
    const bId = parseInput(IdSchema, b, "b");
    const k = parseInput(z.enum(["a", "b", "both"]), keep, "keep");
    return this.mutations.run("all", (fence) => resolveConflict(this.fenced(options, fence), aId, bId, k));
  }

  /** Counts per layer, type and status of a scope, and the store's recall count, latency (p50 / p95), hit rate and hourly history. */
  async stats(scope?: string): Promise<EngineStats> {
    const ctx = this.context();
    const stats = await scopeStats(ctx, this.scopeOf(scope === undefined ? undefined : parseInput(ScopeSchema, scope, "scope")), this.state.recallStats as RecallStats);
    if (!this.deps.recallCache) return stats;
    const c = this.state.cacheCounts;
    const asked = c.hits + c.misses;
    return { ...stats, recallCache: { hits: c.hits, misses: c.misses, hitRate: asked > 0 ? Math.round((c.hits / asked) * 10_000) / 10_000 : null, savedMs: Math.round(c.savedMs) } };
  }

  /** Every memory (all fields, no vectors) and L0 turn of a scope as JSONL (see ops/jsonl.ts). */
  async exportJsonl(scope?: string): Promise<string> {
    const ctx = this.context();
    const s = this.scopeOf(scope === undefined ? undefined : parseInput(ScopeSchema, scope, "scope"));
    return this.mutations.run({ scope: s }, () => exportJsonl(ctx, s), false);
  }

  /**
   * Loads JSONL written by exportJsonl: keeps ids (records moved into another `scope` are copies with
   * new ids, their links following), skips existing ones, re-embeds every record with
   * this engine's model (embeddingModel becomes the store's); bad lines are reported by line number.
   * `onProgress(done, total)` is called after every 100 records written (and once at the end).
   */
  async importJsonl(text: string, scope?: string, options: CallOptions & { onProgress?: ImportProgress } = {}): Promise<ImportResult> {
    const body = parseInput(z.string(), text, "jsonl");
    const s = scope === undefined ? undefined : parseInput(ScopeSchema, scope, "scope");
    return this.mutations.run("all", async (fence) => {
      const ctx = this.fenced(options, fence);
      const result = await importJsonl(ctx, body, s, options.onProgress);
      // An export written before task state stopped storing its week as valid_until lists like the rest.
      await releaseTaskLifetimes(ctx);
      return result;
    });
  }

  /** Quarantined memories of a scope (newest first), each with its reason in statusReason. */
  async listQuarantined(scope?: string): Promise<MemoryRecord[]> {
    return listQuarantined(this.context(), this.scopeOf(scope === undefined ? undefined : parseInput(ScopeSchema, scope, "scope")));
  }

  /**
   * Releases a quarantined memory: a person decided, so it becomes active and recallable,
   * statusReason says "released by <actor>", and `guard` is the guard's verdict now (shown, not
   * obeyed). A secret in it is GUARD_REFUSED. Not quarantined: INVALID_INPUT (id); unknown: NOT_FOUND.
   */
  async releaseQuarantined(id: string, options: CallOptions = {}): Promise<ReleaseResult> {
    const memoryId = parseInput(IdSchema, id, "id");
    return this.mutations.run("all", (fence) => releaseQuarantined(this.fenced(options, fence), memoryId));
  }

  /** Deletes a quarantined memory and deletes or redacts its L0 turns (as forget does). Not quarantined: INVALID_INPUT (id); unknown: NOT_FOUND. */
  async deleteQuarantined(id: string, options: CallOptions = {}): Promise<ForgetResult> {
    const memoryId = parseInput(IdSchema, id, "id");
    return this.mutations.run("all", (fence) => deleteQuarantined(this.fenced(options, fence), memoryId));
  }

  /** The embedder this engine uses, for running eval cases on scratch stores with the same model (never this engine's store). */
  embedderForEval(): Embedder {
    return this.deps.embedder;
  }

  /**
   * Memories of a scope, newest first; by default the active ones still valid now (expired ones are
   * kept but not listed). `text` matches content or subject (case-insensitive) before the page is cut.
   */
  async list(input: ListInput = {}): Promise<MemoryRecord[]> {
    return (await this.listMatching(input, false)).memories;
  }

  /** A page of list() and how many memories match in all (paging UIs: the sidebar). The store filters (`text` included), orders and cuts the page. */
  async listPage(input: ListInput = {}): Promise<{ memories: MemoryRecord[]; total: number }> {
    return this.listMatching(input, true);
  }

  /** How many memories match `input` (paging ignored) per layer and type, in one call: the sidebar's group view. */
  async memoryGroups(input: ListInput = {}): Promise<MemoryGroupCount[]> {
    const p = parseInput(ListInputSchema, input, "list");
    const ctx = this.context();
    return ctx.store.countMemoryGroups(this.listFilter(p, ctx));
  }

  private listFilter(p: z.output<typeof ListInputSchema>, ctx: EngineContext): MemoryFilter {
    return {
      scope: this.scopeOf(p.scope),
      statuses: p.statuses ?? (["active"] as const).slice(),
      ...(p.types ? { types: p.types } : {}),
      ...(p.layers ? { layers: p.layers } : {}),
      ...(p.includeExpired ? {} : { validAt: ctx.clock.now() }),
      ...(p.text ? { text: p.text } : {}),
    };
  }

  private async listMatching(input: ListInput, withTotal: boolean): Promise<{ memories: MemoryRecord[]; total: number }> {
    const p = parseInput(ListInputSchema, input, "list");
    const ctx = this.context();
    const filter = this.listFilter(p, ctx);
    const page = { limit: p.limit ?? 1000, offset: p.offset ?? 0 };
    const [memories, total] = await Promise.all([ctx.store.listMemories(filter, page), withTotal ? ctx.store.countMemories(filter) : Promise.resolve(-1)]);
    return { memories, total };
  }

  /**
   * Full ids for ids or id prefixes (e.g. the 8 characters the CLI shows) of a scope's memories, any
   * status, or of its proposals (`kind`). No match is NOT_FOUND, several are INVALID_INPUT; both name `field`.
   */
  async resolveIds(inputs: string[], options: { scope?: string; kind?: IdKind; field?: string } = {}): Promise<string[]> {
    const ids = parseInput(z.array(IdSchema).max(1000), inputs, options.field ?? "ids");
    const kind = parseInput(z.enum(["memory", "proposal"]).default("memory"), options.kind, "kind");
    const scope = this.scopeOf(options.scope === undefined ? undefined : parseInput(ScopeSchema, options.scope, "scope"));
    return resolveIds(this.context(), ids, { field: options.field ?? "id", kind, scope });
  }

  async count(scope?: string): Promise<number> {
    const ctx = this.context();
    return ctx.store.countMemories({ scope: this.scopeOf(scope), statuses: ["active"], validAt: ctx.clock.now() });
  }

  async get(id: string): Promise<MemoryRecord> {
    const [m] = await this.context().store.getMemories([id]);
    if (!m) throw new HindsightError("NOT_FOUND", `no memory with id ${id}`, { field: "id" });
    return m;
  }

  /**
   * What explains a memory: the L0 turns it came from (those still kept, oldest first) and the
   * memories its supersede, compression and conflict links point to (those still stored).
   */
  async explain(id: string): Promise<MemoryExplanation> {
    const memory = await this.get(parseInput(IdSchema, id, "id"));
    const ctx = this.context();
    const wanted: Array<{ relation: MemoryLink["relation"]; id: string }> = [
      ...memory.supersedes.map((x) => ({ relation: "supersedes" as const, id: x })),
      ...(memory.supersededBy ? [{ relation: "superseded_by" as const, id: memory.supersededBy }] : []),
      ...(memory.compressedInto ? [{ relation: "compressed_into" as const, id: memory.compressedInto }] : []),
      ...memory.conflictsWith.map((x) => ({ relation: "conflicts_with" as const, id: x })),
    ];
    // A summary memory does not link back to its originals; the approved proposal that made it does.
    const made = (await ctx.store.listProposals({ scope: memory.scope, statuses: ["approved"] })).find((p) => p.summaryId === memory.id);
    for (const source of made?.sourceIds ?? []) wanted.push({ relation: "compressed_from", id: source });
    const ids = [...new Set(wanted.map((w) => w.id).filter((x) => x !== memory.id))];
    const [turns, linked] = await Promise.all([
      memory.sourceTurns.length > 0 ? ctx.store.getTurns(memory.sourceTurns) : Promise.resolve([]),
      ids.length > 0 ? ctx.store.getMemories(ids) : Promise.resolve([]),
    ]);
    // Links and source turns are data (an import may name anything): only the memory's own scope is shown.
    const byId = new Map(linked.filter((m) => m.scope === memory.scope).map((m) => [m.id, m]));
    const links = wanted.flatMap((w) => {
      const m = byId.get(w.id);
      return m ? [{ relation: w.relation, memory: m }] : [];
    });
    const own = turns.filter((t) => t.scope === memory.scope);
    return { memory, turns: own.sort((a, b) => a.at - b.at), links };
  }

  async auditLog(options: { scope?: string; limit?: number; offset?: number } = {}): Promise<AuditEntry[]> {
    if (options.scope !== undefined) parseInput(ScopeSchema, options.scope, "scope");
    return this.context().store.listAudit(options);
  }

  /**
   * Rewrites every vector with this engine's embedder and records it as the store's model: the way
   * out of EMBEDDING_MODEL_MISMATCH. Call on an engine whose store was opened with `reembedStore`.
   */
  static async reembedStore(store: MemoryStore, embedder: Embedder, clock: Clock): Promise<{ memories: number; turns: number }> {
    const model = await embedder.info();
    const counts = await store.reembed(model, (texts) => embedder.embed(texts));
    await store.open(model);
    await store.appendAudit({
      id: globalThis.crypto.randomUUID(),
      at: clock.now(),
      actor: "engine",
      operation: "reembed",
      scope: null,
      memoryIds: [],
      turnIds: [],
      detail: `re-embedded ${counts.memories} memories and ${counts.turns} turns with ${model.id}`,
    });
    return counts;
  }

  async flush(): Promise<void> {
    await this.access?.flush();
    await this.state.recallStats?.flush();
  }

  async close(): Promise<void> {
    const ctx = this.state.ctx;
    if (!ctx) return;
    await this.mutations.idle();
    // Access counts only order recall and statistics only report: a full or read-only disk must not keep the store from closing.
    await this.access?.flush().catch((err: unknown) => ctx.logger.warn("could not record memory access counts", { error: String(err) }));
    await this.state.recallStats?.flush().catch((err: unknown) => ctx.logger.warn("could not keep the recall statistics", { error: String(err) }));
    await ctx.store.close();
    this.state.ctx = null;
    this.state.access = null;
    this.state.recallStats = null;
  }
}

/** Stage 2 is an extra: a model that will not load leaves recall on fused relevance, it does not keep the store closed. */
async function warmReranker(reranker: Reranker | null, logger: Logger): Promise<Reranker | null> {
  try {
    await reranker?.warm?.();
    return reranker;
  } catch (err) {
    logger.warn("the reranker could not be loaded; recall uses fused relevance", { reranker: reranker?.id, error: String(err) });
    return null;
  }
}
