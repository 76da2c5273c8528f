import type { z } from "zod";
import { HindsightError } from "./errors.js";

/** Parses input with a zod schema; the first issue becomes an INVALID_INPUT error naming its field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const unknownKey = issue?.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const path = issue ? [...issue.path.map(String), ...(unknownKey !== undefined ? [unknownKey] : [])] : [];
  const field = path.length > 0 ? path.join(".") : what;
  const message = !issue ? `${what}: invalid input` : field === what ? `${what}: ${issue.message}` : `${what}: ${field}: ${issue.message}`;
  throw new HindsightError("INVALID_INPUT", message, { field });
}
