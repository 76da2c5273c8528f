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
  if (f.createdIn) parts.push(`created_at >= ${sqlNumber(f.createdIn.from)} AND created_at < ${sqlNumber(f.createdIn.to)}`);
  if (f.text) parts.push(docTextWhere(f.text));
  return parts.join(" AND ");
}

/**
 * A list's `text` (in content or subject, case-insensitive) as SQL over the row's JSON document,
 * which is where content and subject live: a regular expression that skips whole JSON characters
 * (`[^"\\]` or an escape) from the start of the "content" or "subject" string to the needle, so the
 * needle can only match inside that one string, never across a quote into another field. The needle
 * is lowercased and JSON-escaped like the document (lower() commutes with JSON escaping: escapes are
 * lowercase already), then regex-escaped, then SQL-quoted; `%`, `_` and `'` are plain characters here.
 */
export function docTextWhere(text: string): string {
  const needle = JSON.stringify(text.toLowerCase()).slice(1, -1);
  const pattern = `"(?:content|subject)":"(?:[^"\\\\]|\\\\.)*${regexLiteral(needle)}`;
  return `regexp_like(lower(doc), ${sqlString(pattern)})`;
}

/** Escapes what Rust's regex syntax treats as meta characters (the set regex::escape escapes). */
function regexLiteral(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$#&\-~]/g, "\\$&");
}

export function turnWhere(f: TurnFilter): string {
  const parts: string[] = [];
  if (f.scope !== undefined) parts.push(`scope = ${sqlString(f.scope)}`);
  if (f.statuses) parts.push(`status IN (${f.statuses.map(sqlString).join(", ")})`);
  return parts.join(" AND ");
}

/** A finite number as an SQL literal that keeps every digit (no exponent for epoch milliseconds). */
export function sqlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return Number.isInteger(value) ? value.toFixed(0) : String(value);
}

export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
