import type { QdrantClient as QdrantClientType, Schemas } from "@qdrant/js-client-rest" with { "resolution-mode": "import" };
import { HindsightError } from "../../core/errors.js";
import { LAYERS, MEMORY_TYPES, searchText, type AuditEntry, type MemoryRecord, type TurnRecord } from "../../core/model/memory.js";
import type { CompressionProposal, ProposalStatus } from "../../core/model/proposal.js";
import { turnText } from "../../core/model/turnText.js";
import type { Hit, MemoryFilter, MemoryGroupCount, MemoryStore, ModelInfo, Page, RecallStatsRecord, TurnFilter } from "../../core/ports.js";
import { within } from "../../core/deadline.js";
import { Serial } from "../../core/serial.js";
import { queryText } from "../../core/text/tokens.js";
import { embedInBatches } from "../embedInBatches.js";
import type { DocTable, StoredDocs } from "../storedDocs.js";
import { and, anyTermFilter, listTextFilter, MEMORY_KEYS, memoryFilter, scopeStatusFilter, termCondition, turnFilter, type QdrantFilter } from "./filters.js";
import { groupCounts } from "../../core/model/groupCounts.js";
import { listOrder, memoryMatches } from "../../core/model/filter.js";
import { PAYLOAD_INDEXES } from "./indexes.js";
import {
  auditPayload,
  collectionNames,
  docOf,
  memoryPayload,
  pointId,
  proposalPayload,
  turnPayload,
  vectorOf,
  type CollectionNames,
  type Payload,
} from "./points.js";
import { rankByBm25 } from "./textRank.js";

export interface QdrantStoreOptions {
  /** Qdrant's REST address, e.g. http://qdrant:6333. */
  url: string;
  apiKey?: string;
  /** Collection names start with this (several deployments can share one Qdrant). Default "hindsight". */
  prefix?: string;
  /** Per-request timeout. Default 30 s. */
  timeoutMs?: number;
  /** Most points one keyword search scores (the rarest query terms' matches first). Default 2000. */
  textCandidates?: number;
  /** Points per upsert or scroll request. Default 256. */
  batchSize?: number;
}

type Kind = "memories" | "turns";
type CollectionKind = keyof typeof PAYLOAD_INDEXES;

/** Point-id namespaces: a memory and an audit entry may share an id string without sharing a point. */
const ID_KIND: Record<CollectionKind, string> = { memories: "memory", turns: "turn", audit: "audit", proposals: "proposal", meta: "meta" };

interface PointOut {
  id: string | number;
  payload?: Payload | null;
  vector?: unknown;
}

const MODEL_KEY = "model";
const RECALL_STATS_KEY = "recall_stats";

// The package declares "type": "module" with one set of typings for both builds, so TypeScript (module
// node16) would refuse a value import from this CommonJS file; its "require" export is a real CommonJS build.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { QdrantClient } = require("@qdrant/js-client-rest") as { QdrantClient: typeof QdrantClientType };

/**
 * MemoryStore on a Qdrant server: memories and L0 turns in one pair of collections per embedding
 * model and dimension (cosine vectors, payload indexes on the filtered fields, a full-text index on
 * the engine's tokens for the keyword half of hybrid recall); the review queue, the audit log and the
 * store's model in model-independent collections on the same server, so one Qdrant (its volume,
 * snapshots and replicas) holds everything the team server keeps. Writes wait for Qdrant to apply
 * them and go through one queue per process, so a read after a write sees it.
 */
export class QdrantStore implements MemoryStore {
  private readonly client: QdrantClientType;
  private readonly prefix: string;
  private readonly textCandidates: number;
  private readonly batchSize: number;
  private names: CollectionNames | null = null;
  private readonly queue = new Serial();
  /** Breaks ties between audit entries of the same millisecond: later appended, listed first. */
  private auditSeq = Date.now() * 1000;

