import { CJK_STOPWORDS, EN_STOPWORDS } from "../../core/text/stopwords.js";
import { lexicalTokens } from "../../core/text/tokens.js";
import type { GraphEntity, KnowledgeGraphMemory } from "./ports.js";

export type GraphRecallMode = "question" | "keywords";

/** The words of a question a user would type into a substring search: distinct, lowercased, no function words. */
export function searchKeywords(question: string): string[] {
  return [...new Set(lexicalTokens(question).filter((t) => !EN_STOPWORDS.has(t) && !CJK_STOPWORDS.has(t)))];
}

/**
 * Recall from the official server: "question" asks its search_nodes tool with the question as is
 * (the headline); "keywords" asks once per keyword and ranks entities by how many keywords found
 * them, ties in the order the server answered (a client-side use of the same tool).
 */
export async function graphRecall(graph: KnowledgeGraphMemory, query: string, k: number, mode: GraphRecallMode): Promise<GraphEntity[]> {
  if (mode === "question") return (await graph.searchNodes(query)).slice(0, k);
  const hits = new Map<string, { entity: GraphEntity; matched: number; first: number }>();
  let order = 0;
  for (const word of searchKeywords(query)) {
    for (const e of await graph.searchNodes(word)) {
      const h = hits.get(e.name);
      if (h) h.matched++;
      else hits.set(e.name, { entity: e, matched: 1, first: order++ });
    }
  }
  return [...hits.values()]
    .sort((a, b) => b.matched - a.matched || a.first - b.first)
    .slice(0, k)
    .map((h) => h.entity);
}
