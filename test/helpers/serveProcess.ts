import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { syntheticMemory } from "../../src/bench/synthetic.js";
import { openLocalEngine } from "../../src/server/runtime.js";

export const ROOT = resolve(__dirname, "../../..");
export const CLI = join(ROOT, "bin", "hindsight.js");
const BUNDLE = join(ROOT, "dist", "cli.js");
export const MODEL_DIR = resolve(ROOT, "..", "shared", "models");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds dist/cli.js when it is missing or older than src/. */
export function ensureBundle(): void {
  if (!existsSync(BUNDLE) || statSync(BUNDLE).mtimeMs < newestMtime(join(ROOT, "src"))) {
    execFileSync(process.execPath, [join(ROOT, "esbuild.js")], { cwd: ROOT, stdio: "inherit" });
  }
  if (!existsSync(BUNDLE)) throw new Error("dist/cli.js was not built");
}

export interface ServedProcess {
  child: ChildProcess;
  url: string;
  token: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Spawns `hindsight serve --port 0 --data DATA --scope SCOPE --rate 0` (real LanceDB, real model) and
 * waits for the bound URL on stderr. The bearer token is given through HINDSIGHT_TOKEN (the generated
 * token flow is covered by serveProcess.test.ts).
 */
export function spawnServe(home: string, data: string, scope: string, token: string): Promise<ServedProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, HINDSIGHT_HOME: home, HINDSIGHT_MODEL_DIR: MODEL_DIR, HINDSIGHT_TOKEN: token };
  delete env.HINDSIGHT_MODEL;
  delete env.HINDSIGHT_ALLOW_DOWNLOAD;
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--data", data, "--scope", scope, "--rate", "0"], {
    cwd: home,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 90_000);
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ child, url: m[1]!, token, stderr: () => stderr, exited });
      }
    });
    child.on("error", reject);
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

/** An SDK client over streamable HTTP with the bearer token. */
export async function mcpClient(url: string, token: string, name = "test"): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** The text of a tool result. */
export function toolText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? "").join(" ");
}

/**
 * Bulk-imports `n` synthetic memories into `scope` of the LanceDB store in `data` (real model), then
 * closes it: a store past LanceStore's small-table regime (under 200 rows it compacts on every write),
 * as a working project's store is.
 */
export async function seedStore(data: string, scope: string, n: number): Promise<void> {
  const previous = process.env.HINDSIGHT_MODEL_DIR;
  process.env.HINDSIGHT_MODEL_DIR = MODEL_DIR;
  try {
    const { engine } = await openLocalEngine({ dataDir: data, scope });
    try {
      await engine.importMemories(Array.from({ length: n }, (_, i) => syntheticMemory(i)));
    } finally {
      await engine.close();
    }
  } finally {
    if (previous === undefined) delete process.env.HINDSIGHT_MODEL_DIR;
    else process.env.HINDSIGHT_MODEL_DIR = previous;
  }
}
