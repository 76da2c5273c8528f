import { CJK_RUN } from "./cjk.js";
import { CJK_STOPWORDS, EN_STOPWORDS, FILLER_TOKENS } from "./stopwords.js";

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

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });

/**
 * Lexical tokens of a text: lowercased Latin words and numbers; CJK runs split into words by ICU's
 * dictionary segmenter (Chinese has no spaces), with runs of single characters (names the
 * dictionary does not know) also joined into bigrams.
 */
export function lexicalTokens(text: string): string[] {
  const out: string[] = [];
  const lower = withIdentifierParts(text).toLowerCase();
  let last = 0;
  for (const m of lower.matchAll(CJK_RUN)) {
    pushLatin(lower.slice(last, m.index), out);
    pushCjk(m[0], out);
    last = (m.index ?? 0) + m[0].length;
  }
  pushLatin(lower.slice(last), out);
  return out;
}

/**
 * A camelCase identifier followed by its words: people ask for the words ("what is the max pool size",
 * "heap limit 设的多少") of a setting written as one ("maxPoolSize", "heapLimitMb"). The identifier
 * itself stays a token, so an exact mention still matches whole.
 */
function withIdentifierParts(text: string): string {
  if (!/[a-z][A-Z]/.test(text)) return text;
  return text.replace(/\b[a-z]{2,}(?:[A-Z][a-z0-9]+)+\b/g, (id) => `${id} ${id.replace(/([a-z0-9])([A-Z])/g, "$1 $2")}`);
}

function pushCjk(run: string, out: string[]): void {
  const words = [...segmenter.segment(run)].filter((s) => s.isWordLike).map((s) => s.segment);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    out.push(w);
    const next = words[i + 1];
    if (w.length === 1 && next !== undefined && next.length === 1 && !CJK_STOPWORDS.has(w) && !CJK_STOPWORDS.has(next)) out.push(w + next);
  }
}

function pushLatin(segment: string, out: string[]): void {
  for (const m of segment.matchAll(/[\p{L}\p{N}]+/gu)) out.push(m[0]);
}

/** Tokens that carry topic: stopwords and grammar bigrams removed, English stemmed. */
export function contentTokens(text: string): string[] {
  const out: string[] = [];
  for (const t of lexicalTokens(text)) {
    if (EN_STOPWORDS.has(t) || CJK_STOPWORDS.has(t)) continue;
    out.push(/^[a-z]+$/.test(t) ? stem(t) : t);
  }
  return out;
}

export function contentTokenSet(text: string): Set<string> {
  return new Set(contentTokens(text));
}

/**
 * Common words written as a name inside a sentence, which the stopword list would drop: the value of
 * "the scheduler is written in Go", "builds run through Make". Examples, in no case file: "the parser
 * moved from Rust to Go", "the CLI is packaged with Make". Only capitalised after a word or a comma: a
 * sentence's first word is capitalised whatever it is.
 */
export function nameWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<=[\p{L}\p{N},]\s+)\p{Lu}\p{Ll}+\b/gu)) {
    const w = m[0].toLowerCase();
    if (EN_STOPWORDS.has(w)) out.push(w);
  }
  return out;
}

/**
 * Text written into the full-text column: distinct content tokens (stemmed words, CJK words)
 * joined by spaces, so the store's whitespace tokenizer sees exactly the tokens the engine reasons
 * with. Distinct because LanceDB 0.31's full-text search loses rows whose not-yet-indexed text
 * repeats the query term once a row of the table has been updated (reproduced in
 * test/integration/lanceFts.test.ts); memories are one sentence, so term frequency carries little.
 */
export function indexText(text: string): string {
  return [...new Set(contentTokens(text))].join(" ");
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
  const sa = new Set([...contentTokens(a), ...nameWords(a)]);
  const sb = new Set([...contentTokens(b), ...nameWords(b)]);
  const onlyA = [...sa].filter((t) => !sb.has(t) && !FILLER_TOKENS.has(t));
  const onlyB = [...sb].filter((t) => !sa.has(t) && !FILLER_TOKENS.has(t));
  return { onlyA, onlyB };
}
