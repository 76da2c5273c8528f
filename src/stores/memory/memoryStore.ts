import { HindsightError } from "../../core/errors.js";
import { searchText, type AuditEntry, type MemoryRecord, type TurnRecord } from "../../core/model/memory.js";
import type { CompressionProposal, ProposalStatus } from "../../core/model/proposal.js";
import { turnText } from "../../core/model/turnText.js";
import { embedInBatches } from "../embedInBatches.js";
import { groupCounts } from "../../core/model/groupCounts.js";
import type { Hit, MemoryFilter, MemoryGroupCount, MemoryStore, ModelInfo, Page, RecallStatsRecord, TurnFilter } from "../../core/ports.js";
import { cosine } from "../../core/text/vector.js";
import { contentTokens } from "../../core/text/tokens.js";
import { listOrder, memoryMatches, turnMatches } from "../../core/model/filter.js";
import { MemoryMirror } from "../mirror/memoryMirror.js";

interface Row<T> {
  record: T;
  vector: Float32Array;
}

/** In-process store: the reference implementation for the contract tests and fast unit tests. */
export class InMemoryStore implements MemoryStore {
  private model: ModelInfo | null = null;
  /** Memories with their vectors and the full-text and entity postings LanceDB's mirror keeps too. */
  private memories = new MemoryMirror();
  private readonly turns = new Map<string, Row<TurnRecord>>();
  private readonly audit: AuditEntry[] = [];
  private readonly proposals = new Map<string, CompressionProposal>();
  private recallStats: RecallStatsRecord | null = null;

  async open(model: ModelInfo): Promise<void> {
    if (this.model && (this.model.id !== model.id || this.model.dimension !== model.dimension)) {
      throw new HindsightError(
        "EMBEDDING_MODEL_MISMATCH",
        `store was written with ${this.model.id} (${this.model.dimension} dims); refusing ${model.id} (${model.dimension} dims). Re-embed the store or use the original model.`,
      );
    }
    this.model = model;
  }

  async storedModel(): Promise<ModelInfo | null> {
    return this.model;
  }

  async close(): Promise<void> {}

  async putMemories(items: Array<{ record: MemoryRecord; vector: Float32Array }>): Promise<void> {
    this.memories.put(items);
  }

  async updateMemories(records: MemoryRecord[], vectors?: ReadonlyMap<string, Float32Array>): Promise<void> {
    this.memories.update(records, vectors);
  }

  async getMemories(ids: string[]): Promise<MemoryRecord[]> {
    return this.memories.get(ids);
  }

  async listMemories(filter: MemoryFilter, page: Page = {}): Promise<MemoryRecord[]> {
    const all = [...this.memories.records()].filter((m) => memoryMatches(m, filter));
    all.sort(listOrder);
    return all.slice(page.offset ?? 0, (page.offset ?? 0) + (page.limit ?? Number.MAX_SAFE_INTEGER)).map((m) => structuredClone(m));
  }

  async countMemories(filter: MemoryFilter): Promise<number> {
    return [...this.memories.records()].filter((m) => memoryMatches(m, filter)).length;
  }

  async countMemoryGroups(filter: MemoryFilter): Promise<MemoryGroupCount[]> {
    return groupCounts([...this.memories.records()].filter((m) => memoryMatches(m, filter)));
  }

  async searchMemoriesByVector(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    return this.memories.searchByVector(vector, filter, limit);
  }

  async searchMemoriesByText(query: string, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    return this.memories.searchByText(query, filter, limit);
  }

  async searchMemoriesByEntities(entities: string[], filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    return this.memories.searchByEntities(entities, filter, limit);
  }

  async deleteMemories(ids: string[]): Promise<number> {
    const held = [...new Set(ids)].filter((id) => this.memories.has(id));
    this.memories.delete(held);
    return held.length;
  }

  async putTurns(items: Array<{ record: TurnRecord; vector: Float32Array }>): Promise<void> {
    for (const i of items) this.turns.set(i.record.id, { record: structuredClone(i.record), vector: i.vector });
  }

  async updateTurns(records: TurnRecord[]): Promise<void> {
    for (const r of records) {
      const row = this.turns.get(r.id);
      if (row) row.record = structuredClone(r);
    }
  }

  async getTurns(ids: string[]): Promise<TurnRecord[]> {
    return ids.flatMap((id) => {
      const row = this.turns.get(id);
      return row ? [structuredClone(row.record)] : [];
    });
  }

