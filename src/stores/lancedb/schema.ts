import { Field, FixedSizeList, Float32, Float64, Schema, Utf8 } from "apache-arrow";
import { z } from "zod";
import type { ModelInfo, RecallStatsRecord } from "../../core/ports.js";

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
    new Field("entities", new Utf8(), false),
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

// What is written above is read back through the schemas below: a row is checked before anything
// uses it, so a damaged or foreign row is reported by table, id and field instead of surfacing later
// as a TypeError far from the store.

/** The vector column as LanceDB returns it: an Arrow vector (toArray) or a plain list, of numbers. */
export const VectorColumnSchema = z.union([
  z.array(z.number()),
  z.custom<Float32Array>((v) => v instanceof Float32Array, "expected a list of numbers"),
  z.custom<{ toArray(): ArrayLike<number> }>((v) => typeof (v as { toArray?: unknown } | null)?.toArray === "function", "expected a list of numbers"),
]);

/** The JSON kept under each key of the meta table. */
export interface MetaValues {
  model: ModelInfo;
  tables: { memories: string; turns: string };
  recall_stats: RecallStatsRecord;
}

export type MetaKey = keyof MetaValues;

const Count = z.number().int().nonnegative();

export const META_SCHEMAS: { [K in MetaKey]: z.ZodType<MetaValues[K]> } = {
  model: z.object({ id: z.string().min(1), dimension: z.number().int().positive() }).loose(),
  tables: z.object({ memories: z.string().min(1), turns: z.string().min(1) }).loose(),
  recall_stats: z
    .object({
      since: z.number(),
      count: Count,
      hits: Count,
      sumMs: z.number(),
      recent: z.array(z.number()),
      hours: z.array(
        z.object({ at: z.number(), count: Count, hits: Count, p50Ms: z.number().nullable(), p95Ms: z.number().nullable(), durations: z.array(z.number()).optional() }).loose(),
      ),
    })
    .loose(),
};
