const K1 = 1.2;
const B = 0.75;

/**
 * BM25 over candidates whose tokens are distinct (the full-text field holds each token once, as in
 * the LanceDB store), so a term's frequency in a document is 1 when present. `df` holds the query
 * terms that occur at all with their document frequencies within the filter; `total` is the number
 * of documents the filter admits. Length normalisation uses the candidates' mean length.
 * Best first; ties keep the candidates' order.
 */
export function rankByBm25<Id>(candidates: Array<{ id: Id; tokens: string[] }>, df: Map<string, number>, total: number): Array<{ id: Id; score: number }> {
  if (candidates.length === 0 || df.size === 0) return [];
  const avg = candidates.reduce((s, c) => s + c.tokens.length, 0) / candidates.length || 1;
  const n = Math.max(total, candidates.length);
  const scored: Array<{ id: Id; score: number; i: number }> = [];
  candidates.forEach((c, i) => {
    const tokens = new Set(c.tokens);
    let score = 0;
    for (const [term, freq] of df) {
      if (!tokens.has(term)) continue;
      const idf = Math.log(1 + (n - freq + 0.5) / (freq + 0.5));
      score += (idf * (K1 + 1)) / (1 + K1 * (1 - B + (B * c.tokens.length) / avg));
    }
    if (score > 0) scored.push({ id: c.id, score, i });
  });
  return scored.sort((a, b) => b.score - a.score || a.i - b.i).map(({ id, score }) => ({ id, score }));
}
