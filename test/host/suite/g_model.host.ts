import { strict as assert } from "node:assert";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join, normalize } from "node:path";
import * as vscode from "vscode";
import { hindsight, setSetting, waitFor } from "./helpers.js";

const MODEL = "Xenova/multilingual-e5-small";

/** A Hugging Face–style mirror of the local model folder: /<model>/resolve/main/<file>. */
function startMirror(modelDir: string): Promise<{ server: Server; url: string; served: string[] }> {
  const served: string[] = [];
  const server = createServer((req, res) => {
    const m = /^\/(.+?)\/resolve\/[^/]+\/(.+)$/.exec(decodeURIComponent((req.url ?? "").split("?")[0] ?? ""));
    const file = m ? normalize(join(modelDir, m[1]!, m[2]!)) : "";
    if (!m || !file.startsWith(modelDir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    served.push(m[2]!);
    res.writeHead(200, { "content-length": String(statSync(file).size), "content-type": "application/octet-stream" });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, served })));
}

describe("embedding model on first use (real VS Code extension host)", () => {
  let modelDir = "";
  before(async () => {
    modelDir = vscode.workspace.getConfiguration("hindsight").get<string>("modelPath") ?? "";
    assert.ok(existsSync(join(modelDir, MODEL, "config.json")), `test model missing in ${modelDir}`);
  });
  after(async () => {
    // Back to the workspace's own values (the run's .code-workspace sets them).
    await setSetting("modelMirrorUrl", undefined);
    await setSetting("allowModelDownload", false);
    await setSetting("modelPath", modelDir);
  });

  it("downloads the model with progress when no local folder has it, then serves from the same store", async () => {
    const api = await hindsight();
    const mirror = await startMirror(modelDir);
    try {
      await setSetting("allowModelDownload", true);
      await setSetting("modelMirrorUrl", mirror.url);
      await setSetting("modelPath", "");
      // downloads is cleared at every start and filled only by a download.
      await waitFor("the server running on the downloaded model", () => api.service.state === "running" && api.service.downloads.size > 0, 120_000);
      assert.ok(mirror.served.some((f) => f.endsWith(".onnx")), `nothing was downloaded: ${JSON.stringify(mirror.served)}`);
      const onnx = [...api.service.downloads.entries()].find(([f]) => f.endsWith(".onnx"));
      assert.ok(onnx, `no progress was reported: ${JSON.stringify([...api.service.downloads])}`);
      assert.equal(Math.round(onnx[1]), 100);
      const client = await api.service.client();
      const r = await client.json<{ memories: unknown[] }>("POST", "/recall", { query: "how do we deploy?", scope: "project:github.com/acme/widgets" });
      assert.ok(r.memories.length > 0, "the store written before the switch must still answer");
    } finally {
      mirror.server.close();
    }
  });

  it("a model that cannot be had fails with advice naming the settings to change", async () => {
    const api = await hindsight();
    await setSetting("allowModelDownload", false);
    await setSetting("modelPath", "/nonexistent/models");
    await waitFor("the failed state", () => api.service.state === "failed", 60_000);
    assert.match(api.service.error ?? "", /hindsight\.modelPath/);
    assert.match(api.service.error ?? "", /hindsight\.allowModelDownload/);
    await setSetting("modelPath", modelDir);
    await waitFor("running again on the local folder", () => api.service.state === "running" && api.service.settings.modelPath === modelDir, 60_000);
  });
});
