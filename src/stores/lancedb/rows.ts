import type { AuditEntry, MemoryRecord, TurnRecord } from "../../core/model/memory.js";
import { memoryDocument, turnDocument } from "../documents.js";

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

export function docOf<T>(row: Row): T {
  return JSON.parse(String(row.doc)) as T;
}

export function vectorOf(row: Row): Float32Array {
  const v = row.vector as ArrayLike<number> | { toArray(): ArrayLike<number> };
  return Float32Array.from("toArray" in v ? v.toArray() : v);
}
