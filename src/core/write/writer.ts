import type { EngineContext } from "../context.js";
import { embedOne } from "../context.js";
import { searchText, type AuditEntry, type Layer, type MemoryRecord, type MemorySource, type MemoryType } from "../model/memory.js";
import type { Hit } from "../ports.js";
import { isMostlyCjk } from "../text/cjk.js";
import { classifyType, inferSubject } from "./classify.js";
import { guardText } from "./guard.js";
import { llmContradicts } from "./llmConflict.js";
import { byTiming, mayContradict, pairSimilarity, relate, type Candidate, type Relation } from "./reconcile.js";
import { parseValidUntil } from "./validity.js";

export type WriteAction = "added" | "updated" | "superseded" | "duplicate" | "quarantined" | "skipped";

export interface WriteResult {
  id: string | null;
  action: WriteAction;
  reason: string;
  /** True when the guard refused or quarantined the content. */
  flagged: boolean;
  supersedes: string[];
  conflictsWith: string[];
  memory: MemoryRecord | null;
}

export interface WriteRequest {
  content: string;
  scope: string;
  type?: MemoryType | undefined;
  subject?: string | undefined;
  confidence?: number | undefined;
  /** undefined: infer from the text; null: explicitly unbounded. */
  validUntil?: number | null | undefined;
  layer?: Layer | undefined;
  tags?: string[] | undefined;
  pinned?: boolean | undefined;
  sessionId?: string | undefined;
  source: MemorySource;
  sourceTurns?: string[];
  sourceRefs?: string[];
  /** Speaker for subject inference of extracted statements. */
  speaker?: string | null;
  /** See MemoryRecord.context. */
  context?: string | null;
}

function chooseLayer(type: MemoryType, confidence: number, l3Min: number): Layer {
  if (type === "task_state") return "L1";
  if (type === "event" || confidence < l3Min) return "L2";
  return "L3";
}

async function neighbours(ctx: EngineContext, req: { scope: string; type: MemoryType; content: string }, vector: Float32Array, now: number) {
  const filter = { scope: req.scope, statuses: ["active" as const], types: [req.type], validAt: now };
  const byVector = await ctx.store.searchMemoriesByVector(vector, filter, 8);
  const found = new Map<string, Hit<MemoryRecord>>(byVector.map((h) => [h.record.id, h]));
  if (isMostlyCjk(req.content)) {
    for (const h of await ctx.store.searchMemoriesByText(req.content, filter, 8)) if (!found.has(h.record.id)) found.set(h.record.id, h);
  }
  return [...found.values()];
}

