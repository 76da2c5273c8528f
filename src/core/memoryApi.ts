import type { EngineConfig } from "./config.js";
import type { SummarizeResult } from "./compress/compress.js";
import type { ForgetResult } from "./forget/forget.js";
import type { ForgetInput, IngestInput, ListInput, RecallInput, SummarizeInput, WriteInput } from "./model/inputs.js";
import type { AuditEntry, MemoryRecord, TurnRecord } from "./model/memory.js";
import type { CompressionProposal, ProposalStatus } from "./model/proposal.js";
import type { ConflictPair } from "./ops/conflicts.js";
import type { EditPatch, EditResult } from "./ops/edit.js";
import type { ImportProgress, ImportResult } from "./ops/jsonl.js";
import type { ReleaseResult } from "./ops/quarantine.js";
import type { ConflictKeep, ResolveConflictResult } from "./ops/resolveConflict.js";
import type { IdKind } from "./ops/shortIds.js";
import type { EngineStats } from "./ops/stats.js";
import type { Embedder, MemoryGroupCount } from "./ports.js";
import type { RecallResult } from "./recall/types.js";
import type { IngestResult } from "./write/ingest.js";
import type { WriteResult } from "./write/writer.js";

/** A memory another one points to, and how (see MemoryApi.explain). */
export interface MemoryLink {
  relation: "supersedes" | "superseded_by" | "compressed_into" | "compressed_from" | "conflicts_with";
  memory: MemoryRecord;
}

/** A compression proposal with the memories it would compress, as the review view shows it. */
export interface ProposalWithSources {
  proposal: CompressionProposal;
  sources: MemoryRecord[];
}

export interface MemoryExplanation {
  memory: MemoryRecord;
  turns: TurnRecord[];
  links: MemoryLink[];
}

/** Per-call options of mutating operations. */
export interface CallOptions {
  /** Who asks (e.g. "token:1a2b3c4d5e6f"), recorded in the audit log instead of the configured actor. */
  actor?: string;
}

/**
 * What MCP tools, REST routes and the eval endpoint may do with the memory: the engine's public
 * surface as a type. The engine implements it; a team token gets a ScopedMemoryApi (src/http/access)
 * that implements it too, with each method's permission and project checks written out, so a method
 * added here does not compile until the scoped view decides what it needs.
 */
export interface MemoryApi {
  /** The configuration as this view sees it: `defaultScope` is the scope of calls that name none. */
  readonly config: EngineConfig;

  /** The same memory, with mutations audited as `actor` (e.g. a token id). */
  actingAs(actor: string): MemoryApi;
  /** The same memory, with `scope` as the scope of calls that name none (INVALID_INPUT for a malformed scope). */
  withDefaultScope(scope: string): MemoryApi;

  // ---- read ----
  recall(input: RecallInput): Promise<RecallResult>;
  list(input?: ListInput): Promise<MemoryRecord[]>;
  listPage(input?: ListInput): Promise<{ memories: MemoryRecord[]; total: number }>;
  count(scope?: string): Promise<number>;
  /** Counts per layer and type of what `input` matches (paging ignored): one call for the group view. */
  memoryGroups(input?: ListInput): Promise<MemoryGroupCount[]>;
  get(id: string): Promise<MemoryRecord>;
  explain(id: string): Promise<MemoryExplanation>;
  conflicts(scope?: string): Promise<ConflictPair[]>;
  stats(scope?: string): Promise<EngineStats>;
  exportJsonl(scope?: string): Promise<string>;
  listProposals(options?: { scope?: string; statuses?: ProposalStatus[] }): Promise<CompressionProposal[]>;
  /** listProposals with each proposal's source memories (those still stored, in its order): the review view in one call. */
  listProposalsWithSources(options?: { scope?: string; statuses?: ProposalStatus[] }): Promise<ProposalWithSources[]>;
  resolveIds(inputs: string[], options?: { scope?: string; kind?: IdKind; field?: string }): Promise<string[]>;
  /** Reads; with `propose` it also files a proposal (a write). */
  summarize(input: SummarizeInput, options?: CallOptions): Promise<SummarizeResult>;

  // ---- write ----
  write(input: WriteInput, options?: CallOptions): Promise<WriteResult>;
  ingest(input: IngestInput, options?: CallOptions): Promise<IngestResult>;
  forget(input: ForgetInput, options?: CallOptions): Promise<ForgetResult>;
  edit(id: string, patch: EditPatch, options?: CallOptions): Promise<EditResult>;
  pin(id: string, pinned: boolean, options?: CallOptions): Promise<MemoryRecord>;
  resolveConflict(a: string, b: string, keep: ConflictKeep, options?: CallOptions): Promise<ResolveConflictResult>;
  proposeCompressions(scope?: string, options?: CallOptions): Promise<CompressionProposal[]>;

  // ---- admin ----
  approveProposal(id: string, options?: CallOptions): Promise<CompressionProposal>;
  rejectProposal(id: string, options?: CallOptions): Promise<CompressionProposal>;
  rollbackProposal(id: string, options?: CallOptions): Promise<CompressionProposal>;
  listQuarantined(scope?: string): Promise<MemoryRecord[]>;
  releaseQuarantined(id: string, options?: CallOptions): Promise<ReleaseResult>;
  deleteQuarantined(id: string, options?: CallOptions): Promise<ForgetResult>;
  auditLog(options?: { scope?: string; limit?: number; offset?: number }): Promise<AuditEntry[]>;
  importJsonl(text: string, scope?: string, options?: CallOptions & { onProgress?: ImportProgress }): Promise<ImportResult>;
  importMemories(inputs: WriteInput[], options?: CallOptions): Promise<{ imported: number; refused: number }>;
  /** The served model, for running eval cases on scratch stores (never this memory's store). */
  embedderForEval(): Embedder;
}
