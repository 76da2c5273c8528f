import { CJK_RUN } from "../text/cjk.js";
import { contentTokenSet, stem } from "../text/tokens.js";

const CJK = new RegExp(CJK_RUN.source);

/** How many of the best candidates decide what the query shares with all of them. */
const FOCUS_HEAD = 5;
/** Share of those candidates a query word must appear in to count as what they all talk about. */
const FOCUS_SHARE = 0.6;

/**
 * The query without the words its best candidates all share: what tells them apart. When several
 * memories name the same thing, the thing's name dominates a sentence vector, so every memory
 * about it looks equally close and the attribute asked for barely counts. Without the shared
 * words the question is only about the attribute (or, when the candidates share the attribute and
 * differ in the thing, only about the thing). Examples, in no case file: "What port does the
 * inventory service listen on?" over three memories about the inventory service reads as "What
 * port does listen on?"; "发票系统用什么队列？" over memories about 发票系统 reads as "用什么队列？".
 * Null when fewer than three candidates, nothing is shared, or nothing would be left.
 */
export function focusedQuery(query: string, queryTokens: Set<string>, candidates: string[]): string | null {
  const head = candidates.slice(0, FOCUS_HEAD);
  if (head.length < 3) return null;
  const sets = head.map((t) => contentTokenSet(t));
  const need = Math.max(2, Math.ceil(head.length * FOCUS_SHARE));
  const shared = [...queryTokens].filter((t) => sets.filter((s) => s.has(t)).length >= need);
  if (shared.length === 0 || shared.length === queryTokens.size) return null;
  const drop = new Set(shared);
  let out = query;
  // CJK words are cut out as substrings, longest first so none is left half cut; Latin words by stem.
  for (const t of [...drop].filter((w) => CJK.test(w)).sort((a, b) => b.length - a.length)) out = out.split(t).join("");
  out = out.replace(/[\p{L}\p{N}]+(?:'s)?/gu, (word) => {
    const lower = word.toLowerCase().replace(/'s$/, "");
    return drop.has(/^[a-z]+$/.test(lower) ? stem(lower) : lower) ? "" : word;
  });
  out = out.replace(/\s+/g, " ").trim();
  return contentTokenSet(out).size > 0 ? out : null;
}

/**
 * Relevance with part of its vector evidence read from the focused query instead of the whole one.
 * Only the spread changes: each candidate swaps `weight` of its cosine's deviation from the mean for
 * the focused cosine's deviation, in calibrated units, so the candidates' mean relevance stays and
 * the floor, already passed, is not touched.
 */
export function refocus(relevance: number[], cosines: number[], focused: number[], weight: number, span: number): number[] {
  if (relevance.length === 0 || weight === 0) return relevance;
  const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;
  const mc = mean(cosines);
  const mf = mean(focused);
  return relevance.map((r, i) => r + (weight * ((focused[i] as number) - mf - ((cosines[i] as number) - mc))) / span);
}
