import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { MemoryEngine } from "../core/engine.js";
import type { Logger } from "../core/ports.js";
import { createHttpHandler } from "../http/app.js";
import type { Grant } from "../http/access/grant.js";
import { BearerAuth, type Authenticator } from "../http/auth.js";
import { HostCheck, isLoopbackHost, loopbackAllowedHosts } from "../http/hostCheck.js";
import { sendJson } from "../http/io.js";
import { HttpMetrics } from "../http/metrics.js";
import { TokenBucketLimiter, type RateLimiter } from "../http/rateLimit.js";
import type { RedisLink } from "./redis/connection.js";
import { RedisRateLimiter } from "./redis/rateLimiter.js";
import { evaluatePostedCases } from "../eval/restEval.js";
import { mountMcp } from "../mcp/http.js";
import { scopeForFolder, scopeForFolderName } from "./paths.js";

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8765;
export const DEFAULT_RATE = 20;
export const DEFAULT_BURST = 60;

export interface ServeOptions {
  engine: MemoryEngine;
  /** Plain bearer tokens: each may do everything, in every scope (the extension's local server, `serve --token`). */
  tokens?: string[];
  /**
   * Scoped tokens (a tokens file, see tokenAuth.ts): each with its permissions, projects and rate
   * limit. With `tokens` too, a request may carry either. At least one token must be accepted.
   */
  authenticator?: Authenticator;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Requests per second per token; 0 disables the rate limit. */
  rate?: number;
  burst?: number;
  /**
   * Host header values accepted (DNS-rebinding protection). Default: the bound loopback host:port
   * (and localhost:port) when bound to loopback; no check otherwise.
   */
  allowedHosts?: string[] | null;
  logger?: Logger;
  /**
   * The team's Redis, shared by every replica: rate limits live there, so a token's budget holds
   * across replicas (each replica falls back to its own while Redis is away). /healthz reports it.
   */
  redis?: RedisLink;
  /** Key prefix in Redis, so several deployments can share one. */
  redisPrefix?: string;
  /** Other services the server depends on, by name (a Qdrant store), each reported by /healthz. */
  dependencies?: Record<string, () => Promise<boolean>>;
  /** Milliseconds the rate limiter reads (tests inject a clock). */
  now?: () => number;
}

export interface RunningServer {
  /** http://host:port (with the port actually bound). */
  url: string;
  host: string;
  port: number;
  server: Server;
  allowedHosts: string[] | null;
  /** Milliseconds since the last request ended; 0 while one is in flight (an open MCP stream counts). */
  idleMs(): number;
  /** Stops accepting, ends MCP sessions, waits for requests in flight (at most `graceMs`), then drops what is left. Does not close the engine. */
  close(graceMs?: number): Promise<void>;
}

async function dependencyHealth(checks: Record<string, () => Promise<boolean>>): Promise<Record<string, boolean>> {
  const names = Object.keys(checks).sort();
  const ok = await Promise.all(names.map((n) => (checks[n] as () => Promise<boolean>)().catch(() => false)));
  return Object.fromEntries(names.map((n, i) => [n, ok[i] as boolean]));
}

/** How long one look at the dependencies answers /healthz: it is open to anyone, and must not turn a flood into calls on Qdrant and Redis. */
const HEALTH_FRESH_MS = 1000;

function memoised<T>(look: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = performance.now();
    if (!last || now - last.at > HEALTH_FRESH_MS) last = { at: now, value: look() };
    return last.value;
  };
}

/** Plain tokens, scoped tokens, or both (a plain token is tried first). */
function authenticatorOf(options: ServeOptions): Authenticator {
  const plain = options.tokens && options.tokens.length > 0 ? new BearerAuth(options.tokens) : null;
  const scoped = options.authenticator ?? null;
  if (plain && scoped) {
    return { identify: async (header): Promise<Grant | null> => plain.identify(header) ?? (await scoped.identify(header)) };
  }
  if (plain) return plain;
  if (scoped) return scoped;
  throw new Error("at least one token is required (tokens or a tokens file)");
}

function formatHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** Starts the HTTP server: REST under /api/v1, /mcp, /healthz, /metrics, bearer auth, rate limit, Host check. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const auth = authenticatorOf(options);
  const rate = options.rate ?? DEFAULT_RATE;
  const clock = options.now ? { now: options.now } : {};
  const burst = options.burst ?? DEFAULT_BURST;
  const shared = (own: TokenBucketLimiter, r: number, b: number): RateLimiter =>
    options.redis ? new RedisRateLimiter({ redis: options.redis.client, rate: r, burst: b, fallback: own, prefix: options.redisPrefix ?? "hindsight", ...(options.logger ? { logger: options.logger } : {}) }) : own;
  const limiter = rate > 0 ? shared(new TokenBucketLimiter({ rate, burst, ...clock }), rate, burst) : null;
  // Tokens with their own rate limit keep it when the server runs without one.
  const tokenLimiter = shared(new TokenBucketLimiter({ rate: DEFAULT_RATE, burst: DEFAULT_BURST, ...clock }), DEFAULT_RATE, DEFAULT_BURST);
  const redis = options.redis;
  const metrics = new HttpMetrics();

  let ready: RequestListener | null = null;
  let inFlight = 0;
  let lastActive = Date.now();
  const server = createServer((req, res) => {
    inFlight++;
    res.once("close", () => {
      inFlight--;
      lastActive = Date.now();
    });
    if (ready) ready(req, res);
    else sendJson(res, 503, { error: { code: "INTERNAL", message: "the server is starting" } });
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 0; // MCP streams stay open; idle sockets still time out via keepAliveTimeout.

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const allowedHosts = options.allowedHosts !== undefined ? options.allowedHosts : isLoopbackHost(host) ? loopbackAllowedHosts(host, port) : null;
  if (allowedHosts === null && !isLoopbackHost(host)) {
    options.logger?.warn("serving on a non-loopback address without a Host check: put it behind a proxy or pass --allowed-host", { host });
  }
  // A client's workspace root is a path on its machine: on loopback that is this machine (its git remote
  // names the project); a remote client's path is not, and git is not run on paths strangers choose.
  const mcp = mountMcp(options.engine, { allowedHosts, scopeForRoot: isLoopbackHost(host) ? scopeForFolder : scopeForFolderName });
  ready = createHttpHandler({
    engine: options.engine,
    auth,
    hostCheck: new HostCheck(allowedHosts),
    limiter,
    tokenLimiter,
    metrics,
    mcp: mcp.handler,
    evaluate: evaluatePostedCases,
    ...(redis || options.dependencies
      ? { dependencies: memoised(() => dependencyHealth({ ...options.dependencies, ...(redis ? { redis: async () => (await redis.health()).ok } : {}) })) }
      : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });

  let closing: Promise<void> | null = null;
  const close = (graceMs = 3000): Promise<void> => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await mcp.close();
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
    })();
    return closing;
  };

  const idleMs = (): number => (inFlight > 0 ? 0 : Date.now() - lastActive);
  return { url: `http://${formatHost(host)}:${port}`, host, port, server, allowedHosts, idleMs, close };
}

/**
 * Runs until SIGINT or SIGTERM (or, with `idleExitMs`, until no request came for that long), then
 * closes the server and the engine. Resolves with the exit code.
 */
export async function serveUntilSignal(running: RunningServer, engine: MemoryEngine, logger?: Logger, idleExitMs?: number): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    const idleTimer = idleExitMs ? setInterval(() => running.idleMs() >= idleExitMs && stop("idle"), Math.min(idleExitMs / 4, 5000)) : null;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      if (idleTimer) clearInterval(idleTimer);
      logger?.info("shutting down", { signal });
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      running
        .close()
        .then(() => engine.close())
        .then(
          () => resolve(0),
          (err: unknown) => {
            logger?.error("shutdown failed", { error: String(err) });
            resolve(1);
          },
        );
    };
    const onInt = () => stop("SIGINT");
    const onTerm = () => stop("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
  });
}