  constructor(private readonly options: QdrantStoreOptions) {
    if (!/^https?:\/\/[^\s/]+/.test(options.url)) {
      throw new HindsightError("INVALID_INPUT", `qdrant url: expected http(s)://host:port, got "${options.url}"`, { field: "qdrantUrl" });
    }
    this.prefix = options.prefix ?? "hindsight";
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(this.prefix)) {
      throw new HindsightError("INVALID_INPUT", `qdrant prefix: letters, digits, "_" and "-" only (1-64), got "${this.prefix}"`, { field: "qdrantPrefix" });
    }
    this.textCandidates = options.textCandidates ?? 2000;
    this.batchSize = options.batchSize ?? 256;
    this.client = new QdrantClient({
      url: options.url,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      timeout: options.timeoutMs ?? 30_000,
      // The version probe would print a warning on every start; compatibility is this store's job (tests).
      checkCompatibility: false,
    });
  }

  /** Where this store keeps its data, for messages. */
  get location(): string {
    return `Qdrant at ${this.options.url} (collections ${this.prefix}_*)`;
  }

  async open(model: ModelInfo): Promise<void> {
    const base = collectionNames(this.prefix, null);
    await this.ensureCollection(base.meta, null, "meta");
    const stored = await this.storedModel();
    if (stored && (stored.id !== model.id || stored.dimension !== model.dimension)) {
      throw new HindsightError(
        "EMBEDDING_MODEL_MISMATCH",
        `this store (${this.location}) was written with the embedding model ${stored.id} (${stored.dimension} dims), ` +
          `but ${model.id} (${model.dimension} dims) is configured. Set the model back to ${stored.id}, or run \`hindsight reembed\` to rewrite every vector with ${model.id}.`,
        { details: { stored, configured: model } },
      );
    }
    const names = collectionNames(this.prefix, model);
    await this.ensureCollection(names.memories, model.dimension, "memories");
    await this.ensureCollection(names.turns, model.dimension, "turns");
    await this.ensureCollection(names.audit, null, "audit");
    await this.ensureCollection(names.proposals, null, "proposals");
    if (!stored) await this.queue.run(() => this.setMeta(MODEL_KEY, model));
    this.names = names;
    await this.indexEntitiesOfOlderPoints();
  }

  /**
   * Points written before the entity index (issue 17) get their entity terms once, as the store
   * opens: each payload is rewritten from the point's own record, a page at a time, so entity search
   * finds them too. A point rewritten twice by racing servers gets the same payload.
   */
  private async indexEntitiesOfOlderPoints(): Promise<void> {
    const name = this.collection("memories");
    const older: QdrantFilter = { must: [{ is_empty: { key: MEMORY_KEYS.entities } }] };
    for (;;) {
      const page = await this.scrollAll(name, older, ["doc"], this.batchSize);
      if (page.length === 0) return;
      const records = page.map((p) => docOf(p.payload, "memories", name));
      await this.overwritePayloads("memories", records.map((r) => ({ id: r.id, payload: memoryPayload(r) })));
      if (page.length < this.batchSize) return;
    }
  }

  async storedModel(): Promise<ModelInfo | null> {
    const meta = collectionNames(this.prefix, null).meta;
    if (!(await this.exists(meta))) return null;
    const points = await this.retrieve(meta, "meta", [MODEL_KEY], false);
    const value = points[0]?.payload?.value;
    return value ? (JSON.parse(String(value)) as ModelInfo) : null;
  }

  async close(): Promise<void> {
    await this.queue.idle();
    this.names = null;
  }

  async getRecallStats(): Promise<RecallStatsRecord | null> {
    const points = await this.retrieve(collectionNames(this.prefix, null).meta, "meta", [RECALL_STATS_KEY], false);
    const value = points[0]?.payload?.value;
    return value ? (JSON.parse(String(value)) as RecallStatsRecord) : null;
  }

  putRecallStats(stats: RecallStatsRecord): Promise<void> {
    return this.queue.run(() => this.setMeta(RECALL_STATS_KEY, stats));
  }

  // ---- memories ----

  putMemories(items: Array<{ record: MemoryRecord; vector: Float32Array }>): Promise<void> {
    return this.upsert("memories", items.map((i) => ({ id: i.record.id, vector: i.vector, payload: memoryPayload(i.record) })));
  }

  /** Qdrant overwrites a point's payload in place and never reads its vector, so vectors the caller holds are not needed. */
  updateMemories(records: MemoryRecord[]): Promise<void> {
    return this.overwritePayloads("memories", records.map((r) => ({ id: r.id, payload: memoryPayload(r) })));
  }

  getMemories(ids: string[]): Promise<MemoryRecord[]> {
    return this.getDocs("memories", ids);
  }

  async listMemories(filter: MemoryFilter, page: Page = {}): Promise<MemoryRecord[]> {
    const offset = page.offset ?? 0;
    const end = page.limit === undefined ? undefined : offset + page.limit;
    if (filter.text) return (await this.withText(filter)).sort(listOrder).slice(offset, end);
    const name = this.collection("memories");
    const points =
      end === undefined ? await this.scrollAll(name, memoryFilter(filter), ["doc"]) : await this.orderedTop(name, memoryFilter(filter), ["doc"], MEMORY_KEYS.createdAt, "desc", end);
    return points.map((p) => docOf(p.payload, "memories", name)).sort(listOrder).slice(offset, end);
  }

  async countMemories(filter: MemoryFilter): Promise<number> {
    if (filter.text) return (await this.withText(filter)).length;
    return this.count(this.collection("memories"), memoryFilter(filter));
  }

  /**
   * Qdrant counts exactly per filter: one count per layer and type the filter allows, all on the
   * server. With a `text` the matching memories are read once and counted here instead.
   */
  async countMemoryGroups(filter: MemoryFilter): Promise<MemoryGroupCount[]> {
    if (filter.text) return groupCounts(await this.withText(filter));
    const groups = LAYERS.filter((l) => !filter.layers || filter.layers.includes(l)).flatMap((layer) =>
      MEMORY_TYPES.filter((t) => !filter.types || filter.types.includes(t)).map((type) => ({ layer, type })),
    );
    const counted = await Promise.all(groups.map(async (g) => ({ ...g, count: await this.countMemories({ ...filter, layers: [g.layer], types: [g.type] }) })));
    return counted.filter((g) => g.count > 0);
  }

  searchMemoriesByVector(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    return this.vectorSearch("memories", vector, memoryFilter(filter), limit);
  }

  searchMemoriesByText(query: string, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    return this.textSearch("memories", queryTerms(query), memoryFilter(filter), limit);
  }

  searchMemoriesByEntities(entities: string[], filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    return this.textSearch("memories", [...new Set(entities)], memoryFilter(filter), limit, MEMORY_KEYS.entities);
  }

  deleteMemories(ids: string[]): Promise<number> {
    return this.deleteIds("memories", ids);
  }

  // ---- L0 turns ----

  putTurns(items: Array<{ record: TurnRecord; vector: Float32Array }>): Promise<void> {
    return this.upsert("turns", items.map((i) => ({ id: i.record.id, vector: i.vector, payload: turnPayload(i.record) })));
  }

  updateTurns(records: TurnRecord[]): Promise<void> {
    return this.overwritePayloads("turns", records.map((r) => ({ id: r.id, payload: turnPayload(r) })));
  }

  getTurns(ids: string[]): Promise<TurnRecord[]> {
    return this.getDocs("turns", ids);
  }

  async listTurns(filter: TurnFilter, page: Page = {}): Promise<TurnRecord[]> {
    const docs = await this.listOrdered("turns", this.collection("turns"), turnFilter(filter), "at", "asc", page);
    return docs.sort((a, b) => a.at - b.at).slice(page.offset ?? 0, page.limit === undefined ? undefined : (page.offset ?? 0) + page.limit);
  }

  searchTurnsByVector(vector: Float32Array, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>> {
    return this.vectorSearch("turns", vector, turnFilter(filter), limit);
  }

  searchTurnsByText(query: string, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>> {
    return this.textSearch("turns", queryTerms(query), turnFilter(filter), limit);
  }

  deleteTurns(ids: string[]): Promise<number> {
    return this.deleteIds("turns", ids);
  }

  // ---- review queue ----

  putProposal(proposal: CompressionProposal): Promise<void> {
    const name = this.namesOpen().proposals;
    return this.queue.run(() => this.upsertPoints(name, "proposals", [{ id: proposal.id, vector: null, payload: proposalPayload(proposal) }]));
  }

  async getProposal(id: string): Promise<CompressionProposal | null> {
    const name = this.namesOpen().proposals;
    const [p] = await this.retrieve(name, "proposals", [id], true);
    return p ? docOf(p.payload, "proposals", name) : null;
  }

  async listProposals(filter: { scope?: string; statuses?: ProposalStatus[] }): Promise<CompressionProposal[]> {
    const name = this.namesOpen().proposals;
    const points = await this.scrollAll(name, scopeStatusFilter(filter.scope, filter.statuses), ["doc"]);
    return points.map((p) => docOf(p.payload, "proposals", name)).sort((a, b) => b.createdAt - a.createdAt);
  }

  // ---- audit ----

  appendAudit(...entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    const name = this.namesOpen().audit;
    const points = entries.map((entry) => ({ id: entry.id, vector: null, payload: auditPayload(entry, ++this.auditSeq) }));
    return this.queue.run(() => this.upsertPoints(name, "audit", points));
  }

  async listAudit(page: Page & { scope?: string } = {}): Promise<AuditEntry[]> {
    const offset = page.offset ?? 0;
    const limit = page.limit ?? 100;
    const filter = scopeStatusFilter(page.scope);
    const name = this.namesOpen().audit;
    const points = await this.orderedTop(name, filter, ["doc", "seq"], "at", "desc", offset + limit);
    return points
      .map((p) => ({ entry: docOf(p.payload, "audit", name), seq: Number(p.payload?.seq ?? 0) }))
      .sort((a, b) => b.entry.at - a.entry.at || b.seq - a.seq)
      .slice(offset, offset + limit)
      .map((x) => x.entry);
  }

  // ---- model change ----

  async reembed(model: ModelInfo, embed: (texts: string[]) => Promise<Float32Array[]>): Promise<{ memories: number; turns: number }> {
    const base = collectionNames(this.prefix, null);
    await this.ensureCollection(base.meta, null, "meta");
    return this.queue.run(async () => {
      const stored = await this.storedModel();
      const from = stored ? collectionNames(this.prefix, stored) : null;
      const to = collectionNames(this.prefix, model);
      const memories = from && (await this.exists(from.memories)) ? (await this.scrollAll(from.memories, undefined, ["doc"])).map((p) => docOf(p.payload, "memories", from.memories)) : [];
      const turns = from && (await this.exists(from.turns)) ? (await this.scrollAll(from.turns, undefined, ["doc"])).map((p) => docOf(p.payload, "turns", from.turns)) : [];
      const memVectors = await embedInBatches(memories.map(searchText), embed);
      const turnVectors = await embedInBatches(turns.map(turnText), embed);
      const inPlace = from !== null && from.memories === to.memories;
      if (!inPlace) {
        // Collections of a re-embed that stopped halfway are rebuilt from the current model's data.
        for (const name of [to.memories, to.turns]) if (await this.exists(name)) await this.call(`delete collection ${name}`, () => this.client.deleteCollection(name));
      }
      await this.ensureCollection(to.memories, model.dimension, "memories");
      await this.ensureCollection(to.turns, model.dimension, "turns");
      await this.ensureCollection(to.audit, null, "audit");
      await this.ensureCollection(to.proposals, null, "proposals");
      await this.upsertPoints(
        to.memories,
        "memories",
        memories.map((m, i) => ({ id: m.id, vector: memVectors[i] as Float32Array, payload: memoryPayload({ ...m, embeddingModel: model.id }) })),
      );
      await this.upsertPoints(to.turns, "turns", turns.map((t, i) => ({ id: t.id, vector: turnVectors[i] as Float32Array, payload: turnPayload(t) })));
      // The switch: from here on the store is the new model's; the old collections are only a leftover.
      await this.setMeta(MODEL_KEY, model);
      if (from && !inPlace) {
        for (const name of [from.memories, from.turns]) if (await this.exists(name)) await this.call(`delete collection ${name}`, () => this.client.deleteCollection(name));
      }
      this.names = to;
      return { memories: memories.length, turns: turns.length };
    });
  }

  /** Qdrant's own account of the disk its segments use for this store's collections (its telemetry); 0 when it gives none. */
  async diskBytes(): Promise<number> {
    const ours = new Set(Object.values(this.names ?? collectionNames(this.prefix, await this.storedModel())));
    const answer = await this.call("telemetry", () => this.client.api().telemetry({ details_level: 3 }));
    const collections = findCollections((answer as { data?: { result?: unknown } }).data?.result);
    let disk = 0;
    let estimate = 0;
    for (const c of collections) {
      if (!ours.has(String(c.id))) continue;
      disk += sumKey(c, "disk_usage_bytes");
      estimate += sumKey(c, "vectors_size_bytes") + sumKey(c, "payloads_size_bytes");
    }
    return disk > 0 ? disk : estimate;
  }

  /** Deletes every collection of this store's prefix (tests, and a deliberate reset). */
  async dropAll(): Promise<void> {
    await this.queue.idle();
    const all = await this.call("list collections", () => this.client.getCollections());
    for (const c of all.collections) {
      if (c.name.startsWith(`${this.prefix}_`)) await this.call(`delete collection ${c.name}`, () => this.client.deleteCollection(c.name));
    }
    this.names = null;
  }

  // ---- internals ----

  private namesOpen(): CollectionNames {
    if (!this.names) throw new HindsightError("STORE_CLOSED", "the store is not open");
    return this.names;
  }

  private collection(kind: Kind): string {
    return this.namesOpen()[kind];
  }

  /** Runs one Qdrant request; a failure becomes STORE_ERROR naming the server and the operation. */
  async reachable(): Promise<boolean> {
    // An authenticated call: a Qdrant that answers but refuses our key is as unusable as one that is down.
    return within(this.client.getCollections(), 2_000).then(
      (answer) => answer !== "late",
      () => false,
    );
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new HindsightError("STORE_ERROR", `Qdrant at ${this.options.url}: ${what} failed: ${describeError(err)}`, { cause: err });
    }
  }

  private async exists(name: string): Promise<boolean> {
    const r = await this.call(`check collection ${name}`, () => this.client.collectionExists(name));
    return r.exists;
  }

  /** Creates the collection when missing (another server may race us: "already exists" is fine) and any missing payload index. */
  private async ensureCollection(name: string, dimension: number | null, kind: CollectionKind): Promise<void> {
    if (!(await this.exists(name))) {
      try {
        await this.client.createCollection(name, dimension === null ? { vectors: {} } : { vectors: { size: dimension, distance: "Cosine" } });
      } catch (err) {
        if (!(await this.exists(name))) throw new HindsightError("STORE_ERROR", `Qdrant at ${this.options.url}: create collection ${name} failed: ${describeError(err)}`, { cause: err });
      }
    }
    const info = await this.call(`read collection ${name}`, () => this.client.getCollection(name));
    if (dimension !== null) {
      const size = (info.config.params.vectors as { size?: number } | undefined)?.size;
      if (size !== dimension) {
        throw new HindsightError("STORE_ERROR", `Qdrant collection ${name} holds vectors of ${String(size)} dimensions, not ${dimension}: it was not made by this store`);
      }
    }
    for (const [field, schema] of Object.entries(PAYLOAD_INDEXES[kind])) {
      if (info.payload_schema[field]) continue;
      await this.call(`create payload index ${name}.${field}`, () =>
        this.client.createPayloadIndex(name, { field_name: field, field_schema: schema as Schemas["PayloadFieldSchema"], wait: true }),
      );
    }
  }

  private async setMeta(key: string, value: ModelInfo | RecallStatsRecord): Promise<void> {
    await this.upsertPoints(collectionNames(this.prefix, null).meta, "meta", [{ id: key, vector: null, payload: { key, value: JSON.stringify(value) } }]);
  }

  private upsert(kind: Kind, items: Array<{ id: string; vector: Float32Array; payload: Payload }>): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    const name = this.collection(kind);
    return this.queue.run(() => this.upsertPoints(name, kind, items));
  }

  /** Called inside the queue (or before the store is shared). `vector: null` for collections without vectors. */
  private async upsertPoints(name: string, kind: CollectionKind, items: Array<{ id: string; vector: Float32Array | null; payload: Payload }>): Promise<void> {
    for (let i = 0; i < items.length; i += this.batchSize) {
      const points = items.slice(i, i + this.batchSize).map((it) => ({
        id: pointId(ID_KIND[kind], it.id),
        vector: it.vector ? Array.from(it.vector) : {},
        payload: it.payload,
      }));
      await this.call(`upsert into ${name}`, () => this.client.upsert(name, { wait: true, points }));
    }
  }

  /** Replaces the payload of points that exist (missing ids are skipped); vectors stay as they are. */
  private overwritePayloads(kind: Kind, items: Array<{ id: string; payload: Payload }>): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    const name = this.collection(kind);
    return this.queue.run(async () => {
      const existing = new Set((await this.retrieve(name, kind, items.map((i) => i.id), false)).map((p) => String(p.id)));
      const operations = items
        .map((it) => ({ point: pointId(ID_KIND[kind], it.id), payload: it.payload }))
        .filter((it) => existing.has(it.point))
        .map((it) => ({ overwrite_payload: { payload: it.payload, points: [it.point] } }));
      for (let i = 0; i < operations.length; i += this.batchSize) {
        const batch = operations.slice(i, i + this.batchSize);
        await this.call(`update payloads in ${name}`, () => this.client.batchUpdate(name, { wait: true, operations: batch }));
      }
    });
  }

  private deleteIds(kind: Kind, ids: string[]): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    const name = this.collection(kind);
    return this.queue.run(async () => {
      const existing = (await this.retrieve(name, kind, [...new Set(ids)], false)).map((p) => p.id);
      if (existing.length > 0) await this.call(`delete from ${name}`, () => this.client.delete(name, { wait: true, points: existing }));
      return existing.length;
    });
  }

  private async retrieve(name: string, kind: CollectionKind, ids: string[], withDoc: boolean): Promise<PointOut[]> {
    if (ids.length === 0) return [];
    const points = [...new Set(ids)].map((id) => pointId(ID_KIND[kind], id));
    const out: PointOut[] = [];
    for (let i = 0; i < points.length; i += this.batchSize) {
      const batch = points.slice(i, i + this.batchSize);
      const got = await this.call(`retrieve from ${name}`, () =>
        this.client.retrieve(name, { ids: batch, with_payload: kind === "meta" ? true : withDoc ? ["doc"] : false, with_vector: false }),
      );
      out.push(...(got as PointOut[]));
    }
    return out;
  }

  private async getDocs<K extends Kind>(kind: K, ids: string[]): Promise<Array<StoredDocs[K]>> {
    const name = this.collection(kind);
    const points = await this.retrieve(name, kind, ids, true);
    const byPoint = new Map(points.map((p) => [String(p.id), docOf(p.payload, kind, name)]));
    return ids.flatMap((id) => {
      const doc = byPoint.get(pointId(ID_KIND[kind], id));
      return doc === undefined ? [] : [doc];
    });
  }

  private async count(name: string, filter: QdrantFilter | undefined): Promise<number> {
    const r = await this.call(`count in ${name}`, () => this.client.count(name, { ...(filter ? { filter: filter as Schemas["Filter"] } : {}), exact: true }));
    return r.count;
  }

  /** One page of points, optionally ordered by a payload key (Qdrant's order_by needs its range index). */
  private async scroll(
    name: string,
    filter: QdrantFilter | undefined,
    payload: string[],
    limit: number,
    orderBy?: { key: string; direction: "asc" | "desc" },
  ): Promise<PointOut[]> {
    if (limit <= 0) return [];
    const r = await this.call(`scroll ${name}`, () =>
      this.client.scroll(name, {
        ...(filter ? { filter: filter as Schemas["Filter"] } : {}),
        limit,
        with_payload: payload,
        with_vector: false,
        ...(orderBy ? { order_by: orderBy } : {}),
      }),
    );
    return r.points as PointOut[];
  }

  /** Every point matching the filter (or the first `max`), page by page. */
  private async scrollAll(name: string, filter: QdrantFilter | undefined, payload: string[], max = Number.POSITIVE_INFINITY): Promise<PointOut[]> {
    const out: PointOut[] = [];
    let offset: string | number | null | undefined = undefined;
    do {
      const limit = Math.min(this.batchSize, max - out.length);
      if (limit <= 0) break;
      const page: Schemas["ScrollResult"] = await this.call(`scroll ${name}`, () =>
        this.client.scroll(name, {
          ...(filter ? { filter: filter as Schemas["Filter"] } : {}),
          limit,
          with_payload: payload,
          with_vector: false,
          ...(offset !== undefined && offset !== null ? { offset } : {}),
        }),
      );
      out.push(...(page.points as PointOut[]));
      offset = page.next_page_offset as string | number | null | undefined;
    } while (offset !== undefined && offset !== null);
    return out;
  }

  /** A page of a listing: Qdrant orders and cuts when a limit is given; a full listing scrolls everything. */
  private async listOrdered<K extends DocTable>(kind: K, name: string, filter: QdrantFilter | undefined, key: string, direction: "asc" | "desc", page: Page): Promise<Array<StoredDocs[K]>> {
    const points =
      page.limit === undefined
        ? await this.scrollAll(name, filter, ["doc"])
        : await this.scroll(name, filter, ["doc"], (page.offset ?? 0) + page.limit, { key, direction });
    return points.map((p) => docOf(p.payload, kind, name));
  }

  /**
   * The first `n` points by one payload key (Qdrant orders and cuts), plus every other point with
   * the same value as the last of them: order_by takes one key, so points tied at the cut are in no
   * defined order, and the caller's tie-break (an id, a sequence) needs them all to cut the same page every time.
   */
  private async orderedTop(name: string, filter: QdrantFilter | undefined, payload: string[], key: string, direction: "asc" | "desc", n: number): Promise<PointOut[]> {
    const top = await this.scroll(name, filter, [...payload, key], n, { key, direction });
    const last = top.at(-1)?.payload?.[key];
    if (top.length < n || typeof last !== "number") return top;
    const tied = await this.scrollAll(name, and(filter, { must: [{ key, range: { gte: last, lte: last } }] }), [...payload, key]);
    const seen = new Set(top.map((p) => String(p.id)));
    return [...top, ...tied.filter((p) => !seen.has(String(p.id)))];
  }

  /** Memories matching a filter with a `text`: the server's substring match on the lowercased keys, then the exact check for points written before them. */
  private async withText(filter: MemoryFilter): Promise<MemoryRecord[]> {
    const { text, ...rest } = filter;
    const name = this.collection("memories");
    const points = await this.scrollAll(name, and(memoryFilter(rest), listTextFilter(text ?? "")), ["doc"]);
    return points.map((p) => docOf(p.payload, "memories", name)).filter((m) => memoryMatches(m, filter));
  }

  private async vectorSearch<K extends Kind>(kind: K, vector: Float32Array, filter: QdrantFilter | undefined, limit: number): Promise<Array<Hit<StoredDocs[K]>>> {
    if (limit <= 0) return [];
    const name = this.collection(kind);
    const r = await this.call(`vector search in ${name}`, () =>
      this.client.query(name, {
        query: Array.from(vector),
        ...(filter ? { filter: filter as Schemas["Filter"] } : {}),
        limit,
        with_payload: ["doc"],
        with_vector: true,
      }),
    );
    return r.points.map((p) => ({ record: docOf(p.payload as Payload, kind, name), vector: vectorOf(p.vector), score: p.score }));
  }

  /**
   * The keyword half of hybrid recall. Qdrant's full-text index finds the points holding each query
   * term (a filter, not a ranking), so the store ranks them by BM25 itself, with document
   * frequencies that are exact counts within the filter. Two counts come first: the points the
   * filter admits, and those holding any query term. When the latter fit in `textCandidates` they
   * are all read, and each term's frequency is counted among them: every point holding the term is
   * there, so the count is exact and no per-term request is needed. Only past that cap is each term
   * counted by Qdrant, and candidates are read rarest term first up to `textCandidates`, so the
   * best-scoring points are among them even when a common term matches thousands.
   */
  /** BM25 over a whitespace-tokenised payload field: the full-text tokens, or a memory's entity terms. */
  private async textSearch<K extends Kind>(kind: K, terms: string[], filter: QdrantFilter | undefined, limit: number, key: string = MEMORY_KEYS.terms): Promise<Array<Hit<StoredDocs[K]>>> {
    if (terms.length === 0 || limit <= 0) return [];
    const name = this.collection(kind);
    const anyTerm = and(filter, anyTermFilter(terms, key));
    const [total, holding] = await Promise.all([this.count(name, filter), this.count(name, anyTerm)]);
    if (holding === 0) return [];

    const candidates = new Map<string | number, string[]>();
    const add = (points: PointOut[]) => {
      for (const p of points) candidates.set(p.id, String(p.payload?.[key] ?? "").split(" ").filter((t) => t !== ""));
    };
    let df: Map<string, number>;
    if (holding <= this.textCandidates) {
      add(await this.scrollAll(name, anyTerm, [key]));
      df = new Map(terms.map((t) => [t, 0]));
      for (const tokens of candidates.values()) for (const t of new Set(tokens)) if (df.has(t)) df.set(t, (df.get(t) as number) + 1);
    } else {
      const counts = await Promise.all(terms.map((t) => this.count(name, and(filter, { must: [termCondition(t, key)] }))));
      df = new Map(terms.map((t, i) => [t, counts[i] as number]));
      for (const [t] of [...df].sort((a, b) => a[1] - b[1])) {
        if (candidates.size >= this.textCandidates) break;
        add(await this.scrollAll(name, and(filter, { must: [termCondition(t, key)] }), [key], this.textCandidates));
      }
    }
    for (const [t, n] of df) if (n === 0) df.delete(t);

    const ranked = rankByBm25(
      [...candidates.entries()].map(([id, tokens]) => ({ id, tokens })),
      df,
      total,
    ).slice(0, limit);
    if (ranked.length === 0) return [];
    const got = await this.call(`retrieve from ${name}`, () =>
      this.client.retrieve(name, { ids: ranked.map((r) => r.id), with_payload: ["doc"], with_vector: true }),
    );
    const byId = new Map((got as PointOut[]).map((p) => [String(p.id), p]));
    return ranked.flatMap((r) => {
      const p = byId.get(String(r.id));
      return p ? [{ record: docOf(p.payload, kind, name), vector: vectorOf(p.vector), score: r.score }] : [];
    });
  }
}

