import { HindsightError } from "../core/errors.js";
import type { IncomingMessage } from "node:http";
import type { CallOptions, MemoryApi } from "../core/memoryApi.js";

/** One case's outcome of an eval run (src/eval/runner.ts CaseResult). */
export interface EvalCaseOutcome {
  id: string;
  category: string;
  pass: boolean;
  failures: string[];
}

/**
 * Runs a posted cases file (unvalidated JSON) on scratch stores with the engine's embedder; a
 * malformed file is CASES_INVALID naming the field. Wired by the composition root (src/http
 * may not import src/eval or src/stores).
 */
export type EvalRunner = (casesFile: unknown, engine: MemoryApi) => Promise<{ passed: number; failed: number; cases: EvalCaseOutcome[] }>;

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** What a handler gets: the engine, path parameters, the query, the caller, and the body readers. */
export interface RequestContext {
  engine: MemoryApi;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The caller's token id (never the token). */
  tokenId: string;
  /** Options for mutating engine calls: the audit actor is the caller's token id. */
  call: CallOptions;
  req: IncomingMessage;
  /** The eval runner of POST /eval; null when the server has none. */
  evaluate: EvalRunner | null;
  json(): Promise<unknown>;
  text(limitBytes?: number): Promise<string>;
}

export type Reply = { status?: number; json: unknown } | { status?: number; text: string; contentType: string; headers?: Record<string, string> };

export interface Route {
  method: Method;
  /** Path under the API root with `:name` parameters, e.g. `/memories/:id`. */
  path: string;
  handler(ctx: RequestContext): Promise<Reply>;
}

interface Compiled {
  route: Route;
  segments: string[];
}

/** A route table: exact segments and `:param` segments, 404 for an unknown path, 405 for a known path with another method. */
export class Router {
  private readonly routes: Compiled[];

  constructor(
    readonly prefix: string,
    routes: Route[],
  ) {
    this.routes = routes.map((route) => ({ route, segments: split(route.path) }));
  }

  /** The route for a request path (with the prefix), or null when the path is not under the prefix. */
  match(method: string, pathname: string): { route: Route; params: Record<string, string>; label: string } | null {
    if (pathname !== this.prefix && !pathname.startsWith(`${this.prefix}/`)) return null;
    const parts = split(pathname.slice(this.prefix.length));
    let pathMatched = false;
    for (const c of this.routes) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      pathMatched = true;
      if (c.route.method === method) return { route: c.route, params, label: `${this.prefix}${c.route.path}` };
    }
    if (pathMatched) {
      const allowed = this.routes.filter((c) => matchSegments(c.segments, parts)).map((c) => c.route.method);
      const methods = [...new Set(allowed)];
      throw new HindsightError("METHOD_NOT_ALLOWED", `${method} is not allowed here (allowed: ${methods.join(", ")})`, { details: { allow: methods } });
    }
    throw new HindsightError("NOT_FOUND", `no route for ${method} ${pathname}`);
  }
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const v = parts[i] as string;
    if (p.startsWith(":")) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(v);
      } catch {
        return null;
      }
      params[p.slice(1)] = decoded;
    } else if (p !== v) return null;
  }
  return params;
}
