import type { MemoryRecord, TurnRecord } from "../core/model/memory.js";
import type { MemoryFilter, TurnFilter } from "../core/ports.js";

export function memoryMatches(m: MemoryRecord, f: MemoryFilter): boolean {
  if (f.scope !== undefined && m.scope !== f.scope) return false;
  if (f.statuses && !f.statuses.includes(m.status)) return false;
  if (f.types && !f.types.includes(m.type)) return false;
  if (f.layers && !f.layers.includes(m.layer)) return false;
  if (f.sessionId !== undefined && m.sessionId !== f.sessionId) return false;
  if (f.validAt !== undefined && m.validUntil !== null && m.validUntil <= f.validAt) return false;
  return true;
}

export function turnMatches(t: TurnRecord, f: TurnFilter): boolean {
  if (f.scope !== undefined && t.scope !== f.scope) return false;
  if (f.statuses && !f.statuses.includes(t.status)) return false;
  return true;
}

/** SQL predicate for the same filter (LanceDB / DataFusion dialect). Values are quoted, never spliced raw. */
export function memoryWhere(f: MemoryFilter): string {
  const parts: string[] = [];
  if (f.scope !== undefined) parts.push(`scope = ${sqlString(f.scope)}`);
  if (f.statuses) parts.push(`status IN (${f.statuses.map(sqlString).join(", ")})`);
  if (f.types) parts.push(`type IN (${f.types.map(sqlString).join(", ")})`);
  if (f.layers) parts.push(`layer IN (${f.layers.map(sqlString).join(", ")})`);
  if (f.sessionId !== undefined) parts.push(`session_id = ${sqlString(f.sessionId)}`);
  if (f.validAt !== undefined) parts.push(`(valid_until IS NULL OR valid_until > ${Number(f.validAt)})`);
  return parts.join(" AND ");
}

export function turnWhere(f: TurnFilter): string {
  const parts: string[] = [];
  if (f.scope !== undefined) parts.push(`scope = ${sqlString(f.scope)}`);
  if (f.statuses) parts.push(`status IN (${f.statuses.map(sqlString).join(", ")})`);
  return parts.join(" AND ");
}

export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
