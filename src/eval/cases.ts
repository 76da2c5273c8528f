import { z } from "zod";
import { MEMORY_TYPES } from "../core/model/memory.js";

/** The regression-suite format of ../shared/eval/CASES.md. */
const Matcher = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const Iso = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO-8601 timestamp");
const Layer = z.string().refine((s) => LAYER_ALIASES[s.toLowerCase()] !== undefined, "must be one of L0-L3, raw, working, episodic, semantic");
const Scope = z.string().min(3);

export const LAYER_ALIASES: Record<string, "L0" | "L1" | "L2" | "L3"> = {
  l0: "L0",
  raw: "L0",
  l1: "L1",
  working: "L1",
  l2: "L2",
  episodic: "L2",
  l3: "L3",
  semantic: "L3",
};

const WriteAction = z.object({
  content: z.string(),
  type: z.enum(MEMORY_TYPES).optional(),
  subject: z.string().optional(),
  confidence: z.number().optional(),
  valid_until: Iso.nullable().optional(),
  scope: Scope.optional(),
});
const IngestAction = z.object({ user: z.string(), assistant: z.string().optional(), scope: Scope.optional() });
const ForgetAction = z
  .object({ query: z.string().optional(), match: z.array(z.string()).optional(), scope: Scope.optional() })
  .refine((f) => f.query !== undefined || f.match !== undefined, "forget needs query or match");
const RecallAction = z.object({
  query: z.string(),
  k: z.number().int().positive().optional(),
  type: z.enum(MEMORY_TYPES).optional(),
  layer: Layer.optional(),
  scope: Scope.optional(),
});
const ListAction = z.object({ type: z.enum(MEMORY_TYPES).optional(), layer: Layer.optional(), scope: Scope.optional() });

export const ExpectSchema = z
  .object({
    top: Matcher.optional(),
    includes: z.array(Matcher).optional(),
    excludes: z.array(Matcher).optional(),
    empty: z.boolean().optional(),
    max_chars: z.number().int().positive().optional(),
    conflict: z.boolean().optional(),
    count: z.number().int().nonnegative().optional(),
    flagged: z.boolean().optional(),
  })
  .strict();

export const StepSchema = z
  .object({
    at: Iso,
    write: WriteAction.optional(),
    ingest: IngestAction.optional(),
    forget: ForgetAction.optional(),
    recall: RecallAction.optional(),
    list: ListAction.optional(),
    expect: ExpectSchema.optional(),
  })
  .refine((s) => [s.write, s.ingest, s.forget, s.recall, s.list].filter((a) => a !== undefined).length === 1, {
    message: "exactly one of write, ingest, forget, recall, list",
  });

export const CaseSchema = z.object({
  id: z.string().min(1),
  category: z.string().min(1),
  lang: z.enum(["en", "zh"]),
  description: z.string().optional(),
  scope: Scope,
  steps: z.array(StepSchema).min(1),
});

export const CasesFileSchema = z.object({ version: z.literal(1), cases: z.array(CaseSchema) });

export type Matcher = z.infer<typeof Matcher>;
export type Expect = z.infer<typeof ExpectSchema>;
export type Step = z.infer<typeof StepSchema>;
export type Case = z.infer<typeof CaseSchema>;
export type CasesFile = z.infer<typeof CasesFileSchema>;
