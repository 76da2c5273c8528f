import type { z } from "zod";
import { parseInput } from "../core/validate.js";

/** Every value of a query parameter, repeated (`?type=a&type=b`) or comma-separated (`?type=a,b`); undefined when absent. */
export function many(query: URLSearchParams, name: string): string[] | undefined {
  const values = query.getAll(name).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
  return values.length > 0 ? values : undefined;
}

export function one(query: URLSearchParams, name: string): string | undefined {
  const v = query.get(name);
  return v === null ? undefined : v;
}

/** Validates query parameters (INVALID_INPUT naming the parameter). */
export function parseQuery<S extends z.ZodType>(schema: S, values: Record<string, unknown>): z.output<S> {
  const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  return parseInput(schema, defined, "query");
}

/** Validates a JSON body (INVALID_INPUT naming the field). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return parseInput(schema, body, "body");
}
