import { randomBytes } from "node:crypto";
import { mkdir, readdir, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import type { Schema } from "apache-arrow";
import { HindsightError } from "../../core/errors.js";
import { Serial } from "../../core/serial.js";
import { searchText, type AuditEntry, type MemoryRecord, type TurnRecord } from "../../core/model/memory.js";
import { turnText } from "../../core/model/turnText.js";
import type { CompressionProposal, ProposalStatus } from "../../core/model/proposal.js";
import { groupCounts } from "../../core/model/groupCounts.js";
import { listOrder } from "../../core/model/filter.js";
import type { Hit, MemoryFilter, MemoryGroupCount, MemoryStore, ModelInfo, Page, RecallStatsRecord, TurnFilter } from "../../core/ports.js";
import { queryText } from "../../core/text/tokens.js";
import { embedInBatches } from "../embedInBatches.js";
import { memoryWhere, sqlNumber, sqlString, turnWhere } from "../filter.js";
import type { DocTable, StoredDocs } from "../storedDocs.js";
import { auditSchema, memoriesSchema, metaSchema, proposalsSchema, turnsSchema } from "./schema.js";
import { MemoryMirror } from "../mirror/memoryMirror.js";
import { auditToRow, docOf, memoryToRow, metaValueOf, scoreOf, turnToRow, vectorOf, type Row } from "./rows.js";

export interface LanceStoreOptions {
  /** Folder of the LanceDB database (created when missing). */
  dir: string;
  /**
   * Compact and refresh indexes after this many mutations of a table (default 50). Upkeep runs in the
   * write queue, so doing it more often taxes writes: every 10 put write p95 from 83 to 233 ms.
   */
  optimizeEvery?: number;
  /**
   * After a burst of writes, upkeep runs once the store has had no write for this long (default
   * 1000 ms; 0: never). Every write is a fragment of its own, outside the full-text and scalar indexes
   * until upkeep, and a search reads each one: a backlog of up to optimizeEvery writes made searches on
   * a freshly ingested store about 3× slower. Compacting when writes pause costs the writes nothing.
   */
  idleUpkeepMs?: number;
  /** Build an IVF vector index once a table holds this many rows (flat search below). */
  vectorIndexMinRows?: number;
  /** Told when compaction or index upkeep fails: the write before it is stored and stays acknowledged. */
  onMaintenanceError?: (error: unknown, table: string) => void;
  /**
   * Recall's searches of memories are answered from an in-memory mirror (mirror/memoryMirror.ts)
   * while the store holds at most this many memories (default 50,000, about 4 KB of memory each with
   * 384-dimension vectors; 0: never). Past it they go to LanceDB's own indexes.
   */
  mirrorMaxMemories?: number;
}

type TableName = "memories" | "turns";

/** Which physical tables hold the memories and the turns: swapped in one meta commit by a rewrite. */
interface Generation {
  memories: string;
  turns: string;
}

const FIRST_GENERATION: Generation = { memories: "memories", turns: "turns" };
/** Names a rewrite gives its tables; anything matching that is not the current generation is a leftover. */
const GENERATION_NAME = /^(memories|turns)(_[0-9a-f]{12})?$/;
/**
 * Old versions stay this long after a compaction at least, and longer while a read that began before
 * it is still running (this process is the store's only reader and writer: ownerLock.ts), so a read
 * always finds its files. Keeping them for minutes instead cost gigabytes during bulk imports.
 */
const KEEP_VERSIONS_MS = 10_000;

const SMALL_TABLE_ROWS = 200;
/** listOrder (core/model/filter.ts) in SQL: newest created first, then by id. */
const LIST_ORDER: lancedb.ColumnOrdering[] = [
  { columnName: "created_at", ascending: false, nullsFirst: false },
  { columnName: "id", ascending: true, nullsFirst: false },
];
const RECALL_STATS_KEY = "recall_stats" as const;

/**
 * MemoryStore on embedded LanceDB: cosine vector search and LanceDB's own full-text index,
 * both pre-filtered in SQL; writes go through one queue so concurrent callers never interleave.
 */
export class LanceStore implements MemoryStore {
  private db: lancedb.Connection | null = null;
  private tables: Partial<Record<TableName | "audit" | "meta" | "proposals", lancedb.Table>> = {};
  private model: ModelInfo | null = null;
  private generation: Generation = FIRST_GENERATION;
  private readOnlyReason: string | null = null;
  private readonly queue = new Serial();
  private readonly mutations: Record<TableName, number> = { memories: 0, turns: 0 };
  private readonly hasFts: Record<TableName, boolean> = { memories: false, turns: false };
  private readonly indexedRows: Record<TableName, number> = { memories: 0, turns: 0 };
  private readonly rowsSeen: Record<TableName, number> = { memories: 0, turns: 0 };
  private readonly optimizeEvery: number;
  /** When each read still running began (epoch ms), so compaction keeps the versions it reads. */
  private readonly readsInFlight = new Map<number, number>();
  private nextRead = 0;
  private readonly vectorIndexMinRows: number;
  private metaWrites = 0;
  private auditWrites = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** A read-only store written before the entity index: entity search finds nothing. */
  private noEntityIndex = false;
  /** The memories table held in memory for searches; null past mirrorMaxMemories or while it is rebuilt. */
  private mirror: MemoryMirror | null = null;
  private readonly mirrorMax: number;

  constructor(private readonly options: LanceStoreOptions) {
    this.optimizeEvery = options.optimizeEvery ?? 50;
    this.vectorIndexMinRows = options.vectorIndexMinRows ?? 5000;
    this.mirrorMax = options.mirrorMaxMemories ?? 50_000;
  }

  get readOnly(): boolean {
    return this.readOnlyReason !== null;
  }

  async open(model: ModelInfo): Promise<void> {
    this.readOnlyReason = await unwritable(this.options.dir);
    const stored = await this.storedModel();
    if (stored && (stored.id !== model.id || stored.dimension !== model.dimension)) {
      throw new HindsightError(
        "EMBEDDING_MODEL_MISMATCH",
        `this store (${this.options.dir}) was written with the embedding model ${stored.id} (${stored.dimension} dims), ` +
          `but ${model.id} (${model.dimension} dims) is configured. Set the model back to ${stored.id}, or run \`hindsight reembed\` to rewrite every vector with ${model.id}.`,
        { details: { stored, configured: model } },
      );
    }
    const db = await this.connect();
    const names = await db.tableNames();
    if (this.readOnlyReason !== null && (!stored || !names.includes("audit"))) {
      throw new HindsightError("STORE_READ_ONLY", `the store ${this.options.dir} is read-only (${this.readOnlyReason}) and holds no memories yet: nothing to read`);
    }
    if (!stored) {
      await this.setMeta("model", JSON.stringify(model));
    }
    this.model = model;
    this.generation = await this.currentGeneration();
    this.tables.memories = await openOrCreate(db, names, this.generation.memories, memoriesSchema(model.dimension));
    await this.addEntityColumn(db);
    this.tables.turns = await openOrCreate(db, names, this.generation.turns, turnsSchema(model.dimension));
    this.tables.audit = await openOrCreate(db, names, "audit", auditSchema());
    this.tables.proposals = await openOrCreate(db, names, "proposals", proposalsSchema());
    for (const name of ["memories", "turns"] as const) {
      const indices = await this.table(name).listIndices();
      this.hasFts[name] = indices.some((i) => i.columns.includes("fts"));
      this.indexedRows[name] = indices.some((i) => i.columns.includes("vector")) ? await this.table(name).countRows() : 0;
    }
    // A memory LanceDB cannot give back is the searches' error to report (rows.ts), not a reason to refuse the store.
    await this.loadMirror().catch((err: unknown) => this.options.onMaintenanceError?.(err, "memories"));
  }

  /**
   * Reads every memory into the mirror, or drops it when the table is past mirrorMaxMemories. Runs
   * at open and inside the write queue, so no write lands between the read and the mirror's use.
   */
  private async loadMirror(): Promise<void> {
    this.mirror = null;
    if (this.mirrorMax <= 0) return;
    const t = this.table("memories");
    const n = await t.countRows();
    if (n > this.mirrorMax) return;
    // The tokens LanceDB indexed come with the rows: computing them again (entities above all) took seconds per 10,000 memories.
    const columns = this.noEntityIndex ? ["id", "doc", "vector", "fts"] : ["id", "doc", "vector", "fts", "entities"];
    const rows = n === 0 ? [] : await this.reading(() => t.query().select(columns).limit(n).toArray());
    const mirror = new MemoryMirror();
    mirror.put(
      rows.map((r) => {
        const record = docOf(r as Row, "memories", t.name);
        const terms = typeof r.fts === "string" && typeof r.entities === "string" ? { fts: r.fts, entities: r.entities } : undefined;
        return { record, vector: vectorOf(r as Row, t.name), ...(terms ? { terms } : {}) };
      }),
    );
    this.mirror = mirror;
  }

  /**
   * A write of memories, then the same change in the mirror. A write that fails may or may not have
   * reached the table, so the mirror is read again from the table before the next write runs.
   */
  private mirrored<T>(write: () => Promise<T>, change: (m: MemoryMirror) => void): Promise<T> {
    return this.mutate(async () => {
      let result: T;
      try {
        result = await write();
      } catch (err) {
        await this.loadMirror().catch(() => (this.mirror = null));
        throw err;
      }
      if (this.mirror) {
        change(this.mirror);
        if (this.mirror.size > this.mirrorMax) this.mirror = null;
      }
      return result;
    });
  }

  /**
   * A store written before the entity index (issue 17) is rewritten once into a memories table that
   * has it, by the same switch as reembed: the new table is built beside the old one and becomes
   * current in one meta commit, so a kill at any moment leaves the old table or the new, complete.
   * A read-only store stays as it is and finds nothing by entity.
   */
  private async addEntityColumn(db: lancedb.Connection): Promise<void> {
    const old = this.table("memories");
    if ((await old.schema()).fields.some((f) => f.name === "entities")) return;
    if (this.readOnlyReason !== null) {
      this.noEntityIndex = true;
      return;
    }
    // Runs inside open(), before the store takes any write: nothing else touches the tables meanwhile.
    const model = this.model as ModelInfo;
    const rows = await old.query().select(["doc", "vector"]).toArray();
    const next: Generation = { memories: `memories_${randomBytes(6).toString("hex")}`, turns: this.generation.turns };
    const mt = await db.createEmptyTable(next.memories, memoriesSchema(model.dimension), { mode: "overwrite" });
    const memRows = rows.map((r) => memoryToRow(docOf(r as Row, "memories", old.name), vectorOf(r as Row, old.name)));
    if (memRows.length > 0) await mt.add(memRows);
    await this.ensureIndexesOn(mt, "memories");
    await this.setMeta("tables", JSON.stringify(next));
    this.tables.memories = mt;
    this.generation = next;
    old.close();
    await dropLeftovers(db, await db.tableNames(), next).catch((err: unknown) => this.options.onMaintenanceError?.(err, "memories"));
  }

  private async connect(): Promise<lancedb.Connection> {
    if (!this.db) {
      try {
        this.db = await lancedb.connect(this.options.dir);
      } catch (err) {
        throw new HindsightError("STORE_ERROR", `cannot open the LanceDB store at ${this.options.dir}: ${(err as Error).message}`, { cause: err });
      }
    }
    return this.db;
  }

  async storedModel(): Promise<ModelInfo | null> {
    const value = await this.getMeta("model");
    return value ? metaValueOf("model", value) : null;
  }

  private async currentGeneration(): Promise<Generation> {
    const value = await this.getMeta("tables");
    return value ? metaValueOf("tables", value) : FIRST_GENERATION;
  }

  /**
   * Every write goes through here: refused at once on a read-only store, and a full disk or a
   * folder that became read-only is told as such (nothing of a failed commit was stored).
   */
  private mutate<T>(task: () => Promise<T>): Promise<T> {
    if (this.readOnlyReason !== null) {
      return Promise.reject(new HindsightError("STORE_READ_ONLY", `the store ${this.options.dir} is read-only (${this.readOnlyReason}): recall and list work, writes are refused`));
    }
    return this.queue.run(task).catch((err: unknown) => {
      throw storageError(err, this.options.dir);
    });
  }

  private async metaTable(): Promise<lancedb.Table> {
    if (!this.tables.meta) {
      const db = await this.connect();
      this.tables.meta = await openOrCreate(db, await db.tableNames(), "meta", metaSchema());
    }
    return this.tables.meta;
  }

  /** Runs a read, known to the compactions that start meanwhile (versionsBefore). */
  private async reading<T>(read: () => Promise<T>): Promise<T> {
    const id = this.nextRead++;
    this.readsInFlight.set(id, Date.now());
    try {
      return await read();
    } finally {
      this.readsInFlight.delete(id);
    }
  }

  /** Versions older than this may go: none a running read began on, and none younger than KEEP_VERSIONS_MS. */
  private versionsBefore(): Date {
    let oldest = Date.now();
    for (const at of this.readsInFlight.values()) oldest = Math.min(oldest, at);
    return new Date(oldest - KEEP_VERSIONS_MS);
  }

  private async getMeta(key: string): Promise<string | null> {
    return this.reading(async () => {
      const rows = await (await this.metaTable()).query().where(`key = ${sqlString(key)}`).limit(1).toArray();
      return rows[0] ? String(rows[0].value) : null;
    });
  }

  private async setMeta(key: string, value: string): Promise<void> {
    const t = await this.metaTable();
    await this.mutate(() => retryConflicts(() => t.mergeInsert("key").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([{ key, value }])));
  }

  private table(name: TableName | "audit" | "proposals"): lancedb.Table {
    const t = this.tables[name];
    if (!t) throw new HindsightError("STORE_CLOSED", "the store is not open");
    return t;
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    await this.queue.idle();
    for (const t of Object.values(this.tables)) t?.close();
    this.tables = {};
    this.mirror = null;
    this.db?.close();
    this.db = null;
  }

  // ---- memories ----

  putMemories(items: Array<{ record: MemoryRecord; vector: Float32Array }>): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    const rows = items.map((i) => memoryToRow(i.record, i.vector));
    return this.mirrored(() => this.mergeRows("memories", rows), (m) => m.put(items));
  }

  updateMemories(records: MemoryRecord[], vectors?: ReadonlyMap<string, Float32Array>): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return this.mirrored(() => this.rewriteKeepingVectors("memories", records, memoryToRow, vectors), (m) => m.update(records, vectors));
  }

  async getMemories(ids: string[]): Promise<MemoryRecord[]> {
    if (this.mirror) return this.mirror.get(ids);
    return this.getDocs("memories", ids);
  }

  /**
   * A page is found on the two sort columns alone (LanceDB filters, sorts and cuts), then only its
   * rows' documents are read. A whole listing reads every document anyway and sorts them here
   * (LanceDB 0.31 cannot plan an ordered scan that also reads the `doc` column after an indexed filter).
   */
  async listMemories(filter: MemoryFilter, page: Page = {}): Promise<MemoryRecord[]> {
    return this.reading(async () => {
      const where = memoryWhere(filter);
      const offset = page.offset ?? 0;
      if (page.limit === undefined) return (await this.scan("memories", where)).sort(listOrder).slice(offset);
      if (page.limit <= 0) return [];
      let q = this.table("memories").query().select(["id", "created_at"]).orderBy(LIST_ORDER).limit(page.limit);
      if (offset > 0) q = q.offset(offset);
      if (where) q = q.where(where);
      return this.getDocs("memories", (await q.toArray()).map((r) => String(r.id)));
    });
  }

  async countMemories(filter: MemoryFilter): Promise<number> {
    return this.reading(async () => {
      const where = memoryWhere(filter);
      return where ? this.table("memories").countRows(where) : this.table("memories").countRows();
    });
  }

  /** Reads the two small columns of the matching rows, never their documents. */
  async countMemoryGroups(filter: MemoryFilter): Promise<MemoryGroupCount[]> {
    return this.reading(async () => {
      const where = memoryWhere(filter);
      const t = this.table("memories");
      const n = where ? await t.countRows(where) : await t.countRows();
      if (n === 0) return [];
      let q = t.query().select(["layer", "type"]).limit(n);
      if (where) q = q.where(where);
      return groupCounts((await q.toArray()) as Array<{ layer: unknown; type: unknown }>);
    });
  }

  searchMemoriesByVector(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    if (this.mirror) return Promise.resolve(this.mirror.searchByVector(vector, filter, limit));
    return this.vectorSearch("memories", vector, memoryWhere(filter), limit);
  }

  searchMemoriesByText(query: string, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    if (this.mirror) return Promise.resolve(this.mirror.searchByText(query, filter, limit));
    return this.textSearch("memories", queryText(query), memoryWhere(filter), limit);
  }

  searchMemoriesByEntities(entities: string[], filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    if (this.mirror) return Promise.resolve(this.mirror.searchByEntities(entities, filter, limit));
    if (this.noEntityIndex) return Promise.resolve([]);
    return this.textSearch("memories", [...new Set(entities)].join(" "), memoryWhere(filter), limit, "entities");
  }

  deleteMemories(ids: string[]): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    return this.mirrored(() => this.removeIds("memories", ids), (m) => m.delete(ids));
  }

  // ---- L0 turns ----

  putTurns(items: Array<{ record: TurnRecord; vector: Float32Array }>): Promise<void> {
    return this.upsert("turns", items.map((i) => turnToRow(i.record, i.vector)));
  }

  updateTurns(records: TurnRecord[]): Promise<void> {
    return this.updateKeepingVectors("turns", records, turnToRow);
  }

  getTurns(ids: string[]): Promise<TurnRecord[]> {
    return this.getDocs("turns", ids);
  }

  async listTurns(filter: TurnFilter, page: Page = {}): Promise<TurnRecord[]> {
    const docs = await this.scan("turns", turnWhere(filter));
    docs.sort((a, b) => a.at - b.at);
    const offset = page.offset ?? 0;
    return docs.slice(offset, offset + (page.limit ?? docs.length));
  }

  searchTurnsByVector(vector: Float32Array, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>> {
    return this.vectorSearch("turns", vector, turnWhere(filter), limit);
  }

  searchTurnsByText(query: string, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>> {
    return this.textSearch("turns", queryText(query), turnWhere(filter), limit);
  }

  deleteTurns(ids: string[]): Promise<number> {
    return this.deleteIds("turns", ids);
  }

  // ---- review queue ----

  async putProposal(proposal: CompressionProposal): Promise<void> {
    const t = this.table("proposals");
    const row = { id: proposal.id, scope: proposal.scope, status: proposal.status, created_at: proposal.createdAt, doc: JSON.stringify(proposal) };
    await this.mutate(() => retryConflicts(() => t.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([row])));
  }

  async getProposal(id: string): Promise<CompressionProposal | null> {
    return this.reading(async () => {
      const rows = await this.table("proposals").query().where(`id = ${sqlString(id)}`).select(["id", "doc"]).limit(1).toArray();
      return rows[0] ? docOf(rows[0] as Row, "proposals") : null;
    });
  }

  async listProposals(filter: { scope?: string; statuses?: ProposalStatus[] }): Promise<CompressionProposal[]> {
    const parts: string[] = [];
    if (filter.scope !== undefined) parts.push(`scope = ${sqlString(filter.scope)}`);
    if (filter.statuses) parts.push(`status IN (${filter.statuses.map(sqlString).join(", ")})`);
    const docs = await this.scanTable(this.table("proposals"), "proposals", parts.join(" AND "));
    return docs.sort((a, b) => b.createdAt - a.createdAt);
  }

  // ---- audit ----

  async appendAudit(...entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const t = this.table("audit");
    await this.mutate(() => retryConflicts(() => t.add(entries.map(auditToRow))));
    // Each append is a fragment of its own, and every page of the log reads them all; no other upkeep compacts this table.
    if (++this.auditWrites < this.optimizeEvery) return;
    this.auditWrites = 0;
    // Queued behind the append, not awaited: the write that logged is done.
    void this.mutate(() => t.optimize({ cleanupOlderThan: this.versionsBefore() })).catch((err: unknown) => this.options.onMaintenanceError?.(err, "audit"));
  }

  /**
   * The log only grows, so a page never reads it whole: LanceDB finds the time of the page's oldest
   * entry from the `at` column, and only entries from that time on are read. Entries of one
   * millisecond have no order column; scans return rows in append order, so reversing before a
   * stable sort lists them newest-appended first.
   */
  async listAudit(page: Page & { scope?: string } = {}): Promise<AuditEntry[]> {
    return this.reading(async () => {
      const offset = page.offset ?? 0;
      const limit = page.limit ?? 100;
      if (limit <= 0) return [];
      const t = this.table("audit");
      const scope = page.scope !== undefined ? `scope = ${sqlString(page.scope)}` : "";
      let times = t.query().select(["at"]).orderBy([{ columnName: "at", ascending: false, nullsFirst: false }]).limit(offset + limit);
      if (scope) times = times.where(scope);
      const last = (await times.toArray()).at(-1) as Row | undefined;
      if (last === undefined || typeof last.at !== "number") return [];
      const where = [scope, `at >= ${sqlNumber(last.at)}`].filter((w) => w !== "").join(" AND ");
      const docs = (await t.query().where(where).select(["id", "doc"]).toArray()).map((r) => docOf(r as Row, "audit")).reverse();
      docs.sort((a, b) => b.at - a.at);
      return docs.slice(offset, offset + limit);
    });
  }

  // ---- recall statistics ----

  async getRecallStats(): Promise<RecallStatsRecord | null> {
    const value = await this.getMeta(RECALL_STATS_KEY);
    return value ? metaValueOf(RECALL_STATS_KEY, value) : null;
  }

  async putRecallStats(stats: RecallStatsRecord): Promise<void> {
    await this.setMeta(RECALL_STATS_KEY, JSON.stringify(stats));
    // Each write is a new version of the meta table, which no other upkeep compacts.
    if (++this.metaWrites < this.optimizeEvery) return;
    this.metaWrites = 0;
    const meta = await this.metaTable();
    await this.mutate(() => meta.optimize({ cleanupOlderThan: this.versionsBefore() })).catch((err: unknown) => this.options.onMaintenanceError?.(err, "meta"));
  }

  // ---- model change ----

  /**
   * Rewrites every vector with another model. The new tables are built beside the current ones and
   * become current in one meta commit (model and table names together), so a kill at any moment
   * leaves either the old tables with the old model or the new ones with the new model, complete.
   */
  async reembed(model: ModelInfo, embed: (texts: string[]) => Promise<Float32Array[]>): Promise<{ memories: number; turns: number }> {
    const db = await this.connect();
    return this.mutate(async () => {
      const current = await this.currentGeneration();
      const names = await db.tableNames();
      await dropLeftovers(db, names, current);
      const memories = names.includes(current.memories) ? await this.scanTable(await db.openTable(current.memories), "memories", "") : [];
      const turns = names.includes(current.turns) ? await this.scanTable(await db.openTable(current.turns), "turns", "") : [];
      const memVectors = await embedInBatches(memories.map(searchText), embed);
      const turnVectors = await embedInBatches(turns.map(turnText), embed);
      // The vector column's width may change with the model, so new tables are built, not updated.
      const suffix = randomBytes(6).toString("hex");
      const next: Generation = { memories: `memories_${suffix}`, turns: `turns_${suffix}` };
      const mt = await db.createEmptyTable(next.memories, memoriesSchema(model.dimension), { mode: "overwrite" });
      const memRows = memories.map((m, i) => memoryToRow({ ...m, embeddingModel: model.id }, memVectors[i] as Float32Array));
      if (memRows.length > 0) await mt.add(memRows);
      const tt = await db.createEmptyTable(next.turns, turnsSchema(model.dimension), { mode: "overwrite" });
      const turnRows = turns.map((t, i) => turnToRow(t, turnVectors[i] as Float32Array));
      if (turnRows.length > 0) await tt.add(turnRows);
      await this.ensureIndexesOn(mt, "memories");
      await this.ensureIndexesOn(tt, "turns");
      // The switch: one merge commit of both keys in the meta table.
      const meta = await this.metaTable();
      await meta.mergeInsert("key").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([
        { key: "model", value: JSON.stringify(model) },
        { key: "tables", value: JSON.stringify(next) },
      ]);
      const old = [this.tables.memories, this.tables.turns];
      this.tables.memories = mt;
      this.tables.turns = tt;
      this.generation = next;
      this.model = model;
      this.hasFts.memories = memRows.length > 0;
      this.hasFts.turns = turnRows.length > 0;
      this.rowsSeen.memories = memRows.length;
      this.rowsSeen.turns = turnRows.length;
      this.indexedRows.memories = 0;
      this.indexedRows.turns = 0;
      for (const t of old) t?.close();
      // The switch is made: a mirror that cannot be read leaves searches to LanceDB, not the rewrite failed.
      await this.loadMirror().catch((err: unknown) => this.options.onMaintenanceError?.(err, "memories"));
      // The old tables are no longer read by anyone; a failed drop only leaves a leftover for the next rewrite.
      await dropLeftovers(db, await db.tableNames(), next).catch((err: unknown) => this.options.onMaintenanceError?.(err, "reembed"));
      return { memories: memories.length, turns: turns.length };
    });
  }

  async diskBytes(): Promise<number> {
    return folderSize(this.options.dir);
  }

  /** Compacts fragments, drops old versions and refreshes indexes now (normally done every `optimizeEvery` writes). */
  optimize(): Promise<void> {
    return this.mutate(async () => {
      for (const name of ["memories", "turns"] as const) await this.maintain(name, true);
    });
  }

  // ---- internals ----

  /**
   * Rewrites records that exist (missing ids are skipped) with the vectors they already have: those
   * the caller gave, the others read back. The merge only updates rows it matches, so a given vector
   * of an id that is gone adds nothing.
   */
  private updateKeepingVectors<T extends { id: string }>(name: TableName, records: T[], toRow: (r: T, v: Float32Array) => Row): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return this.mutate(() => this.rewriteKeepingVectors(name, records, toRow));
  }

  /** Called inside the queue. */
  private async rewriteKeepingVectors<T extends { id: string }>(
    name: TableName,
    records: T[],
    toRow: (r: T, v: Float32Array) => Row,
    given: ReadonlyMap<string, Float32Array> = new Map(),
  ): Promise<void> {
    const missing = records.filter((r) => !given.has(r.id)).map((r) => r.id);
    const read = missing.length > 0 ? await this.vectorsOf(name, missing) : new Map<string, Float32Array>();
    const rows = records.flatMap((r) => {
      const v = given.get(r.id) ?? read.get(r.id);
      return v ? [toRow(r, v)] : [];
    });
    await this.mergeRows(name, rows, false);
  }

  private upsert(name: TableName, rows: Row[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return this.mutate(() => this.mergeRows(name, rows));
  }

  /**
   * Called inside the queue. The merge commit is the write; upkeep after it may fail or be skipped
   * without the write being reported as failed. Small tables are refreshed at once (a row outside the
   * full-text index is scored on other statistics); a large table's upkeep is queued after the write.
   */
  private async mergeRows(name: TableName, rows: Row[], insert = true): Promise<void> {
    if (rows.length === 0) return;
    const t = this.table(name);
    await retryConflicts(() => {
      const merge = t.mergeInsert("id").whenMatchedUpdateAll();
      return (insert ? merge.whenNotMatchedInsertAll() : merge).execute(rows);
    });
    this.mutations[name]++;
    this.upkeepWhenIdle();
    if (!this.hasFts[name] || this.rowsSeen[name] < SMALL_TABLE_ROWS) await this.upkeep(name, false);
    else if (this.mutations[name] >= this.optimizeEvery) void this.queue.run(() => this.upkeep(name, false));
  }

  /** (Re)arms the idle upkeep: the tables written since the last upkeep are compacted once writes pause. */
  private upkeepWhenIdle(): void {
    const ms = this.options.idleUpkeepMs ?? 1000;
    if (ms <= 0 || this.db === null) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.db === null) return;
      void this.queue.run(async () => {
        for (const name of ["memories", "turns"] as const) if (this.mutations[name] > 0 && this.db !== null) await this.upkeep(name, true);
      });
    }, ms);
    // A pending upkeep never keeps a process alive: the next open compacts what is left.
    this.idleTimer.unref();
  }

  /** Maintenance that never throws: a failure is reported and retried with the next write. */
  private async upkeep(name: TableName, force: boolean): Promise<void> {
    try {
      await retryConflicts(() => this.maintain(name, force));
    } catch (err) {
      this.mutations[name] = Math.max(this.mutations[name], this.optimizeEvery);
      this.options.onMaintenanceError?.(err, name);
    }
  }

  private deleteIds(name: TableName, ids: string[]): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    return this.mutate(() => this.removeIds(name, ids));
  }

  /** Called inside the queue. */
  private async removeIds(name: TableName, ids: string[]): Promise<number> {
    const t = this.table(name);
    const where = `id IN (${ids.map(sqlString).join(", ")})`;
    const n = await t.countRows(where);
    if (n > 0) await retryConflicts(() => t.delete(where));
    this.mutations[name]++;
    this.upkeepWhenIdle();
    return n;
  }

  /** Called inside the queue: full-text index on first data; compaction and vector index as the table grows. */
  private async maintain(name: TableName, force: boolean): Promise<void> {
    if (!this.hasFts[name]) await this.ensureIndexes(name);
    // Rows written after the last index refresh get full-text scores on other statistics; small tables
    // are refreshed on every write so a new memory is never ranked below an old one for that reason.
    if (!force && this.mutations[name] < this.optimizeEvery && this.rowsSeen[name] >= SMALL_TABLE_ROWS) return;
    this.mutations[name] = 0;
    const t = this.table(name);
    // One process owns the store (ownerLock.ts); old versions stay for reads that began before this compaction.
    await t.optimize({ cleanupOlderThan: this.versionsBefore() });
    const rows = await t.countRows();
    this.rowsSeen[name] = rows;
    if (rows >= this.vectorIndexMinRows && rows >= 2 * this.indexedRows[name]) {
      await t.createIndex("vector", {
        config: lancedb.Index.ivfFlat({ numPartitions: Math.max(8, Math.round(Math.sqrt(rows))), distanceType: "cosine" }),
        replace: true,
      });
      this.indexedRows[name] = rows;
    }
  }

  /** Scalar indexes behind the pre-filters and id lookups; LanceDB keeps them current on optimize. */
  private static readonly SCALAR_INDEXES: Record<TableName, Array<[string, "bitmap" | "btree"]>> = {
    memories: [
      ["id", "btree"],
      ["scope", "bitmap"],
      ["status", "bitmap"],
      ["type", "bitmap"],
      ["layer", "bitmap"],
      ["valid_until", "btree"],
      ["created_at", "btree"],
    ],
    turns: [
      ["id", "btree"],
      ["scope", "bitmap"],
      ["status", "bitmap"],
    ],
  };

  private async ensureIndexes(name: TableName): Promise<void> {
    if (await this.ensureIndexesOn(this.table(name), name)) this.hasFts[name] = true;
  }

  /** False when the table is empty (an index needs data). */
  private async ensureIndexesOn(t: lancedb.Table, name: TableName): Promise<boolean> {
    if ((await t.countRows()) === 0) return false;
    // Tokens are prepared by the engine (stemmed words, CJK words): the index only splits on whitespace.
    // Entity terms (memoryEntities) are indexed the same way, in their own column.
    for (const column of name === "memories" ? ["fts", "entities"] : ["fts"]) {
      await t.createIndex(column, {
        config: lancedb.Index.fts({ baseTokenizer: "whitespace", lowercase: false, stem: false, removeStopWords: false, asciiFolding: false, withPosition: false }),
        replace: true,
      });
    }
    for (const [column, kind] of LanceStore.SCALAR_INDEXES[name]) {
      await t.createIndex(column, { config: kind === "bitmap" ? lancedb.Index.bitmap() : lancedb.Index.btree(), replace: true });
    }
    return true;
  }

  private async vectorsOf(name: TableName, ids: string[]): Promise<Map<string, Float32Array>> {
    return this.reading(async () => {
      const t = this.table(name);
      const rows = await t.query().where(`id IN (${ids.map(sqlString).join(", ")})`).select(["id", "vector"]).toArray();
      return new Map(rows.map((r) => [String(r.id), vectorOf(r as Row, t.name)]));
    });
  }

  private async getDocs<N extends TableName>(name: N, ids: string[]): Promise<Array<StoredDocs[N]>> {
    return this.reading(async () => {
      if (ids.length === 0) return [];
      const t = this.table(name);
      const rows = await t.query().where(`id IN (${ids.map(sqlString).join(", ")})`).select(["id", "doc"]).toArray();
      const byId = new Map(rows.map((r) => [String(r.id), docOf(r as Row, name, t.name)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    });
  }

  private scan<N extends TableName>(name: N, where: string): Promise<Array<StoredDocs[N]>> {
    return this.scanTable(this.table(name), name, where);
  }

  private async scanTable<K extends DocTable>(t: lancedb.Table, kind: K, where: string): Promise<Array<StoredDocs[K]>> {
    return this.reading(async () => {
      const n = where ? await t.countRows(where) : await t.countRows();
      if (n === 0) return [];
      let q = t.query().select(["id", "doc"]).limit(n);
      if (where) q = q.where(where);
      return (await q.toArray()).map((r) => docOf(r as Row, kind, t.name));
    });
  }

  private async vectorSearch<N extends TableName>(name: N, vector: Float32Array, where: string, limit: number): Promise<Array<Hit<StoredDocs[N]>>> {
    return this.reading(async () => {
      const t = this.table(name);
      const run = async (bypassIndex: boolean) => {
        let q = t.vectorSearch(Array.from(vector)).distanceType("cosine").select(["id", "doc", "vector", "_distance"]).limit(limit);
        if (where) q = q.where(where);
        // ~10% of the IVF partitions (numPartitions = √rows), at least 8.
        q = bypassIndex ? q.bypassVectorIndex() : q.nprobes(Math.max(8, Math.round(Math.sqrt(this.indexedRows[name]) / 10)));
        return q.toArray();
      };
      let rows = await run(false);
      // An IVF index only probes some partitions; a small filtered set may live elsewhere, so fall back to exact search.
      if (rows.length < limit && this.indexedRows[name] > 0) rows = await run(true);
      return rows.map((r) => ({ record: docOf(r as Row, name, t.name), vector: vectorOf(r as Row, t.name), score: 1 - scoreOf(r as Row, "_distance", t.name) }));
    });
  }

  /** BM25 over a whitespace-tokenised column: `text` is already in its tokens. */
  private async textSearch<N extends TableName>(name: N, text: string, where: string, limit: number, column: "fts" | "entities" = "fts"): Promise<Array<Hit<StoredDocs[N]>>> {
    return this.reading(async () => {
      if (!text || !this.hasFts[name]) return [];
      const t = this.table(name);
      let q = t.search(new lancedb.MatchQuery(text, column), "fts").select(["id", "doc", "vector", "_score"]).limit(limit);
      if (where) q = q.where(where);
      const rows = await q.toArray();
      return rows.map((r) => ({ record: docOf(r as Row, name, t.name), vector: vectorOf(r as Row, t.name), score: scoreOf(r as Row, "_score", t.name) }));
    });
  }
}

async function openOrCreate(db: lancedb.Connection, names: string[], name: string, schema: Schema): Promise<lancedb.Table> {
  if (names.includes(name)) return db.openTable(name);
  return db.createEmptyTable(name, schema, { mode: "create", existOk: true });
}

/** Drops tables left by a rewrite that never became current (killed before its switch), and the replaced ones after it. */
async function dropLeftovers(db: lancedb.Connection, names: string[], current: Generation): Promise<void> {
  for (const name of names) {
    if (GENERATION_NAME.test(name) && name !== current.memories && name !== current.turns) await db.dropTable(name);
  }
}

/** LanceDB's optimistic commits fail with a retryable conflict when another commit won the race; the operation never applied, so it is run again. */
async function retryConflicts<T>(op: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await op();
    } catch (err) {
      if (i >= attempts || !/retryable commit conflict|preempted by concurrent transaction/i.test(String((err as Error)?.message ?? err))) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** i));
    }
  }
}

/** Why the folder cannot be written, or null when it can (a real write: root ignores permission bits, a read-only mount does not). */
async function unwritable(dir: string): Promise<string | null> {
  const probe = join(dir, `.write-check-${process.pid}`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(probe, "");
    await unlink(probe);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EROFS") return "a read-only file system";
    if (code === "EACCES" || code === "EPERM") return "no permission to write";
    if (code === "ENOSPC") return null; // full, not read-only: reads work and writes say STORE_FULL
    throw err;
  }
}

/** LanceDB's IO errors as the codes a caller can act on. */
function storageError(err: unknown, dir: string): unknown {
  const text = String((err as Error)?.message ?? err);
  if (/No space left on device|os error 28|ENOSPC/i.test(text)) {
    return new HindsightError("STORE_FULL", `no space left on the device that holds the store ${dir}: free some space; this write was not stored`, { cause: err });
  }
  if (/Read-only file system|os error 30|EROFS/i.test(text)) {
    return new HindsightError("STORE_READ_ONLY", `the store ${dir} has become read-only: this write was not stored`, { cause: err });
  }
  return err;
}

async function folderSize(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await folderSize(p) : (await stat(p)).size;
  }
  return total;
}
