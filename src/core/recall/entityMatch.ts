import { cjkRatio } from "../text/cjk.js";
import { nameWords } from "../text/entities.js";

/**
 * How much of what a question names (its entity terms, core/text/entities.ts) each candidate names
 * too, 0-1, each name weighted by how few of the candidates share it: among memories that all name
 * the person asked about, the one that also names the asked-about dog or city stands out, and a name
 * every candidate shares adds nothing. Examples: "did Priya's team move the standup to Zoom?", "老周的
 * 猫叫什么" — "Priya" or "老周" is in most candidates, "Zoom" in few.
 */
export function entityShare(queryEntities: string[], texts: string[]): number[] {
  // Multi-word names are matched by their words (the terms hold both forms).
  const names = queryEntities.filter((e) => !e.includes("_"));
  if (names.length === 0 || texts.length === 0) return texts.map(() => 0);
  // Words split as entity terms are: a short name must not match inside a longer word.
  const tokens = texts.map((t) => {
    const lower = t.toLowerCase();
    return { lower, words: new Set(nameWords(lower)) };
  });
  const holds = (i: number, name: string): boolean => {
    const t = tokens[i] as { lower: string; words: Set<string> };
    return cjkRatio(name) > 0 ? t.lower.includes(name) : t.words.has(name);
  };
  const n = texts.length;
  const weights = names.map((name) => {
    const df = texts.reduce((c, _t, i) => c + (holds(i, name) ? 1 : 0), 0);
    return df === 0 ? 0 : Math.log(1 + n / df) * (1 - df / (n + 1));
  });
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) return texts.map(() => 0);
  return texts.map((_t, i) => names.reduce((s, name, j) => s + (holds(i, name) ? (weights[j] as number) : 0), 0) / total);
}
