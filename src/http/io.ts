import type { IncomingMessage, ServerResponse } from "node:http";
import { HindsightError } from "../core/errors.js";
import { fromWire } from "../core/wire.js";

/** Reads a request body up to `limit` bytes (413 beyond it) as UTF-8 text. */
export function readText(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new HindsightError("PAYLOAD_TOO_LARGE", `the request body is larger than ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(new HindsightError("PAYLOAD_TOO_LARGE", `the request body is larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!over) resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", (err) => {
      if (!over) reject(err);
    });
  });
}

/** Reads a JSON body (an empty body is `{}`); malformed JSON is INVALID_INPUT. */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = await readText(req, limit);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HindsightError("INVALID_INPUT", `the body is not valid JSON: ${(err as Error).message}`, { field: "body" });
  }
}

/**
 * A JSON body as the engine reads it: field names from the wire's snake_case to TypeScript's. A
 * camelCase key is refused, naming it and its wire spelling, so one casing holds for every client.
 */
export function requestBody(body: unknown): unknown {
  const read = fromWire(body, { strict: true });
  if ("problem" in read) {
    const p = read.problem;
    throw new HindsightError("INVALID_INPUT", `body: ${p.path}: field names are snake_case here: send ${p.expected}`, { field: p.path });
  }
  return read.value;
}

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, contentType: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": contentType, "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
