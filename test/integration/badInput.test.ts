import { strict as assert } from "node:assert";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { MemoryEngine } from "../../src/core/engine.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { makeEngine } from "../helpers/fakes.js";
import { http, type HttpAnswer } from "../helpers/http.js";
import { mcpClient, toolText } from "../helpers/serveProcess.js";

const TOKEN = "bad-input-token-0123456789abcdef";
const long = (n: number): string => "x".repeat(n);

/** A REST call that must fail clearly: status, a stable code, a message, and the field when one is named. */
interface RestRow {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string>;
  status: number;
  code: string;
  field?: string;
}

/** An MCP tool call that must come back as isError with a message naming the field (a regex over the text). */
interface McpRow {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  names: RegExp;
}

/** A raw JSON-RPC request to /mcp in a live session: the transport must answer with a JSON-RPC error, never crash. */
interface RawMcpRow {
  name: string;
  method?: string;
  body: unknown;
  session?: "valid" | "none" | "unknown";
  headers?: Record<string, string>;
  status: number;
  rpcCode?: number;
  names: RegExp;
}

function assertRestError(row: RestRow, r: HttpAnswer): void {
  const where = `${row.name}: ${row.method} ${row.path} -> ${r.status} ${r.text.slice(0, 300)}`;
  assert.equal(r.status, row.status, where);
  assert.ok(String(r.headers["content-type"]).includes("application/json"), where);
  assert.equal(r.json?.error?.code, row.code, where);
  assert.equal(typeof r.json.error.message, "string", where);
  assert.ok(r.json.error.message.length > 5, where);
  if (row.field !== undefined) assert.equal(r.json.error.field, row.field, where);
  assert.ok(!/\bat .+:\d+:\d+/.test(r.text), `a stack trace leaked: ${where}`);
}