/** The write path after extraction: guard, classify, embed, dedup / supersede / conflict, persist, audit. */
export async function writeMemory(ctx: EngineContext, req: WriteRequest): Promise<WriteResult> {
  const now = ctx.clock.now();
  const verdict = guardText(req.content);
  if (verdict.kind === "secret") {
    await audit(ctx, "refuse", req.scope, [], req.sourceTurns ?? [], verdict.reason);
    return { id: null, action: "skipped", reason: verdict.reason, flagged: true, supersedes: [], conflictsWith: [], memory: null };
  }

  const record = newRecord(ctx, req, now);
  const vector = await embedOne(ctx, searchText(record));

  if (verdict.kind === "injection") {
    record.status = "quarantined";
    record.statusReason = verdict.reason;
    await ctx.store.putMemories([{ record, vector }]);
    await audit(ctx, "quarantine", req.scope, [record.id], record.sourceTurns, verdict.reason);
    return { id: record.id, action: "quarantined", reason: verdict.reason, flagged: true, supersedes: [], conflictsWith: [], memory: record };
  }

  const nearby = await neighbours(ctx, record, vector, now);
  const found = nearby.flatMap((hit) => {
    const rel = relate({ ...record, vector, now }, hit.record, hit.vector, ctx.config);
    return rel ? [{ rel, similarity: pairSimilarity({ content: record.content, vector }, { content: hit.record.content, vector: hit.vector }) }] : [];
  });
  if (found.length === 0 && ctx.llm) found.push(...(await askLlm(ctx, { ...record, vector, now }, nearby)));
  const relations = strongest(found, record.subject !== "" && req.subject !== undefined && req.source !== "extractor");

  const duplicate = relations.find((r) => r.kind === "duplicate");
  if (duplicate) {
    const existing = duplicate.existing;
    const updated: MemoryRecord = {
      ...existing,
      confidence: Math.max(existing.confidence, record.confidence),
      confirmCount: existing.confirmCount + 1,
      confirmedAt: now,
      updatedAt: now,
      validUntil: req.validUntil === undefined ? existing.validUntil : record.validUntil,
      sourceTurns: union(existing.sourceTurns, record.sourceTurns),
      sourceRefs: union(existing.sourceRefs, record.sourceRefs),
      tags: union(existing.tags, record.tags),
    };
    await ctx.store.updateMemories([updated]);
    await audit(ctx, "write", req.scope, [existing.id], record.sourceTurns, "restatement: existing memory confirmed");
    return { id: existing.id, action: "duplicate", reason: `restates memory ${existing.id}`, flagged: false, supersedes: [], conflictsWith: [], memory: updated };
  }

  const changed: MemoryRecord[] = [];
  const reasons: string[] = [];
  for (const rel of relations) {
    if (rel.kind === "supersedes") {
      record.supersedes.push(rel.existing.id);
      changed.push({ ...rel.existing, status: "superseded", supersededBy: record.id, statusReason: rel.reason, updatedAt: now });
      reasons.push(rel.reason);
    } else if (rel.kind === "conflict") {
      record.conflictsWith.push(rel.existing.id);
      changed.push({ ...rel.existing, conflictsWith: union(rel.existing.conflictsWith, [record.id]), updatedAt: now });
      reasons.push(rel.reason);
    } else if (rel.kind === "superseded_by" && record.status === "active") {
      record.status = "superseded";
      record.supersededBy = rel.existing.id;
      record.statusReason = rel.reason;
      changed.push({ ...rel.existing, supersedes: union(rel.existing.supersedes, [record.id]), updatedAt: now });
      reasons.push(rel.reason);
    }
  }

  await ctx.store.putMemories([{ record, vector }]);
  if (changed.length > 0) await ctx.store.updateMemories(changed);
  // "superseded": this write replaced older memories; "skipped": it lost to an existing, more confident one (kept as history).
  const action: WriteAction = record.status === "superseded" ? "skipped" : record.supersedes.length > 0 ? "superseded" : "added";
  const detail = record.supersedes.length > 0 ? `added; superseded ${record.supersedes.length}` : action;
  await audit(ctx, "write", req.scope, [record.id, ...changed.map((c) => c.id)], record.sourceTurns, detail);
  return {
    id: record.id,
    action,
    reason: reasons.length > 0 ? reasons.join("; ") : "new memory",
    flagged: false,
    supersedes: record.supersedes,
    conflictsWith: record.conflictsWith,
    memory: record,
  };
}

/** How many nearest memories the LLM is asked about when the rules found no relation. */
const LLM_CONFLICT_CHECKS = 2;

/**
 * With an LLM configured, contradictions the rules miss (no shared words, no change cue) are asked
 * about: the closest few memories of the same topic band. An unclear answer leaves the rules' decision.
 */
async function askLlm(ctx: EngineContext, candidate: Candidate, nearby: Array<Hit<MemoryRecord>>): Promise<Array<{ rel: Relation; similarity: number }>> {
  const llm = ctx.llm;
  if (!llm) return [];
  const band = ctx.config.write.topicSimilarity - 0.2;
  const asked = nearby
    .map((hit) => ({ hit, similarity: pairSimilarity({ content: candidate.content, vector: candidate.vector }, { content: hit.record.content, vector: hit.vector }) }))
    .filter(({ hit, similarity }) => similarity >= band && mayContradict(candidate, hit.record))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, LLM_CONFLICT_CHECKS);
  const out: Array<{ rel: Relation; similarity: number }> = [];
  for (const { hit, similarity } of asked) {
    if ((await llmContradicts(llm, hit.record.content, candidate.content, ctx.config.write.llmTimeoutMs)) === true) {
      out.push({ rel: byTiming(candidate, hit.record, ctx.config, `contradiction judged by ${llm.id}`), similarity });
    }
  }
  return out;
}

