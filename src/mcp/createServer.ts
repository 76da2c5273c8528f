import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { MemoryEngine } from "../core/engine.js";
import { errorText, toolError } from "./errors.js";
import { USE_MEMORY_PROMPT, useMemoryText } from "./prompts/useMemory.js";
import { PROFILE_URI_TEMPLATE, buildProfile, profileUri, scopeFromUriVariable } from "./resources/profile.js";
import { MEMORY_TOOLS, type AnyToolDefinition } from "./tools/index.js";

export const SERVER_NAME = "hindsight";
export const SERVER_VERSION = "0.1.0";

export interface McpServerOptions {
  name?: string;
  version?: string;
}

const INSTRUCTIONS =
  "hindsight is this project's long-term memory. Call memory_recall before a task or decision; call memory_write after a decision or when the user " +
  "states a preference, constraint or fact that will matter later. memory://profile/{scope} is a short profile of the pinned and firm memories.";

/** Runs a tool on the engine; engine errors come back as tool errors ("CODE: message"), never as protocol failures. */
export async function callTool(def: AnyToolDefinition, engine: MemoryEngine, args: unknown): Promise<CallToolResult> {
  try {
    const result = await def.handler(engine, (args ?? {}) as Record<string, unknown>);
    return { structuredContent: result.structuredContent as Record<string, unknown>, content: result.content };
  } catch (err) {
    return toolError(err);
  }
}

/** An MCP server exposing the engine: the five memory tools, the profile resource and the use_memory prompt. Transport-agnostic. */
export function createMcpServer(engine: MemoryEngine, options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: options.name ?? SERVER_NAME, version: options.version ?? SERVER_VERSION }, { instructions: INSTRUCTIONS });

  for (const def of MEMORY_TOOLS) {
    server.registerTool(
      def.name,
      { title: def.title, description: def.description, inputSchema: z.object(def.inputSchema).strict(), outputSchema: def.outputSchema, annotations: { title: def.title, ...def.annotations } },
      (args: unknown) => callTool(def, engine, args),
    );
  }

  server.registerResource(
    "memory_profile",
    new ResourceTemplate(PROFILE_URI_TEMPLATE, {
      list: async () => {
        const scope = engine.config.defaultScope;
        return { resources: [{ uri: profileUri(scope), name: `profile ${scope}`, title: `Memory profile of ${scope}`, mimeType: "text/markdown" }] };
      },
    }),
    {
      title: "Memory profile",
      description: "A short markdown profile of a scope: pinned memories and high-confidence constraints and preferences.",
      mimeType: "text/markdown",
    },
    async (uri, variables) => {
      const scope = scopeFromUriVariable(variables.scope);
      try {
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: await buildProfile(engine, scope) }] };
      } catch (err) {
        // A scope the token may not use, or a malformed one: the caller's mistake, with its code.
        throw new McpError(ErrorCode.InvalidParams, errorText(err));
      }
    },
  );

  server.registerPrompt(
    USE_MEMORY_PROMPT.name,
    {
      title: USE_MEMORY_PROMPT.title,
      description: USE_MEMORY_PROMPT.description,
      argsSchema: { task: z.string().max(1000).optional().describe("The task you are about to start (optional).") },
    },
    ({ task }) => ({
      description: USE_MEMORY_PROMPT.description,
      messages: [{ role: "user", content: { type: "text", text: useMemoryText(task, engine.config.defaultScope) } }],
    }),
  );

  return server;
}
