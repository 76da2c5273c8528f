import { memoryMatches } from "../model/filter.js";
import { searchText, type AuditEntry, type MemoryRecord, type TurnRecord } from "../model/memory.js";
import type { Hit, MemoryFilter, MemoryStore, Page, TurnFilter } from "../ports.js";
import { contentTokens } from "../text/tokens.js";
import { cosine } from "../text/vector.js";
import { searchTerms, type ChangedMemory, type ScopeChange } from "../recall/reach.js";

/** The store calls a batch's decisions make: reads see the batch's earlier writes, writes wait for commit(). */
export type StagingStore = Pick<
  MemoryStore,
  "searchMemoriesByVector" | "searchMemoriesByText" | "getMemories" | "putMemories" | "updateMemories" | "listTurns" | "putTurns" | "updateTurns" | "appendAudit"
>;

/** Rows a batch stored anew (with their vectors) and rows it changed that the store already holds. */
class StagedRows<T extends { id: string }> {
  constructor(
    readonly fresh = new Map<string, { record: T; vector: Float32Array }>(),
    readonly changed = new Map<string, T>(),
  ) {}

  put(items: Array<{ record: T; vector: Float32Array }>): void {
    for (const i of items) this.fresh.set(i.record.id, i);
  }

  /** A change to a row of this batch stays a put of its latest version, with the vector it had. */
  update(records: T[]): void {
    for (const r of records) {
      const fresh = this.fresh.get(r.id);
      if (fresh) this.fresh.set(r.id, { record: r, vector: fresh.vector });
      else this.changed.set(r.id, r);
    }
  }

  copy(): StagedRows<T> {
    return new StagedRows(new Map(this.fresh), new Map(this.changed));
  }
}

interface Snapshot {
  memories: StagedRows<MemoryRecord>;
  turns: StagedRows<TurnRecord>;
  audits: number;
}

/**
 * One scope's memories as a batch of writes decides against them: the store, with the batch's
 * earlier decisions on top (new memories, superseded or linked ones), so the tenth write of a batch
 * is judged exactly as if the nine before it had been committed one by one. commit() then stores the
 * batch in one call per table instead of three or four per write.
 *
 * Vector reads rank staged new memories by cosine with the store's hits. Text reads only decide which
 * memories a write is compared with (never how it ranks), so a staged memory sharing a content word
 * with the query is offered as well.
 */
export class StagedWrites implements StagingStore {
  private memories = new StagedRows<MemoryRecord>();
  private turns = new StagedRows<TurnRecord>();
  private readonly audits: AuditEntry[] = [];
  /**
   * Stored vectors this batch has seen (search hits carry them), by id: a memory the batch changes
   * is usually one a search found, and its vector goes with the update so the store need not read it
   * back. Vectors of stored rows do not change within a batch, so a rollback leaves them.
   */
  private readonly storedVectors = new Map<string, Float32Array>();

  constructor(private readonly store: MemoryStore) {}

  /** The staged state, to undo one write that failed halfway without touching the others'. */
  mark(): Snapshot {
    return { memories: this.memories.copy(), turns: this.turns.copy(), audits: this.audits.length };
  }

  rollback(to: Snapshot): void {
    this.memories = to.memories;
    this.turns = to.turns;
    this.audits.length = to.audits;
  }

  async searchMemoriesByVector(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    const stored = this.overlay(this.seen(await this.store.searchMemoriesByVector(vector, filter, limit + this.memories.changed.size)), filter);
    const staged = [...this.memories.fresh.values()].filter((a) => memoryMatches(a.record, filter)).map((a) => ({ record: a.record, vector: a.vector, score: cosine(vector, a.vector) }));
    return [...stored, ...staged].sort((a, b) => b.score - a.score).slice(0, limit);
  }

  async searchMemoriesByText(query: string, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    const stored = this.overlay(this.seen(await this.store.searchMemoriesByText(query, filter, limit + this.memories.changed.size)), filter).slice(0, limit);
    const words = new Set(contentTokens(query));
    const staged = [...this.memories.fresh.values()]
      .filter((a) => memoryMatches(a.record, filter) && contentTokens(searchText(a.record)).some((w) => words.has(w)))
      .map((a) => ({ record: a.record, vector: a.vector, score: 0 }));
    return [...stored, ...staged];
  }

