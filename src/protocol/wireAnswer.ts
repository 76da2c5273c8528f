import { z } from "zod";

// REST answers spell fields in snake_case (the one wire casing, src/core/wire.ts); the schemas here
// describe them as the extension and webview use them, in camelCase. Reading an answer walks it with
// its schema: an object's keys are renamed by the schema's own field names, a record's keys (layers,
// types, statuses: values, not field names) are left as they are. The protocol may not import
// src/core (the layer rules), so the one-line camel-to-snake rule is repeated here; the wire test
// checks both against each other.

/** A camelCase field name as the wire spells it (core/wire.ts wireField, for one name). */
export function wireName(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function decode(schema: z.ZodType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return decode(schema.unwrap() as z.ZodType, value);
  if (schema instanceof z.ZodArray) return Array.isArray(value) ? value.map((item) => decode(schema.element as z.ZodType, item)) : value;
  if (schema instanceof z.ZodTuple) {
    const items = schema._zod.def.items as z.ZodType[];
    return Array.isArray(value) ? value.map((item, i) => (items[i] ? decode(items[i], item) : item)) : value;
  }
  if (schema instanceof z.ZodRecord) {
    if (!isPlainObject(value)) return value;
    const valueType = schema._zod.def.valueType as z.ZodType;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(valueType, v)]));
  }
  if (schema instanceof z.ZodObject) {
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [field, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const wire = wireName(field);
      if (wire in value) out[field] = decode(fieldSchema, value[wire]);
      else if (field in value) out[field] = decode(fieldSchema, value[field]);
    }
    return out;
  }
  return value;
}

/** A REST answer parsed with the schema of what it holds, its snake_case field names read as the schema's camelCase ones. */
export function parseWireAnswer<S extends z.ZodType>(schema: S, json: unknown): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(decode(schema, json)) as z.ZodSafeParseResult<z.output<S>>;
}
