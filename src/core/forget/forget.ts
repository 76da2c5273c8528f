import type { EngineContext } from "../context.js";
import { embedOne, thresholdsOf } from "../context.js";
import { HindsightError } from "../errors.js";
import type { ForgetParams } from "../model/inputs.js";
import type { MemoryRecord, TurnRecord } from "../model/memory.js";
import { fuseRelevance, queryFeatures } from "../recall/relevance.js";
import { splitSentences } from "../text/sentences.js";
import { lexicalSimilarity } from "../text/tokens.js";
import { turnText } from "../model/turnText.js";
import { audit } from "../write/writer.js";

export interface ForgetResult {
  forgotten: number;
  ids: string[];
  /** L0 turns deleted or redacted because they held what was forgotten. */
  turns: number;
  /** What was forgotten (or, on a dry run, would be), so a caller can show it. */
  memories: ForgottenMemory[];
  /** True when nothing was deleted: the counts say what a real run would do. */
  dryRun: boolean;
}

export type ForgottenMemory = Pick<MemoryRecord, "id" | "layer" | "type" | "status" | "content">;

/** Forgetting by query must be surer than recall: only strong matches go, never collateral. */
const FORGET_EVIDENCE = 0.5;
const FORGOTTEN_MARK = "[forgotten]";

function containsAll(text: string, terms: string[]): boolean {
  const lower = text.toLowerCase();
  return terms.every((t) => lower.includes(t.toLowerCase()));
}

export async function forgetMemories(ctx: EngineContext, params: ForgetParams, scope: string): Promise<ForgetResult> {
  const targets = new Map<string, MemoryRecord>();
  const directTurns = new Map<string, TurnRecord>();

  const ids = [...(params.id ? [params.id] : []), ...(params.ids ?? [])];
  if (ids.length > 0) {
    const found = await ctx.store.getMemories(ids);
    const missing = ids.filter((id) => !found.some((m) => m.id === id));
    if (missing.length === ids.length && params.query === undefined && params.match === undefined) {
      throw new HindsightError("NOT_FOUND", `forget: no memory with id ${missing.join(", ")}`, { field: "id" });
    }
    for (const m of found) if (params.scope === undefined || m.scope === scope) targets.set(m.id, m);
  }

  if (params.match) {
    const terms = params.match;
    for (const m of await ctx.store.listMemories({ scope })) if (containsAll(m.content, terms)) targets.set(m.id, m);
    for (const t of await ctx.store.listTurns({ scope })) if (containsAll(t.user, terms)) directTurns.set(t.id, t);
  }

  if (params.query) {
    const q = queryFeatures(params.query, await embedOne(ctx, params.query, "query"), thresholdsOf(ctx));
    const filter = { scope };
    const [byVector, byText] = await Promise.all([
      ctx.store.searchMemoriesByVector(q.vector, filter, 20),
      ctx.store.searchMemoriesByText(params.query, filter, 20),
    ]);
    for (const h of [...byVector, ...byText]) {
      const parts = fuseRelevance(q, h.record.content, h.vector, 0, ctx.config);
      if (parts.evidence >= FORGET_EVIDENCE) targets.set(h.record.id, h.record);
    }
    const [turnsByVector, turnsByText] = await Promise.all([
      ctx.store.searchTurnsByVector(q.vector, filter, 20),
      ctx.store.searchTurnsByText(params.query, filter, 20),
    ]);
    for (const h of [...turnsByVector, ...turnsByText]) {
      const parts = fuseRelevance(q, turnText(h.record), h.vector, 0, ctx.config);
      if (parts.evidence >= FORGET_EVIDENCE && h.record.memoryIds.length === 0) directTurns.set(h.record.id, h.record);
    }
  }

  const memories = [...targets.values()];
  const turnIds = new Set([...memories.flatMap((m) => m.sourceTurns), ...directTurns.keys()]);
  // Only turns of the forgotten memory's own scope: a source list is data (an import may name anything), never a way into another project.
  const turns = (await ctx.store.getTurns([...turnIds])).filter((t) => directTurns.has(t.id) || memories.some((m) => m.scope === t.scope && m.sourceTurns.includes(t.id)));
  const forgottenIds = new Set(memories.map((m) => m.id));
  const shown = memories.map(({ id, layer, type, status, content }) => ({ id, layer, type, status, content }));
  // Every turn found is either deleted or redacted below, so its count is the real run's.
  if (params.dryRun) return { forgotten: forgottenIds.size, ids: [...forgottenIds], turns: turns.length, memories: shown, dryRun: true };
  const toDelete: string[] = [];
  const toRedact: Array<{ record: TurnRecord; vector: Float32Array }> = [];
  for (const turn of turns) {
    const remaining = turn.memoryIds.filter((id) => !forgottenIds.has(id));
    if (remaining.length === 0 || directTurns.has(turn.id)) {
      toDelete.push(turn.id);
      continue;
    }
    // The turn also holds memories that stay: cut out only the sentences that said what is forgotten.
    const gone = memories.filter((m) => m.sourceTurns.includes(turn.id));
    const kept = splitSentences(turn.user).map((s) => (gone.some((m) => lexicalSimilarity(s, m.content) >= 0.5) ? FORGOTTEN_MARK : s));
    const record = { ...turn, user: kept.join(" "), memoryIds: remaining };
    const [vector] = await ctx.embedder.embed([turnText(record)]);
    if (vector) toRedact.push({ record, vector });
  }

  // Links from survivors to forgotten memories are cut so nothing points at deleted content.
  const neighbours = await ctx.store.listMemories({ scope });
  const relinked = neighbours
    .filter((m) => !forgottenIds.has(m.id))
    .filter((m) => m.conflictsWith.some((id) => forgottenIds.has(id)) || (m.supersededBy !== null && forgottenIds.has(m.supersededBy)))
    .map((m) => ({
      ...m,
      conflictsWith: m.conflictsWith.filter((id) => !forgottenIds.has(id)),
      supersededBy: m.supersededBy !== null && forgottenIds.has(m.supersededBy) ? null : m.supersededBy,
    }));

  if (forgottenIds.size > 0) await ctx.store.deleteMemories([...forgottenIds]);
  if (toDelete.length > 0) await ctx.store.deleteTurns(toDelete);
  if (toRedact.length > 0) await ctx.store.putTurns(toRedact);
  if (relinked.length > 0) await ctx.store.updateMemories(relinked);
  const how = params.query !== undefined ? "query" : params.match !== undefined ? "keyword match" : "id";
  await audit(ctx, "forget", scope, [...forgottenIds], [...toDelete, ...toRedact.map((t) => t.record.id)], `forgot ${forgottenIds.size} memories and ${toDelete.length + toRedact.length} turns by ${how}`);
  return { forgotten: forgottenIds.size, ids: [...forgottenIds], turns: toDelete.length + toRedact.length, memories: shown, dryRun: false };
}
