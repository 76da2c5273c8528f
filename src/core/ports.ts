import type { AuditEntry, Layer, MemoryRecord, MemoryStatus, MemoryType, TurnRecord } from "./model/memory.js";
import type { CompressionProposal, ProposalStatus } from "./model/proposal.js";
import type { RecallResult } from "./recall/types.js";
import type { RecallReach, ScopeChange } from "./recall/reach.js";

/** The engine's only source of "now" (epoch ms): injected so decay and validity are testable. */
export interface Clock {
  now(): number;
}

/** The key of the lease a task for every scope holds (an import, an edit whose scope is known only inside it). */
export const ALL_SCOPES = "*";

/**
 * The right to decide a scope's writes, exclusive across every process that shares the store (the
 * replicas of a team server). Dedup, supersede and conflict decisions read the scope and then write:
 * two processes deciding at once would both add one sentence, or both supersede one memory.
 * Leases of different scopes are independent; ALL_SCOPES excludes every scope's.
 */
export interface ScopeLeases {
  /**
   * Runs `task` while holding the lease of `key`, and releases it after. `fence` resolves while the
   * lease is still this process's and throws COORDINATION_UNAVAILABLE once it is not: a task awaits
   * it right before it commits, so a process that lost its lease (paused past its time) cannot commit.
   * Throws COORDINATION_UNAVAILABLE without running `task` when the lease cannot be had.
   */
  hold<T>(key: string, task: (fence: () => Promise<void>) => Promise<T>): Promise<T>;
}

/**
 * Recall answers shared by the processes on one store (team replicas). Every mutation of a scope is
 * told, with what it changed when that is known (a write batch's memories); an answer is served
 * again only while no change since it was computed could have reached it (reach.ts), so a cached
 * answer is never older than a change that matters to it; a time limit bounds everything else (time
 * decay, a fact's end of validity).
 */
export interface RecallCache {
  /**
   * The answer kept for `key` in `scope`, with the changes to the scope since it was computed (oldest
   * first; null when they are not all known any more), and the slot an answer computed now is kept in.
   */
  lookup(scope: string, key: string): Promise<{ kept: KeptRecall | null; since: Array<ScopeChange | null> | null; slot: string }>;
  keep(slot: string, answer: KeptRecall): Promise<void>;
  /** `scope` changed (ALL_SCOPES: any scope may have); `change` null: what changed is not known. */
  changed(scope: string, change: ScopeChange | null): Promise<void>;
}

/** A recall answer as the cache keeps it: with what could change it. */
export interface KeptRecall {
  result: RecallResult;
  reach: RecallReach;
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface ModelInfo {
  id: string;
  dimension: number;
}

/** Sentence embeddings: one L2-normalised vector per text, in input order. */
/** A query is embedded differently from a stored passage by models trained that way (E5's "query: " / "passage: "). */
export type EmbedKind = "query" | "passage";

export interface Embedder {
  info(): Promise<ModelInfo>;
  /** kind defaults to "passage": everything stored is a passage, only recall and forget queries are queries. */
  embed(texts: string[], kind?: EmbedKind): Promise<Float32Array[]>;
}

/**
 * Optional stage-2 scorer: one relevance in [0, 1] per document, in input order, or null where it
 * cannot read the pair. A cross-encoder's score replaces the fused relevance; a bi-encoder (a second
 * embedding model) is one more signal, blended in with `recall.secondOpinionWeight`.
 */
export interface Reranker {
  readonly id: string;
  readonly kind: "cross-encoder" | "bi-encoder";
  /** Load the model now (the engine opens it with the main model, so a first recall is not past its time budget). */
  warm?(): Promise<void>;
  score(query: string, documents: string[]): Promise<Array<number | null>>;
  /**
   * Read these documents now, while the process has nothing else to do, so a later score() of them
   * costs only the query: a second embedding model embeds passages ahead of need. Resolves once they
   * are read or given up on (never rejects); callers on a write's path do not wait for it.
   */
  readAhead?(documents: string[]): Promise<void>;
  /** A recall about `query` has begun and will ask score(): a model may start reading the query now, beside the searches. */
  prepare?(query: string): void;
}

export interface LlmRequest {
  system: string;
  user: string;
  /** JSON schema the answer must follow, for clients that support structured output. */
  jsonSchema?: Record<string, unknown>;
  timeoutMs?: number;
}

/** An LLM for extraction and summaries (vscode.lm, an OpenAI-compatible endpoint); may be absent. */
export interface LlmClient {
  readonly id: string;
  complete(request: LlmRequest): Promise<string>;
}

export interface MemoryFilter {
  scope?: string;
  statuses?: MemoryStatus[];
  types?: MemoryType[];
  layers?: Layer[];
  /** Only memories still valid at this time (valid_until absent or later). */
  validAt?: number;
  sessionId?: string;
  /** Only memories created in this span (from inclusive, to exclusive, epoch ms): the temporal retriever's window. */
  createdIn?: { from: number; to: number };
  /**
   * Content or subject holds this text, case-insensitive (a plain substring: no wildcards). Read by
   * listMemories, countMemories and countMemoryGroups, so a filtered page and its total are cut in
   * the store; searches ignore it. Empty: no condition.
   */
  text?: string;
}

export interface TurnFilter {
  scope?: string;
  statuses?: TurnRecord["status"][];
}

export interface MemoryGroupCount {
  layer: Layer;
  type: MemoryType;
  count: number;
}

export interface Hit<T> {
  record: T;
  vector: Float32Array;
  /** Cosine similarity for vector search; the store's full-text score (BM25) for text search. */
  score: number;
}

export interface Page {
  limit?: number;
  offset?: number;
}

/** One hour with recalls in it: its count, hits and latency (durations kept only while it is the current hour). */
export interface RecallHour {
  /** Start of the hour (epoch ms). */
  at: number;
  count: number;
  hits: number;
  p50Ms: number | null;
  p95Ms: number | null;
  durations?: number[];
}

/**
 * The recall statistics of a store's owner (core/ops/recallStats.ts), kept with the store so a
 * restarted owner continues them and every client of it sees the same history. Plain JSON.
 */
export interface RecallStatsRecord {
  /** When counting began (epoch ms). */
  since: number;
  count: number;
  hits: number;
  sumMs: number;
  /** The last recall durations (ms), oldest first: the p50 / p95 "now". */
  recent: number[];
  /** Hours with recalls, oldest first. */
  hours: RecallHour[];
}

/**
 * Persistence for memories (L1-L3), L0 turns, the audit log and the embedding-model guard.
 * Implementations serialise their own writes: concurrent calls never corrupt or drop data.
 */
export interface MemoryStore {
  /** Opens the store for this embedding model; refuses (EMBEDDING_MODEL_MISMATCH) a store written with another. */
  open(model: ModelInfo): Promise<void>;
  /**
   * True once open() found the store cannot be written (a read-only folder or mount): reads work,
   * every write fails with STORE_READ_ONLY, and the engine records no access counts.
   */
  readonly readOnly?: boolean;
  /** A store on a server: whether that server answers now (a team server's /healthz reports it). Absent for a local store. */
  reachable?(): Promise<boolean>;
  /** The model the stored vectors were made with, or null for an empty store. */
  storedModel(): Promise<ModelInfo | null>;
  close(): Promise<void>;

