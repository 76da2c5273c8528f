import { memoryMatches } from "../model/filter.js";
import { searchText, type AuditEntry, type MemoryRecord, type TurnRecord } from "../model/memory.js";
import type { Hit, MemoryFilter, MemoryStore } from "../ports.js";
import { contentTokens } from "../text/tokens.js";
import { cosine } from "../text/vector.js";

/** The store calls a batch's decisions make: reads see the batch's earlier writes, writes wait for commit(). */
export type StagingStore = Pick<
  MemoryStore,
  "searchMemoriesByVector" | "searchMemoriesByText" | "getMemories" | "putMemories" | "updateMemories" | "putTurns" | "updateTurns" | "appendAudit"
>;

interface Snapshot {
  added: Map<string, { record: MemoryRecord; vector: Float32Array }>;
  changed: Map<string, MemoryRecord>;
  newTurns: Map<string, { record: TurnRecord; vector: Float32Array }>;
  turns: Map<string, TurnRecord>;
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
  private added = new Map<string, { record: MemoryRecord; vector: Float32Array }>();
  private changed = new Map<string, MemoryRecord>();
  private newTurns = new Map<string, { record: TurnRecord; vector: Float32Array }>();
  private turns = new Map<string, TurnRecord>();
  private readonly audits: AuditEntry[] = [];

  constructor(private readonly store: MemoryStore) {}

  /** The staged state, to undo one write that failed halfway without touching the others'. */
  mark(): Snapshot {
    return { added: new Map(this.added), changed: new Map(this.changed), newTurns: new Map(this.newTurns), turns: new Map(this.turns), audits: this.audits.length };
  }

  rollback(to: Snapshot): void {
    this.added = to.added;
    this.changed = to.changed;
    this.newTurns = to.newTurns;
    this.turns = to.turns;
    this.audits.length = to.audits;
  }

  async searchMemoriesByVector(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    const stored = this.overlay(await this.store.searchMemoriesByVector(vector, filter, limit + this.changed.size), filter);
    const staged = [...this.added.values()].filter((a) => memoryMatches(a.record, filter)).map((a) => ({ record: a.record, vector: a.vector, score: cosine(vector, a.vector) }));
    return [...stored, ...staged].sort((a, b) => b.score - a.score).slice(0, limit);
  }

  async searchMemoriesByText(query: string, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    const stored = this.overlay(await this.store.searchMemoriesByText(query, filter, limit + this.changed.size), filter).slice(0, limit);
    const words = new Set(contentTokens(query));
    const staged = [...this.added.values()]
      .filter((a) => memoryMatches(a.record, filter) && contentTokens(searchText(a.record)).some((w) => words.has(w)))
      .map((a) => ({ record: a.record, vector: a.vector, score: 0 }));
    return [...stored, ...staged];
  }

  async getMemories(ids: string[]): Promise<MemoryRecord[]> {
    const unstaged = ids.filter((id) => !this.added.has(id) && !this.changed.has(id));
    const stored = new Map((await this.store.getMemories(unstaged)).map((m) => [m.id, m]));
    return ids.flatMap((id) => {
      const m = this.added.get(id)?.record ?? this.changed.get(id) ?? stored.get(id);
      return m ? [m] : [];
    });
  }

  async putMemories(items: Array<{ record: MemoryRecord; vector: Float32Array }>): Promise<void> {
    for (const i of items) this.added.set(i.record.id, i);
  }

  async updateMemories(records: MemoryRecord[]): Promise<void> {
    for (const r of records) {
      const fresh = this.added.get(r.id);
      if (fresh) this.added.set(r.id, { record: r, vector: fresh.vector });
      else this.changed.set(r.id, r);
    }
  }

  async putTurns(items: Array<{ record: TurnRecord; vector: Float32Array }>): Promise<void> {
    for (const i of items) this.newTurns.set(i.record.id, i);
  }

  async updateTurns(records: TurnRecord[]): Promise<void> {
    for (const r of records) {
      const fresh = this.newTurns.get(r.id);
      if (fresh) this.newTurns.set(r.id, { record: r, vector: fresh.vector });
      else this.turns.set(r.id, r);
    }
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
    if (this.newTurns.size > 0) await this.store.putTurns([...this.newTurns.values()]);
    if (this.added.size > 0) await this.store.putMemories([...this.added.values()]);
    if (this.changed.size > 0) await this.store.updateMemories([...this.changed.values()]);
    if (this.turns.size > 0) await this.store.updateTurns([...this.turns.values()]);
    if (this.audits.length > 0) await this.store.appendAudit(...this.audits).catch(onAuditError);
  }

  /** Store hits with the batch's changes applied: a memory the batch superseded no longer matches an "active" filter. */
  private overlay(hits: Array<Hit<MemoryRecord>>, filter: MemoryFilter): Array<Hit<MemoryRecord>> {
    return hits.flatMap((h) => {
      const staged = this.changed.get(h.record.id);
      if (!staged) return [h];
      return memoryMatches(staged, filter) ? [{ ...h, record: staged }] : [];
    });
  }
}
