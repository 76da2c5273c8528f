import { HindsightError } from "../core/errors.js";
import type { TextContent } from "./tools/types.js";

export interface ToolErrorResult {
  [key: string]: unknown;
  isError: true;
  content: TextContent[];
}

/** The engine's camelCase field names as the tools spell their arguments. */
const TOOL_FIELD_NAMES: Record<string, string> = { validUntil: "valid_until", sessionId: "session_id" };

function toolFieldNames(message: string): string {
  return message.replace(/\b(validUntil|sessionId)\b/g, (name) => TOOL_FIELD_NAMES[name] ?? name);
}

/** An engine failure as an MCP tool error ("CODE: message"), so the calling model can read and react; never a crash. */
export function toolError(err: unknown): ToolErrorResult {
  const text = HindsightError.is(err) ? `${err.code}: ${toolFieldNames(err.message)}` : `INTERNAL_ERROR: ${err instanceof Error ? err.message : String(err)}`;
  return { isError: true, content: [{ type: "text", text }] };
}
