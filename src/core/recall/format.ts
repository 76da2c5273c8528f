import type { RecallConflict, RecalledMemory } from "./types.js";

function day(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * One line per memory, e.g. "- [id <the full memory id>] (preference, confidence 0.90) The user prefers economy plans.".
 * The id is there so an agent can name the memory a new write replaces (memory_write `replaces`);
 * a raw turn has none, since it is not a memory and cannot be replaced.
 */
export function formatRecall(memories: RecalledMemory[], conflicts: RecallConflict[], usedFallback: boolean): string {
  if (memories.length === 0) return "No relevant memories.";
  const lines = memories.map((m) => {
    const until = m.validUntil !== null ? ` (valid until ${day(m.validUntil)})` : "";
    if (m.layer === "L0") return `- (raw turn, ${day(m.createdAt)}) ${m.content}${until}`;
    return `- [id ${m.id}] (${m.type}, confidence ${m.confidence.toFixed(2)}) ${m.content}${until}`;
  });
  if (usedFallback) lines.unshift("Nothing distilled matched; these raw conversation turns might:");
  for (const c of conflicts) {
    lines.push(`! Unresolved conflict about "${c.subject}": ${c.ids.join(" vs ")} (${c.reason}). Ask the user which holds.`);
  }
  return lines.join("\n");
}
