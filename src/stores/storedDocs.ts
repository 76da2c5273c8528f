import { z } from "zod";
import { HindsightError } from "../core/errors.js";
import { AuditEntrySchema, MemoryRecordSchema, TurnRecordSchema, type AuditEntry, type MemoryRecord, type TurnRecord } from "../core/model/memory.js";
import { CompressionProposalSchema, type CompressionProposal } from "../core/model/proposal.js";

// Every store keeps a record as a JSON document beside the columns or payload keys it filters on.
// Reading one back parses it with the engine's schema, on every store alike, so a damaged or
// foreign document is reported by table, id and field instead of surfacing later as a TypeError.

/** The record each table keeps as JSON in its `doc` column. */
export interface StoredDocs {
  memories: MemoryRecord;
  turns: TurnRecord;
  audit: AuditEntry;
  proposals: CompressionProposal;
}

export type DocTable = keyof StoredDocs;

/**
 * A scope as stored: any name the engine was ever configured with. Inputs must look like
 * project:<id>; a store written under a configured default such as "personal" must still be readable.
 */
const StoredScope = z.string().min(1);

/**
 * The engine's own record schemas, read back no stricter than the engine writes. Loose: a field this
 * version does not know (written by a newer one) is kept, so updating a record never drops it.
 */
export const DOC_SCHEMAS: { [K in DocTable]: z.ZodType<StoredDocs[K]> } = {
  memories: MemoryRecordSchema.extend({ scope: StoredScope }).loose(),
  turns: TurnRecordSchema.extend({ scope: StoredScope }).loose(),
  audit: AuditEntrySchema.loose(),
  proposals: CompressionProposalSchema.extend({ scope: StoredScope }).loose(),
};


/** Where a document was read: for an error that names the store, the table or collection, and the record. */
export interface DocPlace {
  store: "LanceDB table" | "Qdrant collection";
  /** The physical name (a rewrite or a prefix may differ from the kind). */
  table: string;
  /** The record's id, or how to find it in the parsed document when the row did not carry it. */
  id: string | ((doc: unknown) => string);
}

/**
 * A stored document read back and checked, or STORE_ERROR naming the store, table, record id and
 * field. Never skipped: skipping would hide a memory from recall and from every list without anyone told.
 */
export function readStoredDoc<K extends DocTable>(kind: K, text: unknown, place: DocPlace): StoredDocs[K] {
  const unreadable = (field: string, problem: string, doc?: unknown, cause?: unknown) => {
    const id = typeof place.id === "string" ? place.id : place.id(doc);
    return new HindsightError("STORE_ERROR", `the ${place.store} "${place.table}" holds a row that cannot be read: row ${id}, field ${field}: ${problem}`, {
      details: { table: place.table, id, field },
      cause,
    });
  };
  if (typeof text !== "string") throw unreadable("doc", text === undefined || text === null ? "missing" : `expected JSON text, got ${typeof text}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw unreadable("doc", `not JSON (${(err as Error).message})`, undefined, err);
  }
  const parsed = DOC_SCHEMAS[kind].safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw unreadable(["doc", ...(issue ? issue.path.map(String) : [])].join("."), issue?.message ?? "does not match the schema", json, parsed.error);
  }
  return parsed.data;
}
