import type { MemoryStore } from "../ports.js";

/**
 * Recall must not turn every read into a write: access counts accumulate here and reach the store
 * in one batch, in the background, once `flushEvery` memories were touched (and on flush/close).
 */
export class AccessTracker {
  private readonly pending = new Map<string, { count: number; at: number }>();
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: MemoryStore,
    private readonly onError: (err: unknown) => void,
    private readonly flushEvery = 256,
  ) {}

  pendingCount(id: string): number {
    return this.pending.get(id)?.count ?? 0;
  }

  touch(ids: string[], at: number): void {
    for (const id of ids) {
      const p = this.pending.get(id);
      this.pending.set(id, { count: (p?.count ?? 0) + 1, at });
    }
    if (this.pending.size >= this.flushEvery) {
      this.inFlight = this.inFlight.then(() => this.write()).catch(this.onError);
    }
  }

  /** Writes every pending count and waits for it. */
  async flush(): Promise<void> {
    await this.inFlight;
    await this.write();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    if (this.store.readOnly) {
      this.pending.clear();
      return;
    }
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
