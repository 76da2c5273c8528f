/** A payload index as Qdrant's create-index call takes it: a type name, or a type with parameters. */
export type FieldSchema = "keyword" | "float" | { type: "keyword"; is_tenant: boolean } | { type: "text"; tokenizer: "whitespace"; lowercase: boolean };

/** The engine prepares full-text tokens (stemmed words, ICU-segmented Chinese): the index only splits on whitespace. */
const TERMS: FieldSchema = { type: "text", tokenizer: "whitespace", lowercase: false };
/** Every request filters by scope: Qdrant keeps each tenant's points together (multitenancy). */
const SCOPE: FieldSchema = { type: "keyword", is_tenant: true };

/** Payload indexes behind the filters, the ordering and the keyword half of hybrid recall, per collection kind. */
export const PAYLOAD_INDEXES: Record<"memories" | "turns" | "audit" | "proposals" | "meta", Record<string, FieldSchema>> = {
  memories: {
    scope: SCOPE,
    layer: "keyword",
    type: "keyword",
    status: "keyword",
    session_id: "keyword",
    valid_until: "float",
    created_at: "float",
    fts: TERMS,
    entities: TERMS,
  },
  turns: { scope: SCOPE, status: "keyword", at: "float", fts: TERMS },
  audit: { scope: "keyword", at: "float" },
  proposals: { scope: "keyword", status: "keyword", created_at: "float" },
  meta: {},
};
