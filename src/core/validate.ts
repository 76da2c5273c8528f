import type { z } from "zod";
import { HindsightError } from "./errors.js";
import { wireField } from "./wire.js";

/**
 * Parses input with a zod schema; the first issue becomes an INVALID_INPUT error naming its field as
 * the wire spells it. `names: "as-is"` keeps the schema's own names, for inputs people write in
 * camelCase by convention (the engine config, as VS Code settings name it).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string, names: "wire" | "as-is" = "wire"): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const unknownKey = issue?.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const path = issue ? [...issue.path.map(String), ...(unknownKey !== undefined ? [unknownKey] : [])] : [];
  const field = path.length > 0 ? (names === "wire" ? wireField(path.join(".")) : path.join(".")) : what;
  const message = !issue ? `${what}: invalid input` : field === what ? `${what}: ${issue.message}` : `${what}: ${field}: ${issue.message}`;
  throw new HindsightError("INVALID_INPUT", message, { field });
}
