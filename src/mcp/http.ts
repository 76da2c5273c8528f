import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { HindsightError, errorText } from "../core/errors.js";
import type { MemoryApi } from "../core/memoryApi.js";
import { createMcpServer, type McpServerOptions } from "./createServer.js";
import { SCOPE_HEADER } from "./scopeHeader.js";
import type { SessionBase } from "./sessionScope.js";

export { SCOPE_HEADER };

/** Builds the MCP server (tools over the engine) for one session. */
export type McpServerFactory = (engine: MemoryApi, options: McpServerOptions) => McpServer;

/**
 * Same shape as the HTTP app's McpHandler: the app stays free of the SDK, this module free of the app.
 * `engine`: the caller's view of the engine (the app's access control); absent, the engine acting as the token.
 */
export type McpHttpHandler = (req: IncomingMessage, res: ServerResponse, caller: McpCaller) => Promise<void>;

/** Who opens a session: the token, its view of the engine, and its grant. */
export interface McpCaller {
  tokenId: string;
  engine?: MemoryApi;
  grantKey?: string;
}

export interface McpMount {
  handler: McpHttpHandler;
  /** Open sessions (for tests and metrics). */
  sessions(): number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  tokenId: string;
  /** What the token was allowed when the session opened. */
  grantKey: string | undefined;
}

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  const text = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The MCP specification asks servers to validate Origin: a web page must not drive the memory
 * through a browser that can reach it. Loopback origins and the hosts the server accepts pass
 * ("http://localhost:5173", "https://memory.example.com" with --allowed-host memory.example.com).
 */
function originAllowed(origin: string, allowedHosts: string[] | null): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return allowedHosts !== null && (allowedHosts.includes(url.host) || allowedHosts.includes(url.hostname));
}

/**
 * The engine a new session works on: the caller's view, with the scope the client configured
 * (SCOPE_HEADER) as its default when the caller's token may use it. A scope the token may not use is
 * not applied (roots and this header only choose among what the token allows): the session keeps
 * the token's default and its results say why. A malformed header is refused (a string is the error).
 */
function sessionEngine(engine: MemoryApi, req: IncomingMessage, caller: McpCaller): { engine: MemoryApi; base: SessionBase } | string {
  const view = caller.engine ?? engine.actingAs(`token:${caller.tokenId}`);
  const raw = req.headers[SCOPE_HEADER];
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (header === undefined) return { engine: view, base: { source: "server" } };
  let scope: string;
  try {
    scope = decodeURIComponent(header);
  } catch {
    return `${SCOPE_HEADER}: not a percent-encoded scope`;
  }
  try {
    return { engine: view.withDefaultScope(scope), base: { source: "configured" } };
  } catch (err) {
    if (HindsightError.is(err, "PROJECT_FORBIDDEN")) return { engine: view, base: { source: "server", note: `the configured scope ${scope} is not used (${errorText(err)})` } };
    return `${SCOPE_HEADER}: ${(err as Error).message}`;
  }
}

/**
 * MCP over streamable HTTP at /mcp: stateful sessions, each with its own McpServer from `factory`
 * over the caller's view of the engine (audited as the session's token, checked by its grant). A
 * session belongs to the token that opened it, under the grant it had then: when the token's grant
 * changes (its token file was edited) the session is gone (404) and the client starts a new one.
 */
export function mountMcp(
  engine: MemoryApi,
  options: { allowedHosts: string[] | null; factory?: McpServerFactory; scopeForRoot?: (folder: string) => string },
): McpMount {
  const factory = options.factory ?? createMcpServer;
  const sessions = new Map<string, Session>();

  const handler: McpHttpHandler = async (req, res, caller) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, options.allowedHosts)) {
      req.resume();
      jsonRpcError(res, 403, `Forbidden: Origin ${origin} is not allowed (loopback origins and the server's allowed hosts are)`);
      return;
    }
    const header = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (session && session.tokenId === caller.tokenId && session.grantKey !== caller.grantKey) {
        sessions.delete(sessionId);
        await session.server.close().catch(() => undefined);
      }
      if (!session || session.tokenId !== caller.tokenId || session.grantKey !== caller.grantKey) {
        req.resume();
        jsonRpcError(res, 404, "Session not found");
        return;
      }
      await session.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== "POST") {
      req.resume();
      jsonRpcError(res, 400, "Bad Request: no MCP session; start one with an initialize request");
      return;
    }
    const view = sessionEngine(engine, req, caller);
    if (typeof view === "string") {
      req.resume();
      jsonRpcError(res, 400, view);
      return;
    }
    const server = factory(view.engine, { base: view.base, ...(options.scopeForRoot ? { scopeForRoot: options.scopeForRoot } : {}) });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, tokenId: caller.tokenId, grantKey: caller.grantKey });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
      enableDnsRebindingProtection: options.allowedHosts !== null,
      ...(options.allowedHosts !== null ? { allowedHosts: options.allowedHosts } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // Anything but an initialize request opens no session: release what was built for it.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await server.close();
  };

  return {
    handler,
    sessions: () => sessions.size,
    close: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.server.close().catch(() => undefined)));
    },
  };
}
