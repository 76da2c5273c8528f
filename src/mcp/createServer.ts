import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { MemoryApi } from "../core/memoryApi.js";
import { errorText } from "../core/errors.js";
import { toolError } from "./errors.js";
import { USE_MEMORY_PROMPT, useMemoryText } from "./prompts/useMemory.js";
import { PROFILE_URI_TEMPLATE, buildProfile, profileUri, scopeFromUriVariable } from "./resources/profile.js";
import { SOURCE_WORDS, SessionScope, type SessionBase, type SessionDefault } from "./sessionScope.js";
import { MEMORY_TOOLS, type AnyToolDefinition } from "./tools/index.js";

export const SERVER_NAME = "hindsight";
export const SERVER_VERSION = "0.1.0";

export interface McpServerOptions {
  name?: string;
  version?: string;
  /**
   * Maps a client's workspace root (a local folder path) to its scope, as the server maps its own
   * folder. Absent: the client's roots are not asked for.
   */
  scopeForRoot?: (folder: string) => string;
  /** Where the engine's default scope comes from (default: the server's), and why a configured one was not applied. */
  base?: SessionBase;
}

const INSTRUCTIONS =
  "hindsight is this project's long-term memory. Call memory_recall at the start of a task and before answering about the project or the user; " +
  "call memory_write (one distilled fact) or memory_ingest (a raw turn) after a decision or when the user states a preference, constraint or fact that will matter later. " +
  "Never store secrets. The use_memory prompt has the full guidance; memory://profile/{scope} is a short profile of the pinned and firm memories.";

/** Runs a tool on the engine; engine errors come back as tool errors ("CODE: message"), never as protocol failures. */
export async function callTool(def: AnyToolDefinition, engine: MemoryApi, args: unknown): Promise<CallToolResult> {
  try {
    const result = await def.handler(engine, (args ?? {}) as Record<string, unknown>);
    return { structuredContent: result.structuredContent as Record<string, unknown>, content: result.content };
  } catch (err) {
    return toolError(err);
  }
}

/**
 * The line a result carries when the session's scope is not the one it would have been. It names
 * where the fallback comes from rather than a scope: a token with several projects may have no
 * default at all (then the call itself says a scope is required).
 */
function scopeNote(session: SessionDefault): string | null {
  return session.note === null ? null : `Note: ${session.note}; calls without a scope use ${SOURCE_WORDS[session.source]} instead.`;
}

/**
 * An MCP server exposing the engine: the five memory tools, the profile resource and the use_memory
 * prompt. Transport-agnostic. A call without `scope` runs in the session's scope (sessionScope.ts).
 */
export function createMcpServer(engine: MemoryApi, options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: options.name ?? SERVER_NAME, version: options.version ?? SERVER_VERSION }, { instructions: INSTRUCTIONS });
  const session = new SessionScope(server.server, engine, options.base ?? { source: "server" }, options.scopeForRoot);

  for (const def of MEMORY_TOOLS) {
    server.registerTool(
      def.name,
      { title: def.title, description: def.description, inputSchema: z.object(def.inputSchema).strict(), outputSchema: def.outputSchema, annotations: { title: def.title, ...def.annotations } },
      async (args: unknown, extra) => {
        if ((args as { scope?: unknown } | undefined)?.scope !== undefined) return callTool(def, engine, args);
        const current = await session.resolve(extra);
        const result = await callTool(def, current.engine, args);
        const note = scopeNote(current);
        return note === null ? result : { ...result, content: [...result.content, { type: "text", text: note }] };
      },
    );
  }

  server.registerResource(
    "memory_profile",
    new ResourceTemplate(PROFILE_URI_TEMPLATE, {
      list: async (extra) => {
        const scope = (await session.resolve(extra)).scope;
        return { resources: [{ uri: profileUri(scope), name: `profile ${scope}`, title: `Memory profile of ${scope}`, mimeType: "text/markdown" }] };
      },
    }),
    {
      title: "Memory profile",
      description: "A short markdown profile of a scope: pinned memories and high-confidence constraints and preferences. The scope may be written as is or percent-encoded.",
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
    async ({ task }, extra) => {
      const current = await session.resolve(extra);
      return {
        description: USE_MEMORY_PROMPT.description,
        messages: [{ role: "user", content: { type: "text", text: useMemoryText(task, { scope: current.scope, why: SOURCE_WORDS[current.source], note: current.note }) } }],
      };
    },
  );

  return server;
}
