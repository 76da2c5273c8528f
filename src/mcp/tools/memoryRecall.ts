import { z } from "zod";
import { LIMITS, MAX_ARRAY, layerArg, memoryTypeArg, memoryTypeOut, scopeArg } from "./fields.js";
import { defineTool, iso, isoOrNull } from "./types.js";

const recalledOut = z.object({
  id: z.string(),
  layer: z.enum(["L0", "L1", "L2", "L3"]).describe("L0 = a raw conversation turn from the fallback; L1 working, L2 episodic, L3 semantic."),
  type: memoryTypeOut.nullable(),
  subject: z.string().nullable(),
  content: z.string(),
  confidence: z.number(),
  score: z.number().describe("Final score: weighted sum of the factors."),
  factors: z
    .object({ relevance: z.number(), confidence: z.number(), time_decay: z.number(), access_boost: z.number() })
    .describe("Per-factor scores, each 0-1; accessBoost is the use that counted (use never outranks a clearly more relevant memory)."),
  relevance_source: z.enum(["cross-encoder", "bi-encoder", "fused", "full-text"]),
  created_at: z.string().describe("ISO-8601."),
  confirmed_at: z.string().describe("ISO-8601: last time it was stated or confirmed."),
  valid_until: z.string().nullable().describe("ISO-8601 or null (no expiry)."),
  conflicts_with: z.array(z.string()),
});

export const memoryRecallTool = defineTool({
  name: "memory_recall",
  title: "Recall memories",
  description:
    "Look back before acting: returns the few memories that matter for a task or question (preferences, constraints, decisions, facts, task state), " +
    "ranked by relevance, confidence, recency and use, with superseded and expired ones left out and unresolved conflicts reported. " +
    "Call it at the start of a task, before answering about the project or the user, and before deciding something the user may have an opinion on. " +
    "The text result is a ready-to-use block, one memory per line: \"- [id <id>] (<type>, confidence <c>) <content>\"; that id is what memory_write's replaces " +
    "and memory_forget's id take. When nothing distilled matches, raw conversation turns may come back instead, marked \"(raw turn, <date>)\" and without an id; " +
    "an irrelevant query returns \"No relevant memories.\" It changes no memory; it only counts which memories were returned (use is one ranking factor).",
  inputSchema: {
    query: z
      .string()
      .min(1)
      .max(LIMITS.queryChars)
      .describe(`What you are about to do or need to know, in plain words (1-${LIMITS.queryChars} characters), e.g. "code style for indentation".`),
    k: z.number().int().min(1).max(LIMITS.maxK).optional().describe(`How many memories at most (1-${LIMITS.maxK}, default from configuration).`),
    types: z.array(memoryTypeArg()).min(1).max(MAX_ARRAY).optional().describe("Only these memory types (preference, fact, constraint, task_state, event)."),
    layers: z.array(layerArg()).min(1).max(MAX_ARRAY).optional().describe("Only these layers (L1 working, L2 episodic, L3 semantic)."),
    scope: scopeArg().optional(),
  },
  outputSchema: {
    query: z.string(),
    scope: z.string(),
    memories: z.array(recalledOut).describe("Ranked best first."),
    conflicts: z
      .array(z.object({ ids: z.array(z.string()), subject: z.string(), reason: z.string() }))
      .describe("Contradicting memories the engine could not decide between: ask the user."),
    used_fallback: z.boolean().describe("True when nothing distilled matched and the results are raw L0 conversation turns."),
    text: z.string().describe("Ready-to-inject text block."),
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(engine, args) {
    const r = await engine.recall({
      query: args.query,
      k: args.k,
      ...(args.types ? { types: [...new Set(args.types)] } : {}),
      ...(args.layers ? { layers: [...new Set(args.layers)] } : {}),
      scope: args.scope,
    });
    const structured = {
      query: r.query,
      scope: r.scope,
      memories: r.memories.map((m) => ({
        id: m.id,
        layer: m.layer,
        type: m.type,
        subject: m.subject,
        content: m.content,
        confidence: m.confidence,
        score: m.score,
        factors: { relevance: m.factors.relevance, confidence: m.factors.confidence, time_decay: m.factors.timeDecay, access_boost: m.factors.accessBoost },
        relevance_source: m.relevanceSource,
        created_at: iso(m.createdAt),
        confirmed_at: iso(m.confirmedAt),
        valid_until: isoOrNull(m.validUntil),
        conflicts_with: m.conflictsWith,
      })),
      conflicts: r.conflicts.map((c) => ({ ids: [...c.ids], subject: c.subject, reason: c.reason })),
      used_fallback: r.usedFallback,
      text: r.text,
    };
    return { structuredContent: structured, content: [{ type: "text", text: r.text }] };
  },
});
