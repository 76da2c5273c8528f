import { resolveConfig, type EngineConfig, type EngineConfigInput } from "./config.js";
import { silentLogger, type EngineContext } from "./context.js";
import { HindsightError } from "./errors.js";
import { approveProposal, fileProposal, proposeCompressions, rejectProposal, rollbackProposal, type SummarizeResult } from "./compress/compress.js";
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
import type { CompressionProposal, ProposalStatus } from "./model/proposal.js";
import type { Clock, Embedder, LlmClient, Logger, MemoryStore, ModelInfo, Reranker } from "./ports.js";
import { AccessTracker } from "./recall/access.js";
import { recallMemories } from "./recall/recall.js";
import type { RecallResult } from "./recall/types.js";
import { Serial } from "./serial.js";
import { parseInput } from "./validate.js";
import { ingestTurn, type IngestResult } from "./write/ingest.js";
import { importMemories, writeMemory, type WriteRequest, type WriteResult } from "./write/writer.js";

export interface EngineDeps {
  store: MemoryStore;
  embedder: Embedder;
  clock: Clock;
  logger?: Logger;
  reranker?: Reranker | null;
  llm?: LlmClient | null;
  newId?: () => string;
}

/**
 * The memory engine: the only way to the store for everything above it (MCP, REST, extension,
 * CLI). Construct, `open()`, then write / ingest / recall / forget / list.
 */
export class MemoryEngine {
  readonly config: EngineConfig;
  private ctx: EngineContext | null = null;
  private access: AccessTracker | null = null;
  /** Mutations run one at a time: a dedup or supersede decision reads the store and must see every earlier write. */
  private readonly mutations = new Serial();

  constructor(
    private readonly deps: EngineDeps,
    config: EngineConfigInput = {},
  ) {
    this.config = resolveConfig(config);
  }

  /** Loads the embedding model's identity and opens the store for it (refuses a store of another model). */
  async open(): Promise<void> {
    if (this.ctx) return;
    const model = await this.deps.embedder.info();
    await this.deps.store.open(model);
    this.ctx = {
      store: this.deps.store,
      embedder: this.deps.embedder,
      clock: this.deps.clock,
      logger: this.deps.logger ?? silentLogger,
      config: this.config,
      model,
      reranker: this.deps.reranker ?? null,
      llm: this.deps.llm ?? null,
      newId: this.deps.newId ?? (() => globalThis.crypto.randomUUID()),
      lastMessage: new Map(),
    };
    const logger = this.ctx.logger;
    this.access = new AccessTracker(this.deps.store, (err) => logger.warn("could not record memory access counts", { error: String(err) }));
  }

  private context(): EngineContext {
    if (!this.ctx) throw new HindsightError("STORE_CLOSED", "engine is not open: call open() first");
    return this.ctx;
  }

  private scopeOf(scope: string | undefined): string {
    return scope ?? this.config.defaultScope;
  }

  get model(): ModelInfo {
    return this.context().model;
  }

  /** An explicit memory from an agent or user (the memory_write path). */
  async write(input: WriteInput): Promise<WriteResult> {
    const p = parseInput(WriteInputSchema, input, "write");
    return this.mutations.run(() => writeMemory(this.context(), {
      content: p.content,
      scope: this.scopeOf(p.scope),
      type: p.type,
      subject: p.subject,
      confidence: p.confidence,
      validUntil: p.validUntil,
      layer: p.layer,
      tags: p.tags,
      pinned: p.pinned,
      sessionId: p.sessionId,
      source: p.source ?? "agent",
    }));
  }

  /** Bulk load of trusted, already-distilled memories (import, benchmarks): batched embedding, no dedup against the store. */
  async importMemories(inputs: WriteInput[]): Promise<{ imported: number; refused: number }> {
    const reqs: WriteRequest[] = inputs.map((input, i) => {
      const p = parseInput(WriteInputSchema, input, `import[${i}]`);
      return { ...p, scope: this.scopeOf(p.scope), source: p.source ?? "import" };
    });
    return this.mutations.run(() => importMemories(this.context(), reqs));
  }

