import { strict as assert } from "node:assert";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { MemoryEngine } from "../../src/core/engine.js";
import { HindsightError } from "../../src/core/errors.js";
import { LLM_EXTRACTION_SCHEMA } from "../../src/core/write/llmExtract.js";
import { llmClientFromEnv, OpenAiCompatibleClient } from "../../src/llm/openaiCompatible.js";
import { resolve } from "node:path";
import { DECISION_SCHEMA } from "../../src/core/write/llmDecide.js";
import { TransformersEmbedder } from "../../src/models/transformersEmbedder.js";
import { LanceStore } from "../../src/stores/lancedb/lanceStore.js";
import { InMemoryStore } from "../../src/stores/memory/memoryStore.js";
import { FakeEmbedder, FixedClock, rejection, withTempDir } from "../helpers/fakes.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    temperature?: number;
    response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict: boolean } };
  };
}

interface FakeServer {
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

type Reply = (req: Seen, res: ServerResponse, later: (ms: number, fn: () => void) => void) => void;

/** A chat-completions server on 127.0.0.1 (port 0) answering through `reply`; `later` timers are cleared on close. */
async function startServer(reply: Reply): Promise<FakeServer> {
  const seen: Seen[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: Seen["body"] = {};
      try {
        body = JSON.parse(text) as Seen["body"];
      } catch {
        // recorded as empty; the assertions will say so
      }
      const s: Seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(s);
      reply(s, res, later);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function completion(content: string): string {
  return JSON.stringify({
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_773_828_000,
    model: "test-model",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  });
}

function sendJson(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body);
}

/** Runs fn against a fresh server and always closes it. */
async function withServer(reply: Reply, fn: (server: FakeServer) => Promise<void>): Promise<void> {
  const server = await startServer(reply);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

describe("integration: OpenAI-compatible LLM client against a local chat-completions server", function () {
  this.timeout(20_000);

  it("POSTs the chat-completions request and returns choices[0].message.content", async () => {
    await withServer(
      (_req, res) => sendJson(res, 200, completion('{"memories": []}')),
      async (server) => {
        const client = new OpenAiCompatibleClient({ baseUrl: `${server.baseUrl}/`, model: "qwen2.5:7b", apiKey: "sk-test-key-0123456789" });
        const out = await client.complete({ system: "SYSTEM PROMPT", user: "USER PROMPT", jsonSchema: LLM_EXTRACTION_SCHEMA, timeoutMs: 5000 });
        assert.equal(out, '{"memories": []}');
        assert.equal(server.seen.length, 1);
        const req = server.seen[0]!;
        assert.equal(req.method, "POST");
        assert.equal(req.url, "/v1/chat/completions");
        assert.equal(req.headers["authorization"], "Bearer sk-test-key-0123456789");
        assert.match(String(req.headers["content-type"]), /^application\/json/);
        assert.equal(req.body.model, "qwen2.5:7b");
        assert.equal(req.body.temperature, 0);
        assert.deepEqual(req.body.messages, [
          { role: "system", content: "SYSTEM PROMPT" },
          { role: "user", content: "USER PROMPT" },
        ]);
        assert.deepEqual(req.body.response_format, {
          type: "json_schema",
          json_schema: { name: "hindsight_memories", schema: LLM_EXTRACTION_SCHEMA, strict: true },
        });
        assert.match(client.id, /^openai-compatible:qwen2\.5:7b@127\.0\.0\.1:\d+$/);
      },
    );
  });

  it("sends no Authorization header without a key; json_object and none modes change response_format", async () => {
    await withServer(
      (_req, res) => sendJson(res, 200, completion("ok")),
      async (server) => {
        const request = { system: "s", user: "u", jsonSchema: LLM_EXTRACTION_SCHEMA };
        await new OpenAiCompatibleClient({ baseUrl: server.baseUrl, model: "m", jsonMode: "json_object" }).complete(request);
        await new OpenAiCompatibleClient({ baseUrl: server.baseUrl, model: "m", jsonMode: "none" }).complete(request);
        await new OpenAiCompatibleClient({ baseUrl: server.baseUrl, model: "m" }).complete({ system: "s", user: "u" });
        assert.equal(server.seen[0]!.headers["authorization"], undefined);
        assert.deepEqual(server.seen[0]!.body.response_format, { type: "json_object" });
        assert.equal(server.seen[1]!.body.response_format, undefined);
        assert.equal(server.seen[2]!.body.response_format, undefined, "no schema asked: plain text");
      },
    );
  });

  it("a 500 is LLM_UNAVAILABLE with the status and a short body excerpt, never the API key", async () => {
    const key = "sk-secret-key-abcdefghijklmnop";
    await withServer(
      (req, res) => sendJson(res, 500, JSON.stringify({ error: { message: `internal error for ${String(req.headers["authorization"])}`, padding: "x".repeat(5000) } })),
      async (server) => {
        const err = await rejection(new OpenAiCompatibleClient({ baseUrl: server.baseUrl, model: "m", apiKey: key }).complete({ system: "s", user: "u" }));
        assert.ok(HindsightError.is(err, "LLM_UNAVAILABLE"), String(err));
        assert.equal(err.details?.["status"], 500);
        assert.match(err.message, /answered 500: .*internal error/);
        assert.ok(err.message.length < 400, `excerpt too long: ${err.message.length}`);
        assert.ok(!err.message.includes(key));
        assert.ok(!JSON.stringify(err.details).includes(key));
      },
    );
  });

  it("a server slower than the timeout is a timeout error, and the client does not wait for it", async () => {
    await withServer(
      (_req, res, later) => later(5000, () => sendJson(res, 200, completion("too late"))),
      async (server) => {
        const client = new OpenAiCompatibleClient({ baseUrl: server.baseUrl, model: "m", timeoutMs: 200 });
        const started = performance.now();
        const err = await rejection(client.complete({ system: "s", user: "u" }));
        assert.ok(performance.now() - started < 3000);
        assert.ok(HindsightError.is(err, "LLM_UNAVAILABLE"), String(err));
        assert.equal(err.message, "llm timeout after 200 ms");
        assert.equal(err.details?.["timeoutMs"], 200);
      },
    );
  });

  it("an unreachable endpoint is LLM_UNAVAILABLE", async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, completion("x")));
    const baseUrl = server.baseUrl;
    await server.close();
    const err = await rejection(new OpenAiCompatibleClient({ baseUrl, model: "m", timeoutMs: 2000 }).complete({ system: "s", user: "u" }));
    assert.ok(HindsightError.is(err, "LLM_UNAVAILABLE"), String(err));
    assert.match(err.message, /unreachable/);
  });

  it("a 200 without message content is LLM_INVALID_OUTPUT", async () => {
    await withServer(
      (_req, res) => sendJson(res, 200, JSON.stringify({ choices: [] })),
      async (server) => {
        const err = await rejection(new OpenAiCompatibleClient({ baseUrl: server.baseUrl, model: "m" }).complete({ system: "s", user: "u" }));
        assert.ok(HindsightError.is(err, "LLM_INVALID_OUTPUT"), String(err));
      },
    );
  });

  it("llmClientFromEnv: null without a URL, a client with one, refuses a URL without a model", () => {
    assert.equal(llmClientFromEnv({}), null);
    assert.equal(llmClientFromEnv({ HINDSIGHT_LLM_URL: "  " }), null);
    const client = llmClientFromEnv({ HINDSIGHT_LLM_URL: "http://127.0.0.1:11434/v1", HINDSIGHT_LLM_MODEL: "qwen2.5:7b", HINDSIGHT_LLM_API_KEY: "k" });
    assert.ok(client instanceof OpenAiCompatibleClient);
    assert.equal(client.id, "openai-compatible:qwen2.5:7b@127.0.0.1:11434");
    assert.throws(() => llmClientFromEnv({ HINDSIGHT_LLM_URL: "http://127.0.0.1:11434/v1" }), (e: unknown) => HindsightError.is(e, "INVALID_INPUT") && e.field === "HINDSIGHT_LLM_MODEL");
    assert.throws(
      () => llmClientFromEnv({ HINDSIGHT_LLM_URL: "http://127.0.0.1:11434/v1", HINDSIGHT_LLM_MODEL: "m", HINDSIGHT_LLM_JSON_MODE: "xml" }),
      (e: unknown) => HindsightError.is(e, "INVALID_INPUT"),
    );
    assert.throws(() => new OpenAiCompatibleClient({ baseUrl: "not a url", model: "m" }), (e: unknown) => HindsightError.is(e, "INVALID_INPUT"));
  });

  describe("end to end: MemoryEngine ingest through the client", () => {
    async function engineAt(baseUrl: string) {
      const llm = new OpenAiCompatibleClient({ baseUrl, model: "test-model", timeoutMs: 5000 });
      const engine = new MemoryEngine({ store: new InMemoryStore(), embedder: new FakeEmbedder(), clock: new FixedClock(), llm }, { defaultScope: "project:test" });
      await engine.open();
      return engine;
    }

    it("stores the LLM's standalone memory", async () => {
      await withServer(
        (req, res) => {
          const user = req.body.messages?.find((m) => m.role === "user")?.content ?? "";
          const turnId = /Turn id: (\S+)/.exec(user)?.[1] ?? "?";
          const content = JSON.stringify({
            memories: [
              { should_remember: false, memory_type: "event", subject: "user", content: "The user said hi.", confidence: 0.9, valid_until: null, source_turn: turnId },
              {
                should_remember: true,
                memory_type: "constraint",
                subject: "project",
                content: "The project's release branch is frozen until Friday 2026-03-20.",
                confidence: 0.9,
                valid_until: "2026-03-20T23:59:59Z",
                source_turn: turnId,
              },
            ],
          });
          sendJson(res, 200, completion(`\`\`\`json\n${content}\n\`\`\``));
        },
        async (server) => {
          const engine = await engineAt(server.baseUrl);
          const r = await engine.ingest({ user: "hi! btw release branch is frozen till friday" });
          assert.equal(r.extractor, "llm");
          assert.equal(r.fallbackReason, null);
          assert.equal(server.seen.length, 1);
          assert.equal(server.seen[0]!.body.response_format?.type, "json_schema");
          const stored = await engine.list();
          assert.equal(stored.length, 1);
          assert.equal(stored[0]!.content, "The project's release branch is frozen until Friday 2026-03-20.");
          assert.equal(stored[0]!.type, "constraint");
          assert.equal(stored[0]!.validUntil, Date.UTC(2026, 2, 20, 23, 59, 59));
          assert.deepEqual(stored[0]!.sourceTurns, [r.turnId]);
        },
      );
    });

    it("invalid JSON from the server: the rules decide and the result says so", async () => {
      await withServer(
        (_req, res) => sendJson(res, 200, completion('Here you go: {"memories": [{"should_remember": true, "content": ')),
        async (server) => {
          const engine = await engineAt(server.baseUrl);
          const r = await engine.ingest({ user: "We deploy the web app to Fly.io." });
          assert.equal(r.extractor, "rules");
          assert.match(r.fallbackReason!, /^llm output invalid: /);
          assert.deepEqual((await engine.list()).map((m) => m.content), ["We deploy the web app to Fly.io."]);
        },
      );
    });

    it("a failing server: the rules decide and the result gives the status", async () => {
      await withServer(
        (_req, res) => sendJson(res, 503, '{"error": "model is loading"}'),
        async (server) => {
          const engine = await engineAt(server.baseUrl);
          const r = await engine.ingest({ user: "We deploy the web app to Fly.io." });
          assert.equal(r.extractor, "rules");
          assert.match(r.fallbackReason!, /^llm unavailable: llm endpoint answered 503/);
          assert.equal((await engine.list()).length, 1);
        },
      );
    });
  });
});

