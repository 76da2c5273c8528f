import type { MemoryStore } from "../ports.js";

/**
 * Recall must not turn every read into a write: access counts accumulate here and reach the store
 * in one batch (every `flushEvery` touched memories, and on flush/close).
 */
export class AccessTracker {
  private readonly pending = new Map<string, { count: number; at: number }>();

  constructor(
    private readonly store: MemoryStore,
    private readonly flushEvery = 64,
  ) {}

  pendingCount(id: string): number {
    return this.pending.get(id)?.count ?? 0;
  }

  async touch(ids: string[], at: number): Promise<void> {
    for (const id of ids) {
      const p = this.pending.get(id);
      this.pending.set(id, { count: (p?.count ?? 0) + 1, at });
    }
    if (this.pending.size >= this.flushEvery) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = new Map(this.pending);
    this.pending.clear();
    const records = await this.store.getMemories([...batch.keys()]);
    const updated = records.map((r) => {
      const p = batch.get(r.id);
      return p ? { ...r, accessCount: r.accessCount + p.count, lastAccessedAt: Math.max(r.lastAccessedAt ?? 0, p.at) } : r;
    });
    if (updated.length > 0) await this.store.updateMemories(updated);
  }
}
