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

/**
 * An error that carries its own stable code and HTTP status: what the server's access control throws
 * (PROJECT_FORBIDDEN, PERMISSION_DENIED) through the engine view a session is given. Recognised by
 * shape, since src/mcp does not depend on src/http.
 */
function codedError(err: unknown): { code: string; message: string } | null {
  if (!(err instanceof Error)) return null;
  const { code, status } = err as Error & { code?: unknown; status?: unknown };
  return typeof code === "string" && /^[A-Z][A-Z_]+$/.test(code) && typeof status === "number" ? { code, message: err.message } : null;
}

/** The "CODE: message" text of any failure. */
export function errorText(err: unknown): string {
  if (HindsightError.is(err)) return `${err.code}: ${toolFieldNames(err.message)}`;
  const coded = codedError(err);
  if (coded) return `${coded.code}: ${toolFieldNames(coded.message)}`;
  return `INTERNAL_ERROR: ${err instanceof Error ? err.message : String(err)}`;
}

/** An engine failure as an MCP tool error ("CODE: message"), so the calling model can read and react; never a crash. */
export function toolError(err: unknown): ToolErrorResult {
  return { isError: true, content: [{ type: "text", text: errorText(err) }] };
}
