import { HindsightError } from "../core/errors.js";
import type { TextContent } from "./tools/types.js";

export interface ToolErrorResult {
  [key: string]: unknown;
  isError: true;
  content: TextContent[];
}

/** An engine failure as an MCP tool error ("CODE: message"), so the calling model can read and react; never a crash. */
export function toolError(err: unknown): ToolErrorResult {
  const text = HindsightError.is(err) ? `${err.code}: ${err.message}` : `INTERNAL_ERROR: ${err instanceof Error ? err.message : String(err)}`;
  return { isError: true, content: [{ type: "text", text }] };
}
