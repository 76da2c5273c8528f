import { z } from "zod";
import { MAX_PAGE, SIDEBAR_VIEWS, TOPICS } from "./constants.js";
import {
  AuditEntrySchema,
  BackendInfoSchema,
  ConflictPairSchema,
  HistoryEntrySchema,
  LatencySampleSchema,
  LayerSchema,
  MemoryDetailSchema,
  MemoryRowSchema,
  MemorySchema,
  MemoryTypeSchema,
  ProposalSchema,
  QuarantinedSchema,
  RecallResultSchema,
  StatsSchema,
  StatusSchema,
  SuiteRunSchema,
  SuiteSchema,
} from "./model.js";

// Every request the webview can make: its params (validated by the extension before anything runs)
// and its result. Adding a method here is the only way to add one: the router must implement each
// (its handler table is typed by this map) and the webview can only call these.

const Id = z.string().min(1, "must not be empty").max(200);

/** The memory list's filter: which statuses, and text that must appear in content or subject. */
export const MemoryFilterSchema = z
  .object({
    statuses: z.array(StatusSchema).min(1, "pick at least one status").max(4),
    text: z.string().trim().max(1000, "must be at most 1000 characters").default(""),
  })
  .strict();
export type MemoryFilter = z.input<typeof MemoryFilterSchema>;

const GroupSchema = z.object({ layer: LayerSchema, type: MemoryTypeSchema, total: z.number().int().nonnegative() });
export type MemoryGroup = z.output<typeof GroupSchema>;

/** `YYYY-MM-DD` (end of that day, UTC) or an ISO date-time; null clears valid_until. */
const ValidUntil = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, "must be a date like 2026-03-20 or an ISO date-time")
  .nullable();

export const EditPatchSchema = z
  .object({
    content: z.string().trim().min(1, "must not be empty").max(4000, "must be at most 4000 characters").optional(),
    type: MemoryTypeSchema.optional(),
    confidence: z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").optional(),
    validUntil: ValidUntil.optional(),
  })
  .strict()
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: "change at least one field", path: ["content"] });
export type EditPatch = z.input<typeof EditPatchSchema>;

const ForgetResultSchema = z.object({ forgotten: z.number().int(), ids: z.array(z.string()), turns: z.number().int() });

const ProposalViewSchema = z.object({ proposal: ProposalSchema, sources: z.array(MemorySchema) });

export const requestSchemas = {
  /** How many memories each layer × type group holds under the filter (empty groups left out). */
  "memories.groups": {
    params: z.object({ filter: MemoryFilterSchema }).strict(),
    result: z.object({ groups: z.array(GroupSchema), total: z.number().int().nonnegative() }),
  },
  /** Rows of one group, newest first. */
  "memories.page": {
    params: z
      .object({
        filter: MemoryFilterSchema,
        layer: LayerSchema,
        type: MemoryTypeSchema,
        offset: z.number().int().min(0),
        limit: z.number().int().min(1).max(MAX_PAGE),
      })
      .strict(),
    result: z.object({ rows: z.array(MemoryRowSchema), total: z.number().int().nonnegative() }),
  },
  "memories.get": {
    params: z.object({ id: Id }).strict(),
    result: MemoryDetailSchema,
  },
  "memories.edit": {
    params: z.object({ id: Id, patch: EditPatchSchema }).strict(),
    result: z.object({ memory: MemorySchema, changed: z.array(z.string()), flagged: z.boolean(), reason: z.string() }),
  },
  "memories.pin": {
    params: z.object({ id: Id, pinned: z.boolean() }).strict(),
    result: z.object({ memory: MemorySchema }),
  },
  /** Deletes the memory and deletes or redacts its L0 turns (the webview asks for confirmation first). */
  "memories.forget": {
    params: z.object({ id: Id }).strict(),
    result: ForgetResultSchema,
  },
  "recall.run": {
    params: z
      .object({
        query: z.string().trim().min(1, "type a query").max(1000, "must be at most 1000 characters"),
        k: z.number().int().min(1).max(50).default(5),
        sessionId: z.string().trim().max(200).optional(),
      })
      .strict(),
    result: RecallResultSchema.extend({ latencyMs: z.number().nonnegative() }),
  },
  /** Everything waiting for a person: unresolved conflicts, compression proposals, quarantined writes. */
  "review.get": {
    params: z.object({}).strict(),
    result: z.object({ conflicts: z.array(ConflictPairSchema), proposals: z.array(ProposalViewSchema), quarantined: z.array(QuarantinedSchema) }),
  },
  "review.resolveConflict": {
    params: z.object({ a: Id, b: Id, keep: z.enum(["a", "b", "both"]) }).strict(),
    result: z.object({ kept: z.array(MemorySchema), superseded: z.array(MemorySchema) }),
  },
  "review.decideProposal": {
    params: z.object({ id: Id, decision: z.enum(["approve", "reject", "rollback"]) }).strict(),
    result: z.object({ proposal: ProposalSchema }),
  },
  /** Files proposals for groups past the compression thresholds. */
  "review.propose": {
    params: z.object({}).strict(),
    result: z.object({ count: z.number().int().nonnegative() }),
  },
  "review.release": {
    params: z.object({ id: Id }).strict(),
    result: z.object({ memory: MemorySchema }),
  },
  "review.delete": {
    params: z.object({ id: Id }).strict(),
    result: ForgetResultSchema,
  },
  "tests.get": {
    params: z.object({}).strict(),
    result: z.object({ suites: z.array(SuiteSchema), history: z.array(HistoryEntrySchema), last: SuiteRunSchema.nullable() }),
  },
  /** Runs a listed suite, or a file the user picks (run: null when the picker was cancelled). */
  "tests.run": {
    params: z.union([z.object({ suiteId: Id }).strict(), z.object({ pick: z.literal(true) }).strict()]),
    result: z.object({ run: SuiteRunSchema.nullable(), history: z.array(HistoryEntrySchema) }),
  },
  "activity.get": {
    params: z.object({ auditLimit: z.number().int().min(1).max(500).default(50), auditOffset: z.number().int().min(0).default(0) }).strict(),
    result: z.object({ stats: StatsSchema, latency: z.array(LatencySampleSchema), audit: z.array(AuditEntrySchema), auditHasMore: z.boolean() }),
  },
} as const;

export type Method = keyof typeof requestSchemas;
export const METHODS = Object.keys(requestSchemas) as Method[];
/** What the webview sends (defaults may be left out). */
export type Params<M extends Method> = z.input<(typeof requestSchemas)[M]["params"]>;
/** What the router's handler gets (defaults applied). */
export type ParsedParams<M extends Method> = z.output<(typeof requestSchemas)[M]["params"]>;
export type Result<M extends Method> = z.output<(typeof requestSchemas)[M]["result"]>;

/** Notifications the extension sends without being asked. */
export const notificationSchemas = {
  /** The full session state: sent after the ready handshake and whenever the server changes (local ↔ team). */
  session: z.object({ protocolVersion: z.number().int(), backend: BackendInfoSchema }),
  /** Data changed outside the sidebar (an agent wrote, another client edited): load these topics again. */
  invalidate: z.object({ topics: z.array(z.enum(TOPICS)).min(1) }),
  /** Bring a tab to the front (an editor command asked for it). */
  show: z.object({ view: z.enum(SIDEBAR_VIEWS) }),
} as const;

export type NotificationEvent = keyof typeof notificationSchemas;
export type NotificationData<E extends NotificationEvent> = z.output<(typeof notificationSchemas)[E]>;
