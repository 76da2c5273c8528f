import { fullTextOf, type MemoryRecord, type TurnRecord } from "../core/model/memory.js";
import { memoryEntities } from "../core/text/entities.js";
import { indexText } from "../core/text/tokens.js";

/**
 * What every store keeps of a memory besides its vector: the filterable fields as columns (or payload
 * keys), the full-text tokens, and the whole record as JSON so it round-trips exactly. One definition,
 * so LanceDB and Qdrant index and filter the same things.
 */
export function memoryDocument(record: MemoryRecord): Record<string, unknown> {
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
    fts: indexText(fullTextOf(record)),
    entities: memoryEntities(record).join(" "),
    doc: JSON.stringify(record),
  };
}

/** The same for an L0 turn: the speaker's name is searchable with what was said. */
export function turnDocument(record: TurnRecord): Record<string, unknown> {
  return {
    id: record.id,
    scope: record.scope,
    status: record.status,
    at: record.at,
    fts: indexText(`${record.speaker ?? ""} ${record.user}`),
    doc: JSON.stringify(record),
  };
}
