import { searchText, type AuditEntry, type MemoryRecord, type TurnRecord } from "../../core/model/memory.js";
import { indexText } from "../../core/text/tokens.js";

export type Row = Record<string, unknown>;

export function memoryToRow(record: MemoryRecord, vector: Float32Array): Row {
  return {
    id: record.id,
    scope: record.scope,
    layer: record.layer,
    type: record.type,
    status: record.status,
    session_id: record.sessionId,
    valid_until: record.validUntil,
    created_at: record.createdAt,
    // Subject words are searchable too: "deploy target" finds memories about it.
    fts: indexText(`${searchText(record)} ${record.subject.startsWith("third-party:") ? "" : record.subject}`),
    doc: JSON.stringify(record),
    vector: Array.from(vector),
  };
}

export function turnToRow(record: TurnRecord, vector: Float32Array): Row {
  return {
    id: record.id,
    scope: record.scope,
    status: record.status,
    at: record.at,
    fts: indexText(`${record.speaker ?? ""} ${record.user}`),
    doc: JSON.stringify(record),
    vector: Array.from(vector),
  };
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