/** A query's full-text terms, as the full-text field holds them. */
function queryTerms(query: string): string[] {
  return [...new Set(queryText(query).split(" ").filter((t) => t !== ""))];
}

/** The useful part of a client error: Qdrant's own message, the HTTP status, or the socket error behind "fetch failed". */
function describeError(err: unknown): string {
  const e = err as { status?: number; data?: { status?: { error?: string } }; message?: string; cause?: { code?: string; message?: string } };
  if (typeof e?.status === "number") return `HTTP ${e.status}${e.data?.status?.error ? `: ${e.data.status.error}` : ""}`;
  if (e?.cause?.code) return `${e.message ?? "request failed"} (${e.cause.code})`;
  return e?.message ?? String(err);
}

/** Telemetry's collection entries, wherever this Qdrant version puts them. */
function findCollections(value: unknown): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 4 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x === "object" && "id" in x) out.push(x as Record<string, unknown>);
      return;
    }
    for (const [k, x] of Object.entries(v)) if (k === "collections" || depth < 1) walk(x, depth + 1);
  };
  walk(value, 0);
  return out;
}

function sumKey(value: unknown, key: string): number {
  if (value === null || typeof value !== "object") return 0;
  let total = 0;
  for (const [k, v] of Object.entries(value)) {
    if (k === key && typeof v === "number") total += v;
    else total += sumKey(v, key);
  }
  return total;
}
