import type { IncomingMessage, ServerResponse } from "node:http";
import { HindsightError } from "../core/errors.js";
import type { MemoryApi } from "../core/memoryApi.js";
import { toWire } from "../core/wire.js";
import type { Logger } from "../core/ports.js";
import { grantKey, isFullGrant, type Grant } from "./access/grant.js";
import { scopedApi } from "./access/scopedMemoryApi.js";
import type { Authenticator } from "./auth.js";
import { errorAnswer } from "./errors.js";
import type { HostCheck } from "./hostCheck.js";
import { readJson, readText, requestBody, sendJson, sendText } from "./io.js";
import type { HttpMetrics } from "./metrics.js";
import type { RateLimiter } from "./rateLimit.js";
import { Router, type EvalRunner, type Reply, type RequestContext, type Route } from "./router.js";
import { auditRoutes } from "./routes/audit.js";
import { conflictRoutes } from "./routes/conflicts.js";
import { evalRoutes } from "./routes/eval.js";
import { memoryRoutes } from "./routes/memories.js";
import { profileRoutes } from "./routes/profile.js";
import { proposalRoutes } from "./routes/proposals.js";
import { quarantineRoutes } from "./routes/quarantine.js";
import { recallRoutes } from "./routes/recall.js";
import { statsRoutes } from "./routes/stats.js";
import { transferRoutes } from "./routes/transfer.js";

export const API_PREFIX = "/api/v1";
export const MCP_PATH = "/mcp";
const JSON_LIMIT_BYTES = 1024 * 1024;

/**
 * Serves /mcp once authenticated and within the rate limit (the body is left unread for the transport).
 * `engine` is the caller's view of the engine (audited as the token; checked by its grant unless it may do
 * everything); `grantKey` changes when the token's grant does, so a session never outlives its grant.
 */
export type McpHandler = (req: IncomingMessage, res: ServerResponse, caller: { tokenId: string; engine?: MemoryApi; grantKey?: string }) => Promise<void>;

export interface HttpAppOptions {
  engine: MemoryApi;
  auth: Authenticator;
  hostCheck: HostCheck;
  /** null: no rate limit. */
  limiter: RateLimiter | null;
  /** Applies a token's own limits (a token file's rate/burst) when the server has no limiter of its own. */
  tokenLimiter?: RateLimiter;
  metrics: HttpMetrics;
  mcp: McpHandler;
  logger?: Logger;
  /**
   * The services this server depends on beyond itself (a team replica's Redis), reported by /healthz.
   * One that is down makes the server degraded, not down: it still serves reads.
   */
  dependencies?: () => Promise<Record<string, boolean>>;
  /** Runs POST /api/v1/eval (see src/eval/restEval.ts); absent: that route answers 501. */
  evaluate?: EvalRunner;
}

/** POST /eval spends the server's CPU on scratch stores: admin only, checked before the body is even parsed. */
function evalFor(evaluate: EvalRunner, grant: Grant): EvalRunner {
  if (grant.permissions.has("admin")) return evaluate;
  return async () => {
    throw new HindsightError("PERMISSION_DENIED", `token ${grant.id} lacks the admin permission POST /eval needs`);
  };
}

/** Every REST route under /api/v1 (the isolation tests walk this list, so a new route cannot be missed). */
export const API_ROUTES: readonly Route[] = [
  ...memoryRoutes,
  ...recallRoutes,
  ...conflictRoutes,
  ...proposalRoutes,
  ...quarantineRoutes,
  ...evalRoutes,
  ...auditRoutes,
  ...statsRoutes,
  ...transferRoutes,
  ...profileRoutes,
];

export function apiRouter(): Router {
  return new Router(API_PREFIX, [...API_ROUTES]);
}

/**
 * The request pipeline: Host check (403) → /healthz (open) → bearer token (401) → per-token rate
 * limit (429) → /mcp, /metrics or the REST route table, each on the engine as the token may use it
 * (src/http/access: 403 PERMISSION_DENIED or PROJECT_FORBIDDEN). Every error is JSON {error: {code, message, field?}}.
 */