/**
 * One new statement replaces one earlier value: without an explicit subject only the closest
 * contradicting memory is affected. With an explicit subject every contradicting value goes.
 */
function strongest(found: Array<{ rel: Relation; similarity: number }>, explicitSubject: boolean): Relation[] {
  const dup = found.find((f) => f.rel.kind === "duplicate");
  if (dup) return [dup.rel];
  if (explicitSubject) return found.map((f) => f.rel);
  const best = [...found].sort((a, b) => b.similarity - a.similarity)[0];
  return best ? [best.rel] : [];
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

export async function audit(
  ctx: EngineContext,
  operation: AuditEntry["operation"],
  scope: string | null,
  memoryIds: string[],
  turnIds: string[],
  detail: string,
): Promise<void> {
  await ctx.store.appendAudit({ id: ctx.newId(), at: ctx.clock.now(), actor: ctx.config.actor, operation, scope, memoryIds, turnIds, detail });
}

/** A new active record for a request: the engine fills what the caller left out (type, subject, confidence, layer, validity). */
export function newRecord(ctx: EngineContext, req: WriteRequest, now: number): MemoryRecord {
  const type = req.type ?? classifyType(req.content);
  const confidence = req.confidence ?? ctx.config.write.defaultConfidence;
  return {
    id: ctx.newId(),
    scope: req.scope,
    layer: req.layer ?? chooseLayer(type, confidence, ctx.config.write.l3MinConfidence),
    type,
    subject: req.subject ?? inferSubject(req.content, req.speaker ?? null),
    content: req.content,
    context: req.context ?? null,
    confidence,
    source: req.source,
    sourceTurns: req.sourceTurns ?? [],
    sourceRefs: req.sourceRefs ?? [],
    sessionId: req.sessionId ?? null,
    createdAt: now,
    updatedAt: now,
    confirmedAt: now,
    lastAccessedAt: null,
    accessCount: 0,
    confirmCount: 1,
    validUntil: req.validUntil === undefined ? (parseValidUntil(req.content, now) ?? defaultValidity(ctx, type, now)) : req.validUntil,
    status: "active",
    statusReason: null,
    supersedes: [],
    supersededBy: null,
    conflictsWith: [],
    compressedInto: null,
    pinned: req.pinned ?? false,
    tags: req.tags ?? [],
    embeddingModel: ctx.model.id,
  };
}

/** Working memory is short-lived by nature; other kinds hold until said otherwise. */
function defaultValidity(ctx: EngineContext, type: MemoryType, now: number): number | null {
  return type === "task_state" ? now + ctx.config.write.taskStateTtlHours * 3_600_000 : null;
}

/**
 * Bulk load of already-distilled memories (import, benchmarks): guard and classification apply,
 * embeddings are batched, but no dedup or supersede against the store — the source is trusted to be consistent.
 */
export async function importMemories(ctx: EngineContext, reqs: WriteRequest[]): Promise<{ imported: number; refused: number }> {
  const now = ctx.clock.now();
  let imported = 0;
  let refused = 0;
  for (let i = 0; i < reqs.length; i += 256) {
    const batch = reqs.slice(i, i + 256).flatMap((req) => {
      const verdict = guardText(req.content);
      if (verdict.kind === "secret") {
        refused++;
        return [];
      }
      const record = newRecord(ctx, req, now);
      if (verdict.kind === "injection") {
        record.status = "quarantined";
        record.statusReason = verdict.reason;
      }
      return [record];
    });
    const vectors = await ctx.embedder.embed(batch.map(searchText));
    await ctx.store.putMemories(batch.map((record, j) => ({ record, vector: vectors[j] as Float32Array })));
    imported += batch.length;
  }
  await audit(ctx, "write", null, [], [], `imported ${imported} memories, refused ${refused}`);
  return { imported, refused };
}