describe("integration: the write path asks a local chat-completions server add / update / keep (real LanceDB, real model)", function () {
  this.timeout(120_000);
  const MODEL_DIR = resolve(__dirname, "../../../..", "shared/models");

  /** A model that judges like a careful person would: update the memory holding the value the statement says changed. */
  const judge: Reply = (req, res) => {
    const user = req.body.messages?.find((m) => m.role === "user")?.content ?? "";
    const statement = /^New statement: (.*)$/m.exec(user)?.[1] ?? "";
    const lines = [...user.matchAll(/^(m\d+) \([^)]*\): (.*)$/gm)];
    const outdated = lines.filter(([, , content]) => /print queue/i.test(statement) && /Beanstalkd/.test(content ?? "") && !/also/i.test(statement));
    const answer = outdated.length > 0 ? { action: "update", labels: outdated.map(([, label]) => label) } : { action: "add", labels: [] };
    sendJson(res, 200, completion(JSON.stringify(answer)));
  };

  it("an update the rules cannot see (no shared value word) is decided by the LLM; an addition stays; the result says who decided", async () => {
    await withServer(judge, async (server) => {
      await withTempDir(async (dir) => {
        const clock = new FixedClock(Date.parse("2026-10-05T09:00:00Z"));
        const llm = new OpenAiCompatibleClient({ baseUrl: server.baseUrl, model: "judge" });
        const embedder = new TransformersEmbedder({ modelDir: MODEL_DIR, allowDownload: false });
        const engine = new MemoryEngine({ store: new LanceStore({ dir }), embedder, clock, llm }, { defaultScope: "project:printshop" });
        await engine.open();
        try {
          const old = await engine.write({ content: "Print jobs are queued in Beanstalkd." });
          clock.set(Date.parse("2026-10-12T09:00:00Z"));
          const next = await engine.write({ content: "The print queue is RabbitMQ these days." });
          assert.equal(next.decidedBy, "llm", next.reason);
          assert.deepEqual(next.supersedes, [old.id]);
          assert.equal((await engine.get(old.id!)).status, "superseded");
          const asked = server.seen.at(-1)!;
          assert.equal(asked.body.response_format?.type, "json_schema");
          assert.deepEqual(asked.body.response_format?.json_schema?.schema, DECISION_SCHEMA);

          const extra = await engine.write({ content: "Scan jobs also go through a Redis list." });
          assert.equal(extra.action, "added", extra.reason);
          assert.equal((await engine.list({})).length, 2);
          const r = await engine.recall({ query: "What queues the print jobs?", k: 3 });
          assert.match(r.memories[0]?.content ?? "", /RabbitMQ/, r.text);
        } finally {
          await engine.close();
        }
      });
    });
  });

  it("a server that is down: the rules decide and the write is stored", async () => {
    const server = await startServer((_req, res) => sendJson(res, 503, '{"error": "overloaded"}'));
    await server.close();
    await withTempDir(async (dir) => {
      const clock = new FixedClock(Date.parse("2026-10-05T09:00:00Z"));
      const embedder = new TransformersEmbedder({ modelDir: MODEL_DIR, allowDownload: false });
      const llm = new OpenAiCompatibleClient({ baseUrl: server.baseUrl, model: "judge" });
      const engine = new MemoryEngine({ store: new LanceStore({ dir }), embedder, clock, llm }, { defaultScope: "project:printshop" });
      await engine.open();
      try {
        await engine.write({ content: "Print jobs are queued in Beanstalkd." });
        clock.set(Date.parse("2026-10-12T09:00:00Z"));
        const r = await engine.write({ content: "We moved print jobs from Beanstalkd to RabbitMQ." });
        assert.equal(r.decidedBy, "rules");
        assert.ok(r.llmFallback, "the result says why the LLM did not decide");
        assert.equal(r.action, "superseded");
        assert.equal((await engine.list({})).length, 1);
      } finally {
        await engine.close();
      }
    });
  });
});
