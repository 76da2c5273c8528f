import { CJK_RUN } from "./cjk.js";
import { CJK_STOP_BIGRAMS, EN_STOPWORDS, FILLER_TOKENS } from "./stopwords.js";

/** Light English stemming: enough to match "approvals"/"approval", "deployed"/"deploy". */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return word.slice(0, -3) + "y";
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) return word;
  if (word.endsWith("ing") && word.length > 5) return word.slice(0, -3);
  if (word.endsWith("ed") && word.length > 4) return word.slice(0, -2);
  if (word.endsWith("es") && /(sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/**
 * Lexical tokens of a text: lowercased Latin words and numbers, and overlapping character bigrams
 * for CJK runs (Chinese has no spaces; bigrams are the standard unit for matching it).
 */
export function lexicalTokens(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  let last = 0;
  for (const m of lower.matchAll(CJK_RUN)) {
    pushLatin(lower.slice(last, m.index), out);
    const run = [...m[0]];
    if (run.length === 1) out.push(run[0] as string);
    for (let i = 0; i + 1 < run.length; i++) out.push((run[i] as string) + (run[i + 1] as string));
    last = (m.index ?? 0) + m[0].length;
  }
  pushLatin(lower.slice(last), out);
  return out;
}

function pushLatin(segment: string, out: string[]): void {
  for (const m of segment.matchAll(/[\p{L}\p{N}]+/gu)) out.push(m[0]);
}

/** Tokens that carry topic: stopwords and grammar bigrams removed, English stemmed. */
export function contentTokens(text: string): string[] {
  const out: string[] = [];
  for (const t of lexicalTokens(text)) {
    if (EN_STOPWORDS.has(t) || CJK_STOP_BIGRAMS.has(t)) continue;
    out.push(/^[a-z]+$/.test(t) ? stem(t) : t);
  }
  return out;
}

export function contentTokenSet(text: string): Set<string> {
  return new Set(contentTokens(text));
}

/**
 * Text written into the full-text column: content tokens (stemmed, CJK bigrams) joined by spaces,
 * so the store's whitespace tokenizer sees exactly the tokens the engine reasons with.
 */
export function indexText(text: string): string {
  return contentTokens(text).join(" ");
}

/** Query form for full text: content tokens only, so stopwords do not pull in every row. */
export function queryText(text: string): string {
  return [...new Set(contentTokens(text))].join(" ");
}

/** Dice overlap of content-token sets, in [0, 1]. */
export function lexicalSimilarity(a: string, b: string): number {
  return diceOf(contentTokenSet(a), contentTokenSet(b));
}

export function diceOf(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  return (2 * common) / (a.size + b.size);
}

/** Share of the query's content tokens found in the document, in [0, 1]. */
export function coverage(queryTokens: Set<string>, docTokens: Set<string>): number {
  if (queryTokens.size === 0) return 0;
  let hit = 0;
  for (const t of queryTokens) if (docTokens.has(t)) hit++;
  return hit / queryTokens.size;
}

/** Content tokens present on each side only, fillers removed: what changed between two statements. */
export function tokenDifference(a: string, b: string): { onlyA: string[]; onlyB: string[] } {
  const sa = contentTokenSet(a);
  const sb = contentTokenSet(b);
  const onlyA = [...sa].filter((t) => !sb.has(t) && !FILLER_TOKENS.has(t));
  const onlyB = [...sb].filter((t) => !sa.has(t) && !FILLER_TOKENS.has(t));
  return { onlyA, onlyB };
}
