import { z } from "zod";
import { LayerSchema, MemoryTypeSchema, ScopeSchema, SourceSchema } from "./memory.js";

export const LIMITS = {
  contentChars: 4000,
  turnChars: 20000,
  subjectChars: 200,
  queryChars: 1000,
  maxK: 50,
  tags: 20,
  tagChars: 64,
  matchTerms: 10,
  replaces: 20,
} as const;

/** "2026-02-30" parses (as March 2): the day must exist in its month. */
function realCalendarDay(s: string): boolean {
  const [y, m, d] = s.slice(0, 10).split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** ISO-8601 date or date-time, parsed to epoch ms; a clear message when it does not parse. */
export const IsoTimeSchema = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s)) && realCalendarDay(s), {
    message: "must be an ISO-8601 date or date-time, e.g. 2026-03-20T00:00:00Z",
  })
  .transform((s) => Date.parse(s));

const Content = z
  .string()
  .transform((s) => s.trim())
  .pipe(z.string().min(1, "must not be empty").max(LIMITS.contentChars, `must be at most ${LIMITS.contentChars} characters`));

export const WriteInputSchema = z.object({
  content: Content,
  type: MemoryTypeSchema.optional(),
  subject: z.string().trim().max(LIMITS.subjectChars).optional(),
  confidence: z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").optional(),
  validUntil: IsoTimeSchema.nullable().optional(),
  scope: ScopeSchema.optional(),
  tags: z.array(z.string().min(1).max(LIMITS.tagChars)).max(LIMITS.tags).optional(),
  layer: LayerSchema.optional(),
  sessionId: z.string().max(200).optional(),
  pinned: z.boolean().optional(),
  source: SourceSchema.optional(),
  /**
   * Ids of active memories in the same scope that this one replaces: the caller's judgement instead
   * of the rules' dedup and supersede. An empty list is the same as none.
   */
  replaces: z.array(z.string().trim().min(1, "must not be empty").max(200)).max(LIMITS.replaces, `at most ${LIMITS.replaces} ids`).optional(),
}).strict();
export type WriteInput = z.input<typeof WriteInputSchema>;
export type WriteParams = z.output<typeof WriteInputSchema>;

export const IngestInputSchema = z.object({
  user: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().min(1, "must not be empty").max(LIMITS.turnChars, `must be at most ${LIMITS.turnChars} characters`)),
  assistant: z.string().max(LIMITS.turnChars).optional(),
  speaker: z.string().trim().min(1).max(100).optional(),
  sessionId: z.string().max(200).optional(),
  scope: ScopeSchema.optional(),
  ref: z.string().max(200).optional(),
}).strict();
export type IngestInput = z.input<typeof IngestInputSchema>;
export type IngestParams = z.output<typeof IngestInputSchema>;

export const RecallInputSchema = z.object({
  query: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().min(1, "must not be empty").max(LIMITS.queryChars, `must be at most ${LIMITS.queryChars} characters`)),
  k: z.number().int().min(1).max(LIMITS.maxK).optional(),
  types: z.array(MemoryTypeSchema).max(5).optional(),
  layers: z.array(LayerSchema).max(3).optional(),
  scope: ScopeSchema.optional(),
  sessionId: z.string().max(200).optional(),
  /** Set false to skip the L0 fallback (benchmarks of distilled memory only). */
  fallback: z.boolean().optional(),
}).strict();
export type RecallInput = z.input<typeof RecallInputSchema>;
export type RecallParams = z.output<typeof RecallInputSchema>;

export const ForgetInputSchema = z
  .object({
    id: z.string().min(1).optional(),
    ids: z.array(z.string().min(1)).max(1000).optional(),
    query: z.string().trim().min(1).max(LIMITS.queryChars).optional(),
    match: z.array(z.string().trim().min(1).max(200)).min(1).max(LIMITS.matchTerms).optional(),
    scope: ScopeSchema.optional(),
    /** Say what would be forgotten without forgetting it (a CLI asks before it deletes). */
    dryRun: z.boolean().optional(),
  })
  .strict()
  .refine((f) => f.id !== undefined || f.ids !== undefined || f.query !== undefined || f.match !== undefined, {
    message: "give one of id, ids, query or match",
    path: ["query"],
  });
export type ForgetInput = z.input<typeof ForgetInputSchema>;
export type ForgetParams = z.output<typeof ForgetInputSchema>;

export const ListInputSchema = z.object({
  scope: ScopeSchema.optional(),
  types: z.array(MemoryTypeSchema).max(5).optional(),
  layers: z.array(LayerSchema).max(3).optional(),
  statuses: z.array(z.enum(["active", "superseded", "archived", "quarantined"])).max(4).optional(),
  text: z.string().max(LIMITS.queryChars).optional(),
  limit: z.number().int().min(1).max(10000).optional(),
  offset: z.number().int().min(0).optional(),
  /** Include memories whose valid_until has passed (kept; recalled only as a task's last known state, model/lastKnown.ts). */
  includeExpired: z.boolean().optional(),
}).strict();
export type ListInput = z.input<typeof ListInputSchema>;
export type ListParams = z.output<typeof ListInputSchema>;

export const SummarizeInputSchema = z
  .object({
    topic: z.string().trim().min(1).max(LIMITS.queryChars).optional(),
    subject: z.string().trim().min(1).max(LIMITS.subjectChars).optional(),
    type: MemoryTypeSchema.optional(),
    since: IsoTimeSchema.optional(),
    until: IsoTimeSchema.optional(),
    scope: ScopeSchema.optional(),
    /** File the summary as a compression proposal for review instead of only returning it. */
    propose: z.boolean().optional(),
  })
  .strict()
  .refine((s) => s.since === undefined || s.until === undefined || s.since <= s.until, { message: "since must not be after until", path: ["since"] });
export type SummarizeInput = z.input<typeof SummarizeInputSchema>;
export type SummarizeParams = z.output<typeof SummarizeInputSchema>;
