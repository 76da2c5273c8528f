import type { MemoryFilter, TurnFilter } from "../../core/ports.js";

/** The subset of Qdrant's filter language this store writes (see the Filter schema of the REST API). */
export type QdrantCondition =
  | { key: string; match: { value: string | number | boolean } }
  | { key: string; match: { any: string[] } }
  | { key: string; match: { text: string } }
  | { key: string; range: { gt?: number; gte?: number; lt?: number; lte?: number } }
  | { is_empty: { key: string } }
  | { has_id: string[] }
  | QdrantFilter;

export interface QdrantFilter {
  must?: QdrantCondition[];
  should?: QdrantCondition[];
  must_not?: QdrantCondition[];
}

/** Payload keys of memory points (snake_case, as the payload indexes are named). */
export const MEMORY_KEYS = {
  scope: "scope",
  layer: "layer",
  type: "type",
  status: "status",
  sessionId: "session_id",
  validUntil: "valid_until",
  createdAt: "created_at",
  terms: "fts",
  entities: "entities",
} as const;

/** Lowercased content and subject of memory points, for a list's `text`; they must stay without a payload index (see listTextFilter). */
export const LIST_TEXT_KEYS = { content: "content_lc", subject: "subject_lc" } as const;

/**
 * The points that may hold a list's `text`: Qdrant matches a string field that has no full-text
 * index by plain, case-sensitive substring (`match.text` tokenises only an indexed field), so on the
 * lowercased keys the match is exact and done by the server. Points written before those keys
 * existed pass too, and the store checks their records itself (core/model/filter.ts textMatches)
 * until an update rewrites their payload.
 */
export function listTextFilter(text: string): QdrantFilter {
  const needle = text.toLowerCase();
  return {
    should: [
      { key: LIST_TEXT_KEYS.content, match: { text: needle } },
      { key: LIST_TEXT_KEYS.subject, match: { text: needle } },
      { is_empty: { key: LIST_TEXT_KEYS.content } },
    ],
  };
}

/** Payload keys of L0 turn points. */
export const TURN_KEYS = { scope: "scope", status: "status", at: "at", terms: "fts" } as const;

/** One value: an exact keyword match; several: any of them (Qdrant's match.any). */
function oneOf(key: string, values: readonly string[]): QdrantCondition {
  return values.length === 1 ? { key, match: { value: values[0] as string } } : { key, match: { any: [...values] } };
}

/**
 * The engine's memory filter as a Qdrant filter: every field a `must` condition. An empty list of
 * statuses, types or layers matches nothing (as SQL `IN ()` and the in-memory store do). Validity is
 * "no valid_until, or one later than validAt": is_empty covers a null and a missing key alike.
 */
export function memoryFilter(f: MemoryFilter): QdrantFilter | undefined {
  const must: QdrantCondition[] = [];
  if (f.scope !== undefined) must.push({ key: MEMORY_KEYS.scope, match: { value: f.scope } });
  if (f.statuses) must.push(f.statuses.length === 0 ? matchNothing() : oneOf(MEMORY_KEYS.status, f.statuses));
  if (f.types) must.push(f.types.length === 0 ? matchNothing() : oneOf(MEMORY_KEYS.type, f.types));
  if (f.layers) must.push(f.layers.length === 0 ? matchNothing() : oneOf(MEMORY_KEYS.layer, f.layers));
  if (f.sessionId !== undefined) must.push({ key: MEMORY_KEYS.sessionId, match: { value: f.sessionId } });
  if (f.validAt !== undefined) {
    must.push({ should: [{ is_empty: { key: MEMORY_KEYS.validUntil } }, { key: MEMORY_KEYS.validUntil, range: { gt: Number(f.validAt) } }] });
  }
  if (f.createdIn) must.push({ key: MEMORY_KEYS.createdAt, range: { gte: f.createdIn.from, lt: f.createdIn.to } });
  return must.length > 0 ? { must } : undefined;
}

export function turnFilter(f: TurnFilter): QdrantFilter | undefined {
  const must: QdrantCondition[] = [];
  if (f.scope !== undefined) must.push({ key: TURN_KEYS.scope, match: { value: f.scope } });
  if (f.statuses) must.push(f.statuses.length === 0 ? matchNothing() : oneOf(TURN_KEYS.status, f.statuses));
  return must.length > 0 ? { must } : undefined;
}

/** Proposals and audit entries: by scope, and for proposals by status. */
export function scopeStatusFilter(scope: string | undefined, statuses?: readonly string[]): QdrantFilter | undefined {
  const must: QdrantCondition[] = [];
  if (scope !== undefined) must.push({ key: "scope", match: { value: scope } });
  if (statuses) must.push(statuses.length === 0 ? matchNothing() : oneOf("status", statuses));
  return must.length > 0 ? { must } : undefined;
}

/**
 * Points whose full-text field holds `term` (one token: the engine prepares the tokens and the index
 * splits on whitespace only, so Qdrant matches exactly the tokens the engine reasons with).
 */
export function termCondition(term: string, key: string = MEMORY_KEYS.terms): QdrantCondition {
  return { key, match: { text: term } };
}

/** Points holding at least one of the terms (in the full-text tokens, or another whitespace-tokenised field). */
export function anyTermFilter(terms: readonly string[], key: string = MEMORY_KEYS.terms): QdrantFilter {
  return { should: terms.map((t) => termCondition(t, key)) };
}

/** Both filters at once; either may be absent. */
export function and(a: QdrantFilter | undefined, b: QdrantFilter | undefined): QdrantFilter | undefined {
  if (!a) return b;
  if (!b) return a;
  return { must: [a, b] };
}

/** A condition no point satisfies: its id must be one of none. */
function matchNothing(): QdrantCondition {
  return { has_id: [] };
}
