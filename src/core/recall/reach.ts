import { fullTextOf, type MemoryRecord } from "../model/memory.js";
import { memoryEntities } from "../text/entities.js";
import { contentTokens } from "../text/tokens.js";
import { cosine } from "../text/vector.js";

/**
 * What could change a recall answer after it was computed, so a shared cache can keep serving it
 * across writes that cannot reach it (a team writes all day; most writes are about other things):
 * - the memories it read (its candidates, the replaced ones it followed, their successors): any
 *   change to one of them may change it;
 * - the query's search terms and names: a memory sharing one is found by full text or by name;
 * - the query's vector and the similarity of the weakest vector candidate: a memory closer than that
 *   joins the vector candidates (`minCos` -1 when the search returned fewer than it asked for, so
 *   every memory would have joined). `vector` null: the query did not search by vector.
 * - `found`: every memory the word searches (full text, names) returned, however they then ranked. A
 *   memory sharing a term joins those searches only if it outranks one of them, which only the store
 *   can tell (its BM25 reads how rare each word is across everything it holds): the searches are asked
 *   again and the answer stands while they find nothing new. Null: not recorded, a shared term reaches it.
 * `open`: every change may change it (an answer read by time, or from raw turns, or with nothing).
 */
export interface RecallReach {
  open: boolean;
  ids: string[];
  terms: string[];
  vector: Float32Array | null;
  minCos: number;
  found?: string[] | null;
}

/** A memory a change stored or rewrote, as the searches would find it. */
export interface ChangedMemory {
  id: string;
  vector: Float32Array;
  terms: string[];
}

/**
 * What one write batch did to a scope. `memories`: each memory it stored or changed, with the vector
 * and terms it is found by. A change that is not described (an edit, a forget, an import) is null and
 * reaches every answer.
 */
export interface ScopeChange {
  memories: ChangedMemory[];
}

/** The terms the full-text and name searches find a memory by (stores/documents.ts indexes the same). */
export function searchTerms(record: MemoryRecord): string[] {
  return [...new Set([...contentTokens(fullTextOf(record)), ...memoryEntities(record)])];
}

/** The terms a query searches by: its content tokens (full text) and the names it asks about (entity search; names are lower case). */
export function queryTerms(tokens: ReadonlySet<string>, named: readonly string[]): string[] {
  return [...new Set([...tokens, ...named])];
}

const COSINE_SLACK = 1e-4;

/**
 * Whether `change` may have changed an answer of `reach`: "yes" when it touched a memory the answer read or its searches found,
 * stored one closer to the query than its weakest vector candidate, or is not described; "by words" when
 * all it shares with the question are search terms (the word searches, asked again, tell: wordsFindNothingNew);
 * "no" when it cannot reach the answer at all.
 */
export function reachOf(reach: RecallReach, change: ScopeChange | null): "yes" | "by words" | "no" {
  if (change === null || reach.open) return "yes";
  // A memory the word searches found but the answer did not read (past the candidates kept, or not valid then) may
  // read otherwise once changed: asking the searches again would find it again and not tell.
  const read = new Set([...reach.ids, ...(reach.found ?? [])]);
  const terms = new Set(reach.terms);
  let byWords = false;
  for (const m of change.memories) {
    if (read.has(m.id)) return "yes";
    // The store's similarity and this one round differently: a hair below the weakest candidate counts as joining.
    if (reach.vector !== null && cosine(reach.vector, m.vector) >= reach.minCos - COSINE_SLACK) return "yes";
    if (m.terms.some((t) => terms.has(t))) byWords = true;
  }
  if (byWords && !reach.found) return "yes";
  return byWords ? "by words" : "no";
}

/** Whether the word searches asked again found only memories they found when the answer was computed (none recorded: unknown, so no). */
export function wordsFindNothingNew(reach: RecallReach, foundNow: readonly string[]): boolean {
  if (!reach.found) return false;
  const before = new Set(reach.found);
  return foundNow.every((id) => before.has(id));
}
