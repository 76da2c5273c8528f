/** What a queued mutation decides for: one scope, or every scope (a task whose records' scopes are known only inside it). */
export type QueueKey = { scope: string } | "all";

/**
 * Mutations of one scope run one at a time, in call order; mutations of different scopes run side
 * by side, so a slow write of one project (an LLM judging a contradiction) does not hold up
 * another's. A task for every scope waits for everything queued before it and holds every scope
 * until it ends. A failed task does not stop those queued after it.
 *
 * Only decide-and-commit steps belong here: dedup, supersede and conflict decisions read the
 * scope's memories and must see every earlier decision of that scope. Extraction and embedding run
 * before the task is queued.
 */
export class ScopeQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private everything: Promise<void> = Promise.resolve();

  run<T>(key: QueueKey, task: () => Promise<T>): Promise<T> {
    const before = key === "all" ? [this.everything, ...this.tails.values()] : [this.everything, this.tails.get(key.scope) ?? this.everything];
    const next = Promise.all(before).then(task);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    if (key === "all") {
      this.everything = settled;
      // Every later task waits for this one through `everything`; the scopes' tails are behind it.
      this.tails.clear();
    } else {
      this.tails.set(key.scope, settled);
      // An idle scope leaves no entry behind (a team server sees many projects).
      void settled.then(() => {
        if (this.tails.get(key.scope) === settled) this.tails.delete(key.scope);
      });
    }
    return next;
  }

  /**
   * Runs `commit` on prepared work in the scope's queue, at the place the call took when it arrived:
   * the preparation (extraction, guard, embedding) is already running, side by side with the scope's
   * earlier commits, and decisions still happen in call order (the later statement is the later one).
   */
  afterPreparing<P, R>(scope: string, preparing: Promise<P>, commit: (prepared: P) => Promise<R>): Promise<R> {
    // Awaited in its turn; until then a failed preparation must not count as an unhandled rejection.
    preparing.catch(() => undefined);
    return this.run({ scope }, async () => commit(await preparing));
  }

  /** Resolves when everything queued so far has finished. */
  async idle(): Promise<void> {
    await Promise.all([this.everything, ...this.tails.values()]);
  }

  /** Scopes with queued or running work (for tests and metrics). */
  busyScopes(): number {
    return this.tails.size;
  }
}
