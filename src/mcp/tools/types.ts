import type { z } from "zod";
import type { MemoryApi } from "../../core/memoryApi.js";

/** Hints a client shows the user before a call (the MCP ToolAnnotations this server uses). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

export interface TextContent {
  type: "text";
  text: string;
}

/** What a handler returns: the structured result (validated against outputSchema) and its text rendering. */
export interface ToolResult<S> {
  structuredContent: S;
  content: TextContent[];
}

/**
 * One MCP tool as plain data: no SDK types, so a definition can be tested on its own and registered
 * on any McpServer (createServer.ts does that). Handlers take the already validated, snake_case
 * arguments and map them to the engine's camelCase inputs.
 */
export interface ToolDefinition<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  name: string;
  title: string;
  /** Model-facing: what the tool does and when to call it. */
  description: string;
  inputSchema: I;
  outputSchema: O;
  annotations: ToolHints;
  handler(engine: MemoryApi, args: z.output<z.ZodObject<I>>): Promise<ToolResult<z.output<z.ZodObject<O>>>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any, any>;

/** Identity with inference: keeps each tool file's handler checked against its own schemas. */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}
