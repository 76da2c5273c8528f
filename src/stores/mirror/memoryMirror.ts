import type { MemoryRecord } from "../../core/model/memory.js";
import { memoryMatches } from "../../core/model/filter.js";
import type { Hit, MemoryFilter } from "../../core/ports.js";
import { queryText } from "../../core/text/tokens.js";
import { cosine } from "../../core/text/vector.js";
import { memoryDocument } from "../documents.js";
import { Postings } from "./postings.js";

interface Entry {
  record: MemoryRecord;
  vector: Float32Array;
}

/**
 * Every memory of a store the process owns alone, held in memory beside it to answer recall's
 * searches: vector (exact cosine over L2-normalised vectors), full text and entities (BM25 over the
 * same tokens the store indexes, documents.ts). An embedded database pays a fixed cost per query
 * however small the table (LanceDB about 3-5 ms alone, 15-20 ms when recall's five searches run at
 * once on two cores); these searches take well under a millisecond each on a few thousand memories.
 * The store stays the truth: the mirror is written after each commit and rebuilt from the store
 * whenever a write's outcome is unknown.
 */
export class MemoryMirror {
  private readonly entries = new Map<string, Entry>();
  private readonly byScope = new Map<string, Set<string>>();
  private readonly text = new Postings();
  private readonly names = new Postings();

  get size(): number {
    return this.entries.size;
  }

  put(items: ReadonlyArray<{ record: MemoryRecord; vector: Float32Array }>): void {
    for (const { record, vector } of items) this.set(structuredClone(record), vector);
  }

  /** Records that exist are rewritten, with the given vector or the one they had; unknown ids are skipped, as the store skips them. */
  update(records: readonly MemoryRecord[], vectors?: ReadonlyMap<string, Float32Array>): void {
    for (const record of records) {
      const had = this.entries.get(record.id);
      if (had) this.set(structuredClone(record), vectors?.get(record.id) ?? had.vector);
    }
  }

  delete(ids: readonly string[]): void {
    for (const id of ids) {
      const had = this.entries.get(id);
      if (!had) continue;
      this.entries.delete(id);
      this.byScope.get(had.record.scope)?.delete(id);
      this.text.delete(id);
      this.names.delete(id);
    }
  }

  /** Every record, as held (not copied): for a caller that filters and copies what it keeps. */
  records(): IterableIterator<MemoryRecord> {
    return [...this.entries.values()].map((e) => e.record).values();
  }

  /** Entries whose id was held; the others are ignored. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The records of these ids in their order, each a copy (a caller may change what it was given); unknown ids are skipped. */
  get(ids: readonly string[]): MemoryRecord[] {
    return ids.flatMap((id) => {
      const e = this.entries.get(id);
      return e ? [structuredClone(e.record)] : [];
    });
  }

  searchByVector(vector: Float32Array, filter: MemoryFilter, limit: number): Array<Hit<MemoryRecord>> {
    if (limit <= 0) return [];
    const accept = this.acceptor(filter);
    const top: Array<{ e: Entry; score: number }> = [];
    for (const id of this.idsOf(filter)) {
      const e = this.entries.get(id) as Entry;
      if (!accept(id)) continue;
      const score = cosine(vector, e.vector);
      if (top.length === limit && !ahead(score, id, top[limit - 1] as { e: Entry; score: number })) continue;
      let at = top.length;
      while (at > 0 && ahead(score, id, top[at - 1] as { e: Entry; score: number })) at--;
      top.splice(at, 0, { e, score });
      if (top.length > limit) top.pop();
    }
    return top.map(({ e, score }) => ({ record: structuredClone(e.record), vector: e.vector, score }));
  }

  searchByText(query: string, filter: MemoryFilter, limit: number): Array<Hit<MemoryRecord>> {
    return this.hits(this.text.search(queryText(query).split(" "), this.acceptor(filter), limit));
  }

  searchByEntities(entities: readonly string[], filter: MemoryFilter, limit: number): Array<Hit<MemoryRecord>> {
    return this.hits(this.names.search([...entities], this.acceptor(filter), limit));
  }

  private set(record: MemoryRecord, vector: Float32Array): void {
    const had = this.entries.get(record.id);
    if (had && had.record.scope !== record.scope) this.byScope.get(had.record.scope)?.delete(record.id);
    this.entries.set(record.id, { record, vector });
    let scope = this.byScope.get(record.scope);
    if (!scope) this.byScope.set(record.scope, (scope = new Set()));
    scope.add(record.id);
    const doc = memoryDocument(record);
    this.text.set(record.id, String(doc.fts));
    this.names.set(record.id, String(doc.entities));
  }

  private idsOf(filter: MemoryFilter): Iterable<string> {
    return filter.scope === undefined ? this.entries.keys() : (this.byScope.get(filter.scope) ?? []);
  }

  /** The filter as every store reads it (core/model/filter.ts). */
  private acceptor(filter: MemoryFilter): (id: string) => boolean {
    return (id) => {
      const e = this.entries.get(id);
      return e !== undefined && memoryMatches(e.record, filter);
    };
  }

  private hits(found: Array<{ id: string; score: number }>): Array<Hit<MemoryRecord>> {
    return found.map(({ id, score }) => {
      const e = this.entries.get(id) as Entry;
      return { record: structuredClone(e.record), vector: e.vector, score };
    });
  }
}

/** Higher score first; equal scores by id, so results never depend on the order memories were written. */
function ahead(score: number, id: string, other: { e: Entry; score: number }): boolean {
  return score > other.score || (score === other.score && id < other.e.record.id);
}
