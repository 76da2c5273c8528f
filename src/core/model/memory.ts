import { z } from "zod";

export const MEMORY_TYPES = ["preference", "fact", "constraint", "task_state", "event"] as const;
export const LAYERS = ["L1", "L2", "L3"] as const;
export const STATUSES = ["active", "superseded", "archived", "quarantined"] as const;
export const SOURCES = ["agent", "user", "extractor", "import"] as const;

export const MemoryTypeSchema = z.enum(MEMORY_TYPES);
export const LayerSchema = z.enum(LAYERS);
export const StatusSchema = z.enum(STATUSES);
export const SourceSchema = z.enum(SOURCES);

export type MemoryType = z.infer<typeof MemoryTypeSchema>;
export type Layer = z.infer<typeof LayerSchema>;
export type MemoryStatus = z.infer<typeof StatusSchema>;
export type MemorySource = z.infer<typeof SourceSchema>;

/** Scopes are namespaces: `project:<id>`, `user:<id>`, `team:<id>`. */
export const ScopeSchema = z
  .string()
  .min(3)
  .max(200)
  .regex(/^(project|user|team):[^\s]+$/, "must look like project:<id>, user:<id> or team:<id>");

/** Epoch milliseconds; every time in a record uses this unit. */
export const EpochMs = z.number().int().nonnegative();

/** A distilled memory (layers L1-L3). L0 turns live in their own table (see TurnRecord). */
export const MemoryRecordSchema = z.object({
  id: z.string().min(1),
  scope: ScopeSchema,
  layer: LayerSchema,
  type: MemoryTypeSchema,
  subject: z.string().max(200),
  content: z.string().min(1),
  /**
   * What the statement answered or continued (e.g. the question before an answer in a conversation):
   * searchable with the memory, not part of what it says.
   */
  context: z.string().nullable().default(null),
  confidence: z.number().min(0).max(1),
  source: SourceSchema,
  /** L0 turn ids this memory was derived from. */
  sourceTurns: z.array(z.string()),
  /** External references of those turns (e.g. a chat message id, LoCoMo dia_id). */
  sourceRefs: z.array(z.string()),
  sessionId: z.string().nullable(),
  createdAt: EpochMs,
  updatedAt: EpochMs,
  /** Last time the memory was stated or confirmed (a restatement refreshes it); decay counts from here. */
  confirmedAt: EpochMs,
  lastAccessedAt: EpochMs.nullable(),
  accessCount: z.number().int().nonnegative(),
  /** How many times the same memory was stated (dedup hits + 1). */
  confirmCount: z.number().int().positive(),
  validUntil: EpochMs.nullable(),
  status: StatusSchema,
  statusReason: z.string().nullable(),
  supersedes: z.array(z.string()),
  supersededBy: z.string().nullable(),
  /** Unresolved contradictions (tie window, equal confidence): both stay active and recall reports them. */
  conflictsWith: z.array(z.string()),
  compressedInto: z.string().nullable(),
  pinned: z.boolean(),
  tags: z.array(z.string()),
  embeddingModel: z.string(),
});

export type MemoryRecord = z.output<typeof MemoryRecordSchema>;

/** The text a memory is found by (embedding and full text): its content, plus its context when it has one. */
export function searchText(m: Pick<MemoryRecord, "content" | "context">): string {
  return m.context ? `${m.content} (${m.context})` : m.content;
}

/** What full text indexes of a memory: its search text and its subject, unless that only says who else it is about. */
export function fullTextOf(m: Pick<MemoryRecord, "content" | "context" | "subject">): string {
  return m.subject.startsWith("third-party:") ? searchText(m) : `${searchText(m)} ${m.subject}`;
}

export const TURN_STATUSES = ["active", "redacted"] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** L0: one ingested dialogue turn, verbatim (or redacted when the guard refused part of it). */
export const TurnRecordSchema = z.object({
  id: z.string().min(1),
  scope: ScopeSchema,
  sessionId: z.string().nullable(),
  speaker: z.string().nullable(),
  user: z.string(),
  assistant: z.string().nullable(),
  /** External reference of the turn (chat message id, LoCoMo dia_id). */
  ref: z.string().nullable(),
  at: EpochMs,
  status: z.enum(TURN_STATUSES),
  /** Memories distilled from this turn; the L0 fallback skips a turn whose memories were decided against. */
  memoryIds: z.array(z.string()),
});

export type TurnRecord = z.output<typeof TurnRecordSchema>;

export const AUDIT_OPERATIONS = ["write", "ingest", "forget", "edit", "reembed", "quarantine", "refuse", "compress"] as const;

export const AuditEntrySchema = z.object({
  id: z.string().min(1),
  at: EpochMs,
  /** Who asked: "cli", "eval", a token id later. */
  actor: z.string(),
  operation: z.enum(AUDIT_OPERATIONS),
  /** Null for an operation on the whole store (an import, finishing interrupted compressions). */
  scope: z.string().nullable(),
  memoryIds: z.array(z.string()),
  turnIds: z.array(z.string()),
  /** A short description that never contains memory content. */
  detail: z.string(),
});

export type AuditEntry = z.output<typeof AuditEntrySchema>;

export interface VectorRecord<T> {
  record: T;
  vector: Float32Array;
}
