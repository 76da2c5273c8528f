import type { IncomingMessage, ServerResponse } from "node:http";
import type { MemoryEngine } from "../core/engine.js";
import type { Logger } from "../core/ports.js";
import type { BearerAuth } from "./auth.js";
import { HttpError, errorAnswer } from "./errors.js";
import type { HostCheck } from "./hostCheck.js";
import { readJson, readText, sendJson, sendText } from "./io.js";
import type { HttpMetrics } from "./metrics.js";
import type { TokenBucketLimiter } from "./rateLimit.js";
import { Router, type EvalRunner, type Reply, type RequestContext } from "./router.js";
import { auditRoutes } from "./routes/audit.js";
import { conflictRoutes } from "./routes/conflicts.js";
import { evalRoutes } from "./routes/eval.js";
import { memoryRoutes } from "./routes/memories.js";
import { proposalRoutes } from "./routes/proposals.js";
import { quarantineRoutes } from "./routes/quarantine.js";
import { recallRoutes } from "./routes/recall.js";
import { statsRoutes } from "./routes/stats.js";
import { transferRoutes } from "./routes/transfer.js";

export const API_PREFIX = "/api/v1";
export const MCP_PATH = "/mcp";
const JSON_LIMIT_BYTES = 1024 * 1024;

/** Serves /mcp once authenticated and within the rate limit (the body is left unread for the transport). */
export type McpHandler = (req: IncomingMessage, res: ServerResponse, caller: { tokenId: string }) => Promise<void>;

export interface HttpAppOptions {
  engine: MemoryEngine;
  auth: BearerAuth;
  hostCheck: HostCheck;
  /** null: no rate limit. */
  limiter: TokenBucketLimiter | null;
  metrics: HttpMetrics;
  mcp: McpHandler;
  logger?: Logger;
  /** Runs POST /api/v1/eval (see src/eval/restEval.ts); absent: that route answers 501. */
  evaluate?: EvalRunner;
}

export function apiRouter(): Router {
  return new Router(API_PREFIX, [...memoryRoutes, ...recallRoutes, ...conflictRoutes, ...proposalRoutes, ...quarantineRoutes, ...evalRoutes, ...auditRoutes, ...statsRoutes, ...transferRoutes]);
}

/**
 * The request pipeline: Host check (403) → /healthz (open) → bearer token (401) → per-token rate
 * limit (429) → /mcp, /metrics or the REST route table. Every error is JSON {error: {code, message, field?}}.
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
      throw new HttpError(403, "FORBIDDEN", "this Host header is not allowed (DNS-rebinding protection): use the address the server is bound to");
    }
    if (path === "/healthz") {
      setLabel("/healthz");
      if (method !== "GET" && method !== "HEAD") throw new HttpError(405, "METHOD_NOT_ALLOWED", `${method} is not allowed here (allowed: GET)`, { headers: { allow: "GET, HEAD" } });
      sendJson(res, 200, { status: "ok" });
      return;
    }

    const tokenId = auth.authenticate(req.headers.authorization);
    if (tokenId === null) {
      metrics.countAuthFailure();
      const message = req.headers.authorization === undefined ? "a bearer token is required (Authorization: Bearer <token>)" : "the bearer token is not valid";
      throw new HttpError(401, "UNAUTHORIZED", message, { headers: { "www-authenticate": 'Bearer realm="hindsight"' } });
    }
    if (limiter) {
      const decision = limiter.take(tokenId);
      if (!decision.allowed) {
        metrics.countRateLimited();
        throw new HttpError(429, "RATE_LIMITED", `too many requests: retry in ${decision.retryAfterSeconds} s`, { headers: { "retry-after": String(decision.retryAfterSeconds) } });
      }
    }

    if (path === MCP_PATH) {
      setLabel(MCP_PATH);
      await options.mcp(req, res, { tokenId });
      return;
    }
    if (path === "/metrics") {
      setLabel("/metrics");
      if (method !== "GET") throw new HttpError(405, "METHOD_NOT_ALLOWED", `${method} is not allowed here (allowed: GET)`, { headers: { allow: "GET" } });
      sendText(res, 200, metrics.render(await engine.stats()), "text/plain; version=0.0.4; charset=utf-8");
      return;
    }

    const matched = router.match(method, path);
    if (!matched) throw new HttpError(404, "NOT_FOUND", `no route for ${method} ${path}`);
    setLabel(matched.label);
    const ctx: RequestContext = {
      engine,
      params: matched.params,
      query: url.searchParams,
      tokenId,
      call: { actor: `token:${tokenId}` },
      req,
      evaluate: options.evaluate ?? null,
      json: () => readJson(req, JSON_LIMIT_BYTES),
      text: (limit = JSON_LIMIT_BYTES) => readText(req, limit),
    };
    const reply: Reply = await matched.route.handler(ctx);
    if ("json" in reply) sendJson(res, reply.status ?? 200, reply.json);
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
