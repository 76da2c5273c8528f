import { Field, FixedSizeList, Float32, Float64, Schema, Utf8 } from "apache-arrow";

/** Filterable fields are columns; the full record is a JSON document so the record can grow without migrations. */
export function memoriesSchema(dimension: number): Schema {
  return new Schema([
    new Field("id", new Utf8(), false),
    new Field("scope", new Utf8(), false),
    new Field("layer", new Utf8(), false),
    new Field("type", new Utf8(), false),
    new Field("status", new Utf8(), false),
    new Field("session_id", new Utf8(), true),
    new Field("valid_until", new Float64(), true),
    new Field("created_at", new Float64(), false),
    new Field("fts", new Utf8(), false),
    new Field("doc", new Utf8(), false),
    new Field("vector", new FixedSizeList(dimension, new Field("item", new Float32(), true)), false),
  ]);
}

export function turnsSchema(dimension: number): Schema {
  return new Schema([
    new Field("id", new Utf8(), false),
    new Field("scope", new Utf8(), false),
    new Field("status", new Utf8(), false),
    new Field("at", new Float64(), false),
    new Field("fts", new Utf8(), false),
    new Field("doc", new Utf8(), false),
    new Field("vector", new FixedSizeList(dimension, new Field("item", new Float32(), true)), false),
  ]);
}

export function auditSchema(): Schema {
  return new Schema([
    new Field("id", new Utf8(), false),
    new Field("at", new Float64(), false),
    new Field("scope", new Utf8(), true),
    new Field("doc", new Utf8(), false),
  ]);
}

export function proposalsSchema(): Schema {
  return new Schema([
    new Field("id", new Utf8(), false),
    new Field("scope", new Utf8(), false),
    new Field("status", new Utf8(), false),
    new Field("created_at", new Float64(), false),
    new Field("doc", new Utf8(), false),
  ]);
}

export function metaSchema(): Schema {
  return new Schema([new Field("key", new Utf8(), false), new Field("value", new Utf8(), false)]);
}
