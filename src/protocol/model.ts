import { z } from "zod";
import { MEMORY_LAYERS, MEMORY_STATUSES, MEMORY_TYPES, PROPOSAL_STATUSES } from "./constants.js";

// The data the sidebar shows. These mirror what the REST API (/api/v1) answers; the extension parses
// every REST answer with them, so a server of another version fails with a message naming the field
// instead of drawing garbage. Unknown keys are dropped (a newer server may add fields).

const EpochMs = z.number().int().nonnegative();
const Unit = z.number().min(0).max(1);

export const LayerSchema = z.enum(MEMORY_LAYERS);
export const MemoryTypeSchema = z.enum(MEMORY_TYPES);
export const StatusSchema = z.enum(MEMORY_STATUSES);
export const ProposalStatusSchema = z.enum(PROPOSAL_STATUSES);

/** Every field of a memory (L1-L3). */
export const MemorySchema = z.object({
  id: z.string().min(1),
  scope: z.string(),
  layer: LayerSchema,
  type: MemoryTypeSchema,
  subject: z.string(),
  content: z.string(),
  context: z.string().nullable().default(null),
  confidence: Unit,
  source: z.string(),
  sourceTurns: z.array(z.string()),
  sourceRefs: z.array(z.string()),
  sessionId: z.string().nullable(),
  createdAt: EpochMs,
  updatedAt: EpochMs,
  confirmedAt: EpochMs,
  lastAccessedAt: EpochMs.nullable(),
  accessCount: z.number().int().nonnegative(),
  confirmCount: z.number().int().nonnegative(),
  validUntil: EpochMs.nullable(),
  status: StatusSchema,
  statusReason: z.string().nullable(),
  supersedes: z.array(z.string()),
  supersededBy: z.string().nullable(),
  conflictsWith: z.array(z.string()),
  compressedInto: z.string().nullable(),
  pinned: z.boolean(),
  tags: z.array(z.string()),
  embeddingModel: z.string(),
});
export type Memory = z.output<typeof MemorySchema>;

/** One line of the memory list: what a row shows; preview is the content on one line (whitespace collapsed). */
export const MemoryRowSchema = z.object({
  id: z.string(),
  layer: LayerSchema,
  type: MemoryTypeSchema,
  status: StatusSchema,
  subject: z.string(),
  preview: z.string(),
  confidence: Unit,
  pinned: z.boolean(),
  conflicts: z.number().int().nonnegative(),
  updatedAt: EpochMs,
  validUntil: EpochMs.nullable(),
  /** valid_until has passed: kept, never recalled. */
  expired: z.boolean(),
});
export type MemoryRow = z.output<typeof MemoryRowSchema>;

/** An ingested dialogue turn (L0), verbatim or redacted. */
export const TurnSchema = z.object({
  id: z.string(),
  scope: z.string(),
  sessionId: z.string().nullable(),
  speaker: z.string().nullable(),
  user: z.string(),
  assistant: z.string().nullable(),
  ref: z.string().nullable(),
  at: EpochMs,
  status: z.string(),
  memoryIds: z.array(z.string()),
});
export type Turn = z.output<typeof TurnSchema>;

export const LinkRelationSchema = z.enum(["supersedes", "superseded_by", "compressed_into", "compressed_from", "conflicts_with"]);
export const MemoryLinkSchema = z.object({ relation: LinkRelationSchema, memory: MemorySchema });
export type MemoryLink = z.output<typeof MemoryLinkSchema>;

/** A memory with what explains it: its source turns and the memories its links point to. */
export const MemoryDetailSchema = z.object({ memory: MemorySchema, turns: z.array(TurnSchema), links: z.array(MemoryLinkSchema) });
export type MemoryDetail = z.output<typeof MemoryDetailSchema>;

export const ScoreFactorsSchema = z.object({ relevance: z.number(), confidence: z.number(), timeDecay: z.number(), accessBoost: z.number() });
export type ScoreFactors = z.output<typeof ScoreFactorsSchema>;

/** The engine's weights: score = relevance·w.relevance + confidence·w.confidence + timeDecay·w.timeDecay + accessBoost·w.access. */
export const ScoreWeightsSchema = z.object({ relevance: z.number(), confidence: z.number(), timeDecay: z.number(), access: z.number() });
export type ScoreWeights = z.output<typeof ScoreWeightsSchema>;

export const RecalledSchema = z.object({
  id: z.string(),
  layer: z.union([LayerSchema, z.literal("L0")]),
  type: MemoryTypeSchema.nullable(),
  subject: z.string().nullable(),
  content: z.string(),
  confidence: z.number(),
  score: z.number(),
  factors: ScoreFactorsSchema,
  relevanceSource: z.enum(["cross-encoder", "bi-encoder", "fused", "full-text"]),
  createdAt: EpochMs,
  confirmedAt: EpochMs,
  validUntil: EpochMs.nullable(),
  sourceTurns: z.array(z.string()),
  sourceRefs: z.array(z.string()),
  conflictsWith: z.array(z.string()),
});
export type Recalled = z.output<typeof RecalledSchema>;

export const RecallConflictSchema = z.object({ ids: z.tuple([z.string(), z.string()]), subject: z.string(), reason: z.string() });