  putMemories(items: Array<{ record: MemoryRecord; vector: Float32Array }>): Promise<void>;
  /**
   * Replaces metadata of existing memories (unknown ids are skipped); their vectors are kept.
   * `vectors` are the current vectors of some of them, by id, when the caller already holds them
   * (a search hit carries its vector): a store that rewrites whole rows then need not read them back.
   */
  updateMemories(records: MemoryRecord[], vectors?: ReadonlyMap<string, Float32Array>): Promise<void>;
  getMemories(ids: string[]): Promise<MemoryRecord[]>;
  /** In `listOrder` (newest created first, then by id), cut to the page by the store. */
  listMemories(filter: MemoryFilter, page?: Page): Promise<MemoryRecord[]>;
  countMemories(filter: MemoryFilter): Promise<number>;
  /** How many memories match, per layer and type (only groups with some): one call for a view that shows every group. */
  countMemoryGroups(filter: MemoryFilter): Promise<MemoryGroupCount[]>;
  searchMemoriesByVector(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>>;
  searchMemoriesByText(query: string, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>>;
  /**
   * Memories that name any of these entity terms (core/text/entities.ts memoryEntities, kept by the
   * store beside the full-text tokens), best first by BM25 over the terms: a rare name shared counts
   * more than the name of the person every memory is about.
   */
  searchMemoriesByEntities(entities: string[], filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>>;
  deleteMemories(ids: string[]): Promise<number>;

  putTurns(items: Array<{ record: TurnRecord; vector: Float32Array }>): Promise<void>;
  updateTurns(records: TurnRecord[]): Promise<void>;
  getTurns(ids: string[]): Promise<TurnRecord[]>;
  listTurns(filter: TurnFilter, page?: Page): Promise<TurnRecord[]>;
  searchTurnsByVector(vector: Float32Array, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>>;
  searchTurnsByText(query: string, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>>;
  deleteTurns(ids: string[]): Promise<number>;

  /** Review queue of compression proposals (insert or replace by id). */
  putProposal(proposal: CompressionProposal): Promise<void>;
  getProposal(id: string): Promise<CompressionProposal | null>;
  /** Newest first. */
  listProposals(filter: { scope?: string; statuses?: ProposalStatus[] }): Promise<CompressionProposal[]>;

  /** Appends the entries in order, in one write (a batch of decisions logs once). */
  appendAudit(...entries: AuditEntry[]): Promise<void>;
  listAudit(page?: Page & { scope?: string }): Promise<AuditEntry[]>;

  /** The recall statistics kept with the store (all scopes), or null before any were written. */
  getRecallStats(): Promise<RecallStatsRecord | null>;
  /** Replaces them (one small document; a model change by reembed keeps them). */
  putRecallStats(stats: RecallStatsRecord): Promise<void>;

  /**
   * Re-embeds every memory and turn with another model and records it as the store's model.
   * `embed` receives the texts to embed (memory content, turn text) in batches.
   */
  reembed(model: ModelInfo, embed: (texts: string[]) => Promise<Float32Array[]>): Promise<{ memories: number; turns: number }>;
  /** Size on disk in bytes (0 for stores that are not on disk). */
  diskBytes(): Promise<number>;
}
