import type { AuditEntry, MemoryRecord, TurnRecord } from "./model/memory.js";
import type { CompressionProposal, ProposalStatus } from "./model/proposal.js";
import type { Hit, MemoryFilter, MemoryGroupCount, MemoryStore, ModelInfo, Page, RecallStatsRecord, TurnFilter } from "./ports.js";

/**
 * The store as a task under a lease sees it (ScopeLeases.hold): every write first checks that the
 * lease is still this process's, so a replica that stalled past its lease stores nothing more. A
 * batch of writes is fenced once before it commits (scopeQueue.ts); an operation on ids (an edit, a
 * review decision, an import) writes through this, so each of its writes is fenced.
 */
export class FencedStore implements MemoryStore {
  constructor(
    private readonly inner: MemoryStore,
    private readonly fence: () => Promise<void>,
  ) {}

  get readOnly(): boolean | undefined {
    return this.inner.readOnly;
  }

  open(model: ModelInfo): Promise<void> {
    return this.inner.open(model);
  }
  storedModel(): Promise<ModelInfo | null> {
    return this.inner.storedModel();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  getMemories(ids: string[]): Promise<MemoryRecord[]> {
    return this.inner.getMemories(ids);
  }
  listMemories(filter: MemoryFilter, page?: Page): Promise<MemoryRecord[]> {
    return this.inner.listMemories(filter, page);
  }
  countMemories(filter: MemoryFilter): Promise<number> {
    return this.inner.countMemories(filter);
  }
  countMemoryGroups(filter: MemoryFilter): Promise<MemoryGroupCount[]> {
    return this.inner.countMemoryGroups(filter);
  }
  searchMemoriesByVector(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    return this.inner.searchMemoriesByVector(vector, filter, limit);
  }
  searchMemoriesByText(query: string, filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    return this.inner.searchMemoriesByText(query, filter, limit);
  }
  searchMemoriesByEntities(entities: string[], filter: MemoryFilter, limit: number): Promise<Array<Hit<MemoryRecord>>> {
    return this.inner.searchMemoriesByEntities(entities, filter, limit);
  }
  getTurns(ids: string[]): Promise<TurnRecord[]> {
    return this.inner.getTurns(ids);
  }
  listTurns(filter: TurnFilter, page?: Page): Promise<TurnRecord[]> {
    return this.inner.listTurns(filter, page);
  }
  searchTurnsByVector(vector: Float32Array, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>> {
    return this.inner.searchTurnsByVector(vector, filter, limit);
  }
  searchTurnsByText(query: string, filter: TurnFilter, limit: number): Promise<Array<Hit<TurnRecord>>> {
    return this.inner.searchTurnsByText(query, filter, limit);
  }
  getProposal(id: string): Promise<CompressionProposal | null> {
    return this.inner.getProposal(id);
  }
  listProposals(filter: { scope?: string; statuses?: ProposalStatus[] }): Promise<CompressionProposal[]> {
    return this.inner.listProposals(filter);
  }
  listAudit(page?: Page & { scope?: string }): Promise<AuditEntry[]> {
    return this.inner.listAudit(page);
  }
  getRecallStats(): Promise<RecallStatsRecord | null> {
    return this.inner.getRecallStats();
  }
  diskBytes(): Promise<number> {
    return this.inner.diskBytes();
  }

  // ---- writes: fenced ----

  async putMemories(items: Array<{ record: MemoryRecord; vector: Float32Array }>): Promise<void> {
    await this.fence();
    return this.inner.putMemories(items);
  }
  async updateMemories(records: MemoryRecord[], vectors?: ReadonlyMap<string, Float32Array>): Promise<void> {
    await this.fence();
    return this.inner.updateMemories(records, vectors);
  }
  async deleteMemories(ids: string[]): Promise<number> {
    await this.fence();
    return this.inner.deleteMemories(ids);
  }
  async putTurns(items: Array<{ record: TurnRecord; vector: Float32Array }>): Promise<void> {
    await this.fence();
    return this.inner.putTurns(items);
  }
  async updateTurns(records: TurnRecord[]): Promise<void> {
    await this.fence();
    return this.inner.updateTurns(records);
  }
  async deleteTurns(ids: string[]): Promise<number> {
    await this.fence();
    return this.inner.deleteTurns(ids);
  }
  async putProposal(proposal: CompressionProposal): Promise<void> {
    await this.fence();
    return this.inner.putProposal(proposal);
  }
  async appendAudit(...entries: AuditEntry[]): Promise<void> {
    await this.fence();
    return this.inner.appendAudit(...entries);
  }
  async putRecallStats(stats: RecallStatsRecord): Promise<void> {
    await this.fence();
    return this.inner.putRecallStats(stats);
  }
  async reembed(model: ModelInfo, embed: (texts: string[]) => Promise<Float32Array[]>): Promise<{ memories: number; turns: number }> {
    await this.fence();
    return this.inner.reembed(model, embed);
  }
}