/** A recall exactly as the agent gets it, plus the time the round trip took. */
export const RecallResultSchema = z.object({
  query: z.string(),
  scope: z.string(),
  memories: z.array(RecalledSchema),
  conflicts: z.array(RecallConflictSchema),
  usedFallback: z.boolean(),
  text: z.string(),
  /** The weights the scores were summed with (null: a server too old to say). */
  weights: ScoreWeightsSchema.nullable().default(null),
});
export type RecallResult = z.output<typeof RecallResultSchema>;

export const ConflictPairSchema = z.object({ a: MemorySchema, b: MemorySchema });
export type ConflictPair = z.output<typeof ConflictPairSchema>;

export const ProposalSchema = z.object({
  id: z.string(),
  scope: z.string(),
  subject: z.string(),
  type: MemoryTypeSchema,
  sourceIds: z.array(z.string()),
  summary: z.string(),
  summarizer: z.string(),
  status: ProposalStatusSchema,
  reason: z.string(),
  createdAt: EpochMs,
  decidedAt: EpochMs.nullable(),
  summaryId: z.string().nullable(),
});
export type Proposal = z.output<typeof ProposalSchema>;

/** A proposal with the memories it summarises (those still stored), for the diff. */
export interface ProposalView {
  proposal: Proposal;
  sources: Memory[];
}

export const QuarantinedSchema = MemorySchema.extend({ reason: z.string().nullable() });
export type Quarantined = z.output<typeof QuarantinedSchema>;

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: EpochMs,
  actor: z.string(),
  operation: z.string(),
  scope: z.string().nullable(),
  memoryIds: z.array(z.string()),
  turnIds: z.array(z.string()),
  detail: z.string(),
});
export type AuditEntry = z.output<typeof AuditEntrySchema>;

export const StatsSchema = z.object({
  scope: z.string(),
  total: z.number().int().nonnegative(),
  byLayer: z.record(z.string(), z.number()),
  byType: z.record(z.string(), z.number()),
  byStatus: z.record(z.string(), z.number()),
  recall: z.object({
    count: z.number(),
    sumMs: z.number(),
    p50Ms: z.number().nullable(),
    p95Ms: z.number().nullable(),
    hits: z.number(),
    hitRate: z.number().nullable(),
    /** When the store began counting (null: a server too old to keep them with the store). */
    since: EpochMs.nullable().default(null),
    /** Hours with recalls, oldest first. */
    history: z.array(z.object({ at: EpochMs, count: z.number(), hits: z.number(), p50Ms: z.number().nullable(), p95Ms: z.number().nullable() })).default([]),
  }),
  /** A team replica's answers from the recall cache it shares in Redis, since it started (null: no shared cache). */
  recallCache: z.object({ hits: z.number(), misses: z.number(), hitRate: z.number().nullable(), savedMs: z.number() }).nullable().default(null),
});
export type Stats = z.output<typeof StatsSchema>;

/** One hour of the recall latency the server keeps with its store, as the chart draws it. */
export const LatencySampleSchema = z.object({ at: EpochMs, p50Ms: z.number().nullable(), p95Ms: z.number().nullable(), count: z.number() });
export type LatencySample = z.output<typeof LatencySampleSchema>;

export const EvalCaseSchema = z.object({ id: z.string(), category: z.string(), pass: z.boolean(), failures: z.array(z.string()) });
export const EvalReportSchema = z.object({ passed: z.number().int(), failed: z.number().int(), cases: z.array(EvalCaseSchema) });
export type EvalReport = z.output<typeof EvalReportSchema>;

/** A regression-suite file the Tests view can run. */
export const SuiteSchema = z.object({ id: z.string(), label: z.string(), path: z.string(), cases: z.number().int().nullable() });
export type Suite = z.output<typeof SuiteSchema>;

/** One failed check of a case: "step 3: top: expected X, got Y" split for display. */
export const CaseFailureSchema = z.object({ step: z.number().int().nullable(), check: z.string(), expected: z.string(), got: z.string(), raw: z.string() });
export type CaseFailure = z.output<typeof CaseFailureSchema>;

export const SuiteRunSchema = z.object({
  suiteId: z.string(),
  label: z.string(),
  at: EpochMs,
  durationMs: z.number().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  categories: z.array(z.object({ category: z.string(), passed: z.number().int(), failed: z.number().int() })),
  failures: z.array(z.object({ id: z.string(), category: z.string(), checks: z.array(CaseFailureSchema) })),
});
export type SuiteRun = z.output<typeof SuiteRunSchema>;

/** What the pass-rate history keeps of a run. */
export const HistoryEntrySchema = z.object({ suiteId: z.string(), label: z.string(), at: EpochMs, passed: z.number().int(), failed: z.number().int() });
export type HistoryEntry = z.output<typeof HistoryEntrySchema>;

/** Which memory server the sidebar talks to. */
export const BackendInfoSchema = z.object({
  connected: z.boolean(),
  /** "local": the server the extension runs; "team": a shared one. */
  mode: z.enum(["local", "team"]),
  url: z.string().nullable(),
  scope: z.string().nullable(),
  /** Why there is no connection, when there is none. */
  message: z.string().nullable(),
});
export type BackendInfo = z.output<typeof BackendInfoSchema>;
