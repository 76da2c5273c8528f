import type { MemoryRecord } from "../../core/model/memory.js";
import { memoryMatches } from "../../core/model/filter.js";
import type { Hit, MemoryFilter } from "../../core/ports.js";
import { queryText } from "../../core/text/tokens.js";
import { memoryDocument } from "../documents.js";
import { Postings } from "./postings.js";

interface Entry {
  record: MemoryRecord;
  vector: Float32Array;
  /** The last query vector scanned against this entry and its cosine (see searchByVector). */
  scanned: Float32Array | null;
  score: number;
}

/** The tokens a store indexed for a memory (documents.ts), when it kept them: no need to compute them again. */
export interface IndexedTerms {
  fts: string;
  entities: string;
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
  private readonly byScope = new Map<string, Set<Entry>>();
  private readonly text = new Postings();
  private readonly names = new Postings();

  get size(): number {
    return this.entries.size;
  }

  put(items: ReadonlyArray<{ record: MemoryRecord; vector: Float32Array; terms?: IndexedTerms }>): void {
    for (const { record, vector, terms } of items) this.set(structuredClone(record), vector, terms);
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
      this.byScope.get(had.record.scope)?.delete(had);
      this.text.delete(id);
      this.names.delete(id);
    }
  }

  /** Every record, as held (not copied): for a caller that filters and copies what it keeps. */
  *records(): IterableIterator<MemoryRecord> {
    for (const e of this.entries.values()) yield e.record;
  }

  /** Whether a memory of this id is held. */
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
    const top: Array<{ e: Entry; score: number }> = [];
    for (const e of this.entriesOf(filter)) {
      if (!memoryMatches(e.record, filter)) continue;
      // Recall searches one vector under two filters (the temporal retriever's window), and the scan
      // is most of a search's cost: each entry keeps its cosine with the last vector it was scanned for.
      let score = e.score;
      if (e.scanned !== vector) {
        score = e.score = dot(vector, e.vector);
        e.scanned = vector;
      }
      const id = e.record.id;
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

  private set(record: MemoryRecord, vector: Float32Array, terms?: IndexedTerms): void {
    const had = this.entries.get(record.id);
    if (had) this.byScope.get(had.record.scope)?.delete(had);
    const entry: Entry = { record, vector, scanned: null, score: 0 };
    this.entries.set(record.id, entry);
    let scope = this.byScope.get(record.scope);
    if (!scope) this.byScope.set(record.scope, (scope = new Set()));
    scope.add(entry);
    const indexed = terms ?? (memoryDocument(record) as unknown as IndexedTerms);
    this.text.set(record.id, String(indexed.fts));
    this.names.set(record.id, String(indexed.entities));
  }

  private entriesOf(filter: MemoryFilter): Iterable<Entry> {
    return filter.scope === undefined ? this.entries.values() : (this.byScope.get(filter.scope) ?? []);
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

/**
 * The cosine of two L2-normalised vectors (embedders return them so: ports.ts), summed in four lanes:
 * the scan over every memory is most of a vector search, and this runs it in about 60% of the time
 * of one running sum.
 */
function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += (a[i] as number) * (b[i] as number);
    s1 += (a[i + 1] as number) * (b[i + 1] as number);
    s2 += (a[i + 2] as number) * (b[i + 2] as number);
    s3 += (a[i + 3] as number) * (b[i + 3] as number);
  }
  for (; i < n; i++) s0 += (a[i] as number) * (b[i] as number);
  return s0 + s1 + s2 + s3;
}

/** Higher score first; equal scores by id, so results never depend on the order memories were written. */
function ahead(score: number, id: string, other: { e: Entry; score: number }): boolean {
  return score > other.score || (score === other.score && id < other.e.record.id);
}