  /** A raw dialogue turn: logged to L0, then extraction decides what becomes memory. */
  async ingest(input: IngestInput): Promise<IngestResult> {
    const p = parseInput(IngestInputSchema, input, "ingest");
    return this.mutations.run(() => ingestTurn(this.context(), p, this.scopeOf(p.scope)));
  }

  async recall(input: RecallInput): Promise<RecallResult> {
    const p = parseInput(RecallInputSchema, input, "recall");
    return recallMemories(this.context(), p, this.scopeOf(p.scope), this.access as AccessTracker);
  }

  async forget(input: ForgetInput): Promise<ForgetResult> {
    const p = parseInput(ForgetInputSchema, input, "forget");
    return this.mutations.run(() => forgetMemories(this.context(), p, this.scopeOf(p.scope)));
  }

  /** A summary of what is remembered about a topic or a subject/type in a time window; `propose` files it for review. */
  async summarize(input: SummarizeInput): Promise<SummarizeResult> {
    const p = parseInput(SummarizeInputSchema, input, "summarize");
    const ctx = this.context();
    const scope = this.scopeOf(p.scope);
    const run = async (): Promise<SummarizeResult> => {
      const memories = await selectForSummary(ctx, p, scope, this.access as AccessTracker);
      if (memories.length === 0) return { summary: "", summarizer: "extractive", sourceIds: [], proposal: null };
      if (p.propose) {
        const proposal = await fileProposal(ctx, scope, memories, `requested summary of ${memories.length} memories`);
        return { summary: proposal.summary, summarizer: proposal.summarizer, sourceIds: proposal.sourceIds, proposal };
      }
      const s = await summarise(ctx, memories);
      return { summary: s.text, summarizer: s.summarizer, sourceIds: memories.map((m) => m.id), proposal: null };
    };
    return p.propose ? this.mutations.run(run) : run();
  }

  /** Files proposals for groups past the compression thresholds (scope+subject+type, count and span). */
  async proposeCompressions(scope?: string): Promise<CompressionProposal[]> {
    const s = this.scopeOf(scope === undefined ? undefined : parseInput(ScopeSchema, scope, "scope"));
    return this.mutations.run(() => proposeCompressions(this.context(), s));
  }

  async listProposals(options: { scope?: string; statuses?: ProposalStatus[] } = {}): Promise<CompressionProposal[]> {
    return this.context().store.listProposals({ scope: this.scopeOf(options.scope), ...(options.statuses ? { statuses: options.statuses } : {}) });
  }

  approveProposal(id: string): Promise<CompressionProposal> {
    return this.mutations.run(() => approveProposal(this.context(), id));
  }

  rejectProposal(id: string): Promise<CompressionProposal> {
    return this.mutations.run(() => rejectProposal(this.context(), id));
  }

  rollbackProposal(id: string): Promise<CompressionProposal> {
    return this.mutations.run(() => rollbackProposal(this.context(), id));
  }

  /** Memories of a scope; by default the active ones still valid now (expired ones are kept but not listed). */
  async list(input: ListInput & { includeExpired?: boolean } = {}): Promise<MemoryRecord[]> {
    const p = parseInput(ListInputSchema, input, "list");
    const ctx = this.context();
    const filter = {
      scope: this.scopeOf(p.scope),
      statuses: p.statuses ?? (["active"] as const).slice(),
      ...(p.types ? { types: p.types } : {}),
      ...(p.layers ? { layers: p.layers } : {}),
      ...(input.includeExpired ? {} : { validAt: ctx.clock.now() }),
    };
    const all = await ctx.store.listMemories(filter, { limit: p.limit ?? 1000, offset: p.offset ?? 0 });
    if (!p.text) return all;
    const needle = p.text.toLowerCase();
    return all.filter((m) => m.content.toLowerCase().includes(needle));
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

  async auditLog(options: { scope?: string; limit?: number } = {}): Promise<AuditEntry[]> {
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
  }

  async close(): Promise<void> {
    if (!this.ctx) return;
    await this.mutations.idle();
    await this.flush();
    await this.ctx.store.close();
    this.ctx = null;
  }
}


