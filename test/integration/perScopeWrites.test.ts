import { strict as assert } from "node:assert";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBundle, spawnServe, type ServedProcess } from "../helpers/serveProcess.js";

/**
 * A chat-completions server whose answers about one project wait until the test lets them go: the
 * slow model call of a team server. Extraction requests get one memory back; anything else "add".
 */
async function heldLlm(): Promise<{ url: string; release: () => void; held: () => number; close: () => Promise<void> }> {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { messages: Array<{ content: string }> };
      const user = body.messages.map((m) => m.content).join("\n");
      const turnId = /Turn id: (\S+)/.exec(user)?.[1];
      const content = turnId
        ? JSON.stringify({
            memories: [
              {
                should_remember: true,
                memory_type: "fact",
                subject: "project",
                content: user.includes("firmware") ? "The warehouse scanners run firmware 4.2." : "The docs site deploys from the gh-pages branch.",
                confidence: 0.9,
                valid_until: null,
                source_turn: turnId,
              },
            ],
          })
        : JSON.stringify({ action: "add", target_ids: [], reason: "new" });
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] }));
      };
      if (user.includes("firmware")) {
        held++;
        void gate.then(answer);
      } else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    release: () => release(),
    held: () => held,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("integration: a slow model call of one project does not stall another's writers (real hindsight serve, LanceDB, the real model)", function () {
  this.timeout(180_000);
  let home: string;
  let served: ServedProcess | undefined;
  let llm: Awaited<ReturnType<typeof heldLlm>>;

  before(async () => {
    ensureBundle();
    home = await mkdtemp(join(tmpdir(), "hindsight-perscope-"));
    llm = await heldLlm();
  });
  after(async () => {
    served?.child.kill("SIGTERM");
    if (served) await served.exited;
    await llm.close();
    await rm(home, { recursive: true, force: true });
  });

  it("project b's ingest and write finish while project a's extraction waits for the LLM; a's later write waits its turn; nothing is lost", async () => {
    served = await spawnServe(home, join(home, "store"), "project:a", "perscope-token-0123456789", { HINDSIGHT_LLM_URL: llm.url, HINDSIGHT_LLM_MODEL: "held" });
    const post = (path: string, body: unknown) =>
      fetch(`${served!.url}/api/v1${path}`, { method: "POST", headers: { authorization: "Bearer perscope-token-0123456789", "content-type": "application/json" }, body: JSON.stringify(body) });

    let aDone = false;
    const a = post("/ingest", { user: "the warehouse scanners are on firmware 4.2 now", scope: "project:a" }).then(async (r) => {
      aDone = true;
      return { status: r.status, body: (await r.json()) as { extractor: string; results: Array<{ action: string }> } };
    });
    for (let i = 0; i < 100 && llm.held() === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(llm.held(), 1, "project a's extraction is waiting for the model");

    let aWriteDone = false;
    const aWrite = post("/memories", { content: "The warehouse opens at 06:00.", scope: "project:a" }).then((r) => {
      aWriteDone = true;
      return r.status;
    });
    const b1 = await post("/ingest", { user: "docs site deploys from gh-pages", scope: "project:b" });
    assert.equal(b1.status, 200, await b1.clone().text());
    const b2 = await post("/memories", { content: "The docs site is built with Docusaurus 3.", scope: "project:b" });
    assert.equal(b2.status, 201, await b2.clone().text());
    assert.equal(aDone, false, "project a's turn is still being extracted");
    assert.equal(aWriteDone, false, "a later write of project a waits for the decision before it");

    llm.release();
    const ra = await a;
    assert.equal(ra.status, 200);
    assert.equal(ra.body.extractor, "llm");
    assert.equal(await aWrite, 201);
    const list = async (scope: string) =>
      ((await (await fetch(`${served!.url}/api/v1/memories?scope=${encodeURIComponent(scope)}`, { headers: { authorization: "Bearer perscope-token-0123456789" } })).json()) as { memories: Array<{ content: string }> }).memories
        .map((m) => m.content)
        .sort();
    assert.deepEqual(await list("project:a"), ["The warehouse opens at 06:00.", "The warehouse scanners run firmware 4.2."]);
    assert.deepEqual(await list("project:b"), ["The docs site deploys from the gh-pages branch.", "The docs site is built with Docusaurus 3."]);
  });
});