  async getMemories(ids: string[]): Promise<MemoryRecord[]> {
    const unstaged = ids.filter((id) => !this.memories.fresh.has(id) && !this.memories.changed.has(id));
    const stored = new Map((await this.store.getMemories(unstaged)).map((m) => [m.id, m]));
    return ids.flatMap((id) => {
      const m = this.memories.fresh.get(id)?.record ?? this.memories.changed.get(id) ?? stored.get(id);
      return m ? [m] : [];
    });
  }

  async putMemories(items: Array<{ record: MemoryRecord; vector: Float32Array }>): Promise<void> {
    this.memories.put(items);
  }

  async updateMemories(records: MemoryRecord[], vectors?: ReadonlyMap<string, Float32Array>): Promise<void> {
    for (const [id, v] of vectors ?? []) this.storedVectors.set(id, v);
    this.memories.update(records);
  }

  /** The store's turns with the batch's on top: a turn of a batch may take back the one before it in the batch. */
  async listTurns(filter: TurnFilter, page?: Page): Promise<TurnRecord[]> {
    const stored = (await this.store.listTurns(filter, page)).map((t) => this.turns.changed.get(t.id) ?? t);
    const staged = [...this.turns.fresh.values()].map((t) => t.record).filter((t) => (filter.scope === undefined || t.scope === filter.scope) && (filter.statuses === undefined || filter.statuses.includes(t.status)));
    return [...stored, ...staged];
  }

  async putTurns(items: Array<{ record: TurnRecord; vector: Float32Array }>): Promise<void> {
    this.turns.put(items);
  }

  async updateTurns(records: TurnRecord[]): Promise<void> {
    this.turns.update(records);
  }

  async appendAudit(...entries: AuditEntry[]): Promise<void> {
    this.audits.push(...entries);
  }

  /**
   * Stores the batch: the raw turns, new memories, then the memories they changed, the turns' links,
   * the audit lines. A crash between two of these leaves the new memories beside the old ones, both
   * active (or a raw turn without its links), never a memory lost. A failed audit line is
   * `onAuditError`'s, not the batch's failure.
   */
  async commit(onAuditError: (err: unknown) => void): Promise<void> {
    if (this.turns.fresh.size > 0) await this.store.putTurns([...this.turns.fresh.values()]);
    if (this.memories.fresh.size > 0) await this.store.putMemories([...this.memories.fresh.values()]);
    if (this.memories.changed.size > 0) {
      const changed = [...this.memories.changed.values()];
      const vectors = new Map<string, Float32Array>();
      for (const m of changed) {
        const v = this.storedVectors.get(m.id);
        if (v) vectors.set(m.id, v);
      }
      await this.store.updateMemories(changed, vectors);
    }
    if (this.turns.changed.size > 0) await this.store.updateTurns([...this.turns.changed.values()]);
    if (this.audits.length > 0) await this.store.appendAudit(...this.audits).catch(onAuditError);
  }

  /**
   * The memories the batch stores or changes, as recall's searches will find them (for the recall
   * cache, reach.ts); null when a changed memory's vector is not known here.
   */
  described(): ScopeChange | null {
    const memories: ChangedMemory[] = [...this.memories.fresh.values()].map(({ record, vector }) => ({ id: record.id, vector, terms: searchTerms(record) }));
    for (const record of this.memories.changed.values()) {
      const vector = this.storedVectors.get(record.id);
      if (!vector) return null;
      memories.push({ id: record.id, vector, terms: searchTerms(record) });
    }
    return { memories };
  }

  private seen(hits: Array<Hit<MemoryRecord>>): Array<Hit<MemoryRecord>> {
    for (const h of hits) this.storedVectors.set(h.record.id, h.vector);
    return hits;
  }

  /** Store hits with the batch's changes applied: a memory the batch superseded no longer matches an "active" filter. */
  private overlay(hits: Array<Hit<MemoryRecord>>, filter: MemoryFilter): Array<Hit<MemoryRecord>> {
    return hits.flatMap((h) => {
      const staged = this.memories.changed.get(h.record.id);
      if (!staged) return [h];
      return memoryMatches(staged, filter) ? [{ ...h, record: staged }] : [];
    });
  }
}
