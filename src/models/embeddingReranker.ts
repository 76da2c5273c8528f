import { profileFor, unreadable } from "../core/model/profiles.js";
import { VectorCache } from "../core/model/vectorCache.js";
import type { Embedder, Reranker } from "../core/ports.js";
import { clamp01, cosine } from "../core/text/vector.js";

/**
 * Cosine below the best candidate's at which the second opinion gives nothing. The candidates all
 * passed the relevance floor already, so what this model adds is their order: its scores are read
 * relative to its best one rather than on an absolute scale, where every candidate would sit near the top.
 */
const SPREAD = 0.2;

/**
 * A second embedding model as a second opinion on the best candidates: a small model trained on
 * question–answer pairs knows things the main model's compressed space does not separate ("which
 * web framework" → "a Django application", "where is the site published" → "sites go to
 * Cloudflare Pages"). Its calibrated cosine is blended into the fused relevance, never substituted:
 * it is one more signal, not a cross-encoder. A pair it cannot read (Chinese for an English model)
 * gets null, and keeps its fused relevance.
 */
export class EmbeddingReranker implements Reranker {
  readonly kind = "bi-encoder" as const;
  private readonly passages: VectorCache;

  constructor(
    readonly id: string,
    private readonly embedder: Embedder,
  ) {
    this.passages = new VectorCache(embedder, "passage");
  }

  async warm(): Promise<void> {
    await this.embedder.info();
  }

  async score(query: string, documents: string[]): Promise<Array<number | null>> {
    const profile = profileFor(this.id);
    if (documents.length === 0 || unreadable(query, profile)) return documents.map(() => null);
    const readable = documents.map((d) => !unreadable(d, profile));
    const [[q], vectors] = await Promise.all([this.embedder.embed([query], "query"), this.passages.of(documents.filter((_, i) => readable[i]))]);
    const cosines = documents.map((d, i) => {
      const v = vectors.get(d);
      return !q || !v || !readable[i] ? null : cosine(q, v);
    });
    const best = Math.max(...cosines.map((c) => c ?? -1));
    return cosines.map((c) => (c === null ? null : clamp01(1 - (best - c) / SPREAD)));
  }
}
