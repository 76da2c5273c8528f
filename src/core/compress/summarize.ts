import type { EngineContext } from "../context.js";
import { guardText } from "../guard/index.js";
import type { MemoryRecord } from "../model/memory.js";
import { lexicalSimilarity } from "../text/tokens.js";
import { valueChanged } from "../write/reconcile.js";

export interface Summary {
  text: string;
  summarizer: "llm" | "extractive";
  /** Why the LLM was not used, when one is configured but failed. */
  fallbackReason: string | null;
}

const SYSTEM = [
  "You merge memories of a coding agent into one summary.",
  "Keep every constraint, number, name, date and decision; drop only repetition.",
  "Answer with the summary only: plain sentences, no preamble, no markdown.",
].join(" ");

/**
 * Extractive merge: oldest first, restatements dropped (the newer wording kept; a changed value is
 * not a restatement), everything else
 * kept verbatim — so no constraint or number can be lost.
 */
export function extractiveSummary(memories: MemoryRecord[]): string {
  const ordered = [...memories].sort((a, b) => a.confirmedAt - b.confirmedAt);
  const kept: string[] = [];
  for (const m of ordered) {
    const text = m.content.trim().replace(/[.。]?$/, (p) => p || ".");
    const dup = kept.findIndex((k) => lexicalSimilarity(k, text) >= 0.8 && !valueChanged(k, text));
    if (dup >= 0) kept.splice(dup, 1);
    kept.push(text);
  }
  return kept.join(" ");
}

/**
 * LLM summary when one is configured (and it answers in time), the extractive merge otherwise.
 * Both sides of the summary are guarded: memories the guard flags now (an older store may hold
 * some) are left out, and an LLM summary the guard flags is replaced by the extractive merge.
 */
export async function summarise(ctx: EngineContext, memories: MemoryRecord[]): Promise<Summary> {
  const verdicts = await Promise.all(memories.map((m) => guardText(m.content)));
  const clean = memories.filter((_, i) => verdicts[i]?.kind === "ok");
  const left = memories.length - clean.length;
  const leftOut = left > 0 ? `${left} memories the guard flags were left out` : null;
  const extractive = (reason: string | null): Summary => ({
    text: extractiveSummary(clean),
    summarizer: "extractive",
    fallbackReason: [reason, leftOut].filter((r) => r !== null).join("; ") || null,
  });
  if (ctx.llm) {
    try {
      const user = clean.map((m, i) => `${i + 1}. (${m.type}) ${m.content}`).join("\n");
      const text = (await ctx.llm.complete({ system: SYSTEM, user, timeoutMs: 15_000 })).trim();
      if (text.length === 0) return extractive("llm returned an empty summary");
      const verdict = await guardText(text);
      if (verdict.kind !== "ok") return extractive(`llm summary ${verdict.reason}`);
      return { text, summarizer: "llm", fallbackReason: leftOut };
    } catch (err) {
      return extractive(`llm failed: ${(err as Error).message}`);
    }
  }
  return extractive(null);
}
