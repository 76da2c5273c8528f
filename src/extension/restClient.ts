import type { ServerEndpoint } from "./mcpDefinition.js";

/** An error answer of the memory server: its code (UNAUTHORIZED, INVALID_INPUT, …), message and field. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "ServerError";
  }
}

/** The memory server's REST API (/api/v1), for the commands: the same server in local and team mode. */
export class RestClient {
  constructor(
    private readonly endpoint: ServerEndpoint,
    private readonly timeoutMs = 60_000,
  ) {}

  get url(): string {
    return this.endpoint.url;
  }

  private async send(method: string, path: string, body?: { json: unknown } | { text: string }): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.endpoint.token}` };
    let payload: string | undefined;
    if (body && "json" in body) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body) {
      headers["content-type"] = "text/plain; charset=utf-8";
      payload = body.text;
    }
    let res: Response;
    try {
      res = await fetch(`${this.endpoint.url.replace(/\/+$/, "")}/api/v1${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new ServerError(0, "UNREACHABLE", `the memory server at ${this.endpoint.url} did not answer: ${(err as Error).message}`);
    }
    if (!res.ok) {
      const text = await res.text();
      let error: { code?: string; message?: string; field?: string } = {};
      try {
        error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
      } catch {
        // not JSON: keep the status line
      }
      throw new ServerError(res.status, error.code ?? `HTTP_${res.status}`, error.message ?? `${res.status} ${res.statusText}`, error.field);
    }
    return res;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(method, path, body === undefined ? undefined : { json: body });
    return (await res.json()) as T;
  }

  async text(method: string, path: string, body?: string): Promise<string> {
    const res = await this.send(method, path, body === undefined ? undefined : { text: body });
    return res.text();
  }
}

/** `?scope=…` for a scope. */
export function scopeQuery(scope: string): string {
  return `?scope=${encodeURIComponent(scope)}`;
}
