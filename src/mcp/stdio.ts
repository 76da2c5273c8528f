import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";
import type { MemoryApi } from "../core/memoryApi.js";
import { createMcpServer, type McpServerOptions } from "./createServer.js";

export interface StdioSession {
  server: McpServer;
  /** Resolves once the session is over: the client closed stdin (and every request got its answer), or close() was called. */
  closed: Promise<void>;
  /** Ends the session (idempotent). The engine stays open: its owner closes it. */
  close(): Promise<void>;
}

export interface StdioOptions extends McpServerOptions {
  stdin?: Readable;
  stdout?: Writable;
}

type Id = string | number;

function requestId(message: JSONRPCMessage): Id | undefined {
  return "id" in message && "method" in message ? message.id : undefined;
}

function responseId(message: JSONRPCMessage): Id | undefined {
  return "id" in message && !("method" in message) ? (message.id as Id) : undefined;
}

/**
 * Serves the engine over stdio: JSON-RPC on stdout, nothing else may be written there. When the
 * client closes stdin (e.g. `... | hindsight mcp`), requests already read still get their answers
 * before the session ends.
 */
export async function serveStdio(engine: MemoryApi, options: StdioOptions = {}): Promise<StdioSession> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const server = createMcpServer(engine, options);
  const transport = new StdioServerTransport(stdin, stdout);

  let finish: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stdin.off("end", onEnd);
      try {
        await server.close();
      } finally {
        finish();
      }
    })();
    return closing;
  };

  // Requests read but not yet answered, so the end of stdin does not cut their answers off.
  const pending = new Set<Id>();
  let drained: (() => void) | null = null;
  const onEnd = (): void => {
    if (pending.size === 0) void close();
    else drained = () => void close();
  };
  // Set before connect: Protocol.connect chains an existing onclose rather than replacing it.
  transport.onclose = () => finish();
  stdin.once("end", onEnd);
  await server.connect(transport);

  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    const id = requestId(message);
    if (id !== undefined) pending.add(id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    try {
      await send(message);
    } finally {
      const id = responseId(message);
      if (id !== undefined && pending.delete(id) && pending.size === 0 && drained) drained();
    }
  };
  return { server, closed, close };
}
