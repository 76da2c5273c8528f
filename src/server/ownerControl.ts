// The private channel between the VS Code extension and the owner process it starts
// (`hindsight owner`): JSON lines on the child's stdin (commands) and stdout (events). The pipe is
// also the owner's lifeline: when the extension host goes away, for any reason, stdin closes and
// the owner closes the store and exits. Nothing here loads the engine: the extension imports it.
import type { EngineConfig, EngineConfigInput } from "../core/config.js";

/** An OpenAI-compatible chat endpoint the owner extracts with (the user's, or the extension's vscode.lm bridge). */
export interface LlmEndpoint {
  url: string;
  model: string;
  apiKey?: string;
}

/** The first line the owner reads: everything it needs to open the store and serve it. */
export interface OwnerStart {
  type: "start";
  storePath: string;
  /** 0: a free loopback port. */
  port: number;
  /** Embedding model id; absent: the engine's default. */
  modelId?: string;
  /** Folder with local models; absent: download into cacheDir when allowed. */
  modelDir?: string;
  allowDownload: boolean;
  /** A Hugging Face–compatible mirror for downloads. */
  remoteHost?: string;
  cacheDir: string;
  config: EngineConfigInput;
  /** Extra bearer tokens the server accepts (the long-lived one for agents outside VS Code). */
  tokens: string[];
  llm: LlmEndpoint | null;
}

export type OwnerCommand =
  | OwnerStart
  /** New engine settings (the whole input, not a patch): answered by a `config` event. */
  | { type: "config"; config: EngineConfigInput }
  /** Another extraction model, or none (offline rules). */
  | { type: "llm"; llm: LlmEndpoint | null };

export type OwnerEvent =
  | { type: "download"; file: string; percent: number }
  /** Serving: the loopback URL and the session token the owner published for its clients. */
  | { type: "ready"; url: string; token: string; pid: number; config: EngineConfig }
  | { type: "config"; config: EngineConfig }
  /** A command the owner could not apply (`command`: its type, when it could be read); `fatal` when it is exiting because of it. */
  | { type: "error"; code: string; message: string; fatal: boolean; command?: OwnerCommand["type"] };

/** One line of the channel (commands and events alike are single-line JSON). */
export function encodeLine(message: OwnerCommand | OwnerEvent): string {
  return `${JSON.stringify(message)}\n`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function llmEndpoint(v: unknown, field: string): LlmEndpoint | null {
  if (v === null || v === undefined) return null;
  if (!isObject(v) || typeof v.url !== "string" || typeof v.model !== "string") throw new Error(`${field}: expected { url, model, apiKey? } or null`);
  if (v.apiKey !== undefined && typeof v.apiKey !== "string") throw new Error(`${field}.apiKey: expected a string`);
  return { url: v.url, model: v.model, ...(typeof v.apiKey === "string" ? { apiKey: v.apiKey } : {}) };
}

/** Parses and checks one command line; the error names the field that is wrong. */
export function parseCommand(line: string): OwnerCommand {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (err) {
    throw new Error(`not a JSON line: ${(err as Error).message}`);
  }
  if (!isObject(v)) throw new Error("expected a JSON object");
  if (v.type === "config") {
    if (!isObject(v.config)) throw new Error("config: expected an object");
    return { type: "config", config: v.config as EngineConfigInput };
  }
  if (v.type === "llm") return { type: "llm", llm: llmEndpoint(v.llm, "llm") };
  if (v.type !== "start") throw new Error(`type: expected start, config or llm, got ${JSON.stringify(v.type)}`);
  const str = (key: string, optional: boolean): string | undefined => {
    const x = v[key];
    if (x === undefined && optional) return undefined;
    if (typeof x !== "string" || (!optional && x === "")) throw new Error(`${key}: expected a${optional ? "" : " non-empty"} string`);
    return x;
  };
  if (typeof v.port !== "number" || !Number.isInteger(v.port) || v.port < 0 || v.port > 65535) throw new Error("port: expected an integer from 0 to 65535");
  if (typeof v.allowDownload !== "boolean") throw new Error("allowDownload: expected true or false");
  if (!isObject(v.config)) throw new Error("config: expected an object");
  if (!Array.isArray(v.tokens) || v.tokens.some((t) => typeof t !== "string" || t.length < 16)) throw new Error("tokens: expected strings of at least 16 characters");
  const modelId = str("modelId", true);
  const modelDir = str("modelDir", true);
  const remoteHost = str("remoteHost", true);
  return {
    type: "start",
    storePath: str("storePath", false) as string,
    port: v.port,
    allowDownload: v.allowDownload,
    cacheDir: str("cacheDir", false) as string,
    config: v.config as EngineConfigInput,
    tokens: v.tokens as string[],
    llm: llmEndpoint(v.llm, "llm"),
    ...(modelId ? { modelId } : {}),
    ...(modelDir ? { modelDir } : {}),
    ...(remoteHost ? { remoteHost } : {}),
  };
}

/** Splits a byte stream into lines (a line may arrive in pieces, or several in one chunk). */
export function lineReader(onLine: (line: string) => void): (chunk: Buffer | string) => void {
  let pending = "";
  return (chunk) => {
    pending += chunk.toString();
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line) onLine(line);
    }
  };
}
