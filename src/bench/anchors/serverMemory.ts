import { dirname, join } from "node:path";
import type { GraphEntity, KnowledgeGraphMemory, StartKnowledgeGraph } from "../compare/ports.js";
import { connectStdio, inheritedEnv } from "./stdioToolClient.js";

/** The entry script of the installed `@modelcontextprotocol/server-memory` (its package has no exports map). */
export function serverMemoryScript(): string {
  try {
    return join(dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")), "dist", "index.js");
  } catch {
    throw new Error("@modelcontextprotocol/server-memory is not installed here (it is a devDependency): install it or name its dist/index.js");
  }
}

function entities(result: Record<string, unknown>, key = "entities"): GraphEntity[] {
  const list = result[key];
  if (!Array.isArray(list)) throw new Error(`server-memory answered without "${key}": ${JSON.stringify(result).slice(0, 200)}`);
  return list as GraphEntity[];
}

/**
 * Starts the official MCP memory server (node SCRIPT, MEMORY_FILE_PATH=memoryFile) and drives it
 * with the MCP SDK's client over stdio, through its own tools only.
 */
export function serverMemoryStarter(script = serverMemoryScript()): StartKnowledgeGraph {
  return async (memoryFile: string): Promise<KnowledgeGraphMemory> => {
    const client = await connectStdio({
      command: process.execPath,
      args: [script],
      env: inheritedEnv({ MEMORY_FILE_PATH: memoryFile }),
      clientName: "hindsight-bench-compare",
    });
    return {
      createEntities: async (list) => entities(await client.call("create_entities", { entities: list })),
      searchNodes: async (query) => entities(await client.call("search_nodes", { query })),
      readGraph: async () => entities(await client.call("read_graph", {})),
      deleteEntities: async (names) => {
        await client.call("delete_entities", { entityNames: names });
      },
      close: () => client.close(),
    };
  };
}
