import type { MemoryFilter, TurnFilter } from "../ports.js";
import type { MemoryRecord, TurnRecord } from "./memory.js";

/** What a MemoryFilter means for one record: stores that filter in memory and the engine read it the same way. */
export function memoryMatches(m: MemoryRecord, f: MemoryFilter): boolean {
  if (f.scope !== undefined && m.scope !== f.scope) return false;
  if (f.statuses && !f.statuses.includes(m.status)) return false;
  if (f.types && !f.types.includes(m.type)) return false;
  if (f.layers && !f.layers.includes(m.layer)) return false;
  if (f.sessionId !== undefined && m.sessionId !== f.sessionId) return false;
  if (f.validAt !== undefined && m.validUntil !== null && m.validUntil <= f.validAt) return false;
  if (f.createdIn && (m.createdAt < f.createdIn.from || m.createdAt >= f.createdIn.to)) return false;
  if (f.text && !textMatches(m, f.text)) return false;
  return true;
}

/** A list's `text`: in the content or the subject, case-insensitive. */
export function textMatches(m: Pick<MemoryRecord, "content" | "subject">, text: string): boolean {
  const needle = text.toLowerCase();
  return m.content.toLowerCase().includes(needle) || m.subject.toLowerCase().includes(needle);
}

/**
 * The order of every memory listing: newest created first; memories created in the same
 * millisecond by id, so consecutive pages neither repeat nor skip one.
 */
export function listOrder(a: Pick<MemoryRecord, "createdAt" | "id">, b: Pick<MemoryRecord, "createdAt" | "id">): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function turnMatches(t: TurnRecord, f: TurnFilter): boolean {
  if (f.scope !== undefined && t.scope !== f.scope) return false;
  if (f.statuses && !f.statuses.includes(t.status)) return false;
  return true;
}
