import type { HindsightMcp, StartHindsightMcp } from "../compare/ports.js";
import { connectStdio, inheritedEnv } from "./stdioToolClient.js";

/** The in-process benchmark engines use neither an LLM nor a cross-encoder; the server under test must not either. */
function withoutModelServices(env: Record<string, string>): Record<string, string> {
  const out = { ...env };
  for (const key of Object.keys(out)) if (key.startsWith("HINDSIGHT_LLM_")) delete out[key];
  return out;
}

/**
 * Starts `hindsight mcp --data DIR --scope S` (the given CLI script under this Node) and drives it
 * through memory_recall / memory_write over stdio: the transport an MCP host uses, so its latency
 * compares with other stdio servers like for like.
 */
export function hindsightStdioStarter(cliScript: string): StartHindsightMcp {
  return async (dataDir: string, scope: string): Promise<HindsightMcp> => {
    const client = await connectStdio({
      command: process.execPath,
      args: [cliScript, "mcp", "--data", dataDir, "--scope", scope],
      env: withoutModelServices(inheritedEnv({ HINDSIGHT_RERANKER: "off" })),
      clientName: "hindsight-bench-compare",
    });
    return {
      recall: async (query, k) => {
        const r = await client.call("memory_recall", { query, k });
        if (!Array.isArray(r.memories)) throw new Error(`memory_recall answered without memories: ${client.stderr()}`);
        return r.memories.length;
      },
      write: async (content, type) => {
        await client.call("memory_write", { content, type });
      },
      close: () => client.close(),
    };
  };
}