export function createHttpHandler(options: HttpAppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const router = apiRouter();
  const { engine, auth, hostCheck, limiter, metrics, logger } = options;

  async function handle(req: IncomingMessage, res: ServerResponse, setLabel: (label: string) => void): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", "http://placeholder");
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;

    if (!hostCheck.allows(req.headers.host)) {
      metrics.countHostRejected();
      throw new HindsightError("FORBIDDEN", "this Host header is not allowed (DNS-rebinding protection): use the address the server is bound to");
    }
    if (path === "/healthz") {
      setLabel("/healthz");
      if (method !== "GET" && method !== "HEAD") throw new HindsightError("METHOD_NOT_ALLOWED", `${method} is not allowed here (allowed: GET)`, { details: { allow: ["GET", "HEAD"] } });
      const up = options.dependencies ? await options.dependencies() : {};
      const parts = Object.fromEntries(Object.entries(up).map(([name, ok]) => [name, ok ? "ok" : "unavailable"]));
      sendJson(res, 200, { status: Object.values(up).every(Boolean) ? "ok" : "degraded", ...parts });
      return;
    }

    const grant = await auth.identify(req.headers.authorization);
    if (grant === null) {
      metrics.countAuthFailure();
      const message = req.headers.authorization === undefined ? "a bearer token is required (Authorization: Bearer <token>)" : "the bearer token is not valid";
      throw new HindsightError("UNAUTHORIZED", message);
    }
    const tokenId = grant.id;
    const bucket = grant.limit ? (grant.limit.rate > 0 ? (limiter ?? options.tokenLimiter ?? null) : null) : limiter;
    if (bucket) {
      const decision = await bucket.take(tokenId, 1, grant.limit);
      if (!decision.allowed) {
        metrics.countRateLimited();
        throw new HindsightError("RATE_LIMITED", `too many requests: retry in ${decision.retryAfterSeconds} s`, { details: { retryAfterS: decision.retryAfterSeconds } });
      }
    }
    const full = isFullGrant(grant);
    // A token that may do everything calls the engine itself (its mutations carry `call.actor`), as before grants existed.
    const callerEngine = full ? engine : scopedApi(engine, grant);

    if (path === MCP_PATH) {
      setLabel(MCP_PATH);
      await options.mcp(req, res, { tokenId, engine: scopedApi(engine, grant), grantKey: grantKey(grant) });
      return;
    }
    if (path === "/metrics") {
      setLabel("/metrics");
      if (method !== "GET") throw new HindsightError("METHOD_NOT_ALLOWED", `${method} is not allowed here (allowed: GET)`, { details: { allow: ["GET"] } });
      if (!grant.permissions.has("admin")) throw new HindsightError("PERMISSION_DENIED", `token ${tokenId} lacks the admin permission /metrics needs`);
      sendText(res, 200, metrics.render(await callerEngine.stats(full ? undefined : callerEngine.config.defaultScope)), "text/plain; version=0.0.4; charset=utf-8");
      return;
    }

    const matched = router.match(method, path);
    if (!matched) throw new HindsightError("NOT_FOUND", `no route for ${method} ${path}`);
    setLabel(matched.label);
    const ctx: RequestContext = {
      engine: callerEngine,
      params: matched.params,
      query: url.searchParams,
      tokenId,
      call: { actor: `token:${tokenId}` },
      req,
      evaluate: options.evaluate ? evalFor(options.evaluate, grant) : null,
      json: async () => requestBody(await readJson(req, JSON_LIMIT_BYTES)),
      text: (limit = JSON_LIMIT_BYTES) => readText(req, limit),
    };
    const reply: Reply = await matched.route.handler(ctx);
    if ("json" in reply) sendJson(res, reply.status ?? 200, toWire(reply.json));
    else sendText(res, reply.status ?? 200, reply.text, reply.contentType, reply.headers ?? {});
  }

  return (req, res) => {
    const started = performance.now();
    let label = "unmatched";
    res.on("finish", () => metrics.observe((req.method ?? "GET").toUpperCase(), label, res.statusCode, (performance.now() - started) / 1000));
    handle(req, res, (l) => (label = l)).catch((err: unknown) => {
      const answer = errorAnswer(err);
      if (answer.unexpected) logger?.error("request failed", { method: req.method, path: label, error: err instanceof Error ? err.message : String(err) });
      if (res.headersSent) {
        res.end();
        return;
      }
      sendJson(res, answer.status, answer.body, answer.headers);
    });
  };
}
