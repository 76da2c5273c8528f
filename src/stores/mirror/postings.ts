/** BM25's constants as LanceDB's full-text index uses them. */
const K1 = 1.2;
const B = 0.75;

/**
 * An inverted index of one whitespace-tokenised column (the `fts` or `entities` text of
 * documents.ts), scored by BM25 on the statistics of every document it holds, as a freshly built
 * LanceDB full-text index scores them. Documents are replaced and removed in place, so the
 * statistics are never those of an older build.
 */
export class Postings {
  private readonly byTerm = new Map<string, Map<string, number>>();
  /** Each document's term frequencies, to take it out again. */
  private readonly docs = new Map<string, { tf: Map<string, number>; length: number }>();
  private totalLength = 0;

  get size(): number {
    return this.docs.size;
  }

  set(id: string, text: string): void {
    this.delete(id);
    const terms = text.split(" ").filter((t) => t.length > 0);
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    this.docs.set(id, { tf, length: terms.length });
    this.totalLength += terms.length;
    for (const [t, n] of tf) {
      let ids = this.byTerm.get(t);
      if (!ids) this.byTerm.set(t, (ids = new Map()));
      ids.set(id, n);
    }
  }

  delete(id: string): void {
    const doc = this.docs.get(id);
    if (!doc) return;
    this.docs.delete(id);
    this.totalLength -= doc.length;
    for (const t of doc.tf.keys()) {
      const ids = this.byTerm.get(t);
      ids?.delete(id);
      if (ids?.size === 0) this.byTerm.delete(t);
    }
  }

  /**
   * The best `limit` documents `accept` lets through that hold any of the terms (each counted
   * once), by BM25. The statistics are the whole index's, whatever `accept` keeps: a filter
   * changes which documents compete, not how rare a word is.
   */
  search(terms: string[], accept: (id: string) => boolean, limit: number): Array<{ id: string; score: number }> {
    const n = this.docs.size;
    if (n === 0 || limit <= 0) return [];
    const avg = this.totalLength / n || 1;
    const scores = new Map<string, number>();
    const refused = new Set<string>();
    for (const term of new Set(terms)) {
      const ids = this.byTerm.get(term);
      if (!ids) continue;
      const idf = Math.log(1 + (n - ids.size + 0.5) / (ids.size + 0.5));
      for (const [id, tf] of ids) {
        if (refused.has(id)) continue;
        if (!scores.has(id) && !accept(id)) {
          refused.add(id);
          continue;
        }
        const length = (this.docs.get(id) as { length: number }).length;
        scores.set(id, (scores.get(id) ?? 0) + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avg)));
      }
    }
    return best(scores, limit);
  }
}

/** The `limit` highest-scoring entries, best first; equal scores by id, so the order never depends on insertion. */
export function best(scores: Map<string, number>, limit: number): Array<{ id: string; score: number }> {
  const out = [...scores].map(([id, score]) => ({ id, score }));
  out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.slice(0, limit);
}
