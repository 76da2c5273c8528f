import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import { hindsight, setSetting, waitFor } from "./helpers.js";

const WIDGETS = "project:github.com/acme/widgets";

/** A local chat-completions endpoint that extracts one fixed memory, echoing the turn id it was given. */
function startEndpoint(): Promise<{ server: Server; url: string; calls: number[] }> {
  const calls: number[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      calls.push(1);
      const prompt = JSON.stringify(JSON.parse(body || "{}"));
      const turn = /Turn id: ([\w-]+)/.exec(prompt)?.[1] ?? "t";
      const memories = [
        { should_remember: true, memory_type: "fact", subject: "project", content: "The widgets project ships through Argo CD.", confidence: 0.9, valid_until: null, source_turn: turn },
      ];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify({ memories }) }, finish_reason: "stop" }] }));
    });
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, calls })));
}

describe("extraction model choice (real VS Code extension host)", () => {
  after(async () => {
    await setSetting("llm.useCopilot", false);
    await setSetting("llm.endpointUrl", undefined);
    await setSetting("llm.endpointModel", undefined);
  });

  it("Copilot allowed but no Copilot model in this VS Code: the offline rules decide, and the result says so", async () => {
    const api = await hindsight();
    await api.service.ensureEndpoint();
    await setSetting("llm.useCopilot", true);
    await waitFor("the Copilot choice evaluated", () => /no Copilot model available/.test(api.service.llmDescription), 30_000);
    const client = await api.service.client();
    const r = await client.json<{ extractor: string; fallbackReason: string | null }>("POST", "/ingest", { user: "We keep the widgets changelog in CHANGELOG.md.", scope: WIDGETS });
    assert.equal(r.extractor, "rules");
  });

  it("an OpenAI-compatible endpoint is used when Copilot is not: ingest says the LLM decided", async () => {
    const api = await hindsight();
    const endpoint = await startEndpoint();
    try {
      await setSetting("llm.useCopilot", false);
      await setSetting("llm.endpointModel", "local-model");
      await setSetting("llm.endpointUrl", endpoint.url);
      await waitFor("the endpoint chosen", () => api.service.llmDescription.includes(endpoint.url), 30_000);
      const client = await api.service.client();
      const r = await client.json<{ extractor: string; results: Array<{ memory: { content: string } | null }> }>("POST", "/ingest", {
        user: "Deployments of widgets go through Argo CD now.",
        scope: WIDGETS,
      });
      assert.equal(r.extractor, "llm", JSON.stringify(r));
      assert.ok(endpoint.calls.length >= 1);
      assert.ok(r.results.some((x) => x.memory?.content === "The widgets project ships through Argo CD."), JSON.stringify(r.results));
    } finally {
      endpoint.server.close();
    }
  });
});
