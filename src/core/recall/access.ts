import type { MemoryStore } from "../ports.js";

/** How long recall must pause before the counts are written: a write under a run of recalls slows each of them. */
const IDLE_MS = 2_000;
/** Past this many memories the counts are written whatever the load, so memory and what a crash loses stay bounded. */
const MAX_PENDING = 4_096;

/**
 * Recall must not turn every read into a write: access counts accumulate here and reach the store in one
 * batch, in the background, once recall has paused (`idleMs`), or at once when `maxPending` memories wait
 * (and on flush/close). Writing them under a run of recalls took the store's CPU from the recalls in
 * flight: on a LoCoMo store the recalls that overlapped a write took 0.3-0.7 s instead of 25 ms. A crash
 * loses the counts not yet written — they only order relevant memories (score.ts), never decide what is kept.
 * `inTurn` runs the write in order with the engine's own writes: a batch read before a write that replaces a
 * memory and stored after it would make the replaced memory active again.
 */
export class AccessTracker {
  private readonly pending = new Map<string, { count: number; at: number }>();
  private inFlight: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly store: MemoryStore,
    private readonly onError: (err: unknown) => void,
    private readonly limits: { idleMs?: number; maxPending?: number; inTurn?: (task: () => Promise<void>) => Promise<void> } = {},
  ) {}

  pendingCount(id: string): number {
    return this.pending.get(id)?.count ?? 0;
  }

  touch(ids: string[], at: number): void {
    for (const id of ids) {
      const p = this.pending.get(id);
      this.pending.set(id, { count: (p?.count ?? 0) + 1, at });
    }
    if (this.pending.size >= (this.limits.maxPending ?? MAX_PENDING)) this.writeSoon();
    else if (this.pending.size > 0) this.writeWhenIdle();
  }

  /** Writes every pending count and waits for it. */
  async flush(): Promise<void> {
    this.stopTimer();
    await this.inFlight;
    await this.writeInTurn();
  }

  private writeWhenIdle(): void {
    this.stopTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writeSoon();
    }, this.limits.idleMs ?? IDLE_MS);
    // A pending count never keeps a process alive: close() writes what is left.
    this.timer.unref?.();
  }

  private writeSoon(): void {
    this.stopTimer();
    this.inFlight = this.inFlight.then(() => this.writeInTurn()).catch(this.onError);
  }

  private writeInTurn(): Promise<void> {
    return this.limits.inTurn ? this.limits.inTurn(() => this.write()) : this.write();
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
