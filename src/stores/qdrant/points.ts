import { createHash } from "node:crypto";
import type { AuditEntry, MemoryRecord, TurnRecord } from "../../core/model/memory.js";
import type { CompressionProposal } from "../../core/model/proposal.js";
import type { ModelInfo } from "../../core/ports.js";
import { memoryDocument, turnDocument } from "../documents.js";
import { readStoredDoc, type DocTable, type StoredDocs } from "../storedDocs.js";
import { LIST_TEXT_KEYS } from "./filters.js";

export type Payload = Record<string, unknown>;

/**
 * Qdrant point ids must be unsigned integers or UUIDs; hindsight ids are any string. A point's id is
 * a name-based UUID (version 5 layout over SHA-256) of the kind and the record id, so the same record
 * always lands on the same point and lookups by id need no index. The record id itself is in the payload.
 */
export function pointId(kind: string, id: string): string {
  const h = createHash("sha256").update(`hindsight:${kind}:${id}`, "utf8").digest();
  h[6] = ((h[6] as number) & 0x0f) | 0x50;
  h[8] = ((h[8] as number) & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Collection-name-safe model key: readable slug, dimension, and a short hash so two ids never share a slug. */
export function modelKey(model: ModelInfo): string {
  const slug = model.id.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "model";
  const hash = createHash("sha256").update(model.id, "utf8").digest("hex").slice(0, 6);
  return `${slug}_${model.dimension}_${hash}`;
}

export interface CollectionNames {
  meta: string;
  audit: string;
  proposals: string;
  memories: string;
  turns: string;
}

/** Memories and L0 turns live in one pair of collections per embedding model and dimension; the rest is model-independent. */
export function collectionNames(prefix: string, model: ModelInfo | null): CollectionNames {
  const key = model ? modelKey(model) : "none";
  return {
    meta: `${prefix}_meta`,
    audit: `${prefix}_audit`,
    proposals: `${prefix}_proposals`,
    memories: `${prefix}_memories_${key}`,
    turns: `${prefix}_turns_${key}`,
  };
}

/**
 * The shared store document as payload (filter keys indexed, the record as JSON), plus the content
 * for Qdrant's own tools, and content and subject lowercased for a list's `text` (filters.ts
 * listTextFilter): never indexed, since Qdrant matches an unindexed string field by plain substring.
 */
export function memoryPayload(record: MemoryRecord): Payload {
  return { ...memoryDocument(record), content: record.content, [LIST_TEXT_KEYS.content]: record.content.toLowerCase(), [LIST_TEXT_KEYS.subject]: record.subject.toLowerCase() };
}

export function turnPayload(record: TurnRecord): Payload {
  return turnDocument(record);
}

export function proposalPayload(p: CompressionProposal): Payload {
  return { id: p.id, scope: p.scope, status: p.status, created_at: p.createdAt, doc: JSON.stringify(p) };
}

export function auditPayload(entry: AuditEntry, seq: number): Payload {
  return { id: entry.id, at: entry.at, scope: entry.scope, seq, doc: JSON.stringify(entry) };
}

/** The record in a point's `doc` payload, checked like every store's (src/stores/storedDocs.ts); `collection` is the name to report. */
export function docOf<K extends DocTable>(payload: Payload | null | undefined, kind: K, collection: string): StoredDocs[K] {
  // Reads usually ask for the doc alone: the record's id is then the document's own.
  const idOf = (doc: unknown): string => {
    const own = typeof payload?.id === "string" ? payload.id : (doc as { id?: unknown } | null | undefined)?.id;
    return typeof own === "string" ? own : "(unknown id)";
  };
  return readStoredDoc(kind, payload?.doc, { store: "Qdrant collection", table: collection, id: idOf });
}

/** A point's vector as Qdrant returns it for a single unnamed vector. */
export function vectorOf(vector: unknown): Float32Array {
  if (Array.isArray(vector) && (vector.length === 0 || typeof vector[0] === "number")) return Float32Array.from(vector as number[]);
  throw new Error("a Qdrant point came back without its vector");
}
