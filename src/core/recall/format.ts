import type { RecallConflict, RecalledMemory } from "./types.js";

function day(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/** One line per memory, e.g. "- (preference, confidence 0.90) The user prefers economy plans." */
export function formatRecall(memories: RecalledMemory[], conflicts: RecallConflict[], usedFallback: boolean): string {
  if (memories.length === 0) return "No relevant memories.";
  const lines = memories.map((m) => {
    const kind = m.layer === "L0" ? `raw turn, ${day(m.createdAt)}` : `${m.type}, confidence ${m.confidence.toFixed(2)}`;
    const until = m.validUntil !== null ? ` (valid until ${day(m.validUntil)})` : "";
    return `- (${kind}) ${m.content}${until}`;
  });
  if (usedFallback) lines.unshift("Nothing distilled matched; these raw conversation turns might:");
  for (const c of conflicts) {
    lines.push(`! Unresolved conflict about "${c.subject}": ${c.ids.join(" vs ")} (${c.reason}). Ask the user which holds.`);
  }
  return lines.join("\n");
}
