import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { LlmClient } from "../core/ports.js";
import { HindsightError } from "../core/errors.js";
import { httpStatus } from "../http/errors.js";
import { readJson, sendJson } from "../http/io.js";
import type { LlmEndpoint } from "../server/ownerControl.js";

/** Chat requests carry a prompt and a memory list; anything larger is not ours. */
const MAX_BODY_BYTES = 2 * 2 ** 20;
/** vscode.lm answers slower than a local server: the owner's client waits this long too. */
const REQUEST_TIMEOUT_MS = 60_000;

interface ChatBody {
  messages?: Array<{ role?: unknown; content?: unknown }>;
  response_format?: { type?: unknown; json_schema?: { schema?: unknown } };
}

function fail(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { error: { type, message } });
}

const text = (content: unknown): string => (typeof content === "string" ? content : Array.isArray(content) ? content.map((p: { text?: unknown }) => (typeof p?.text === "string" ? p.text : "")).join("") : "");

/**
 * The editor's language models (vscode.lm lives only in the extension host) served to the owner
 * process as a small OpenAI-compatible endpoint on loopback, behind its own token: the owner keeps
 * one LLM client, and the model the user picked answers. Only `POST /v1/chat/completions`, non-streaming.
 */
export class LlmBridge {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly token: string,
  ) {}

  /** `upstream` is asked per request, so a change of model needs no restart of anything. */
  static start(upstream: () => LlmClient | null): Promise<LlmBridge> {
    const token = randomBytes(32).toString("base64url");
    const expected = Buffer.from(`Bearer ${token}`);
    const server = createServer((req, res) => {
      const auth = Buffer.from(req.headers.authorization ?? "");
      if (auth.length !== expected.length || !timingSafeEqual(auth, expected)) return fail(res, 401, "unauthorized", "missing or wrong bearer token");
      if (req.method !== "POST" || (req.url ?? "").split("?")[0] !== "/v1/chat/completions") return fail(res, 404, "not_found", "only POST /v1/chat/completions is served");
      void answer(req, res, upstream());
    });
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as { port: number }).port;
        resolve(new LlmBridge(server, `http://127.0.0.1:${port}/v1`, token));
      });
    });
  }

  /** What the owner is told to use for a model of this id. */
  endpoint(model: string): LlmEndpoint {
    return { url: this.url, model, apiKey: this.token };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

async function answer(req: IncomingMessage, res: ServerResponse, llm: LlmClient | null): Promise<void> {
  let body: ChatBody;
  try {
    body = (await readJson(req, MAX_BODY_BYTES)) as ChatBody;
  } catch (err) {
    return fail(res, HindsightError.is(err) ? httpStatus(err.code) : 400, "invalid_request_error", (err as Error).message);
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) return fail(res, 400, "invalid_request_error", "messages: expected a non-empty array");
  if (!llm) return fail(res, 503, "unavailable", "no language model is chosen in the editor");
  // The chat models take no system role: instructions and the conversation go in as they came.
  const system = body.messages.filter((m) => m.role === "system").map((m) => text(m.content)).join("\n\n");
  const user = body.messages.filter((m) => m.role !== "system").map((m) => text(m.content)).join("\n\n");
  const schema = body.response_format?.json_schema?.schema;
  try {
    const content = await llm.complete({
      system,
      user,
      timeoutMs: REQUEST_TIMEOUT_MS,
      ...(schema && typeof schema === "object" ? { jsonSchema: schema as Record<string, unknown> } : {}),
    });
    sendJson(res, 200, {
      id: `bridge-${randomBytes(6).toString("hex")}`,
      object: "chat.completion",
      model: llm.id,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    });
  } catch (err) {
    fail(res, 502, "upstream_error", `${llm.id}: ${(err as Error).message}`);
  }
}
