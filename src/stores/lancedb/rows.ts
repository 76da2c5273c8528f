import type { z } from "zod";
import { HindsightError } from "../../core/errors.js";
import type { AuditEntry, MemoryRecord, TurnRecord } from "../../core/model/memory.js";
import { memoryDocument, turnDocument } from "../documents.js";
import { readStoredDoc, type DocTable, type StoredDocs } from "../storedDocs.js";
import { META_SCHEMAS, VectorColumnSchema, type MetaKey, type MetaValues } from "./schema.js";

export type Row = Record<string, unknown>;

export function memoryToRow(record: MemoryRecord, vector: Float32Array): Row {
  return { ...memoryDocument(record), vector: Array.from(vector) };
}

export function turnToRow(record: TurnRecord, vector: Float32Array): Row {
  return { ...turnDocument(record), vector: Array.from(vector) };
}

export function auditToRow(entry: AuditEntry): Row {
  return { id: entry.id, at: entry.at, scope: entry.scope, doc: JSON.stringify(entry) };
}

/**
 * A row that cannot be read is an error of the store, never something to skip: skipping would
 * hide a memory from recall and from every list without anyone being told.
 */
function unreadable(table: string, id: string, field: string, problem: string, cause?: unknown): HindsightError {
  return new HindsightError("STORE_ERROR", `the LanceDB table "${table}" holds a row that cannot be read: row ${id}, field ${field}: ${problem}`, {
    details: { table, id, field },
    cause,
  });
}

function firstIssue(error: z.ZodError, prefix: string): { field: string; problem: string } {
  const issue = error.issues[0];
  const path = issue ? issue.path.map(String) : [];
  return { field: [prefix, ...path].join("."), problem: issue?.message ?? "does not match the schema" };
}

/** The row's id for an error message: the column when it was selected, else the document's own, else unknown. */
function rowId(row: Row, doc?: unknown): string {
  if (typeof row.id === "string") return row.id;
  const own = (doc as { id?: unknown } | null | undefined)?.id;
  return typeof own === "string" ? own : "(unknown id)";
}

/** The record in the row's `doc` column, checked against the schema of what `kind` tables keep; `table` is the physical name to report. */
export function docOf<K extends DocTable>(row: Row, kind: K, table: string = kind): StoredDocs[K] {
  return readStoredDoc(kind, row.doc, { store: "LanceDB table", table, id: (doc) => rowId(row, doc) });
}

export function vectorOf(row: Row, table: string): Float32Array {
  const parsed = VectorColumnSchema.safeParse(row.vector);
  if (!parsed.success) throw unreadable(table, rowId(row), "vector", row.vector === undefined || row.vector === null ? "missing" : "expected a list of numbers", parsed.error);
  const v = parsed.data;
  const out = Float32Array.from("toArray" in v ? v.toArray() : v);
  if (out.length === 0 || out.some((x) => !Number.isFinite(x))) throw unreadable(table, rowId(row), "vector", "expected a non-empty list of finite numbers");
  return out;
}

/** A search's score column (`_distance` of a vector search, `_score` of a full-text one); computed by the search, so only its type is checked. */
export function scoreOf(row: Row, column: "_distance" | "_score", table: string): number {
  const value = row[column];
  if (typeof value !== "number") throw unreadable(table, rowId(row), column, `expected a number, got ${value === null ? "null" : typeof value}`);
  return value;
}

/** The JSON under a key of the meta table, checked against what that key holds. */
export function metaValueOf<K extends MetaKey>(key: K, value: string): MetaValues[K] {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (err) {
    throw unreadable("meta", key, "value", `not JSON (${(err as Error).message})`, err);
  }
  const parsed = META_SCHEMAS[key].safeParse(json);
  if (!parsed.success) {
    const { field, problem } = firstIssue(parsed.error, "value");
    throw unreadable("meta", key, field, problem, parsed.error);
  }
  return parsed.data;
}
