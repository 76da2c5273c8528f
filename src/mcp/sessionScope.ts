import { fileURLToPath } from "node:url";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ListRootsResultSchema, RootsListChangedNotificationSchema, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { MemoryApi } from "../core/memoryApi.js";
import { errorText } from "../core/errors.js";

/** Where the scope of a call without `scope` came from. */
export type ScopeSource = "roots" | "configured" | "server";

/** The engine a call without `scope` runs on, and why. */
export interface SessionDefault {
  /** A view whose default scope is the session's (an access-checking view keeps checking). */
  engine: MemoryApi;
  scope: string;
  source: ScopeSource;
  /** Set when a scope the session would have used was skipped (a token that may not use it, roots that could not be read). */
  note: string | null;
}

/** The session's base: the engine with the connection's configured scope applied, or the server's default. */
export interface SessionBase {
  source: Exclude<ScopeSource, "roots">;
  /** Why the configured scope was not applied, when it was not. */
  note?: string;
}

type Extra = Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, "sendRequest">;

/** A client that declared roots but does not answer must not hold every call up for long. */
export const ROOTS_TIMEOUT_MS = 5000;

export const SOURCE_WORDS: Record<ScopeSource, string> = {
  roots: "the scope of your first workspace root",
  configured: "the scope this connection was configured with",
  server: "the server's default scope",
};

/**
 * The scope of calls that name none, per session: the client's first file:// root mapped to a scope
 * (when the client offers roots and `scopeForRoot` is given), else the base engine's default. Roots
 * only choose among what the base engine allows: a view that checks a token refuses
 * withDefaultScope for a project outside the token, and the base is used instead, with a note.
 * Read once per session and again after notifications/roots/list_changed.
 */
export class SessionScope {
  private cached: Promise<SessionDefault> | null = null;

  constructor(
    private readonly server: Server,
    private readonly base: MemoryApi,
    private readonly baseInfo: SessionBase,
    private readonly scopeForRoot: ((folder: string) => string) | undefined,
  ) {
    server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
      this.cached = null;
    });
  }

  resolve(extra: Extra): Promise<SessionDefault> {
    this.cached ??= this.compute(extra);
    return this.cached;
  }

  private fallback(extra: string | null): SessionDefault {
    const note = [this.baseInfo.note, extra].filter((n): n is string => typeof n === "string" && n !== "").join("; ");
    return { engine: this.base, scope: this.base.config.defaultScope, source: this.baseInfo.source, note: note === "" ? null : note };
  }

  private async compute(extra: Extra): Promise<SessionDefault> {
    if (!this.scopeForRoot || !this.server.getClientCapabilities()?.roots) return this.fallback(null);
    let uris: string[];
    try {
      // Related to the call being answered, so it travels on that call's stream (an HTTP client need not hold a GET stream open).
      const answer = await extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema, { timeout: ROOTS_TIMEOUT_MS });
      uris = answer.roots.map((r) => r.uri);
    } catch (err) {
      return this.fallback(`your client's workspace roots could not be read (${(err as Error).message})`);
    }
    const uri = uris.find((u) => u.startsWith("file://"));
    if (uri === undefined) return this.fallback(null);
    let folder: string;
    let scope: string;
    try {
      folder = fileURLToPath(uri);
      scope = this.scopeForRoot(folder);
    } catch (err) {
      return this.fallback(`your workspace root ${uri} has no scope (${(err as Error).message})`);
    }
    try {
      return { engine: this.base.withDefaultScope(scope), scope, source: "roots", note: null };
    } catch (err) {
      return this.fallback(`your workspace root ${folder} maps to ${scope}, which is not used (${errorText(err)})`);
    }
  }
}
