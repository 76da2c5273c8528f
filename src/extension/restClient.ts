import { HindsightError } from "../core/errors.js";
import { fromWire, toWire } from "../core/wire.js";

/** Where a memory server is: the extension's own (loopback) or a team server, and the bearer token for it. */
export interface ServerTarget {
  /** http://127.0.0.1:PORT or the team server's URL (no /api/v1). */
  url: string;
  token: string;
}

export interface RequestOptions {
  query?: URLSearchParams;
  json?: unknown;
  /** A raw body (JSONL to import, a cases file to run). */
  text?: string;
  contentType?: string;
  timeoutMs?: number;
}

export interface TransportOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Waits before a retry after 429 (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
}

const MAX_RETRIES = 2;
const MAX_RETRY_WAIT_MS = 5000;

/**
 * One call of the REST API (/api/v1, bearer token): the body text of a 2xx answer. 429 is retried
 * after Retry-After (at most twice); an error answer becomes a HindsightError with the server's code
 * and field (its HTTP status in details.status); no answer at all is BACKEND_UNAVAILABLE. Used by the commands and by the sidebar.
 */
export async function restRequest(target: ServerTarget, method: string, path: string, options: RequestOptions = {}, transport: TransportOptions = {}): Promise<string> {
  const fetchImpl = transport.fetch ?? fetch;
  const sleep = transport.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const query = options.query && [...options.query.keys()].length > 0 ? `?${options.query.toString()}` : "";
  const url = `${target.url.replace(/\/+$/, "")}/api/v1${path}${query}`;
  const headers: Record<string, string> = { authorization: `Bearer ${target.token}`, accept: "application/json" };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(toWire(options.json));
  } else if (options.text !== undefined) {
    headers["content-type"] = options.contentType ?? "text/plain; charset=utf-8";
    body = options.text;
  }
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetchImpl(url, { method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? transport.timeoutMs ?? 60_000) });
    } catch (err) {
      const reason = err instanceof Error && err.name === "TimeoutError" ? "timed out" : `did not answer (${(err as Error).message})`;
      throw new HindsightError("BACKEND_UNAVAILABLE", `the memory server at ${target.url} ${reason}`, { details: { status: 0 } });
    }
    const text = await res.text();
    if (res.status === 429 && attempt < MAX_RETRIES) {
      const seconds = Number(res.headers.get("retry-after") ?? "1");
      await sleep(Math.min(MAX_RETRY_WAIT_MS, Math.max(100, (Number.isFinite(seconds) ? seconds : 1) * 1000)));
      continue;
    }
    if (res.ok) return text;
    let error: { code?: unknown; message?: unknown; field?: unknown } = {};
    try {
      error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
    } catch {
      // not JSON: the status says what there is to say
    }
    throw HindsightError.fromWire(
      { code: error.code ?? "BACKEND_ERROR", message: typeof error.message === "string" ? error.message : `${method} ${path}: HTTP ${res.status}`, field: error.field },
      { status: res.status },
    );
  }
}

/** The REST API for the commands: JSON in and out, or raw text (export, import, eval). */
export class RestClient {
  constructor(private readonly target: ServerTarget) {}

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const text = await restRequest(this.target, method, path, body === undefined ? {} : { json: body });
    if (text === "") return {} as T;
    const read = fromWire(JSON.parse(text));
    return ("value" in read ? read.value : {}) as T;
  }

  text(method: string, path: string, body?: string): Promise<string> {
    return restRequest(this.target, method, path, body === undefined ? {} : { text: body });
  }
}

/** `?scope=…` for a scope. */
export function scopeQuery(scope: string): string {
  return `?${new URLSearchParams({ scope }).toString()}`;
}
