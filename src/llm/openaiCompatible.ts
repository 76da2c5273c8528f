import { HindsightError } from "../core/errors.js";
import type { LlmClient, LlmRequest } from "../core/ports.js";
import { llmTimeoutError } from "../core/write/llmExtract.js";

/** How the answer's format is requested: a strict JSON schema, any JSON object, or not at all. */
export type JsonMode = "json_schema" | "json_object" | "none";
export const JSON_MODES: readonly JsonMode[] = ["json_schema", "json_object", "none"];

export interface OpenAiCompatibleOptions {
  /** The API root, e.g. http://127.0.0.1:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM), https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Used when a request names no timeout of its own (default 30 s). */
  timeoutMs?: number;
  /** Default "json_schema" (strict); "json_object" or "none" for servers without structured output. */
  jsonMode?: JsonMode;
}

const SCHEMA_NAME = "hindsight_memories";
const BODY_EXCERPT_CHARS = 200;

/**
 * An LlmClient over the chat-completions protocol that Ollama, vLLM, OpenAI, DashScope and most
 * gateways speak: one non-streaming POST to `${baseUrl}/chat/completions` per request.
 */
export class OpenAiCompatibleClient implements LlmClient {
  readonly id: string;
  private readonly endpoint: string;
  private readonly model: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly jsonMode: JsonMode;

  constructor(options: OpenAiCompatibleOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new HindsightError("INVALID_INPUT", "llm base URL is not a valid URL", { field: "baseUrl" });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new HindsightError("INVALID_INPUT", "llm base URL must use http or https", { field: "baseUrl" });
    }
    if (!options.model.trim()) throw new HindsightError("INVALID_INPUT", "llm model must not be empty", { field: "model" });
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new HindsightError("INVALID_INPUT", "llm timeout must be a positive integer (ms)", { field: "timeoutMs" });
    this.endpoint = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.model = options.model.trim();
    this.apiKey = options.apiKey ? options.apiKey : undefined;
    this.timeoutMs = timeoutMs;
    this.jsonMode = options.jsonMode ?? "json_schema";
    this.id = `openai-compatible:${this.model}@${url.host}`;
  }

  async complete(request: LlmRequest): Promise<string> {
    const timeoutMs = request.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetch(this.endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        },
        body: JSON.stringify(this.body(request)),
        signal: controller.signal,
      });
      const text = await response.text();
      if (!response.ok) {
        throw new HindsightError("LLM_UNAVAILABLE", `llm endpoint answered ${response.status}: ${this.excerpt(text)}`, {
          details: { status: response.status },
        });
      }
      return this.content(text);
    } catch (err) {
      if (HindsightError.is(err)) throw err;
      if (controller.signal.aborted) throw llmTimeoutError(timeoutMs);
      const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      throw new HindsightError("LLM_UNAVAILABLE", `llm endpoint unreachable (${this.id}): ${this.scrub(cause)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private body(request: LlmRequest): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: this.model,
      messages: [
        { role: "system", content: request.system },
        { role: "user", content: request.user },
      ],
      temperature: 0,
      stream: false,
    };
    // A request without a schema wants plain text (summaries): no format is asked for.
    if (request.jsonSchema && this.jsonMode === "json_schema") {
      body["response_format"] = { type: "json_schema", json_schema: { name: SCHEMA_NAME, schema: request.jsonSchema, strict: true } };
    } else if (request.jsonSchema && this.jsonMode === "json_object") {
      body["response_format"] = { type: "json_object" };
    }
    return body;
  }

  /** choices[0].message.content (a string, or text parts joined). */
  private content(text: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new HindsightError("LLM_INVALID_OUTPUT", `llm endpoint answered with something other than JSON: ${this.excerpt(text)}`);
    }
    const choices = (parsed as { choices?: unknown } | null)?.choices;
    const message = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown; refusal?: unknown } } | undefined)?.message : undefined;
    const content = message?.content;
    if (typeof content === "string") return content;
    if (Array.isArray(content)) {
      const parts = content.flatMap((p: unknown) => (typeof p === "object" && p !== null && typeof (p as { text?: unknown }).text === "string" ? [(p as { text: string }).text] : []));
      if (parts.length > 0) return parts.join("");
    }
    if (typeof message?.refusal === "string") throw new HindsightError("LLM_INVALID_OUTPUT", `the model refused: ${this.excerpt(message.refusal)}`);
    throw new HindsightError("LLM_INVALID_OUTPUT", "llm completion has no choices[0].message.content");
  }

  /** The start of a response body, on one line, for an error message; never the API key. */
  private excerpt(text: string): string {
    const flat = this.scrub(text).replace(/\s+/g, " ").trim();
    return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat || "(empty body)";
  }

  private scrub(text: string): string {
    return this.apiKey ? text.split(this.apiKey).join("[REDACTED]") : text;
  }
}

/**
 * The LLM named by the environment, or null when HINDSIGHT_LLM_URL is unset:
 * HINDSIGHT_LLM_URL (API root), HINDSIGHT_LLM_MODEL (required with a URL), HINDSIGHT_LLM_API_KEY,
 * HINDSIGHT_LLM_JSON_MODE (json_schema | json_object | none).
 */
export function llmClientFromEnv(env: NodeJS.ProcessEnv = process.env): OpenAiCompatibleClient | null {
  const baseUrl = env.HINDSIGHT_LLM_URL?.trim();
  if (!baseUrl) return null;
  const model = env.HINDSIGHT_LLM_MODEL?.trim();
  if (!model) throw new HindsightError("INVALID_INPUT", "HINDSIGHT_LLM_MODEL must be set when HINDSIGHT_LLM_URL is", { field: "HINDSIGHT_LLM_MODEL" });
  const jsonMode = env.HINDSIGHT_LLM_JSON_MODE?.trim();
  if (jsonMode && !(JSON_MODES as readonly string[]).includes(jsonMode)) {
    throw new HindsightError("INVALID_INPUT", `HINDSIGHT_LLM_JSON_MODE must be one of ${JSON_MODES.join(", ")}`, { field: "HINDSIGHT_LLM_JSON_MODE" });
  }
  const apiKey = env.HINDSIGHT_LLM_API_KEY?.trim();
  return new OpenAiCompatibleClient({
    baseUrl,
    model,
    ...(apiKey ? { apiKey } : {}),
    ...(jsonMode ? { jsonMode: jsonMode as JsonMode } : {}),
  });
}
