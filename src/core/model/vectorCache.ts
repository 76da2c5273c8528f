import type { EmbedKind, Embedder } from "../ports.js";

/** Texts kept between recalls (a memory's text changes far less often than it is recalled). */
const ENTRIES = 20_000;

/**
 * Vectors of texts embedded one way (as queries or as passages), computed on first need and then
 * reused: for readings of a memory the store does not hold (E5's symmetric reading of Chinese, a
 * second model's opinion).
 */
export class VectorCache {
  private readonly cache = new Map<string, Float32Array>();

  constructor(
    private readonly embedder: Embedder,
    private readonly kind: EmbedKind,
  ) {}

  has(text: string): boolean {
    return this.cache.has(text);
  }

  async of(texts: string[]): Promise<Map<string, Float32Array>> {
    const missing = [...new Set(texts.filter((t) => !this.cache.has(t)))];
    const fresh = await this.embedder.embed(missing, this.kind);
    const out = new Map<string, Float32Array>();
    for (const t of texts) {
      const v = this.cache.get(t);
      if (v) out.set(t, v);
    }
    missing.forEach((t, i) => {
      if (this.cache.size >= ENTRIES) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      const v = fresh[i] as Float32Array;
      this.cache.set(t, v);
      out.set(t, v);
    });
    return out;
  }
}
