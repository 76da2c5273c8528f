import type { EngineConfigInput } from "../../core/config.js";

/** Every system the comparison can run, in report order. */
export const SYSTEM_IDS = ["hindsight", "cosine", "bm25", "server-memory", "server-memory-keywords"] as const;
export type SystemId = (typeof SYSTEM_IDS)[number];
/** Latency only: hindsight behind its own MCP stdio server, the transport the official server is measured through. */
export const HINDSIGHT_MCP = "hindsight-mcp";
export type LatencySystemId = SystemId | typeof HINDSIGHT_MCP;

export interface SystemInfo {
  label: string;
  description: string;
}

export const SYSTEMS: Record<LatencySystemId, SystemInfo> = {
  hindsight: {
    label: "hindsight",
    description:
      "hindsight in this process, default configuration (rule extraction, four retrievers, judgement), embedded LanceDB, with the one embedding model and without the second-opinion model",
  },
  cosine: {
    label: "plain cosine top-k",
    description:
      "hindsight reduced by configuration to the seed's anti-pattern: every turn stored verbatim, recall = cosine top-k over the same vectors " +
      "(no full text, no floor, no confidence/decay/access weights, no diversity, no L0 fallback)",
  },
  bm25: {
    label: "BM25 only",
    description: "hindsight reduced by configuration to full-text only: every turn stored verbatim, recall = LanceDB BM25 top-k (no vectors, no floor, no weights)",
  },
  "server-memory": {
    label: "server-memory",
    description:
      "the official MCP memory server (@modelcontextprotocol/server-memory) over stdio: each turn or memory one entity with it as the observation; " +
      "recall = its search_nodes tool with the question, first k entities in the order it answers",
  },
  "server-memory-keywords": {
    label: "server-memory (keywords)",
    description:
      "second, labelled variant of the same server and data: one search_nodes call per content word of the question (stopwords dropped), " +
      "entities ranked by how many words matched, then by the server's order",
  },
  "hindsight-mcp": {
    label: "hindsight via MCP stdio",
    description:
      "hindsight as it ships, behind `hindsight mcp` (its own MCP stdio server and the owner process it starts, the second opinion included), driven with memory_recall / memory_write: latency only",
  },
};

/**
 * Shared by the reductions: every ingested turn becomes one memory as said (no gate, no split, no
 * session context), only exact repeats merge, and ranking is relevance alone.
 */
const VERBATIM: EngineConfigInput = {
  weights: { relevance: 1, confidence: 0, timeDecay: 0, access: 0 },
  write: { extraction: "verbatim", sessionContext: false, dedupSimilarity: 1 },
};

/**
 * Relevance = calibrated cosine alone; ties at the calibration's ends keep the vector search's
 * order (the sort is stable), so the ranking is exactly cosine order.
 */
export const PLAIN_COSINE_CONFIG: EngineConfigInput = {
  ...VERBATIM,
  recall: {
    candidateSources: ["vector"],
    vectorCandidates: 50,
    fusion: { vector: 1, fullText: 0, coverage: 0 },
    relevanceFloor: 0,
    diversify: false,
    fallbackToL0: false,
    workingMemoryItems: 0,
  },
};

/** Relevance = BM25 score relative to the best hit, i.e. BM25 order. */
export const BM25_CONFIG: EngineConfigInput = {
  ...VERBATIM,
  recall: {
    candidateSources: ["fullText"],
    textCandidates: 50,
    fusion: { vector: 0, fullText: 1, coverage: 0 },
    relevanceFloor: 0,
    diversify: false,
    fallbackToL0: false,
    workingMemoryItems: 0,
  },
};

/** The engine configuration of the systems that are hindsight (null: not an engine). */
export function engineConfigOf(id: LatencySystemId): EngineConfigInput | null {
  if (id === "hindsight" || id === "hindsight-mcp") return {};
  if (id === "cosine") return PLAIN_COSINE_CONFIG;
  if (id === "bm25") return BM25_CONFIG;
  return null;
}

export function isServerMemory(id: LatencySystemId): id is "server-memory" | "server-memory-keywords" {
  return id === "server-memory" || id === "server-memory-keywords";
}
