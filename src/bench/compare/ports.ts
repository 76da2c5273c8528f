/**
 * What the comparison needs from the systems it drives over MCP: the official MCP memory server and
 * hindsight's own stdio server. Within src/bench only src/bench/anchors may use the MCP SDK, so the
 * comparison sees them through these ports; the anchors implement them over real stdio transports
 * and the CLI hands them in.
 */

/** One node of the official memory server's knowledge graph, as its tools return it. */
export interface GraphEntity {
  name: string;
  entityType: string;
  observations: string[];
}

/** `@modelcontextprotocol/server-memory` driven through its own MCP tools (one running server). */
export interface KnowledgeGraphMemory {
  /** create_entities: returns the entities the server actually created (it skips names it already has). */
  createEntities(entities: GraphEntity[]): Promise<GraphEntity[]>;
  /** search_nodes: the server's own search (a case-insensitive substring match), in the order it answers. */
  searchNodes(query: string): Promise<GraphEntity[]>;
  /** read_graph: every entity. */
  readGraph(): Promise<GraphEntity[]>;
  /** delete_entities. */
  deleteEntities(names: string[]): Promise<void>;
  close(): Promise<void>;
}

/** Starts a fresh official memory server whose graph lives in `memoryFile` (MEMORY_FILE_PATH). */
export type StartKnowledgeGraph = (memoryFile: string) => Promise<KnowledgeGraphMemory>;

/** `hindsight mcp` on a data folder, driven through memory_recall / memory_write over stdio. */
export interface HindsightMcp {
  /** memory_recall; resolves to the number of memories returned. */
  recall(query: string, k: number): Promise<number>;
  /** memory_write. */
  write(content: string, type: string): Promise<void>;
  close(): Promise<void>;
}

export type StartHindsightMcp = (dataDir: string, scope: string) => Promise<HindsightMcp>;
