import { errorText } from "../core/errors.js";
import type { TextContent } from "./tools/types.js";

export interface ToolErrorResult {
  [key: string]: unknown;
  isError: true;
  content: TextContent[];
}

/** An engine failure as an MCP tool error ("CODE: message"), so the calling model can read and react; never a crash. */
export function toolError(err: unknown): ToolErrorResult {
  return { isError: true, content: [{ type: "text", text: errorText(err) }] };
}
