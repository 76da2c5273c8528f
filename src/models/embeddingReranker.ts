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

/** Passages read ahead per step: a recall that arrives meanwhile waits for at most one small batch. */
const AHEAD_BATCH = 8;
/** At most this many passages wait to be read ahead (the passage cache keeps 20,000). */
const AHEAD_MAX = 20_000;
/** How long after a recall began reading ahead keeps away from the models (a recall takes tens of ms). */
const QUIET_MS = 300;
/** Query embeddings started and not yet used: recalls in flight at once. */
const QUERIES_IN_FLIGHT = 16;

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
  private readonly ahead = new Set<string>();
  private draining: Promise<void> | null = null;
  private scoring = 0;
  private quietUntil = 0;
  private readonly queries = new Map<string, Promise<Float32Array | undefined>>();

  constructor(
    readonly id: string,
    private readonly embedder: Embedder,
  ) {
    this.passages = new VectorCache(embedder, "passage");
  }

  async warm(): Promise<void> {
    await this.embedder.info();
  }

  /**
   * Passages embedded while no recall runs, a few at a time, so the recall that later reads them
   * embeds only its query: on a store of a few thousand memories, embedding candidates the first
   * time they were asked about was most of recall's slowest answers. A command that wrote stays up
   * until its own memories are read (a few, a fraction of a second); only owners read a whole store.
   */
  readAhead(documents: string[]): Promise<void> {
    const profile = profileFor(this.id);
    for (const d of documents) {
      if (this.ahead.size >= AHEAD_MAX) break;
      if (!this.passages.has(d) && !unreadable(d, profile)) this.ahead.add(d);
    }
    if (this.ahead.size > 0 && this.draining === null) {
      this.draining = this.drain().finally(() => {
        this.draining = null;
      });
    }
    return this.draining ?? Promise.resolve();
  }

  /**
   * A recall about `query` has begun: this model embeds the query now, beside the main model's
   * embedding and the searches, instead of after them; reading ahead keeps away meanwhile.
   */
  prepare(query: string): void {
    this.quietUntil = performance.now() + QUIET_MS;
    if (this.queries.has(query) || unreadable(query, profileFor(this.id))) return;
    if (this.queries.size >= QUERIES_IN_FLIGHT) this.queries.delete(this.queries.keys().next().value as string);
    this.queries.set(
      query,
      this.embedder.embed([query], "query").then(
        ([v]) => v,
        () => undefined,
      ),
    );
  }

  private async drain(): Promise<void> {
    while (this.ahead.size > 0) {
      const busy = this.scoring > 0 || performance.now() < this.quietUntil;
      await pause(busy ? 5 : 0);
      if (busy) continue;
      const batch: string[] = [];
      for (const d of this.ahead) {
        if (batch.length === AHEAD_BATCH) break;
        batch.push(d);
      }
      for (const d of batch) this.ahead.delete(d);
      // A passage that cannot be read now is embedded by the score() that needs it.
      await this.passages.of(batch).catch(() => undefined);
    }
  }

  async score(query: string, documents: string[]): Promise<Array<number | null>> {
    this.scoring++;
    try {
      return await this.scoreNow(query, documents);
    } finally {
      this.scoring--;
    }
  }

  private async scoreNow(query: string, documents: string[]): Promise<Array<number | null>> {
    const profile = profileFor(this.id);
    if (documents.length === 0 || unreadable(query, profile)) return documents.map(() => null);
    const readable = documents.map((d) => !unreadable(d, profile));
    const started = this.queries.get(query);
    this.queries.delete(query);
    const [q, vectors] = await Promise.all([this.queryVector(query, started), this.passages.of(documents.filter((_, i) => readable[i]))]);
    const cosines = documents.map((d, i) => {
      const v = vectors.get(d);
      return !q || !v || !readable[i] ? null : cosine(q, v);
    });
    const best = Math.max(...cosines.map((c) => c ?? -1));
    return cosines.map((c) => (c === null ? null : clamp01(1 - (best - c) / SPREAD)));
  }

  /** The query's vector: the one prepare() started, or embedded now when it had none or it failed. */
  private async queryVector(query: string, started: Promise<Float32Array | undefined> | undefined): Promise<Float32Array | undefined> {
    const early = started ? await started : undefined;
    return early ?? (await this.embedder.embed([query], "query"))[0];
  }
}

/** A timer that keeps the process up: a caller awaiting readAhead() must not see the process end under it. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