describe("integration: malformed calls over HTTP (REST and MCP) get clear errors and leave the server serving", function () {
  this.timeout(60_000);
  let running: RunningServer;
  let engine: MemoryEngine;
  let base: string;
  let client: Client;
  let sessionId: string;
  let existingId: string;

  before(async () => {
    const t = await makeEngine();
    engine = t.engine;
    running = await startServer({ engine, tokens: [TOKEN], host: "127.0.0.1", port: 0, rate: 0 });
    base = running.url;
    client = await mcpClient(base, TOKEN, "bad-input");
    sessionId = (client.transport as unknown as { sessionId: string }).sessionId;
    const w = await http(base, "POST", "/api/v1/memories", { token: TOKEN, body: { content: "The billing service is written in Go.", type: "fact" } });
    assert.equal(w.status, 201, w.text);
    existingId = w.json.id as string;
  });

  after(async () => {
    await client.close().catch(() => undefined);
    await running.close(100);
    await engine.close();
  });

  const M = "/api/v1/memories";
  const rest = (): RestRow[] => [
    // POST /memories: wrong types, oversized strings, bad timestamps, bad enums
    { name: "content is a number", method: "POST", path: M, body: { content: 5 }, status: 400, code: "INVALID_INPUT", field: "content" },
    { name: "content missing", method: "POST", path: M, body: { type: "fact" }, status: 400, code: "INVALID_INPUT", field: "content" },
    { name: "content empty", method: "POST", path: M, body: { content: "" }, status: 400, code: "INVALID_INPUT", field: "content" },
    { name: "content only spaces", method: "POST", path: M, body: { content: "   \n " }, status: 400, code: "INVALID_INPUT", field: "content" },
    { name: "content over 4000 chars", method: "POST", path: M, body: { content: long(4001) }, status: 400, code: "INVALID_INPUT", field: "content" },
    { name: "content is an object", method: "POST", path: M, body: { content: { text: "hi" } }, status: 400, code: "INVALID_INPUT", field: "content" },
    { name: "unknown type", method: "POST", path: M, body: { content: "We use Go.", type: "opinion" }, status: 400, code: "INVALID_INPUT", field: "type" },
    { name: "confidence above 1", method: "POST", path: M, body: { content: "We use Go.", confidence: 2 }, status: 400, code: "INVALID_INPUT", field: "confidence" },
    { name: "confidence negative", method: "POST", path: M, body: { content: "We use Go.", confidence: -0.1 }, status: 400, code: "INVALID_INPUT", field: "confidence" },
    { name: "confidence a string", method: "POST", path: M, body: { content: "We use Go.", confidence: "high" }, status: 400, code: "INVALID_INPUT", field: "confidence" },
    { name: "valid_until not a date", method: "POST", path: M, body: { content: "We use Go.", valid_until: "yesterday" }, status: 400, code: "INVALID_INPUT", field: "valid_until" },
    { name: "valid_until month 13", method: "POST", path: M, body: { content: "We use Go.", valid_until: "2026-13-01" }, status: 400, code: "INVALID_INPUT", field: "valid_until" },
    { name: "a camelCase field name", method: "POST", path: M, body: { content: "We use Go.", validUntil: "2026-12-01" }, status: 400, code: "INVALID_INPUT", field: "validUntil" },
    { name: "valid_until a number", method: "POST", path: M, body: { content: "We use Go.", valid_until: 1767225600000 }, status: 400, code: "INVALID_INPUT", field: "valid_until" },
    { name: "scope without a kind", method: "POST", path: M, body: { content: "We use Go.", scope: "nope" }, status: 400, code: "INVALID_INPUT", field: "scope" },
    { name: "tags a string", method: "POST", path: M, body: { content: "We use Go.", tags: "go" }, status: 400, code: "INVALID_INPUT", field: "tags" },
    { name: "21 tags", method: "POST", path: M, body: { content: "We use Go.", tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, status: 400, code: "INVALID_INPUT", field: "tags" },
    { name: "tag over 64 chars", method: "POST", path: M, body: { content: "We use Go.", tags: [long(65)] }, status: 400, code: "INVALID_INPUT", field: "tags.0" },
    { name: "subject over 200 chars", method: "POST", path: M, body: { content: "We use Go.", subject: long(201) }, status: 400, code: "INVALID_INPUT", field: "subject" },
    { name: "pinned a string", method: "POST", path: M, body: { content: "We use Go.", pinned: "yes" }, status: 400, code: "INVALID_INPUT", field: "pinned" },
    { name: "unknown layer", method: "POST", path: M, body: { content: "We use Go.", layer: "L9" }, status: 400, code: "INVALID_INPUT", field: "layer" },
    // bodies that are not objects / not JSON / too big
    { name: "body is an array", method: "POST", path: M, body: "[1,2]", status: 400, code: "INVALID_INPUT" },
    { name: "body is null", method: "POST", path: M, body: "null", status: 400, code: "INVALID_INPUT" },
    { name: "malformed JSON", method: "POST", path: M, body: "{not json", status: 400, code: "INVALID_INPUT", field: "body" },
    { name: "truncated JSON", method: "POST", path: M, body: '{"content": "We use', status: 400, code: "INVALID_INPUT", field: "body" },
    { name: "empty body", method: "POST", path: M, body: "", status: 400, code: "INVALID_INPUT", field: "content" },
    { name: "body over 1 MB", method: "POST", path: M, body: JSON.stringify({ content: long(1_100_000) }), status: 413, code: "PAYLOAD_TOO_LARGE" },
    // POST /recall
    { name: "recall without query", method: "POST", path: "/api/v1/recall", body: {}, status: 400, code: "INVALID_INPUT", field: "query" },
    { name: "recall empty query", method: "POST", path: "/api/v1/recall", body: { query: "" }, status: 400, code: "INVALID_INPUT", field: "query" },
    { name: "recall query over 1000 chars", method: "POST", path: "/api/v1/recall", body: { query: long(1001) }, status: 400, code: "INVALID_INPUT", field: "query" },
    { name: "recall query a number", method: "POST", path: "/api/v1/recall", body: { query: 42 }, status: 400, code: "INVALID_INPUT", field: "query" },
    { name: "recall huge k", method: "POST", path: "/api/v1/recall", body: { query: "go", k: 1e9 }, status: 400, code: "INVALID_INPUT", field: "k" },
    { name: "recall k zero", method: "POST", path: "/api/v1/recall", body: { query: "go", k: 0 }, status: 400, code: "INVALID_INPUT", field: "k" },
    { name: "recall negative k", method: "POST", path: "/api/v1/recall", body: { query: "go", k: -3 }, status: 400, code: "INVALID_INPUT", field: "k" },
    { name: "recall fractional k", method: "POST", path: "/api/v1/recall", body: { query: "go", k: 2.5 }, status: 400, code: "INVALID_INPUT", field: "k" },
    { name: "recall k as a string", method: "POST", path: "/api/v1/recall", body: { query: "go", k: "5" }, status: 400, code: "INVALID_INPUT", field: "k" },
    { name: "recall unknown type", method: "POST", path: "/api/v1/recall", body: { query: "go", types: ["opinion"] }, status: 400, code: "INVALID_INPUT", field: "types.0" },
    { name: "recall layers a string", method: "POST", path: "/api/v1/recall", body: { query: "go", layers: "L1" }, status: 400, code: "INVALID_INPUT", field: "layers" },
    { name: "recall scope a number", method: "POST", path: "/api/v1/recall", body: { query: "go", scope: 5 }, status: 400, code: "INVALID_INPUT", field: "scope" },
    { name: "recall malformed JSON", method: "POST", path: "/api/v1/recall", body: "{\"query\":", status: 400, code: "INVALID_INPUT", field: "body" },
    // ingest, forget, summarize
    { name: "ingest without user", method: "POST", path: "/api/v1/ingest", body: { assistant: "ok" }, status: 400, code: "INVALID_INPUT", field: "user" },
    { name: "ingest user over 20000 chars", method: "POST", path: "/api/v1/ingest", body: { user: long(20_001) }, status: 400, code: "INVALID_INPUT", field: "user" },
    { name: "ingest assistant a number", method: "POST", path: "/api/v1/ingest", body: { user: "hi", assistant: 5 }, status: 400, code: "INVALID_INPUT", field: "assistant" },
    { name: "forget with nothing to match", method: "POST", path: "/api/v1/forget", body: {}, status: 400, code: "INVALID_INPUT", field: "query" },
    { name: "forget empty match list", method: "POST", path: "/api/v1/forget", body: { match: [] }, status: 400, code: "INVALID_INPUT", field: "match" },
    { name: "forget ids a string", method: "POST", path: "/api/v1/forget", body: { ids: "abc" }, status: 400, code: "INVALID_INPUT", field: "ids" },
    { name: "summarize bad since", method: "POST", path: "/api/v1/summarize", body: { since: "2026-99-99" }, status: 400, code: "INVALID_INPUT", field: "since" },
    { name: "summarize since after until", method: "POST", path: "/api/v1/summarize", body: { since: "2026-03-02", until: "2026-03-01" }, status: 400, code: "INVALID_INPUT", field: "since" },
    { name: "summarize unknown type", method: "POST", path: "/api/v1/summarize", body: { type: "mood" }, status: 400, code: "INVALID_INPUT", field: "type" },
    // list / query parameters
    { name: "negative limit", method: "GET", path: `${M}?limit=-1`, status: 400, code: "INVALID_INPUT", field: "limit" },
    { name: "limit not a number", method: "GET", path: `${M}?limit=abc`, status: 400, code: "INVALID_INPUT", field: "limit" },
    { name: "huge limit", method: "GET", path: `${M}?limit=100000000`, status: 400, code: "INVALID_INPUT", field: "limit" },
    { name: "negative offset", method: "GET", path: `${M}?offset=-5`, status: 400, code: "INVALID_INPUT", field: "offset" },
    { name: "unknown layer filter", method: "GET", path: `${M}?layer=L9`, status: 400, code: "INVALID_INPUT", field: "layer.0" },
    { name: "unknown status filter", method: "GET", path: `${M}?status=bogus`, status: 400, code: "INVALID_INPUT", field: "status.0" },
    { name: "include_expired not a boolean", method: "GET", path: `${M}?include_expired=maybe`, status: 400, code: "INVALID_INPUT", field: "include_expired" },
    { name: "audit negative limit", method: "GET", path: "/api/v1/audit?limit=-1", status: 400, code: "INVALID_INPUT", field: "limit" },
    { name: "stats bad scope", method: "GET", path: "/api/v1/stats?scope=bad", status: 400, code: "INVALID_INPUT", field: "scope" },
    { name: "export bad scope", method: "GET", path: "/api/v1/export?scope=bad", status: 400, code: "INVALID_INPUT", field: "scope" },
    { name: "conflicts short scope", method: "GET", path: "/api/v1/conflicts?scope=x", status: 400, code: "INVALID_INPUT", field: "scope" },
    { name: "proposals unknown status", method: "GET", path: "/api/v1/proposals?status=bogus", status: 400, code: "INVALID_INPUT", field: "status.0" },
    // bad ids
    { name: "get unknown id", method: "GET", path: `${M}/does-not-exist`, status: 404, code: "NOT_FOUND", field: "id" },
    { name: "get path-traversal id", method: "GET", path: `${M}/..%2F..%2Fetc%2Fpasswd`, status: 404, code: "NOT_FOUND", field: "id" },
    { name: "get 5000-char id", method: "GET", path: `${M}/${long(5000)}`, status: 404, code: "NOT_FOUND" },
    { name: "get id with broken percent-encoding", method: "GET", path: `${M}/%E0%A4%A`, status: 404, code: "NOT_FOUND" },
    { name: "edit unknown id", method: "PATCH", path: `${M}/missing`, body: { content: "The billing service is written in Rust." }, status: 404, code: "NOT_FOUND", field: "id" },
    { name: "edit confidence 5", method: "PATCH", path: `${M}/${existingId}`, body: { confidence: 5 }, status: 400, code: "INVALID_INPUT", field: "confidence" },
    { name: "edit content a number", method: "PATCH", path: `${M}/${existingId}`, body: { content: 5 }, status: 400, code: "INVALID_INPUT", field: "content" },
    { name: "edit valid_until not a date", method: "PATCH", path: `${M}/${existingId}`, body: { valid_until: "soon" }, status: 400, code: "INVALID_INPUT", field: "valid_until" },
    { name: "edit body an array", method: "PATCH", path: `${M}/${existingId}`, body: "[]", status: 400, code: "INVALID_INPUT", field: "body" },
    { name: "edit malformed JSON", method: "PATCH", path: `${M}/${existingId}`, body: "{", status: 400, code: "INVALID_INPUT", field: "body" },
    { name: "delete unknown id", method: "DELETE", path: `${M}/missing`, status: 404, code: "NOT_FOUND", field: "id" },
    { name: "pin unknown id", method: "POST", path: `${M}/missing/pin`, body: {}, status: 404, code: "NOT_FOUND", field: "id" },
    { name: "pin with pinned a string", method: "POST", path: `${M}/${existingId}/pin`, body: { pinned: "yes" }, status: 400, code: "INVALID_INPUT", field: "pinned" },
    { name: "approve unknown proposal", method: "POST", path: "/api/v1/proposals/xyz/approve", status: 404, code: "NOT_FOUND", field: "id" },
    { name: "reject unknown proposal", method: "POST", path: "/api/v1/proposals/xyz/reject", status: 404, code: "NOT_FOUND", field: "id" },
    { name: "roll back unknown proposal", method: "POST", path: "/api/v1/proposals/xyz/rollback", status: 404, code: "NOT_FOUND", field: "id" },
    // methods and routes
    { name: "PUT on the collection", method: "PUT", path: M, body: {}, status: 405, code: "METHOD_NOT_ALLOWED" },
    { name: "DELETE on recall", method: "DELETE", path: "/api/v1/recall", status: 405, code: "METHOD_NOT_ALLOWED" },
    { name: "GET on recall", method: "GET", path: "/api/v1/recall", status: 405, code: "METHOD_NOT_ALLOWED" },
    { name: "POST on healthz", method: "POST", path: "/healthz", body: {}, status: 405, code: "METHOD_NOT_ALLOWED" },
    { name: "POST on metrics", method: "POST", path: "/metrics", body: {}, status: 405, code: "METHOD_NOT_ALLOWED" },
    { name: "unknown route", method: "GET", path: "/api/v1/nothing", status: 404, code: "NOT_FOUND" },
    { name: "unknown API version", method: "GET", path: "/api/v2/memories", status: 404, code: "NOT_FOUND" },
    { name: "unknown sub-route", method: "POST", path: `${M}/${existingId}/explode`, body: {}, status: 404, code: "NOT_FOUND" },
    // auth and Host
    { name: "no token", method: "GET", path: M, token: null, status: 401, code: "UNAUTHORIZED" },
    { name: "wrong token", method: "GET", path: M, token: "wrong-token-0123456789abcdef", status: 401, code: "UNAUTHORIZED" },
    { name: "token without Bearer", method: "GET", path: M, token: null, headers: { authorization: TOKEN }, status: 401, code: "UNAUTHORIZED" },
    { name: "Basic auth", method: "GET", path: M, token: null, headers: { authorization: "Basic dXNlcjpwYXNz" }, status: 401, code: "UNAUTHORIZED" },
    { name: "empty bearer", method: "POST", path: "/api/v1/recall", body: { query: "go" }, token: null, headers: { authorization: "Bearer " }, status: 401, code: "UNAUTHORIZED" },
    { name: "no token on /mcp", method: "POST", path: "/mcp", body: {}, token: null, status: 401, code: "UNAUTHORIZED" },
    { name: "wrong Host", method: "GET", path: M, headers: { host: "evil.example" }, status: 403, code: "FORBIDDEN" },
    { name: "wrong Host port", method: "GET", path: M, headers: { host: `127.0.0.1:${running.port + 1}` }, status: 403, code: "FORBIDDEN" },
    { name: "wrong Host on /mcp", method: "POST", path: "/mcp", body: {}, headers: { host: "evil.example:80" }, status: 403, code: "FORBIDDEN" },
  ];

  const mcp: McpRow[] = [
    { name: "write content a number", tool: "memory_write", args: { content: 5 }, names: /\bcontent\b/ },
    { name: "write content missing", tool: "memory_write", args: { type: "fact" }, names: /\bcontent\b/ },
    { name: "write content empty", tool: "memory_write", args: { content: "" }, names: /\bcontent\b/ },
    { name: "write content only spaces", tool: "memory_write", args: { content: "    " }, names: /\bcontent\b/ },
    { name: "write content over 4000 chars", tool: "memory_write", args: { content: long(4001) }, names: /\bcontent\b/ },
    { name: "write unknown type", tool: "memory_write", args: { content: "We use Go.", type: "opinion" }, names: /\btype\b/ },
    { name: "write confidence 1.5", tool: "memory_write", args: { content: "We use Go.", confidence: 1.5 }, names: /\bconfidence\b/ },
    { name: "write confidence a string", tool: "memory_write", args: { content: "We use Go.", confidence: "high" }, names: /\bconfidence\b/ },
    { name: "write valid_until not a date", tool: "memory_write", args: { content: "We use Go.", valid_until: "yesterday" }, names: /\bvalid_until\b/ },
    { name: "write valid_until over 40 chars", tool: "memory_write", args: { content: "We use Go.", valid_until: long(41) }, names: /valid_until/ },
    { name: "write bad scope", tool: "memory_write", args: { content: "We use Go.", scope: "nope" }, names: /\bscope\b/ },
    { name: "write tags a string", tool: "memory_write", args: { content: "We use Go.", tags: "go" }, names: /\btags\b/ },
    { name: "write empty subject", tool: "memory_write", args: { content: "We use Go.", subject: "" }, names: /\bsubject\b/ },
    { name: "recall without query", tool: "memory_recall", args: {}, names: /\bquery\b/ },
    { name: "recall query a number", tool: "memory_recall", args: { query: 42 }, names: /\bquery\b/ },
    { name: "recall query over 1000 chars", tool: "memory_recall", args: { query: long(1001) }, names: /\bquery\b/ },
    { name: "recall huge k", tool: "memory_recall", args: { query: "go", k: 1_000_000 }, names: /\bk\b/ },
    { name: "recall negative k", tool: "memory_recall", args: { query: "go", k: -1 }, names: /\bk\b/ },
    { name: "recall fractional k", tool: "memory_recall", args: { query: "go", k: 1.5 }, names: /\bk\b/ },
    { name: "recall unknown type", tool: "memory_recall", args: { query: "go", types: ["opinion"] }, names: /\btypes\b/ },
    { name: "recall empty layers", tool: "memory_recall", args: { query: "go", layers: [] }, names: /\blayers\b/ },
    { name: "ingest without user", tool: "memory_ingest", args: { assistant: "ok" }, names: /\buser\b/ },
    { name: "ingest user over 20000 chars", tool: "memory_ingest", args: { user: long(20_001) }, names: /\buser\b/ },
    { name: "forget with nothing", tool: "memory_forget", args: {}, names: /\bid\b.*\bquery\b|\bquery\b/ },
    { name: "forget unknown id", tool: "memory_forget", args: { id: "no-such-id" }, names: /NOT_FOUND.*\bid\b/ },
    { name: "forget empty match", tool: "memory_forget", args: { match: [] }, names: /\bmatch\b/ },
    { name: "summarize bad since", tool: "memory_summarize", args: { since: "2026-99-99" }, names: /\bsince\b/ },
    { name: "summarize unknown type", tool: "memory_summarize", args: { type: "mood" }, names: /\btype\b/ },
    { name: "unknown tool", tool: "memory_explode", args: {}, names: /memory_explode.*not found/i },
  ];

  const raw: RawMcpRow[] = [
    { name: "malformed JSON", body: "{not json", status: 400, rpcCode: -32700, names: /Parse error/ },
    { name: "not a JSON-RPC message", body: { hello: 1 }, status: 400, rpcCode: -32700, names: /JSON-RPC/ },
    { name: "unknown method", body: { jsonrpc: "2.0", id: 1, method: "no/such" }, status: 200, rpcCode: -32601, names: /Method not found/ },
    { name: "tools/call with arguments a string", body: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memory_write", arguments: "x" } }, status: 200, names: /arguments/ },
    { name: "tools/call without params", body: { jsonrpc: "2.0", id: 3, method: "tools/call" }, status: 200, names: /params/ },
    { name: "unknown session id", body: { jsonrpc: "2.0", id: 4, method: "tools/list" }, session: "unknown", status: 404, rpcCode: -32000, names: /Session not found/ },
    { name: "no session, not initialize", body: { jsonrpc: "2.0", id: 5, method: "tools/list" }, session: "none", status: 400, rpcCode: -32000, names: /not initialized|initialize/ },
    { name: "GET without a session", method: "GET", body: undefined, session: "none", status: 400, rpcCode: -32000, names: /no MCP session/ },
    { name: "wrong content type", body: { jsonrpc: "2.0", id: 6, method: "tools/list" }, headers: { "content-type": "text/plain" }, status: 415, names: /Content-Type/ },
    { name: "PUT on /mcp", method: "PUT", body: { jsonrpc: "2.0", id: 7, method: "tools/list" }, status: 405, names: /Method not allowed/i },
    { name: "body over 4 MB", body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "memory_write", arguments: { content: long(4_300_000) } } }), status: 413, names: /Too Large/i },
  ];

  it("REST: every malformed call gets a JSON error with status, code, message and field", async () => {
    const rows = rest();
    assert.ok(rows.length >= 60, `${rows.length} REST rows`);
    for (const row of rows) {
      const token = row.token === null ? undefined : (row.token ?? TOKEN);
      const r = await http(base, row.method, row.path, { ...(token ? { token } : {}), ...(row.body !== undefined ? { body: row.body } : {}), ...(row.headers ? { headers: row.headers } : {}) });
      assertRestError(row, r);
    }
  });

  it("MCP tools: every malformed call is a tool error (isError) whose message names the field", async () => {
    for (const row of mcp) {
      const r = await client.callTool({ name: row.tool, arguments: row.args });
      const text = toolText(r);
      assert.equal(r.isError, true, `${row.name}: ${text}`);
      assert.ok(row.names.test(text), `${row.name}: the message should name the field (${row.names}): ${text}`);
      assert.ok(!/\bat .+:\d+:\d+/.test(text), `${row.name}: a stack trace leaked: ${text}`);
    }
  });

  it("MCP transport: malformed JSON-RPC gets a JSON-RPC error, never a crash", async () => {
    for (const row of raw) {
      const session = row.session ?? "valid";
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        ...(session === "valid" ? { "mcp-session-id": sessionId } : session === "unknown" ? { "mcp-session-id": "00000000-0000-0000-0000-000000000000" } : {}),
        ...row.headers,
      };
      const r = await http(base, row.method ?? "POST", "/mcp", { token: TOKEN, headers, ...(row.body !== undefined ? { body: row.body } : {}) });
      const where = `${row.name} -> ${r.status} ${r.text.slice(0, 300)}`;
      assert.equal(r.status, row.status, where);
      const json = r.json ?? JSON.parse(/data: (.*)/.exec(r.text)?.[1] ?? "null");
      assert.equal(json?.jsonrpc, "2.0", where);
      assert.equal(typeof json.error?.message, "string", where);
      if (row.rpcCode !== undefined) assert.equal(json.error.code, row.rpcCode, where);
      assert.ok(row.names.test(json.error.message), where);
    }
  });

  it("unknown fields are refused with the field named (REST and MCP), and nothing is stored", async () => {
    const before = (await http(base, "GET", "/api/v1/stats", { token: TOKEN })).json;
    const r = await http(base, "POST", M, { token: TOKEN, body: { content: "The ledger service is written in Kotlin.", type: "fact", colour: "blue" } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, "INVALID_INPUT");
    assert.equal(r.json.error.field, "colour");
    const m = await client.callTool({ name: "memory_write", arguments: { content: "The search service is written in Rust.", type: "fact", priority: "high" } });
    assert.equal(m.isError, true);
    assert.match(toolText(m), /priority/);
    const after = (await http(base, "GET", "/api/v1/stats", { token: TOKEN })).json;
    assert.deepEqual(after.counts ?? after, before.counts ?? before);
  });

  it("after all of them the server still serves a normal recall (REST and MCP) and a write", async () => {
    const rest = await http(base, "POST", "/api/v1/recall", { token: TOKEN, body: { query: "Which language is the billing service written in?" } });
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.json.memories[0]?.id, existingId);
    const viaMcp = await client.callTool({ name: "memory_recall", arguments: { query: "Which language is the billing service written in?" } });
    assert.ok(!viaMcp.isError && toolText(viaMcp).includes("written in Go"), toolText(viaMcp));
    const w = await client.callTool({ name: "memory_write", arguments: { content: "The catalog service is written in Elixir.", type: "fact" } });
    assert.equal((w.structuredContent as { action: string }).action, "added", toolText(w));
    assert.equal((await http(base, "GET", "/healthz")).status, 200);
    const metrics = await http(base, "GET", "/metrics", { token: TOKEN });
    assert.ok(!/status="500"/.test(metrics.text), `no request ended in a 500:\n${metrics.text.split("\n").filter((l) => l.includes("500")).join("\n")}`);
  });
});
