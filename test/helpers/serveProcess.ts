import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { syntheticMemory } from "../../src/bench/synthetic.js";
import { openLocalEngine } from "../../src/server/runtime.js";
import { MODEL_DIR, startServeProcess, type ServeProcess } from "./cliProcess.js";

export { ensureBundle, MODEL_DIR } from "./cliProcess.js";

export interface ServedProcess extends ServeProcess {
  token: string;
}

/**
 * Spawns `hindsight serve --port 0 --data DATA --scope SCOPE --rate 0` (real LanceDB, real model) and
 * waits for the bound URL on stderr. The bearer token is given through HINDSIGHT_TOKEN (the generated
 * token flow is covered by serveProcess.test.ts).
 */
export async function spawnServe(home: string, data: string, scope: string, token: string, env: NodeJS.ProcessEnv = {}): Promise<ServedProcess> {
  const served = await startServeProcess(home, ["--data", data, "--scope", scope, "--rate", "0"], { ...env, HINDSIGHT_TOKEN: token });
  return { ...served, token };
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
    const { engine, close } = await openLocalEngine({ dataDir: data, scope, role: "test" });
    try {
      await engine.importMemories(Array.from({ length: n }, (_, i) => syntheticMemory(i)));
    } finally {
      await close();
    }
  } finally {
    if (previous === undefined) delete process.env.HINDSIGHT_MODEL_DIR;
    else process.env.HINDSIGHT_MODEL_DIR = previous;
  }
}
