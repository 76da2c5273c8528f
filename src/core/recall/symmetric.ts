import type { Embedder } from "../ports.js";

/** Memories read as queries, kept between recalls (a memory's text changes far less often than it is recalled). */
const ENTRIES = 20_000;

/**
 * Vectors of memory texts embedded as queries, for the model's symmetric similarity (see
 * ModelProfile.cjkSymmetricLow): computed on first need, then reused.
 */
export class SymmetricVectors {
  private readonly cache = new Map<string, Float32Array>();

  constructor(private readonly embedder: Embedder) {}

  async of(texts: string[]): Promise<Map<string, Float32Array>> {
    const missing = [...new Set(texts.filter((t) => !this.cache.has(t)))];
    const fresh = await this.embedder.embed(missing, "query");
    missing.forEach((t, i) => {
      if (this.cache.size >= ENTRIES) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      this.cache.set(t, fresh[i] as Float32Array);
    });
    return new Map(texts.flatMap((t) => (this.cache.has(t) ? [[t, this.cache.get(t) as Float32Array]] : [])));
  }
}
