import type { MemoryExplanation, MemoryLink } from "../core/engine.js";
import type { ForgetResult, ForgottenMemory } from "../core/forget/forget.js";
import type { MemoryRecord } from "../core/model/memory.js";
import { shortId } from "../core/ops/shortIds.js";
import type { RecallResult } from "../core/recall/types.js";
import type { WriteResult } from "../core/write/writer.js";

/** What the CLI prints for memories, writes, recalls and forgets: short ids a person can type back. */

function day(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** An active memory past its valid_until is kept but no longer recalled: the status column says so. */
function statusOf(m: Pick<MemoryRecord, "status" | "validUntil">, now: number): string {
  return m.status === "active" && m.validUntil !== null && m.validUntil <= now ? "expired" : m.status;
}

/** One row of `list`: short id, status, layer, type, confidence, content. */
export function describeMemory(m: MemoryRecord, now: number): string {
  const until = m.validUntil !== null ? ` until ${day(m.validUntil)}` : "";
  return `${shortId(m.id)}  ${statusOf(m, now).padEnd(11)} ${m.layer} ${m.type.padEnd(10)} ${m.confidence.toFixed(2)}  ${m.content}${until}`;
}

/** A memory named in a sentence: its short id and what it says, so "replacing 9f8e7d6c" tells which value went. */
export function nameMemory(id: string, known: ReadonlyMap<string, Pick<MemoryRecord, "content">>): string {
  const m = known.get(id);
  return m ? `${shortId(id)} "${m.content}"` : shortId(id);
}

function names(ids: readonly string[], known: ReadonlyMap<string, Pick<MemoryRecord, "content">>): string {
  return ids.map((id) => nameMemory(id, known)).join(" and ");
}

/**
 * The outcome of one write in a sentence. `known` holds the memories the write points to (what it
 * replaced, lost to or conflicts with) so they are named by what they say, each once.
 */
export function describeWrite(r: WriteResult, known: ReadonlyMap<string, Pick<MemoryRecord, "content">>): string {
  const m = r.memory;
  const what = m ? ` "${m.content}" (${m.layer} ${m.type}, confidence ${m.confidence.toFixed(2)})` : "";
  const decided = r.decidedBy === "rules" ? "" : `; decided by the ${r.decidedBy}`;
  const conflicts = r.conflictsWith.length > 0 ? `; conflicts with ${names(r.conflictsWith, known)}: both kept, recall reports the conflict` : "";
  const id = r.id === null ? "" : shortId(r.id);
  switch (r.action) {
    case "duplicate":
      return `already known: confirmed ${r.id === null ? "" : nameMemory(r.id, m ? new Map([[r.id, m]]) : known)}${m ? ` (stated ${plural(m.confirmCount, "time", "times")})` : ""}; nothing new stored`;
    case "quarantined":
      return `quarantined ${id}: ${r.reason} (kept out of recall until someone releases it)`;
    case "skipped":
      if (r.id === null || !m) return `not stored: ${r.reason}`;
      return `stored ${id} as history only${what}${m.supersededBy ? `, ${names([m.supersededBy], known)} stays current` : ""} (${r.reason})`;
    default:
      if (r.supersedes.length > 0) return `stored ${id}${what}, replacing ${names(r.supersedes, known)} (${r.reason}${decided})${conflicts}`;
      return `stored ${id}${what}${conflicts}${r.reason === "new memory" ? "" : ` (${r.reason})`}`;
  }
}

/** The ids a write result points to, to fetch before describing it. */
export function linkedIds(r: WriteResult): string[] {
  return [...new Set([...r.supersedes, ...r.conflictsWith, ...(r.action === "skipped" && r.memory?.supersededBy ? [r.memory.supersededBy] : [])])];
}

/** `recall` for a person: one row per memory with its short id, the L0 fallback and conflicts marked. */
export function describeRecall(r: RecallResult): string[] {
  if (r.memories.length === 0) return ["No relevant memories."];
  const lines = r.usedFallback ? ["Nothing distilled matched; these raw conversation turns might:"] : [];
  for (const m of r.memories) {
    const until = m.validUntil !== null ? ` (valid until ${day(m.validUntil)})` : "";
    if (m.layer === "L0") lines.push(`(raw turn ${day(m.createdAt)})  ${m.content}${until}`);
    else lines.push(`${shortId(m.id)}  ${m.layer} ${(m.type ?? "").padEnd(10)} ${m.confidence.toFixed(2)}  ${m.content}${until}`);
  }
  for (const c of r.conflicts) lines.push(`! unresolved conflict about "${c.subject}": ${c.ids.map(shortId).join(" vs ")} (${c.reason})`);
  return lines;
}

/** One memory forget removed (or would remove). */
export function describeForgotten(m: ForgottenMemory): string {
  return `${shortId(m.id)}  ${m.status.padEnd(11)} ${m.layer} ${m.type.padEnd(10)} ${m.content}`;
}

export function forgetSummary(r: Pick<ForgetResult, "forgotten" | "turns">): string {
  return `${plural(r.forgotten, "memory", "memories")} and ${plural(r.turns, "raw turn", "raw turns")}`;
}

const RELATIONS: Record<MemoryLink["relation"], string> = {
  supersedes: "replaces",
  superseded_by: "replaced by",
  compressed_into: "summarised into",
  compressed_from: "summary of",
  conflicts_with: "conflicts with",
};

/** `show`: one memory with everything a person needs to decide about it, linked memories by short id and value. */
export function describeDetail(e: MemoryExplanation, now: number): string[] {
  const m = e.memory;
  const when = (t: number) => new Date(t).toISOString().slice(0, 16).replace("T", " ");
  const lines = [
    `${m.id}  ${statusOf(m, now)}${m.statusReason ? ` (${m.statusReason})` : ""}${m.pinned ? ", pinned" : ""}`,
    `  ${m.content}`,
    `  ${m.layer} ${m.type}, confidence ${m.confidence.toFixed(2)}, stated ${plural(m.confirmCount, "time", "times")}${m.subject ? `, subject "${m.subject}"` : ""}, source ${m.source}`,
    `  created ${when(m.createdAt)}, last confirmed ${when(m.confirmedAt)}${m.validUntil !== null ? `, valid until ${day(m.validUntil)}` : ""}`,
  ];
  for (const l of e.links) lines.push(`  ${RELATIONS[l.relation]} ${nameMemory(l.memory.id, new Map([[l.memory.id, l.memory]]))} (${l.memory.status})`);
  for (const t of e.turns) lines.push(`  from turn ${shortId(t.id)} (${day(t.at)}): ${t.user}`);
  return lines;
}