  async listTurns(filter: TurnFilter, page: Page = {}): Promise<TurnRecord[]> {
    const all = [...this.turns.values()].map((r) => r.record).filter((t) => turnMatches(t, filter));
    all.sort((a, b) => a.at - b.at);
    return all.slice(page.offset ?? 0, (page.offset ?? 0) + (page.limit ?? Number.MAX_SAFE_INTEGER)).map((t) => structuredClone(t));
  }

  async searchTurnsByVector(vector: Float32Array, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>> {
    return vectorSearch([...this.turns.values()].filter((r) => turnMatches(r.record, filter)), vector, limit);
  }

  async searchTurnsByText(query: string, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>> {
    return textSearch([...this.turns.values()].filter((r) => turnMatches(r.record, filter)), query, limit, (t) => `${t.speaker ?? ""} ${t.user}`);
  }

  async deleteTurns(ids: string[]): Promise<number> {
    return ids.filter((id) => this.turns.delete(id)).length;
  }

  async putProposal(proposal: CompressionProposal): Promise<void> {
    this.proposals.set(proposal.id, structuredClone(proposal));
  }

  async getProposal(id: string): Promise<CompressionProposal | null> {
    const p = this.proposals.get(id);
    return p ? structuredClone(p) : null;
  }

  async listProposals(filter: { scope?: string; statuses?: ProposalStatus[] }): Promise<CompressionProposal[]> {
    return [...this.proposals.values()]
      .filter((p) => (filter.scope === undefined || p.scope === filter.scope) && (!filter.statuses || filter.statuses.includes(p.status)))
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((p) => structuredClone(p));
  }

  async getRecallStats(): Promise<RecallStatsRecord | null> {
    return this.recallStats === null ? null : structuredClone(this.recallStats);
  }

  async putRecallStats(stats: RecallStatsRecord): Promise<void> {
    this.recallStats = structuredClone(stats);
  }

  async appendAudit(...entries: AuditEntry[]): Promise<void> {
    for (const entry of entries) this.audit.push(structuredClone(entry));
  }

  async listAudit(page: Page & { scope?: string } = {}): Promise<AuditEntry[]> {
    const all = this.audit.filter((a) => page.scope === undefined || a.scope === page.scope).reverse();
    return all.slice(page.offset ?? 0, (page.offset ?? 0) + (page.limit ?? 100));
  }

  async reembed(model: ModelInfo, embed: (texts: string[]) => Promise<Float32Array[]>): Promise<{ memories: number; turns: number }> {
    const mem = [...this.memories.records()];
    const mv = await embedInBatches(mem.map(searchText), embed);
    const next = new MemoryMirror();
    next.put(mem.map((record, i) => ({ record: { ...record, embeddingModel: model.id }, vector: mv[i] as Float32Array })));
    this.memories = next;
    const turns = [...this.turns.values()];
    const tv = await embedInBatches(turns.map((r) => turnText(r.record)), embed);
    turns.forEach((r, i) => (r.vector = tv[i] as Float32Array));
    this.model = model;
    return { memories: mem.length, turns: turns.length };
  }

  async diskBytes(): Promise<number> {
    return 0;
  }
}

function vectorSearch<T>(rows: Array<Row<T>>, vector: Float32Array, limit: number): Array<Hit<T>> {
  return rows
    .map((r) => ({ record: structuredClone(r.record), vector: r.vector, score: cosine(vector, r.vector) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

/** BM25 over the same tokens the LanceDB full-text column holds. */
function textSearch<T>(rows: Array<Row<T>>, query: string, limit: number, textOf: (r: T) => string): Array<Hit<T>> {
  return bm25(rows, [...new Set(contentTokens(query))], limit, (r) => contentTokens(textOf(r)));
}

function bm25<T>(rows: Array<Row<T>>, q: string[], limit: number, termsOf: (r: T) => string[]): Array<Hit<T>> {
  if (q.length === 0 || rows.length === 0) return [];
  const docs = rows.map((r) => termsOf(r.record));
  const avg = docs.reduce((s, d) => s + d.length, 0) / docs.length || 1;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const hits: Array<Hit<T>> = [];
  rows.forEach((r, i) => {
    const d = docs[i] as string[];
    let score = 0;
    for (const t of q) {
      const tf = d.filter((x) => x === t).length;
      if (tf === 0) continue;
      const n = df.get(t) ?? 0;
      const idf = Math.log(1 + (rows.length - n + 0.5) / (n + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * (d.length / avg)));
    }
    if (score > 0) hits.push({ record: structuredClone(r.record), vector: r.vector, score });
  });
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}
