import type { MemoryFilter, TurnFilter } from "../core/ports.js";

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
